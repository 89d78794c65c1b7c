/*
 * pattern.h - line-pattern table for a black stone under renju.
 *
 * A black stone on point p sees, in each direction, the ten points at
 * distance 1..5 on either side.  Each is black, empty, or blocked (a white
 * stone or off the board: the same thing for black).  That is all a line
 * needs to decide, for the stone at p: exactly five, overline, how many fours
 * (two on one line count twice, a straight four once) and which points would
 * turn the line into a straight four (three candidates, before the recursive
 * legality check of RIF 9.3).  pattern_init() classifies all 3^10 windows
 * once into a read-only table indexed by the window in base 3.
 *
 * Entry layout (uint16_t):
 *   bit 0      PAT_FIVE: the stone makes exactly five on this line
 *   bit 1      PAT_OVER: the stone makes six or more
 *   bits 2-3   number of fours through the stone (0..2; not set with five/over)
 *   bits 4-10  straight-four points: bit 4+k+3 for offset k in -3..3 (k != 0)
 *              along the line (not set with five/over)
 *
 * Thread safety: pattern_init() once (rules_init() calls it), then read-only.
 */
#ifndef RJ_PATTERN_H
#define RJ_PATTERN_H

#include <assert.h>

#include "types.h"

enum {
    PAT_FIVE = 1,
    PAT_OVER = 2,
    PAT_FOUR_SHIFT = 2,
    PAT_FOUR_MASK = 3 << PAT_FOUR_SHIFT,
    PAT_THREE_SHIFT = 4,
    PAT_THREE_MASK = 0x7f << PAT_THREE_SHIFT,
    PAT_WINDOWS = 59049 /* 3^10 */
};

/* Classified windows, indexed by pattern_index(). Built by pattern_init(). */
extern uint16_t pattern_black[PAT_WINDOWS];
/*
 * Base-3 digit weights of an 11-bit window mask (bit j = offset j - 5): sum of
 * 3^k over its set bits, k = j for j < 5 and j - 1 for j > 5; bit 5 (the
 * centre) weighs nothing.
 */
extern uint16_t pattern_tern[2048];

/* Build the tables (idempotent; not thread safe: call before threads start). */
void pattern_init(void);

/*
 * Table index of the window around line position i (0..14), from the line's
 * black stones (not including i) and its empty on-board points (i itself is
 * ignored).
 */
static inline unsigned pattern_index(uint32_t black, uint32_t empty, int i)
{
    assert(i >= 0 && i < BOARD_SIZE && !(black >> i & 1));
    return pattern_tern[(black << 5 >> i) & 0x7ff] + 2u * pattern_tern[(empty << 5 >> i) & 0x7ff];
}

/* Number of fours in an entry. */
static inline int pattern_fours(uint16_t e) { return (e & PAT_FOUR_MASK) >> PAT_FOUR_SHIFT; }

#endif /* RJ_PATTERN_H */
