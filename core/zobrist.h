/*
 * zobrist.h - Zobrist keys for positions.
 *
 * Keys are computed on the fly from a fixed, named seed with the splitmix64
 * finaliser, so there is no table to initialise and no global state.  The seed
 * is part of the persisted identity of transposition-table entries in bench
 * signatures: never change ZOB_SEED.
 */
#ifndef RJ_ZOBRIST_H
#define RJ_ZOBRIST_H

#include <assert.h>

#include "types.h"

/* The persisted seed: changing it changes every bench signature. */
#define ZOB_SEED UINT64_C(0x52454e4a55303031) /* "RENJU001" */

/* splitmix64 finaliser: a bijective 64-bit mixer. */
static inline Key zob_mix(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* Key of a stone of colour c (BLACK or WHITE) on point p (on the board). */
static inline Key zob_stone(Color c, Point p)
{
    assert((c == BLACK || c == WHITE) && p < BOARD_POINTS);
    return zob_mix(ZOB_SEED ^ ((uint64_t)c << 16) ^ p);
}

/* Key toggled when white is to move. */
static inline Key zob_side(void) { return zob_mix(ZOB_SEED ^ UINT64_C(0xffff0000)); }

/* Key toggled when the last move was a pass (a second pass ends the game). */
static inline Key zob_pass(void) { return zob_mix(ZOB_SEED ^ UINT64_C(0xeeee0000)); }

#endif /* RJ_ZOBRIST_H */
