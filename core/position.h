/*
 * position.h - positions from user text (docs/cli.md "Positions").
 *
 * Accepted spellings (leading and trailing separators are ignored):
 *   - a move sequence, black first, "pass" allowed, in any spelling of
 *     notation.h: "h8 h9 i10", "h8h9i10", "H8,H9,I10", "h8 pass h9";
 *   - an opening followed by more moves (move 4, 5, ...): by code "D4 j10",
 *     "D4j10" (an upper-case code, or a code alone like "d4", is the opening;
 *     a lower-case d1..d13 / i1..i13 followed by moves is read as a move list
 *     when it plays as one, "d4 e5 f6", else as the opening), or by any name
 *     opening_find() knows, in any
 *     case, two-word English glosses included: "kagetsu j10", "花月 j10",
 *     "Flower Moon j10", "flower-moon,j10";
 *   - a stone set "B:e13,c12,e12 W:o15,o11" (tags in any case and order, may
 *     repeat); the side to move is black when the counts are equal, white when
 *     black has one more, and must be given otherwise.
 * Rejected, with a one-line message naming the bad token: empty text, a bad
 * token, a point off the board, an unknown opening, two stones on one point,
 * a move after the game is over or a sequence that ends a game (five, two
 * passes, full board), a black move on a forbidden point (renju), a stone set
 * holding a five, impossible stone counts without a forced side to move, a
 * forced side to move that contradicts a move sequence, more than
 * MAX_PLY - 1 moves.  (A stone set does not record the order of its stones, so
 * whether a black stone was forbidden when it was played cannot be checked.)
 */
#ifndef RJ_POSITION_H
#define RJ_POSITION_H

#include "types.h"

/* A position_str() buffer of this size always holds the whole text. */
enum { POSITION_STR_LEN = 3072 };

/*
 * Build board b (initialised here) from the NUL-terminated text s under rule
 * set rs.  to_move is EMPTY to infer the side to move, or BLACK/WHITE to force
 * it.  Returns 0, or RJ_EBADPOS with a one-line message naming the bad token
 * in err (errlen bytes; err may be NULL).  Needs rules_init() to have run.
 */
int position_parse(const char *s, RuleSet rs, Color to_move, Board *b, char *err, size_t errlen);

/*
 * Build board b (initialised here) from a game record: setup stones black[0..nb)
 * and white[0..nw) (checked as a stone set is: no point twice, no five, no
 * black overline under renju, possible counts), the side to move after them
 * `first` (EMPTY: the stone counts decide; with no setup stones only BLACK or
 * EMPTY), then moves[0..n) (POINT_PASS for a pass) played in turn with every
 * check of a move sequence.  to_move (EMPTY: no constraint) must match the
 * side to move at the end.  Returns 0, or RJ_EBADPOS with a one-line message
 * in err (errlen bytes; err may be NULL).  Needs rules_init().
 */
int position_from_record(const Point *black, int nb, const Point *white, int nw, Color first, const Point *moves, int n,
                         RuleSet rs, Color to_move, Board *b, char *err, size_t errlen);

/*
 * Text of the board: the move sequence ("h8 h9 i10") when every stone came
 * from a move, else the stone set ("B:h8,i10 W:h9"; the side to move is not
 * part of it).  Writes at most len bytes (see POSITION_STR_LEN).  Returns buf.
 */
char *position_str(const Board *b, char *buf, size_t len);

#endif /* RJ_POSITION_H */
