/* test_engine.c - the game engine (solver/engine.h): position tracking from moves and manager stone
 * lists, the checks on the opponent's moves, take-backs, the turn budget, and the moves it chooses in
 * positions with one right answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "engine.h"
#include "error.h"
#include "notation.h"
#include "rules.h"
#include "test_util.h"

/* The point of text "h8" (the test fails on bad text). */
static Point pt(const char *s)
{
    Point p;
    int n;
    assert_int_equal(notation_parse_point(s, &p, &n), 0);
    return p;
}

static Engine *make(double turn_s)
{
    Engine *e;
    assert_int_equal(engine_new(&e, NULL), 0);
    EngineLimits l;
    engine_limits_default(&l);
    l.turn_s = turn_s;
    assert_int_equal(engine_set_limits(e, &l), 0);
    return e;
}

/* Play the space-separated moves, each must be accepted. */
static void play_all(Engine *e, const char *moves)
{
    char buf[256], why[128];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        if (engine_play(e, pt(t), why, sizeof why))
            fail_msg("%s refused: %s", t, why);
}

static void test_play_checks(void **state)
{
    (void)state;
    Engine *e = make(0.2);
    char why[128];
    /* Black f8 g8 h6 h7 with white stones far off: h8 is a double-three, refused for black. */
    play_all(e, "f8 a1 g8 a3 h6 a5 h7 a7");
    Key before = engine_board(e)->key;
    assert_int_equal(engine_play(e, pt("h8"), why, sizeof why), RJ_EBADPOS);
    assert_non_null(strstr(why, "forbidden"));
    assert_int_equal(engine_play(e, pt("a1"), why, sizeof why), RJ_EBADPOS);
    assert_non_null(strstr(why, "occupied"));
    assert_int_equal(engine_play(e, POINT_NONE, why, sizeof why), RJ_EBADPOS);
    assert_true(engine_board(e)->key == before);
    /* Under freestyle the same point is fine. */
    EngineLimits l = *engine_limits(e);
    l.rules = RULE_FREESTYLE;
    assert_int_equal(engine_set_limits(e, &l), 0);
    assert_int_equal(engine_play(e, pt("h8"), why, sizeof why), 0);
    /* Take-back: only the last move. */
    assert_int_equal(engine_undo(e, pt("a7"), why, sizeof why), RJ_EBADPOS);
    assert_int_equal(engine_undo(e, pt("h8"), why, sizeof why), 0);
    assert_true(engine_board(e)->key == before);
    /* After a five the game is over: no more moves, no move to choose. */
    engine_new_game(e);
    play_all(e, "h8 a1 i8 a3 j8 a5 k8 a7 l8");
    assert_int_equal(engine_play(e, pt("b2"), why, sizeof why), RJ_EBADPOS);
    EngineMove m;
    assert_int_equal(engine_choose(e, clock_now(), &m, why, sizeof why), RJ_EBADPOS);
    assert_non_null(strstr(why, "black has five"));
    engine_free(e);
}

static void test_set_stones(void **state)
{
    (void)state;
    Engine *e = make(0.2);
    char why[256];
    /* In the order of play: h8 (own), h9, i9 (own), i8: the engine is black, with the history. */
    Point p1[] = {pt("h8"), pt("h9"), pt("i9"), pt("i8")};
    bool o1[] = {true, false, true, false};
    assert_int_equal(engine_set_stones(e, p1, o1, 4, why, sizeof why), 0);
    assert_int_equal(engine_board(e)->to_move, BLACK);
    assert_int_equal(engine_board(e)->ply, 4);
    assert_int_equal(board_at(engine_board(e), pt("h9")), WHITE);
    /* One own stone fewer: the engine is white; out of order: a stone set. */
    Point p2[] = {pt("h9"), pt("h8"), pt("i9")};
    bool o2[] = {true, false, false};
    assert_int_equal(engine_set_stones(e, p2, o2, 3, why, sizeof why), 0);
    assert_int_equal(engine_board(e)->to_move, WHITE);
    assert_int_equal(engine_board(e)->ply, 0);
    assert_int_equal(board_at(engine_board(e), pt("h8")), BLACK);
    /* Refused, the position unchanged: counts no game reaches, two stones on a point, a standing
     * five, a black move that was forbidden when it was played (in the order of play). */
    Key k = engine_board(e)->key;
    Point p3[] = {pt("h8"), pt("h9")};
    bool o3[] = {true, true};
    assert_int_equal(engine_set_stones(e, p3, o3, 2, why, sizeof why), RJ_EBADPOS);
    Point p4[] = {pt("h8"), pt("h8")};
    bool o4[] = {true, false};
    assert_int_equal(engine_set_stones(e, p4, o4, 2, why, sizeof why), RJ_EBADPOS);
    assert_non_null(strstr(why, "two stones"));
    Point p5[] = {pt("a1"), pt("h8"), pt("a2"), pt("i8"), pt("a3"), pt("j8"), pt("a4"), pt("k8"), pt("a5"), pt("l8")};
    bool o5[] = {true, false, true, false, true, false, true, false, true, false};
    assert_int_equal(engine_set_stones(e, p5, o5, 10, why, sizeof why), RJ_EBADPOS);
    Point p6[] = {pt("f8"), pt("a1"), pt("g8"), pt("a3"), pt("h6"), pt("a5"), pt("h7"), pt("a7"), pt("h8"), pt("a9")};
    bool o6[] = {true, false, true, false, true, false, true, false, true, false};
    assert_int_equal(engine_set_stones(e, p6, o6, 10, why, sizeof why), RJ_EBADPOS);
    assert_true(engine_board(e)->key == k);
    /* No stones: black to move on an empty board; it opens in the centre. */
    assert_int_equal(engine_set_stones(e, NULL, NULL, 0, why, sizeof why), 0);
    EngineMove m;
    assert_int_equal(engine_choose(e, clock_now(), &m, why, sizeof why), 0);
    assert_int_equal(m.move, pt("h8"));
    assert_int_equal(m.source, ENGINE_OPENING);
    engine_free(e);
}

