/*
 * repair.h - proof repair: prove a position by mending the proof of another.
 *
 * A proof mostly still holds on a position that differs from its root by a
 * stone away from the fight: white's move elsewhere against white's pass, a
 * white 6th move against a proven sibling.  proof_repair() replays a source
 * proof (proof.h) on a target position with the same side to move, keeping
 * each node that holds on the target by the checker's own rules, and hands
 * each node that does not to a prover (a stored proof of that position, a
 * df-pn solve: the caller's choice):
 *   - the attacker's move is illegal on the target (occupied; forbidden for
 *     black), or it won at once on the source and does not on the target:
 *     that attacker node is proven afresh;
 *   - a listed defender reply that is illegal on the target is dropped;
 *   - a legal defender move of the target that the source neither lists nor
 *     leaves as a short loss (proof.h: (a) or (b)) is listed, the position
 *     after it proven afresh;
 *   - when a defender move wins at once on the target, or more than
 *     wide_fail defender moves need the previous case at one node (the
 *     attacker's threat there no longer holds), the attacker node above that
 *     defender node is proven afresh instead;
 *   - when a node proven afresh below it is not proven (the source's line
 *     fails there, not just that node), the attacker node above is proven
 *     afresh in its turn, and so on up to the root.
 * Where the source proof ends in a win at once that still wins, nothing is
 * searched.  A failure at the root itself (its first move illegal, its
 * threat broken) is one prover call on the whole target: the prover is told
 * so (depth 0) and may decline.  The result claims nothing by itself: the
 * caller checks it with proof_check() before using it.
 *
 * Thread safety: one call per board pair; the prover runs on the caller's thread.
 */
#ifndef RJ_REPAIR_H
#define RJ_REPAIR_H

#include "proof.h"
#include "types.h"

/*
 * Prove the position b (the attacker to move, depth plies below the
 * target's root; b to be left as it was): append the A-node of a proof
 * (proof.h, no header) to w and return 0; RJ_ENOTFOUND when not proven;
 * another error code to stop the repair.
 */
typedef int (*RepairProver)(void *ctx, Board *b, int depth, ProofWriter *w);

typedef struct {
    RuleSet rules;
    RepairProver prove;
    void *ctx;
    int wide_fail;    /* see above (0: REPAIR_WIDE_FAIL) */
    int max_failures; /* prover calls allowed (0: REPAIR_MAX_FAILURES); then RJ_ENOTFOUND */
} RepairConfig;

enum { REPAIR_WIDE_FAIL = 4, REPAIR_MAX_FAILURES = 2000 };

typedef struct {
    uint64_t kept;      /* nodes of the source proof kept as they were (A-nodes and D-nodes) */
    uint64_t dropped;   /* listed defender replies dropped (illegal on the target) */
    uint64_t failures;  /* prover calls */
    uint64_t proven;    /* of them proven */
    uint64_t wide;      /* attacker nodes proven afresh because their threat broke */
    uint64_t added;     /* defender moves newly listed */
    uint64_t escalated; /* attacker nodes proven afresh because a node below them was not */
    char why[256];      /* on RJ_ENOTFOUND: the line (from the target) the prover did not prove */
} RepairStats;

/*
 * Replay proof src (header included, moves in the frame of source root s)
 * on target root t (same side to move, attacker as in the header), writing
 * the mended proof of t with its header to w.  s and t are not modified.
 * Returns 0 (w then holds a proof to check); RJ_ENOTFOUND when the root was
 * not proven afresh either, or after max_failures prover calls (st->why says where);
 * RJ_EBADDATA for a malformed source proof; RJ_EBADARG when s and t differ
 * in the side to move; RJ_ENOMEM; or the prover's error code.
 */
int proof_repair(const Board *s, const uint8_t *src, size_t len, const Board *t, const RepairConfig *cfg,
                 ProofWriter *w, RepairStats *st);

#endif /* RJ_REPAIR_H */
