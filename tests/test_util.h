/*
 * test_util.h - helpers shared by the cmocka tests.  Include after <cmocka.h>.
 */
#ifndef RJ_TEST_UTIL_H
#define RJ_TEST_UTIL_H

#include <stdint.h>

#include "board.h"
#include "position.h"
#include "rules.h"

/*
 * The position spelled by text (any POSITION form: moves, an opening code,
 * "B:... W:..."), renju rules, to_move as position_parse takes it (EMPTY:
 * from the stone counts).  A text that does not parse fails the test.
 */
static inline Board parse_pos(const char *text, Color to_move)
{
    Board b;
    char err[256];
    if (position_parse(text, RULE_RENJU, to_move, &b, err, sizeof err))
        fail_msg("position_parse(\"%s\"): %s", text, err);
    return b;
}

/* Deterministic test PRNG (xorshift64*); the state must not be 0. */
static inline uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

/* Uniform-ish in [0, n). */
static inline int rng_int(uint64_t *s, int n) { return (int)(rng_next(s) >> 33) % n; }

/* A random renju game near the centre (legal moves only, stopped before a win). */
static inline void random_game(Board *b, uint64_t *s)
{
    board_init(b);
    int moves = 20 + rng_int(s, 60);
    for (int m = 0; m < moves; m++) {
        Point p = POINT_NONE;
        for (int tries = 0; tries < 50 && p == POINT_NONE; tries++) {
            int c = 7 + rng_int(s, 9) + rng_int(s, 9) - 8, r = 7 + rng_int(s, 9) + rng_int(s, 9) - 8;
            if (!point_on_board(c, r))
                continue;
            Point q = point_make(c, r);
            if (rules_is_legal(b, q, RULE_RENJU) && !rules_makes_five(b, q, b->to_move, RULE_RENJU))
                p = q;
        }
        if (p == POINT_NONE)
            break;
        board_play(b, p);
    }
}

#endif /* RJ_TEST_UTIL_H */
