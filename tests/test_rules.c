/* test_rules.c - the renju rules module: corpus cases, wins, fours and threes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "notation.h"
#include "ref_rules.h"
#include "rules.h"

/* Point from text, failing the test on bad text. */
static Point pt(const char *s)
{
    Point p;
    int used;
    assert_int_equal(notation_parse_point(s, &p, &used), 0);
    return p;
}

/* Set up stones "a1,b2,..." of colour c on b. */
static void put_list(Board *b, const char *list, Color c)
{
    Point pts[BOARD_POINTS];
    int n = notation_parse_moves(list, pts, BOARD_POINTS, NULL, 0);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++)
        board_setup_stone(b, pts[i], c);
}

/* Board from black and white lists, black to move. */
static void setup(Board *b, const char *black, const char *white)
{
    board_init(b);
    put_list(b, black, BLACK);
    put_list(b, white, WHITE);
}

static ForbidKind kind_from_name(const char *s)
{
    if (!strcmp(s, "none"))
        return FORBID_NONE;
    if (!strcmp(s, "overline"))
        return FORBID_OVERLINE;
    if (!strcmp(s, "double-four"))
        return FORBID_DOUBLE_FOUR;
    assert_string_equal(s, "double-three");
    return FORBID_DOUBLE_THREE;
}

/* The 23 renju.net advanced-tutorial cases (tests/data/renjunet-advanced.txt). */
static void test_corpus(void **state)
{
    (void)state;
    FILE *f = fopen(RJ_TEST_DATA "/renjunet-advanced.txt", "r");
    assert_non_null(f);
    char line[1024];
    int cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char id[128], probe[8], kind[32], black[512], white[512];
        assert_int_equal(sscanf(line, "%127s %7s %31s B:%511s W:%511s", id, probe, kind, black, white), 5);
        Board b;
        setup(&b, black, white);
        Board before = b;
        Point p = pt(probe);
        ForbidKind got = rules_forbidden(&b, p), ref = ref_forbidden(&b, p);
        if (got != kind_from_name(kind) || ref != got)
            fail_msg("case %s: probe %s expected %s, got %d (reference %d)", id, probe, kind, (int)got, (int)ref);
        assert_memory_equal(&b, &before, sizeof b);
        assert_int_equal(rules_is_forbidden(&b, p), got != FORBID_NONE);
        cases++;
    }
    fclose(f);
    assert_int_equal(cases, 23);
}

static RuleSet rules_from_name(const char *s)
{
    if (!strcmp(s, "renju"))
        return RULE_RENJU;
    if (!strcmp(s, "freestyle"))
        return RULE_FREESTYLE;
    assert_string_equal(s, "standard");
    return RULE_STANDARD;
}

/* Check one expectation line of a golden case against both implementations. */
static void golden_expect(Board *b, const char *name, const char *line)
{
    char point[8], a[16], r[16], yn[8];
    if (sscanf(line, "forbidden %7s %15s", point, a) == 2) {
        Point p = pt(point);
        ForbidKind want = kind_from_name(a), fast = rules_forbidden(b, p), ref = ref_forbidden(b, p);
        if (fast != want || ref != want)
            fail_msg("golden %s: %s: fast %d ref %d", name, line, (int)fast, (int)ref);
        /* The screen flags every double-three, never an overline / double-four. */
        if (want == FORBID_DOUBLE_THREE)
            assert_true(rules_double_three_candidate(b, p));
        if (want == FORBID_OVERLINE || want == FORBID_DOUBLE_FOUR)
            assert_false(rules_double_three_candidate(b, p));
        /* The whole-board list agrees. */
        Point pts[BOARD_POINTS];
        ForbidKind kinds[BOARD_POINTS];
        int n = rules_forbidden_points(b, pts, kinds);
        ForbidKind listed = FORBID_NONE;
        for (int i = 0; i < n; i++)
            if (pts[i] == p)
                listed = kinds[i];
        assert_int_equal(listed, want);
        return;
    }
    if (sscanf(line, "five %7s %15s %15s %7s", point, a, r, yn) == 4) {
        Point p = pt(point);
        Color c = !strcmp(a, "black") ? BLACK : WHITE;
        RuleSet rs = rules_from_name(r);
        bool want = !strcmp(yn, "yes");
        if (rules_makes_five(b, p, c, rs) != want || ref_makes_five(b, p, c, rs) != want)
            fail_msg("golden %s: %s", name, line);
        return;
    }
    if (sscanf(line, "candidate %7s %7s", point, yn) == 2) {
        if (rules_double_three_candidate(b, pt(point)) != !strcmp(yn, "yes"))
            fail_msg("golden %s: %s", name, line);
        return;
    }
    fail_msg("golden %s: bad line '%s'", name, line);
}

