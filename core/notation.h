/*
 * notation.h - move text and coordinate conversions.
 *
 * Point text: a file letter a..o (case-insensitive, the letter i is used) and
 * a rank 1..15 from the bottom, no leading zero: "h8", "O15".  "pass"
 * (case-insensitive) is the pass move.
 *
 * Move text: points in any of the spellings players exchange, "h8 h9 i10",
 * "h8h9i10", "H8,H9,I10", "h8 pass h9".  Separators are white space, commas,
 * semicolons and dashes, and may be left out between points: a rank is all the
 * digits after the file letter ("a1a15" is a1 then a15), so a point must be
 * followed by a separator, the end, or the letter of the next point.
 *
 * Boundary conversions (never used inside the engine): Gomocup (0-based x,y
 * with y = 0 at the top) and RenLib byte (16*(row_from_top-1)+col, 1-based col).
 */
#ifndef RJ_NOTATION_H
#define RJ_NOTATION_H

#include "types.h"

/*
 * Parse one point ("h8", "H8", "pass") at the start of s.  On success stores
 * the point (or POINT_PASS) and the number of characters consumed and returns
 * 0; returns RJ_EBADPOS when s does not start with a point on the board.
 * Only checks the point itself: what follows it is the caller's business.
 */
int notation_parse_point(const char *s, Point *p, int *consumed);

/* Write point p ("h8", "pass"; "none" for anything else) to buf (at least 5 bytes). Returns buf. */
char *notation_point_str(Point p, char *buf);

/* Is ch a move separator (white space, ',', ';', '-')? */
bool notation_is_sep(char ch);

/*
 * Copy the token starting at s (up to the next separator or the end, at most
 * 32 bytes, cut at a UTF-8 character boundary, control characters shown as
 * '?') into out (outlen bytes, at least 1), for error messages.  Returns out.
 */
char *notation_token(const char *s, char *out, size_t outlen);

/*
 * Parse a move sequence in any spelling (see above) from the first len bytes
 * of s (stopping early at a NUL).  Stores up to max moves (POINT_PASS for a
 * pass).  Returns the count (0 for text with no moves), or RJ_EBADPOS with a
 * one-line message naming the bad token in err (errlen bytes) when err is not
 * NULL: a malformed token, a point off the board, or more than max moves.
 */
int notation_parse_moves_n(const char *s, size_t len, Point *moves, int max, char *err, size_t errlen);

/* notation_parse_moves_n() over the whole NUL-terminated string s. */
int notation_parse_moves(const char *s, Point *moves, int max, char *err, size_t errlen);

/*
 * Write moves as "h8 h9 i10" into buf of size len (at least 1).  Output that
 * does not fit is cut at a move boundary.  Returns buf.
 */
char *notation_moves_str(const Point *moves, int n, char *buf, size_t len);

/* Gomocup coordinates of p (x = column from the left, y = row from the TOP, 0-based; a1 = 0,14). */
void notation_to_gomocup(Point p, int *x, int *y);

/* Point at Gomocup coordinates x,y.  Returns 0, or RJ_EBADPOS when x,y is off the board. */
int notation_from_gomocup(int x, int y, Point *p);

/* RenLib byte of point p: 16*(row_from_top-1)+col, col 1..15; h8 = 0x78, a1 = 0xE1, a15 = 0x01, o1 = 0xEF. */
uint8_t notation_to_renlib(Point p);

/* Point of a RenLib byte.  Returns 0, or RJ_EBADPOS for 0 ("no move") and bytes off the board. */
int notation_from_renlib(uint8_t byte, Point *p);

#endif /* RJ_NOTATION_H */
