/*
 * rules.h - the exact renju rules (RIF), and the freestyle / standard rule sets.
 *
 * Black under RULE_RENJU: exactly five wins; a move that makes exactly five
 * wins even if it also makes a forbidden shape.  Otherwise a black move is
 * forbidden if it makes an overline, a double-four (two fours through the new
 * stone, two on one line count) or a double-three (two real threes through the
 * new stone).  A three is real only if one of its straight-four points is
 * itself a legal black move (RIF 9.3, recursive to any depth).  A straight-four
 * point where black would at the same time make five on another line does not
 * count (the literal reading; it never changes a game value).
 * White under RULE_RENJU: five or more wins, nothing is forbidden.
 * RULE_FREESTYLE: five or more wins for both; RULE_STANDARD: exactly five for
 * both; neither has forbidden moves.
 *
 * Precise terms used below (p is the new stone):
 *   - five point of p: an empty q such that adding q makes a winning row
 *     (exactly five, or five or more, per colour and rule set) holding p and q;
 *   - fours through p: per line, the five points of that line; two five points
 *     at both ends of one unbroken four (a straight four) are one four, any
 *     other two on one line (x.xxx.x, xx.xx.xx, xxx.x.xxx) are two;
 *   - straight-four point of p on a line: an empty q such that p and q lie in
 *     an unbroken row of exactly four whose two neighbours are empty and each
 *     complete a winning row;
 *   - a line holds a three of p when it has a straight-four point that (black
 *     under renju) makes no five anywhere and is not forbidden; a line counts
 *     as one three at most.
 * The reference tests/ref_rules.c implements the same terms literally and the
 * tests check this module against it.
 *
 * Implementation: a base-3 line-pattern table (core/pattern.h) classifies each
 * line around a point with one lookup; only double-three candidates pay for the
 * recursive check.
 *
 * Functions taking a non-const Board may place stones "in mind" and always
 * restore the board exactly before returning (same key, same history).
 *
 * Thread safety: rules_init() builds read-only tables (idempotent, thread
 * safe); the functions below call it themselves if it has not run.  After
 * that every function is safe on distinct Boards.
 */
#ifndef RJ_RULES_H
#define RJ_RULES_H

#include "types.h"

/* Build the read-only pattern tables.  Idempotent and thread safe; call once from main/tests. */
void rules_init(void);

/*
 * Would a stone of colour c on empty point p win (make a five that counts under
 * rule set rs)?  Black under renju/standard: exactly five; white under renju,
 * everyone under freestyle: five or more; standard: exactly five.
 */
bool rules_makes_five(const Board *b, Point p, Color c, RuleSet rs);

/*
 * Why a black stone on empty point p is forbidden under renju, or FORBID_NONE
 * (also FORBID_NONE when the stone makes exactly five).  When several kinds
 * apply, the first of overline, double-four, double-three.
 */
ForbidKind rules_forbidden(Board *b, Point p);

/*
 * Cheap screen (table lookups only): does the verdict on a black stone on
 * empty p need the recursive double-three check?  True when the stone makes
 * no five, no overline and no double-four but has straight-four points on two
 * or more lines.  rules_forbidden() decides every other point by lookups.
 */
bool rules_double_three_candidate(const Board *b, Point p);

/*
 * Every empty point where a black stone is forbidden under renju, in
 * increasing order: writes the points to out (room for BOARD_POINTS) and,
 * when kind is not NULL, their kinds to kind; returns the count.  Same
 * verdicts as rules_forbidden() on each point, computed line by line (the
 * fast way to screen a whole board).  Whoever is to move does not matter.
 */
int rules_forbidden_points(Board *b, Point *out, ForbidKind *kind);

/* Shorthand: rules_forbidden(b, p) != FORBID_NONE. */
bool rules_is_forbidden(Board *b, Point p);

/*
 * Is a move (stone or POINT_PASS) legal for the side to move under rs?  A
 * stone needs an empty point; black under renju must not play a forbidden
 * point.  A pass is always legal.  Does not check whether the game is over.
 */
bool rules_is_legal(Board *b, Point p, RuleSet rs);

/* Did the last move (a stone) win the game under rs?  Returns its colour or EMPTY. */
Color rules_last_move_wins(const Board *b, RuleSet rs);

/*
 * Game state after the moves made: returns true when the game is over, with
 * *winner = BLACK / WHITE, or EMPTY for a draw (two passes, or a full board).
 */
bool rules_game_over(const Board *b, RuleSet rs, Color *winner);

/*
 * Points where colour c, playing now, would win at once (rules_makes_five).
 * Writes up to BOARD_POINTS points to out and returns the count.
 */
int rules_five_points(const Board *b, Color c, RuleSet rs, Point *out);

/*
 * Fours made by a stone of colour c on empty point p: writes to out the
 * points that would then complete a winning five for c (the five points of p,
 * at most 2 per line, so at most 8; ordered by direction E, N, NE, SE, then
 * along the line) and returns their count.  0 means p makes no four.  (For
 * black under renju this ignores whether p itself is forbidden: ask
 * rules_forbidden.)
 */
int rules_four_points_after(Board *b, Point p, Color c, RuleSet rs, Point *out);

/*
 * Does the side to move win within its next two moves, in the short way a
 * proof may leave implied (solver/proof/proof.h, "short loss")?  True when it
 * (a) has a point that wins at once (rules_five_points), or (b) has a legal
 * stone after which it has two or more distinct such points while the other
 * side, to move then, has none.  b is restored before return.
 */
bool rules_short_win(Board *b, RuleSet rs);

/*
 * The empty points where a stone of colour c would leave two or more winning
 * points on the lines through it (rules_four_points_after >= 2; legality not
 * asked).  Writes them to out (room for BOARD_POINTS) and returns the count.
 * Stones of the other colour added later only remove points from the set.
 */
int rules_double_win_points(Board *b, Color c, RuleSet rs, Point *out);

/*
 * rules_short_win, trying only the points five[0..nfive) for (a) and the
 * stones cand[0..ncand) for (b): the same answer whenever five holds every
 * point of rules_five_points and cand every point of rules_double_win_points
 * for the side to move, on b or on b with fewer stones of the other side.
 * Built for testing many moves of the other side against one board.
 */
bool rules_short_win_among(Board *b, RuleSet rs, const Point *five, int nfive, const Point *cand, int ncand);

/*
 * Threes made by a stone of colour c on empty point p in direction dir:
 * writes to out the straight-four points of p on that line (in line order)
 * and returns their count (0: no three in that direction).  For black under
 * renju only the points that count for RIF 9.3 are listed: legal black moves
 * that make no five (so a fake three gives 0).  Other colours / rule sets get
 * every straight-four point.
 */
int rules_three_points_after(Board *b, Point p, Color c, int dir, RuleSet rs, Point *out);

#endif /* RJ_RULES_H */