/* Hand-made golden boards, one per case class (tests/data/rules_golden.txt). */
static void test_golden(void **state)
{
    (void)state;
    FILE *f = fopen(RJ_TEST_DATA "/rules_golden.txt", "r");
    assert_non_null(f);
    char line[512], name[128] = "";
    Board b;
    int cases = 0, expects = 0;
    bool in_case = false;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        int rank, used;
        if (line[0] == '#' || line[0] == 0 || line[strspn(line, " ")] == 'a')
            continue;
        if (sscanf(line, "case %127s", name) == 1) {
            board_init(&b);
            in_case = true;
            continue;
        }
        assert_true(in_case);
        if (!strcmp(line, "end")) {
            assert_true(board_check(&b));
            cases++;
            in_case = false;
        } else if (sscanf(line, "%d%n", &rank, &used) == 1) {
            assert_true(rank >= 1 && rank <= BOARD_SIZE);
            const char *q = line + used;
            for (int c = 0; c < BOARD_SIZE; c++) {
                while (*q == ' ')
                    q++;
                assert_true(*q == '.' || *q == 'X' || *q == 'O');
                if (*q != '.')
                    board_setup_stone(&b, point_make(c, rank - 1), *q == 'X' ? BLACK : WHITE);
                q++;
            }
        } else {
            Board before = b;
            golden_expect(&b, name, line);
            assert_memory_equal(&b, &before, sizeof b);
            expects++;
        }
    }
    fclose(f);
    assert_false(in_case);
    assert_true(cases >= 19);
    printf("golden: %d cases, %d expectations\n", cases, expects);
}

/* Exactly five wins for black; six does not; white six wins under renju. */
static void test_fives(void **state)
{
    (void)state;
    Board b;
    setup(&b, "d8,e8,f8,g8", "a1,a2,a3");
    assert_true(rules_makes_five(&b, pt("h8"), BLACK, RULE_RENJU));
    assert_true(rules_makes_five(&b, pt("c8"), BLACK, RULE_RENJU));
    Point out[BOARD_POINTS];
    assert_int_equal(rules_five_points(&b, BLACK, RULE_RENJU, out), 2);
    assert_int_equal(rules_forbidden(&b, pt("h8")), FORBID_NONE);
    /* Black six: overline, forbidden and not a win; a five point next to it. */
    setup(&b, "c8,d8,e8,g8,h8", "a1,a2,a3,a4,a5");
    assert_false(rules_makes_five(&b, pt("f8"), BLACK, RULE_RENJU));
    assert_int_equal(rules_forbidden(&b, pt("f8")), FORBID_OVERLINE);
    assert_true(rules_makes_five(&b, pt("f8"), BLACK, RULE_FREESTYLE));
    assert_false(rules_makes_five(&b, pt("f8"), BLACK, RULE_STANDARD));
    /* White six wins under renju and freestyle, not standard. */
    setup(&b, "a1,a2,a3,a4,a5,a7", "c8,d8,e8,g8,h8");
    assert_true(rules_makes_five(&b, pt("f8"), WHITE, RULE_RENJU));
    assert_true(rules_makes_five(&b, pt("f8"), WHITE, RULE_FREESTYLE));
    assert_false(rules_makes_five(&b, pt("f8"), WHITE, RULE_STANDARD));
    board_set_to_move(&b, WHITE);
    board_play(&b, pt("f8"));
    assert_int_equal(rules_last_move_wins(&b, RULE_RENJU), WHITE);
    assert_int_equal(rules_last_move_wins(&b, RULE_STANDARD), EMPTY);
    Color w;
    assert_true(rules_game_over(&b, RULE_RENJU, &w));
    assert_int_equal(w, WHITE);
}

/* A move making exactly five wins even when it also makes 4-4 / an overline. */
static void test_five_beats_forbidden(void **state)
{
    (void)state;
    Board b;
    /* h8 makes five on rank 8 and a four on the h file and the diagonal. */
    setup(&b, "d8,e8,f8,g8,h9,h10,h11,i9,j10,k11", "a1,a2,a3,a4,a5,a6,a7,a8,a9,a10");
    assert_int_equal(rules_forbidden(&b, pt("h8")), FORBID_NONE);
    /* h8 makes five on rank 8 and six on the h file. */
    setup(&b, "d8,e8,f8,g8,h9,h10,h11,h12,h7", "a1,a2,a3,a4,a5,a6,a7,a8,a9");
    assert_int_equal(rules_forbidden(&b, pt("h8")), FORBID_NONE);
    assert_true(rules_makes_five(&b, pt("h8"), BLACK, RULE_RENJU));
}

