/*
 * vct.h - victory by continuous threats (fours and threes), proof-number
 * search over the threat space, for either colour.
 *
 * Threat orders (ThreatOpts.order).
 *
 * Order 1, strict (the default).  Attacker moves: fours, and threes (moves
 * after which the attacker has a double-win move, threat.h: for black this
 * is exactly a real three in the RIF 9.3 sense, its straight-four point being
 * a legal black move).  Defender replies after a three: every legal defender
 * move that is not a "short loss" of the proof format (proof.h), i.e. every
 * move after which the attacker has no immediate double-win: blocks of the
 * three (far points of broken threes included), counter-fours, and moves
 * that change whether the attacker's key points are forbidden.  The set is
 * computed exactly by testing each move that can possibly matter
 * (vct_defences); moves outside it are short losses by construction.
 *
 * Order k >= 2, wide (up to VCT_MAX_ORDER).  Attacker moves: fours, and every
 * move after which, if the defender passed, the attacker would have a VCF of
 * at most k fours before the five (k + 1 attacker moves): a three, but also
 * a move setting up a four-three, or (white) a four whose block is forbidden
 * for black.  Defender replies: exactly the legal moves after which the
 * attacker has no such VCF any more (vct_wide_defences).  Every other move
 * is confirmed, not assumed: the VCF line found after the pass is replayed
 * with the rules after the defender's stone (vcf_line_holds), or a short VCF
 * is searched afresh; only moves that vcf_line_zone() proves cannot touch the
 * line (they threaten nothing and lie off every point the line reads) are
 * skipped unreplayed.  Counter-fours, blocks and forbidden-point breakers all
 * fall out of this test.  The proof of a win lists those covered replies
 * too (pass included), each with the proof of its short VCF; short losses
 * stay implied.
 *
 * Both orders: a black attacker never plays a forbidden point.  At every
 * attacker node the search first checks for a five, a defender four that
 * must be blocked (the block must keep a threat on the board), an existing
 * double-win move, and a VCF (vcf.h, with a per-node node budget).  After a
 * four the only reply is the block (none if black's block is forbidden).  A
 * win is always sound, and its proof (vct_write_proof) is checked by
 * proof/checker.c in the tests.

 * Who is to move.  Attacker to move: the ordinary question.  Defender to move:
 * the root is a defender node, so the attacker must already threaten (a four
 * or a three on the board) and win against every reply.
 *
 * Results: RESULT_PROVEN (win), RESULT_DISPROVEN (the threat space within
 * the depth limit is exhausted: no VCT of this kind; this does not prove the
 * attacker cannot win by other means), RESULT_UNKNOWN (a budget was hit).
 *
 * Memory.  The proof-number tree starts small and grows (doubling) up to the
 * cap given to vct_new(), so a cap sized for a large budget costs nothing on
 * small searches; a search that fills the cap ends unknown.
 *
 * Thread safety: one VctCtx per thread.
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

enum { VCT_MAX_ORDER = 4, VCT_NODE_BYTES = 20 };

/*
 * Create a context: a VCF transposition table of 2^tt_log2 entries (and a
 * disproof table of as many, at most 2^24) and a proof-number tree of up to
 * max_tree nodes (VCT_NODE_BYTES each; e.g. 1 << 20), allocated as the
 * search needs them.  The tree size bounds the search: when it is full (or
 * cannot grow) the result is unknown.  Returns NULL on allocation failure.
 * Free with vct_free().
 */
VctCtx *vct_new(int tt_log2, uint32_t max_tree);

/*
 * The tables for a search of `budget` nodes (0: unlimited) within about
 * mem_bytes of memory: *tt_log2 for vct_new's hash tables (about two entries
 * per node of the budget, a quarter of the memory at most) and *max_tree,
 * the tree cap (the rest of the memory).  A budget then always has the
 * tables it can use, and a bigger budget gets bigger ones.
 */
void vct_size_for(uint64_t budget, size_t mem_bytes, int *tt_log2, uint32_t *max_tree);
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
 * opts->order picks the threat order, 0 or 1 strict, 2..VCT_MAX_ORDER wide;
 * opts->shortest is ignored).  b is restored.  Returns 0 with *out filled, or
 * RJ_EBADARG (bad colour or order, history too long).
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

/*
 * The defender moves after a threat of order `order` (2..VCT_MAX_ORDER;
 * defender to move on b, neither side with a five point, the attacker the
 * other side): writes to out the legal defender moves after which the
 * attacker has no VCF of at most order + 1 attacker moves and returns their
 * count; -1 when the attacker has no such VCF after a pass either (no
 * threat), -2 when a short VCF ran out of its budget.  Uses ctx's VCF table.
 * Exposed for tests.
 */
int vct_wide_defences(VctCtx *ctx, Board *b, RuleSet rs, int order, Point *out);

#endif /* RJ_VCT_H */
