/*
 * test_util.h - helpers shared by the cmocka tests.  Include after <cmocka.h>.
 */
#ifndef RJ_TEST_UTIL_H
#define RJ_TEST_UTIL_H

#include "board.h"
#include "position.h"

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

#endif /* RJ_TEST_UTIL_H */
