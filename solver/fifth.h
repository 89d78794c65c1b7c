/*
 * fifth.h - the opening-rule analysis that needs no search (docs/renju.md
 * "Opening procedures" and "What solved and fair N mean").
 *
 * Two moves of a position P are equivalent when a board symmetry maps P's
 * stone set onto itself (colours kept; sym_stabiliser) and one move onto the
 * other.  For a 4-stone position P4 the classes of black's legal 5th moves
 * are what the N-choice rule counts ("the N candidates may not be symmetric
 * to each other"); for an opening P3 the classes of white's 4th moves are what
 * white chooses among.  A class's status comes from the solver (attacker
 * black); the bounds functions turn statuses into W and fair-N intervals:
 *   W(P4) = number of 5th-move classes that are black wins;
 *   N_fair(P3) = 1 + min over 4th-move classes W4 of W(P3 + W4).
 *
 * Pure functions: no allocation, no global state; safe on distinct Boards.
 */
#ifndef RJ_FIFTH_H
#define RJ_FIFTH_H

#include "sym.h"
#include "types.h"

/* A class of equivalent moves: members in ascending point order; moves[0] represents it. */
typedef struct {
    Point moves[NUM_SYMS]; /* an orbit under a subgroup of the 8 symmetries has at most 8 points */
    int n;                 /* 1..8 */
} MoveClass;

/*
 * The classes of the legal stone moves (no pass) of the side to move in b
 * under rule set rs, equivalent under the stabiliser of b's stone set.
 * Writes them to out (room for BOARD_POINTS classes) in ascending order of
 * their first member and returns their count.  Every legal move is in exactly
 * one class.  b is only read (rules may place stones in mind and restore them).
 */
int fifth_move_classes(Board *b, RuleSet rs, MoveClass *out);

/*
 * The 5th-move classes of a 4-stone position: fifth_move_classes() after
 * checking that b holds 2 black and 2 white stones with black to move.
 * Returns the count, or RJ_EBADPOS when b is not such a position.
 */
int fifth_classes(Board *b, RuleSet rs, MoveClass *out);

/*
 * The 4th-move classes of an opening: fifth_move_classes() after checking that
 * b holds 2 black and 1 white stone with white to move.  Returns the count,
 * or RJ_EBADPOS when b is not such a position.
 */
int fifth_fourth_classes(Board *b, RuleSet rs, MoveClass *out);

/*
 * Bounds on W from the status of each of n 5th-move classes, where status[i]
 * is RESULT_PROVEN when the class is a proven black win (black attacker),
 * RESULT_DISPROVEN when black proven cannot win, RESULT_UNKNOWN otherwise:
 * *wins_min = proven classes, *wins_max = classes not disproven.
 */
void fifth_w_bounds(const Result *status, int n, int *wins_min, int *wins_max);

/*
 * Bounds on N_fair of an opening from the W bounds of each of its n >= 1
 * 4th-move classes: *n_fair_min = 1 + min wins_min[i],
 * *n_fair_max = 1 + min wins_max[i].
 */
void fifth_fair_n_bounds(const int *wins_min, const int *wins_max, int n, int *n_fair_min, int *n_fair_max);

#endif /* RJ_FIFTH_H */
