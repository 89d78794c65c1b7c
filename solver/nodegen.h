/*
 * nodegen.h - the node rules of the df-pn search (dfpn.h explains them):
 * terminal tests, the leaf VCF/VCT, and the children of an attacker node
 * (candidates, or the forced block) and of a defender node (every legal reply
 * and the pass, minus short losses verified one by one), in search order with
 * their initial proof numbers.  Shared by the search and proof extraction.
 *
 * Thread safety: safe on distinct Boards and contexts after rules_init().
 */
#ifndef RJ_NODEGEN_H
#define RJ_NODEGEN_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "types.h"
#include "vcf.h"
#include "vct.h"
#include "zobrist.h"

enum { MAX_CHILDREN = BOARD_POINTS + 1 }; /* every point and the pass */

/* What the node rules depend on (the search fills it from its configuration: DfpnConfig in dfpn.h). */
typedef struct {
    RuleSet rules;
    bool full_width;     /* attacker: every legal move and the pass, not only the candidates */
    uint64_t vcf_budget; /* nodes of each leaf VCF */
    uint64_t vct_budget; /* nodes of a leaf VCT at each new attacker node (0: no leaf VCT) */
    int vct_order;       /* its threat order (vct.h; 0 or 1: strict) */
    /*
     * Quiet attacker moves deep in the search (ng_generate): from attacker
     * move quiet_free + 1 on, counted from the search's first attacker node
     * (which has first_or_stones stones), a quiet candidate starts at
     * quiet_deep_pn instead of INIT_PN_QUIET.  quiet_free <= 0: never.
     */
    int quiet_free;
    int quiet_deep_pn;   /* 1..255 (the child lists cache initial numbers in a byte) */
    int first_or_stones; /* set per solve (dfpn.c) */
} NodeRules;

/* NodeRules.first_or_stones for a search rooted at b with attacker att: the stones at its first attacker node. */
static inline int ng_first_or_stones(const Board *b, Color att)
{
    return board_stone_count(b) + (b->to_move == att ? 0 : 1);
}

/* The children of one node. */
typedef struct {
    int n;
    bool complete; /* all legal moves of the side to move are listed */
    bool ordered;  /* in search order (ng_order), not just generation order */
    Point mv[MAX_CHILDREN];
    Key key[MAX_CHILDREN];          /* TT keys (dfpn_tt_key of each child): set by ng_order() or the search */
    ProofNum init_pn[MAX_CHILDREN]; /* initial attacker proof number of the child */
    /* The search's copy of each child's TT values (dfpn.c). */
    ProofNum pn[MAX_CHILDREN], dn[MAX_CHILDREN];
    uint8_t work[MAX_CHILDREN];
    bool exact[MAX_CHILDREN];
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
 * Classify position b (b restored) for attacker att under nr and fill c
 * (in generation order: c->ordered false unless the list is a forced move).
 * With x NULL only the node rules are applied.  With x:
 *   - run_leaf: run the leaf VCF (both sides) and, when nr->vct_budget > 0
 *     and x->vct is not NULL, the attacker's VCT at an attacker node;
 *   - at a defender node, the attacker's VCF after a defender pass is
 *     replayed after each defender move (vcf_line_holds); the moves it still
 *     wins against are left out (proven: the leaf VCF re-finds the win when a
 *     proof is extracted, which lists every move with x NULL), and with none
 *     left the node is proven.  Defender children get init_pn 1.
 * Attacker children start at INIT_PN_FOUR, _DOUBLE, _THREE or _QUIET by the
 * line patterns the move makes (nodegen.c); a quiet move deeper than
 * nr->quiet_free attacker moves from the search's first attacker node starts
 * at nr->quiet_deep_pn: the proofs the solver finds put their quiet attacker
 * moves (those answered by a wide defender node) almost all in the first two
 * or three attacker moves, while a search without this spends most of its
 * defender nodes on quiet moves far deeper (results/solver-bench.md).
 */
NodeStatus ng_generate(const NodeRules *nr, Board *b, Color att, Children *c, bool run_leaf, NgCtx *x);

/* An order of the points for breaking ties: lower rank first; a permutation of 0..BOARD_POINTS-1. */
typedef struct TieOrder {
    uint8_t rank[BOARD_POINTS];
} TieOrder;

/*
 * Tie order number t: 0 is the point order; 1..7 rank each point by its
 * image under board transform t (sym.h), as if the board were turned, so
 * that ng_order with it orders b as ng_order with the point order orders the
 * turned board; t >= 8 is a fixed pseudo-random shuffle drawn from t.
 */
void ng_tie_order(int t, TieOrder *out);

/*
 * Put the children of position b (generated by ng_generate, possibly with
 * some removed) in search order: line-pattern scores, highest first; for a
 * defender, near moves first, then the others in point order and the pass.
 * Ordering is deferred because most new nodes exceed their thresholds at
 * once and are left before a child is chosen.  Recomputes the children's
 * keys from key, b's TT key as the caller's search keys it (dfpn_tt_key, or
 * with a thread's salt: dfpn.c).
 * Equal scores keep the generation order (point order) when tie is NULL,
 * else the order of tie->rank (the parallel search's threads break ties
 * differently: dfpn.c).
 */
void ng_order(Board *b, Color att, Key key, Children *c, const TieOrder *tie);


#endif /* RJ_NODEGEN_H */
