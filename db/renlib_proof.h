/*
 * renlib_proof.h - proofs (solver/proof/proof.h) as RenLib trees (renlib.h),
 * and RenLib trees checked as proofs.
 *
 * Export.  A RenLib tree starts at the empty board, so the tree holds the
 * moves that lead to the position (one line), then the proof below the
 * position's node: an attacker node is one move, a defender node lists its
 * replies; defender moves the proof leaves out are the short losses the
 * checker confirms by itself (proof.h) and do not appear.  Every proof move
 * carries a board text: RENLIB_WIN_LABEL ("W") on the attacker's moves (the
 * move wins for the side that plays it), RENLIB_LOSS_LABEL ("L") on the
 * defender's (the move loses).  Limits cut the proof breadth first (all
 * replies of a level before the next level), and mark each node whose
 * children were cut with the comment RENLIB_CUT_COMMENT.
 *
 * Import.  Every node of a tree is a position (the moves from the empty
 * board to it).  For an attacker, a position is *claimed* when its subtree
 * looks like a complete proof:
 *   - attacker to move: a child move wins at once (a five), or a child is
 *     claimed; failing both, the attacker has a point that wins at once now
 *     (the five a tree often leaves out: it is added);
 *   - defender to move: no child wins for the defender or ends the game in
 *     a draw, every legal child is claimed (illegal children, e.g. a black
 *     move on a forbidden point, are left out: nobody can play them), and,
 *     when a pass is not among the children, a defender pass would be a
 *     short loss (a cheap screen: the checker decides).
 * The topmost claimed positions become proofs (the claimed attacker move of
 * least proof size at each attacker node, every legal reply at each
 * defender node) and go to the independent checker (proof_check).  A
 * position the checker accepts is *proven*: the only conclusion drawn, and
 * its subtree is not searched further.  When the attacker is to move there,
 * the position after its first move is reported too (its proof is the rest
 * of the checked one): a tree exported from a defender-to-move position
 * proves the position before it, and this one.  When the checker rejects one, its
 * children are tried in turn.  Nothing is concluded from the rest: not that
 * the defender holds, not that a line is wrong, not the labels or comments
 * (never read).  Lines that play an illegal move, or go on after a five or
 * a draw, are counted and skipped.
 *
 * Work: the claim pass is linear in the tree (plus a short-loss screen per
 * claimed defender node); each checker run is linear in its proof, and a
 * rejected claim makes its claimed descendants run again.  Recursion depth
 * is at most RENLIB_MAX_DEPTH.  No printing; thread-safe on distinct trees.
 */
#ifndef RJ_RENLIB_PROOF_H
#define RJ_RENLIB_PROOF_H

#include <stdatomic.h>

#include "proof.h"
#include "renlib.h"

#define RENLIB_WIN_LABEL "W"
#define RENLIB_LOSS_LABEL "L"
#define RENLIB_CUT_COMMENT "cut: the full proof goes on here"

/* ---- export ---- */

typedef struct {
    uint32_t max_depth; /* plies of the proof kept below the position (0: all) */
    uint64_t max_moves; /* proof moves kept (0: all) */
} RenlibLimits;

typedef struct {
    int32_t position;     /* tree node of the position (RENLIB_ROOT when the line is empty) */
    uint64_t proof_moves; /* moves in the whole proof */
    uint64_t moves;       /* proof moves written */
    uint32_t depth;       /* deepest proof ply written */
    bool truncated;       /* limits cut the proof */
} RenlibExport;

/*
 * The moves from the empty board to position b, for a tree: b's move history
 * when b was built from moves; for a stone set, its stones in an order that
 * plays legally (black first, alternating, a pass where one colour has no
 * stone left or the side to move needs one; each black stone the first of
 * its remaining stones that is legal then).  Writes up to MAX_PLY points to
 * line and the count to *n.  Returns 0 or RJ_EBADPOS (no legal order found).
 */
int renlib_proof_line(const Board *b, RuleSet rs, Point *line, int *n);

/*
 * Build tree t (initialised here; renlib_free it whatever the result): the
 * line line[0..n) from the empty board, then proof (len bytes, moves in the
 * frame of the position after the line) below it, cut to lim (may be NULL),
 * with labels as above.  Comments are the caller's (renlib_set_comment on
 * RENLIB_ROOT and x->position).  Returns 0, RJ_EBADPOS (an illegal line),
 * RJ_EBADDATA (the proof does not frame against the position, or the tree
 * would exceed RENLIB_MAX_DEPTH), or RJ_ENOMEM.
 */
int renlib_proof_export(RuleSet rs, const Point *line, int n, const uint8_t *proof, size_t len, const RenlibLimits *lim,
                        RenlibTree *t, RenlibExport *x);

/* ---- import ---- */

/* A proven position, handed to the caller. */
typedef struct {
    int32_t node;         /* its tree node */
    Color attacker;       /* who wins */
    const Board *board;   /* the position: the tree's moves from the empty board */
    const uint8_t *proof; /* the proof the checker accepted (moves in board's frame) */
    size_t len;
    ProofStats stats;
    bool after_move; /* the position after the attacker's first move of a proof just reported:
                        its proof is the rest of that checked proof (not checked again) */
} RenlibProven;

/* A claimed position the checker rejected. */
typedef struct {
    int32_t node;
    Color attacker;
    const Board *board;
    const char *why; /* the checker's one-line reason */
} RenlibRejected;

typedef struct {
    uint64_t positions;     /* tree nodes that are positions (the root included) */
    uint64_t lines;         /* leaves of the tree */
    uint64_t illegal_lines; /* leaves below an illegal move or past the end of a game */
    uint64_t proven_lines;  /* leaves inside a proven position's subtree */
    uint64_t claimed;       /* topmost claims sent to the checker */
    uint64_t proven;        /* of them, accepted */
    uint64_t rejected;      /* of them, rejected */
} RenlibImport;

/* Callbacks: return 0 to go on; a nonzero value stops renlib_proof_import with that value. */
typedef int (*RenlibProvenFn)(void *ctx, const RenlibProven *p);
typedef int (*RenlibRejectedFn)(void *ctx, const RenlibRejected *r);

/*
 * Check tree t as proofs under rule set rs for attacker (BLACK, WHITE, or
 * EMPTY for both), as described above: proven positions go to on_proven,
 * rejected claims to on_rejected (either may be NULL), in pre-order; a
 * proven attacker-to-move position is followed by the position after its
 * first move (after_move set) unless that move makes five.  stop
 * (may be NULL) is polled between checks.  Fills *st (may be NULL).
 * Returns 0, RJ_EINTR (stopped), RJ_ENOMEM, or a callback's value.
 */
int renlib_proof_import(const RenlibTree *t, RuleSet rs, Color attacker, RenlibProvenFn on_proven,
                        RenlibRejectedFn on_rejected, void *ctx, const atomic_bool *stop, RenlibImport *st);

#endif /* RJ_RENLIB_PROOF_H */
