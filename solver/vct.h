/*
 * vct.h - victory by continuous threats (fours and threes), proof-number
 * search over the threat space, for either colour.
 *
 * Attacker moves: fours, and threes (moves after which the attacker has a
 * double-win move, threat.h: for black this is exactly a real three in the
 * RIF 9.3 sense, its straight-four point being a legal black move).  A black
 * attacker never plays a forbidden point.  At every attacker node the search
 * first checks for a five, a defender four that must be blocked (the block
 * must keep a threat on the board), an existing double-win move, and a VCF
 * (vcf.h, with a per-node node budget).
 *
 * Defender replies.  After a four: the block (none if black's block is
 * forbidden).  After a three: every legal defender move that is not a "short
 * loss" of the proof format (proof.h), i.e. every move after which the
 * attacker has no immediate double-win: blocks of the three (far points of
 * broken threes included), counter-fours, and moves that change whether the
 * attacker's key points are forbidden.  The set is computed exactly by testing
 * each move that can possibly matter (vct_defences); moves outside it are
 * short losses by construction, so a win is always sound and its proof lists
 * exactly these moves.
 *
 * Who is to move.  Attacker to move: the ordinary question.  Defender to move:
 * the root is a defender node, so the attacker must already threaten (a four
 * or a three on the board) and win against every reply.
 *
 * Results: RESULT_PROVEN (win), RESULT_DISPROVEN (the threat space within
 * the depth limit is exhausted: no VCT of this kind; this does not prove the
 * attacker cannot win by other means), RESULT_UNKNOWN (a budget was hit).
 *
 * Thread safety: one VctCtx per thread; searches allocate nothing.
 */
#ifndef RJ_VCT_H
#define RJ_VCT_H

#include "proof.h"
#include "types.h"
#include "vcf.h"

typedef struct VctCtx VctCtx;

typedef struct {
    Result result;
    uint64_t nodes;           /* tree expansions plus VCF nodes */
    uint32_t tree_nodes;      /* proof-number tree nodes used */
    int len;                  /* plies of the principal line */
    Point line[VCF_MAX_LINE]; /* principal line (one defence per defender node) */
} VctResult;

/*
 * Create a context: a VCF transposition table of 2^tt_log2 entries and a
 * proof-number tree of max_tree nodes (20 bytes each; e.g. 1 << 20).  The
 * tree size bounds the search: when it is full the result is unknown.
 * Returns NULL on allocation failure.  Free with vct_free().
 */
VctCtx *vct_new(int tt_log2, uint32_t max_tree);
void vct_free(VctCtx *ctx);

/* Forget every stored fact (its VCF table's and the disproof table's). */
void vct_clear(VctCtx *ctx);

/*
 * Node budget of each VCF probe made at attacker nodes (default 2000; 0
 * disables the probes).
 */
void vct_set_vcf_budget(VctCtx *ctx, uint64_t nodes);

/*
 * Search for a VCT of attacker from b under rs (opts may be NULL;
 * opts->max_depth bounds the attacker moves of a line, default 40;
 * opts->shortest is ignored).  b is restored.  Returns 0 with *out filled, or
 * RJ_EBADARG.
 */
int vct_search(VctCtx *ctx, Board *b, Color attacker, RuleSet rs, const ThreatOpts *opts, VctResult *out);

/*
 * After vct_search() returned RESULT_PROVEN for b (same board, unchanged),
 * append the proof tree (proof.h format, no header) to w.  Returns 0,
 * RJ_ENOTFOUND when the last search did not prove a win, or w's error.
 */
int vct_write_proof(VctCtx *ctx, Board *b, ProofWriter *w);

/*
 * The defender moves after a three (defender to move on b, attacker the
 * other side, no five point for either side): writes the legal defender moves
 * that are not short losses to out and returns their count, or -1 when the
 * attacker has no double-win move at all (no threat).  Exposed for tests.
 */
int vct_defences(Board *b, RuleSet rs, Point *out);

#endif /* RJ_VCT_H */
