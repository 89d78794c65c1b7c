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

#include "proof.h"
#include "types.h"

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

/*
 * Cheap line test: the most stones of colour c in a five-point window through
 * empty point p that holds no stone of the other colour (p not counted), over
 * the four directions, 0..4.  3 means p may make a four, 4 a five.
 */
int qvcf_window_max(const Board *b, Point p, Color c);

#endif /* RJ_QVCF_H */