/* Four points, straight fours and fours on one line. */
static void test_fours(void **state)
{
    (void)state;
    Board b;
    Point out[16];
    setup(&b, "e8,f8,g8", "a1,a2,a3");
    assert_int_equal(rules_four_points_after(&b, pt("h8"), BLACK, RULE_RENJU, out), 2);
    assert_int_equal(rules_forbidden(&b, pt("h8")), FORBID_NONE);
    /* x.xxx.x on one line: two fours. */
    setup(&b, "b8,d8,f8,h8", "a1,a2,a3,a4");
    assert_int_equal(rules_four_points_after(&b, pt("e8"), BLACK, RULE_RENJU, out), 2);
    assert_int_equal(rules_forbidden(&b, pt("e8")), FORBID_DOUBLE_FOUR);
    /* xx.xx.xx */
    setup(&b, "b8,c8,e8,h8,i8", "a1,a2,a3,a4,a5");
    assert_int_equal(rules_forbidden(&b, pt("f8")), FORBID_DOUBLE_FOUR);
    /* xxx.x.xxx */
    setup(&b, "b8,c8,d8,h8,i8,j8", "a1,a2,a3,a4,a5,a6");
    assert_int_equal(rules_forbidden(&b, pt("f8")), FORBID_DOUBLE_FOUR);
    /* Closed four next to the edge: one five point. */
    setup(&b, "a8,b8,c8", "a1,a2,a3");
    assert_int_equal(rules_four_points_after(&b, pt("d8"), BLACK, RULE_RENJU, out), 1);
    assert_int_equal(out[0], pt("e8"));
    /* White: five or more, so xxxx.x gives a five point at the gap. */
    setup(&b, "a1,a2,a3,a4", "c8,d8,e8,h8");
    assert_int_equal(rules_four_points_after(&b, pt("f8"), WHITE, RULE_RENJU, out), 2);
    assert_int_equal(rules_four_points_after(&b, pt("f8"), BLACK, RULE_RENJU, out), 0);
}

/* Three points: a plain three, and a fake one. */
static void test_threes(void **state)
{
    (void)state;
    Board b;
    Point out[16];
    setup(&b, "f8,g8", "a1,a2");
    int n = rules_three_points_after(&b, pt("h8"), BLACK, DIR_E, RULE_RENJU, out);
    assert_int_equal(n, 2); /* e8 and i8 */
    assert_int_equal(rules_three_points_after(&b, pt("h8"), BLACK, DIR_N, RULE_RENJU, out), 0);
    /* Split three f8 . h8 i8: one straight-four point, g8. */
    setup(&b, "f8,i8", "a1,a2");
    n = rules_three_points_after(&b, pt("h8"), BLACK, DIR_E, RULE_RENJU, out);
    assert_int_equal(n, 1);
    assert_int_equal(out[0], pt("g8"));
    /* Blocked on one side: no three. */
    setup(&b, "f8,g8", "e8,a2");
    assert_int_equal(rules_three_points_after(&b, pt("h8"), BLACK, DIR_E, RULE_RENJU, out), 0);
    setup(&b, "f8,g8", "d8,a2");
    assert_int_equal(rules_three_points_after(&b, pt("h8"), BLACK, DIR_E, RULE_RENJU, out), 1);
    assert_int_equal(out[0], pt("i8"));
    setup(&b, "f8,g8", "d8,j8");
    assert_int_equal(rules_three_points_after(&b, pt("h8"), BLACK, DIR_E, RULE_RENJU, out), 0);
    /* 3-3 */
    setup(&b, "f8,g8,h6,h7", "a1,a2,a3,a4");
    assert_int_equal(rules_forbidden(&b, pt("h8")), FORBID_DOUBLE_THREE);
    /* Black overline beyond the three: e8 would make x.xxxx six → not straight. */
    setup(&b, "f8,g8,c8", "a1,a2,a3");
    n = rules_three_points_after(&b, pt("h8"), BLACK, DIR_E, RULE_RENJU, out);
    assert_int_equal(n, 1);
    assert_int_equal(out[0], pt("i8"));
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus), cmocka_unit_test(test_golden),
        cmocka_unit_test(test_fives),  cmocka_unit_test(test_five_beats_forbidden),
        cmocka_unit_test(test_fours),  cmocka_unit_test(test_threes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
