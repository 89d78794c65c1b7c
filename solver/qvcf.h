/*
 * qvcf.h - a small, budgeted VCF (victory by continuous fours) used by the
 * df-pn search at its leaves, with proof writing in the proof.h format.
 *
 * It answers one question: can colour `att`, to move on b, win by playing
 * only fours (each answered by the defender's only block) until a five or a
 * four with two winning points?  Every step is checked against the rules
 * module: the attacker's moves must be legal (black never plays forbidden
 * points), a defender's five threat must be blocked by the attacker's next
 * move, and a defender who cannot legally block (black on a forbidden point)
 * loses.  "No" only means "no VCF found within the budget": it is never a
 * disproof.
 *
 * Thread safety: safe on distinct Boards after rules_init().
 */
#ifndef RJ_QVCF_H
#define RJ_QVCF_H

#include <assert.h>

#include "proof.h"
#include "types.h"

/* Number of set bits of a 16-bit value (portable, no popcnt instruction needed). */
static inline int qvcf_pop16(unsigned x)
{
    x &= 0xffffu;
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0f0fu;
    return (int)((x + (x >> 8)) & 0x1fu);
}

/* Number of distinct points among pts[0..n) (n is small: at most a few fours' points). */
static inline int qvcf_distinct(const Point *pts, int n)
{
    assert(n >= 0);
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= pts[j] == pts[i];
        k += !seen;
    }
    return k;
}

/*
 * Search a VCF for att, who must be the side to move on b (restored before
 * returning).  budget caps the nodes (0: a default of 100000); *nodes (may be
 * NULL) is increased by the nodes spent.  Returns true when a VCF exists; then
 * *first (may be NULL) is its first move.
 */
bool qvcf_search(Board *b, Color att, RuleSet rs, uint64_t budget, uint64_t *nodes, Point *first);

/*
 * Write the VCF proof as an A-node of proof.h (the attacker's four, then the
 * D-node listing only the forced block, ...), b as in qvcf_search.
 * Returns 0, RJ_ENOTFOUND when no VCF is found within budget, or w->err.
 * *pnodes / *pdepth (may be NULL) get the nodes written and the depth in plies.
 */
int qvcf_write_proof(Board *b, Color att, RuleSet rs, uint64_t budget, ProofWriter *w, uint64_t *pnodes,
                     uint32_t *pdepth);

/* Build the read-only pattern table (idempotent, thread-safe); dfpn_create calls it. */
void qvcf_init(void);

/*
 * Cheap line test: the most stones of colour c in a five-point window through
 * empty point p that holds no stone of the other colour (p not counted), over
 * the four directions, 0..4.  3 means p may make a four, 4 a five.
 */
int qvcf_window_max(const Board *b, Point p, Color c);

/*
 * The same windows: *wmax = the most stones of c in one clean window through
 * p, *ntwo = the directions whose best clean window holds two or more.
 */
void qvcf_potential(const Board *b, Point p, Color c, int *wmax, int *ntwo);

/*
 * Empty points lying in a five-point window (no stone of the other colour, on
 * the board) that holds at least `need` stones of colour c, in increasing
 * point order; out needs BOARD_POINTS slots.  need = 4: the only points that
 * can make a five; need = 3: the only points that can make a four.
 */
int qvcf_window_points(const Board *b, Color c, int need, Point *out);

/* Same answer as rules_five_points (points where c wins at once), faster. */
int qvcf_five_points(const Board *b, Color c, RuleSet rs, Point *out);

#endif /* RJ_QVCF_H */
