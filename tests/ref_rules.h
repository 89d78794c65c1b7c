/*
 * ref_rules.h - a reference implementation of the renju rules for tests.
 *
 * Written straight from the RIF definitions (docs/renju.md "Rules of play") on a
 * plain copy of the board's cells: no tables, no bit tricks, no shortcuts
 * beyond the reach of a row (an exact five holding two points spans at most
 * 4 steps, a row of four at most 3).  Slow on purpose.  It shares nothing
 * with core/rules.c except the board layout of board.h, so the two can be
 * checked against each other.
 *
 * Definitions used (black under renju; "five" = exactly five for black):
 *   - five: five stones of one colour in an unbroken row (white / freestyle:
 *     five or more);
 *   - overline: six or more black stones in an unbroken row;
 *   - four (through p): four stones, p among them, that one more stone q turns
 *     into a five; fours are counted as distinct sets of four stones, so a
 *     straight four counts once and x.xxx.x counts twice;
 *   - straight four: an unbroken row of four stones whose both neighbours are
 *     empty and each turns it into a five;
 *   - three (through p, in one direction): an empty point q on that line such
 *     that p and q lie in a straight four after q is added, q does not make a
 *     five in any direction, and q is not itself forbidden (asked again with
 *     the stones placed, to any depth).  A direction counts at most once.
 *   - a black move that makes a five is never forbidden; otherwise overline,
 *     then double-four (>= 2 fours), then double-three (>= 2 directions with a
 *     three).
 *
 * All functions leave the Board untouched.
 */
#ifndef RJ_REF_RULES_H
#define RJ_REF_RULES_H

#include "board.h"

/* Forbidden kind of a black stone on empty point p under renju. */
ForbidKind ref_forbidden(const Board *b, Point p);

/* Would a stone of colour c on empty p make a five that wins under rs? */
bool ref_makes_five(const Board *b, Point p, Color c, RuleSet rs);

/*
 * Five points of the fours through a stone of colour c on empty p: points q
 * such that adding q makes a winning row (five, or five or more) containing
 * both p and q.  Writes
 * them to out in increasing order and returns the count.
 */
int ref_four_points_after(const Board *b, Point p, Color c, RuleSet rs, Point *out);

/*
 * Straight-four points of the three through a stone of colour c on empty p in
 * direction dir (sorted).  For black under renju only points q that do not
 * make a five and are not forbidden (with p placed) are listed.
 */
int ref_three_points_after(const Board *b, Point p, Color c, int dir, RuleSet rs, Point *out);

/*
 * Does colour c, to move under rs, win at once or by the short way a proof may
 * leave implied: (a) it has an empty point where its stone wins at once, or
 * (b) it has a legal stone (for black under renju: not forbidden) after which
 * it has two or more such points while the other colour has none?
 */
bool ref_short_win(const Board *b, Color c, RuleSet rs);

#endif /* RJ_REF_RULES_H */
