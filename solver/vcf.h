/*
 * vcf.h - victory by continuous fours (VCF), exact, for either colour.
 *
 * Rules inside the search (renju; freestyle and standard have no forbidden
 * points):
 *   - every attacker move makes a four (a new five point); the attacker wins
 *     by making five, by a move leaving two five points the defender cannot
 *     both block, or (white attacker) when black's only block is forbidden;
 *   - a black attacker never plays a forbidden point (a winning five is never
 *     forbidden);
 *   - the defender blocks the five point; a defender who has a five point wins
 *     first, so the attacker must block a defender four at once, with a move
 *     that is itself a four; two defender fives refute the line.
 *
 * Who is to move.  With the attacker to move this is the ordinary question.
 * With the defender to move the root is a defender node: the attacker wins
 * only if it already has a four on the board (the defender must block, or
 * cannot) and wins by VCF after the forced block.  (To ask "would the
 * attacker win by VCF if it could move now", play a pass on the board first.)
 *
 * Results: RESULT_PROVEN (win, with the line), RESULT_DISPROVEN (no VCF
 * exists; with VCF_OPT depth limits: none within the limit), RESULT_UNKNOWN
 * (node, time or stop limit hit).
 *
 * The line alternates attacker and defender moves from the root, ending with
 * the attacker's five.  After the last four the defender may have no useful
 * reply (two five points, or black's only block is forbidden); the line then
 * shows one defender move (a block of one five point, or a pass) and the
 * five, so the whole line can be replayed with the rules module.
 *
 * Thread safety: a VcfCtx belongs to one thread at a time.  Allocate one per
 * thread with vcf_new() and reuse it: searches do no allocation.  The
 * transposition table only stores "no VCF" facts, which stay true, so it
 * never needs clearing between positions.
 */
#ifndef RJ_VCF_H
#define RJ_VCF_H

#include <stdatomic.h>

#include "proof.h"
#include "types.h"

typedef struct VcfCtx VcfCtx;

/* Limits and options of one threat search (a zeroed struct: no limits). */
typedef struct {
    uint64_t max_nodes;      /* 0: unlimited */
    double max_time_s;       /* 0: unlimited */
    const atomic_bool *stop; /* may be NULL; polled every few hundred nodes */
    int max_depth;           /* max attacker moves (five included); 0: unlimited */
    bool shortest;           /* VCF: return a line with the fewest attacker moves */
    int order;               /* VCT: the threat order (vct.h); 0 or 1: strict, the default */
} ThreatOpts;

enum { VCF_MAX_LINE = 2 * BOARD_POINTS };

typedef struct {
    Result result;            /* see above */
    uint64_t nodes;           /* attacker nodes searched */
    int len;                  /* plies in line */
    int attacker_moves;       /* attacker moves in line (five included) */
    Point line[VCF_MAX_LINE]; /* the winning line when RESULT_PROVEN */
} VcfResult;

/*
 * Create a context whose transposition table has 2^tt_log2 entries (8 bytes
 * each; 10..28, e.g. 16 = 512 KiB).  Returns NULL on allocation failure.
 * Free with vcf_free().
 */
VcfCtx *vcf_new(int tt_log2);
void vcf_free(VcfCtx *ctx);

/* Forget every stored fact (only needed to make a benchmark repeatable). */
void vcf_clear(VcfCtx *ctx);

/*
 * Search for a VCF of `attacker` from b under rs.  b is restored before
 * returning.  Returns 0 with *out filled, or RJ_EBADARG (bad colour, or the
 * board's history too long to search).  A limit hit is not an error: result
 * RESULT_UNKNOWN.  opts may be NULL.
 */
int vcf_search(VcfCtx *ctx, Board *b, Color attacker, RuleSet rs, const ThreatOpts *opts, VcfResult *out);

/*
 * Search (with opts, may be NULL) and, on a win, append the proof tree of the
 * proof.h format (no header) for the position b to w: the root is an A-node
 * when the attacker is to move, else a D-node.  Returns 0 when written,
 * RJ_ENOTFOUND when the search found no VCF (or hit a limit), RJ_EBADARG,
 * or w's error.  *res (may be NULL) receives the search result.
 */
int vcf_write_proof(VcfCtx *ctx, Board *b, Color attacker, RuleSet rs, const ThreatOpts *opts, ProofWriter *w,
                    VcfResult *res);

/*
 * Write the proof tree of a VCF line previously found from b (res->line with
 * RESULT_PROVEN, same attacker and rs).  Replays the line; returns 0,
 * RJ_EINTERNAL if the line does not replay as a VCF, or w's error.
 */
int vcf_line_to_proof(Board *b, Color attacker, RuleSet rs, const VcfResult *res, ProofWriter *w);

/*
 * Does the VCF `line` (attacker moves at even indices, the defender's blocks
 * at odd ones, as in VcfResult.line) still win for att on b, the attacker to
 * move, after the defender's stone `last` (or POINT_PASS)?  Precondition:
 * before `last` neither side had a five point.  Every step is checked with
 * the rules: the defender's five threats (made by its last stone) must be
 * blocked by the attacker's next four, black never plays a forbidden point,
 * each defender reply is the forced block (which replaces the line's entry),
 * and the line ends in a five, two five points, or a forbidden black block.
 * b is restored.  Used to carry a threat line over to a defender's
 * alternatives without searching each one.
 */
bool vcf_line_holds(Board *b, Color att, RuleSet rs, Point last, const Point *line, int len);

/*
 * For a defender node whose pass is answered by the VCF `line` (b: the
 * position after the pass, attacker to move, neither side with a five point
 * before the pass): replay the line and set in zone (4 x 64-bit words) the
 * points the line plays, the five points of its fours, and every point
 * within four steps along the four lines of a defender block.  Returns true
 * when every defender move m outside zone that makes no defender five point
 * provably leaves the line winning (vcf_line_holds would say true; the
 * argument is at replay() in vcf.c): false when the line's legality could
 * depend on distant stones (a black four point through which black has
 * threes in two directions: RIF 9.3 recursion), when it ends with a
 * forbidden black block, or when the line does not replay.  b is restored.
 */
bool vcf_line_zone(Board *b, Color att, RuleSet rs, const Point *line, int len, uint64_t zone[4]);

#endif /* RJ_VCF_H */
