/*
 * notation.h - move text and coordinate conversions.
 *
 * Point text: a file letter a..o (case-insensitive, the letter i is used) and
 * a rank 1..15 from the bottom: "h8", "O15".  "pass" is the pass move.
 * Boundary conversions (never used inside the engine): Gomocup (0-based x,y
 * with y = 0 at the top) and RenLib byte (16*(row_from_top-1)+col, 1-based col).
 */
#ifndef RJ_NOTATION_H
#define RJ_NOTATION_H

#include "types.h"

/*
 * Parse one point ("h8", "H8", "pass") from s.  On success stores the point
 * (or POINT_PASS) and the number of characters consumed and returns 0; returns
 * RJ_EBADPOS when s does not start with a point on the board.
 */
int notation_parse_point(const char *s, Point *p, int *consumed);

/* Write point p ("h8", "pass") to buf (at least 5 bytes). Returns buf. */
char *notation_point_str(Point p, char *buf);

/*
 * Parse a move sequence in any spelling: "h8 h9 i10", "h8h9i10",
 * "H8,H9,I10", separators spaces, commas, semicolons, dashes; "pass" allowed.
 * Stores up to max moves.  Returns the count, or RJ_EBADPOS with a message
 * naming the bad token in err (errlen bytes) when err is not NULL.
 */
int notation_parse_moves(const char *s, Point *moves, int max, char *err, size_t errlen);

/* Write moves as "h8 h9 i10" into buf of size len. Returns buf. */
char *notation_moves_str(const Point *moves, int n, char *buf, size_t len);

/* Gomocup coordinates (x = col, y = 0 at the top row 15). */
void notation_to_gomocup(Point p, int *x, int *y);
int notation_from_gomocup(int x, int y, Point *p); /* 0 or RJ_EBADPOS */

/* RenLib byte: 16*(row_from_top-1)+col, col 1..15; h8 = 0x78, a1 = 0xE1. */
uint8_t notation_to_renlib(Point p);
int notation_from_renlib(uint8_t byte, Point *p); /* 0 or RJ_EBADPOS */

#endif /* RJ_NOTATION_H */
