/*
 * nodegen.h - the node rules of the df-pn search (dfpn.h explains them):
 * terminal tests, the leaf VCF/VCT, and the children of an attacker node
 * (candidates, or the forced block) and of a defender node (every legal reply
 * and the pass, minus short losses verified one by one), in search order with
 * their initial proof numbers.  Shared by the search and proof extraction.
 *
 * Thread safety: safe on distinct Boards and VctCtx after rules_init() and
 * qvcf_init().
 */
#ifndef RJ_NODEGEN_H
#define RJ_NODEGEN_H

#include "board.h"
#include "dfpn.h"
#include "types.h"
#include "vcf.h"
#include "vct.h"
#include "zobrist.h"

enum { MAX_CHILDREN = BOARD_POINTS + 1 }; /* every point and the pass */

/* The children of one node. */
typedef struct {
    int n;
    bool complete; /* all legal moves of the side to move are listed */
    Point mv[MAX_CHILDREN];
    Key key[MAX_CHILDREN];          /* TT keys (dfpn_tt_key of each child) */
    ProofNum init_pn[MAX_CHILDREN]; /* initial attacker proof number of the child */
} Children;

typedef struct {
    Result result; /* terminal result, or RESULT_UNKNOWN with children */
    bool exact;    /* for a terminal disproof: every legal attacker move was refuted */
    bool leaf_vcf; /* proven by the leaf VCF / VCT */
    Point best;    /* first move of the leaf win, or POINT_NONE */
} NodeStatus;

/* TT key of the child reached by move m from b, whose TT key is `key`, without playing it. */
static inline Key ng_child_key(const Board *b, Key key, Point m)
{
    assert(m == POINT_PASS || m < BOARD_POINTS);
    Key k = key ^ zob_side();
    if (board_last_move(b) == POINT_PASS)
        k ^= zob_pass();
    return m == POINT_PASS ? k ^ zob_pass() : k ^ zob_stone(b->to_move, m);
}

/* A worker's threat-search contexts for node generation. */
typedef struct {
    VcfCtx *vcf;           /* leaf VCF and the defender-node threat line */
    VctCtx *vct;           /* leaf VCT (may be NULL) */
    uint64_t threat_nodes; /* nodes spent in the threat searches (added to) */
    VcfResult line;        /* scratch: the last VCF line found */
} NgCtx;

/*
 * Classify position b (b restored) for attacker att under cfg and fill c.
 * With x NULL only the node rules are applied (the same child list).  With x:
 *   - run_leaf: run the leaf VCF (both sides) and, when cfg->vct_budget > 0
 *     and x->vct is not NULL, the attacker's VCT at an attacker node;
 *   - at a defender node, the attacker's VCF after a defender pass is
 *     replayed after each defender move (vcf_line_holds); the children it
 *     still wins against get init_pn 0 (proven: the leaf VCF re-finds the
 *     win when a proof is extracted).  Other children get init_pn 1.
 */
NodeStatus ng_generate(const DfpnConfig *cfg, Board *b, Color att, Children *c, bool run_leaf, NgCtx *x);

#endif /* RJ_NODEGEN_H */