static void test_budget(void **state)
{
    (void)state;
    Engine *e = make(1.0);
    assert_true(engine_turn_budget(e) > 0.5 && engine_turn_budget(e) < 1.0);
    EngineLimits l = *engine_limits(e);
    l.match_s = 100;
    l.left_s = 4; /* a twentieth of the time left: less than the turn limit */
    assert_int_equal(engine_set_limits(e, &l), 0);
    assert_true(engine_turn_budget(e) < 0.2);
    l.turn_s = 0; /* "as fast as possible": still a few milliseconds */
    assert_int_equal(engine_set_limits(e, &l), 0);
    assert_true(engine_turn_budget(e) > 0 && engine_turn_budget(e) <= 0.01);
    l.threads = 0;
    assert_int_equal(engine_set_limits(e, &l), RJ_EBADARG);
    engine_free(e);
}

/* Choose for the position of the moves; the move and its source must be as given. */
static void expect(Engine *e, const char *moves, const char *want, EngineSource src)
{
    char why[128];
    engine_new_game(e);
    play_all(e, moves);
    EngineMove m;
    assert_int_equal(engine_choose(e, clock_now(), &m, why, sizeof why), 0);
    char got[8];
    notation_point_str(m.move, got);
    if (strcmp(got, want) || m.source != src)
        fail_msg("after \"%s\": %s (%s), expected %s (%s)", moves, got, engine_source_name(m.source), want,
                 engine_source_name(src));
}

static void test_choices(void **state)
{
    (void)state;
    Engine *e = make(0.3);
    /* Own five first, even with the opponent's four on the board. */
    expect(e, "h8 a1 i8 a2 j8 a3 k8 a4", "g8", ENGINE_FIVE);
    /* Block the opponent's only five point. */
    expect(e, "h8 a1 b2 a2 c3 a3 d4 a4", "a5", ENGINE_BLOCK);
    /* A black win `renju solve` proves in 0.1 s: the engine proves it within a 4 s turn (it answers
     * as soon as it has: 0.2 s in a Release build; the margin is for sanitizer builds). */
    EngineMove m;
    char why[128];
    EngineLimits l = *engine_limits(e);
    l.turn_s = 4.0;
    assert_int_equal(engine_set_limits(e, &l), 0);
    engine_new_game(e);
    play_all(e, "h8 h9 i9 h5 j7 g6");
    assert_int_equal(engine_choose(e, clock_now(), &m, why, sizeof why), 0);
    assert_true(m.win);
    l.turn_s = 0.3;
    assert_int_equal(engine_set_limits(e, &l), 0);
    assert_true(rules_is_legal((Board *)engine_board(e), m.move, RULE_RENJU));
    /* Defence: white must stop black's open three h8 i8 j8 (g8 or k8, or the far points). */
    engine_new_game(e);
    play_all(e, "h8 a1 i8 a3 j8");
    assert_int_equal(engine_choose(e, clock_now(), &m, why, sizeof why), 0);
    assert_int_equal(m.source, ENGINE_DEFEND);
    char got[8];
    notation_point_str(m.move, got);
    if (strcmp(got, "g8") && strcmp(got, "k8") && strcmp(got, "f8") && strcmp(got, "l8"))
        fail_msg("white's defence of the open three: %s", got);
    engine_free(e);
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_checks),
        cmocka_unit_test(test_set_stones),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_choices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
