/*
 * test_cli_rules.c - end-to-end checks of the rules through the built `renju`
 * binary (RJ_RENJU_BIN): `renju forbidden`, `renju show`, and the legality
 * check of move sequences (a black move onto a forbidden point, a move after
 * the game is won: exit 65 naming the move).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* Run `renju ARGS` (a shell word list) with stderr merged; returns the exit code. */
static int run(const char *args, char *out, size_t len)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", RJ_RENJU_BIN, args);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, len - 1, f);
    out[n] = 0;
    int st = pclose(f);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* 3-3 at h8: row f8 g8, column h6 h7 (white far away). */
static const char *SEQ33 = "'f8 a1 g8 a2 h6 a3 h7 a4'";

static void test_forbidden_text_and_json(void **state)
{
    (void)state;
    char out[8192], args[512];
    snprintf(args, sizeof args, "forbidden %s", SEQ33);
    assert_int_equal(run(args, out, sizeof out), 0);
    assert_string_equal(out, "h8 double-three\n");
    snprintf(args, sizeof args, "forbidden %s --json", SEQ33);
    assert_int_equal(run(args, out, sizeof out), 0);
    assert_string_equal(out, "{\"forbidden\":[{\"point\":\"h8\",\"kind\":\"double-three\"}],\"count\":1}\n");
    /* No forbidden points under freestyle / standard. */
    snprintf(args, sizeof args, "forbidden %s --rules freestyle --json", SEQ33);
    assert_int_equal(run(args, out, sizeof out), 0);
    assert_string_equal(out, "{\"forbidden\":[],\"count\":0}\n");
    /* A corpus stone set (renju.net 01a): e14 is a double-four. */
    assert_int_equal(run("forbidden 'B:e13,c12,e12,b11,e11,a10 W:o15,o11,e10,o8,o5,o2'", out, sizeof out), 0);
    assert_non_null(strstr(out, "e14 double-four\n"));
}

static void test_show_marks_forbidden(void **state)
{
    (void)state;
    char out[8192], args[512];
    snprintf(args, sizeof args, "show %s --json", SEQ33);
    assert_int_equal(run(args, out, sizeof out), 0);
    /* Rank 8 is the 8th row from the top: f8 g8 black, h8 forbidden. */
    assert_non_null(strstr(out, "\".....XX#.......\""));
    assert_non_null(strstr(out, "\"forbidden\":[{\"point\":\"h8\",\"kind\":\"double-three\"}]"));
    snprintf(args, sizeof args, "show %s", SEQ33);
    assert_int_equal(run(args, out, sizeof out), 0);
    assert_non_null(strstr(out, " 8  . . . . . X X # . . . . . . .  8"));
}

static void test_forbidden_move_rejected(void **state)
{
    (void)state;
    char out[8192];
    /* Black 3-3 as the 9th move. */
    assert_int_equal(run("forbidden 'f8 a1 g8 a2 h6 a3 h7 a4 h8'", out, sizeof out), 65);
    assert_non_null(strstr(out, "renju: move 9 'h8' is forbidden"));
    /* The same move is fine under freestyle. */
    assert_int_equal(run("show 'f8 a1 g8 a2 h6 a3 h7 a4 h8' --rules freestyle --json", out, sizeof out), 0);
    /* Black overline as the 11th move. */
    assert_int_equal(run("show 'c8 a1 e8 a3 d8 a5 g8 a7 h8 a9 f8'", out, sizeof out), 65);
    assert_non_null(strstr(out, "renju: move 11 'f8' is forbidden"));
    /* White may make six: it wins (a finished game is not a position to show). */
    assert_int_equal(run("show 'a1 c8 a3 e8 a5 d8 a7 g8 a9 h8 b12 f8' --json", out, sizeof out), 65);
    assert_non_null(strstr(out, "after move 12 'f8' (white won)"));
}

static void test_five_wins_and_ends_the_game(void **state)
{
    (void)state;
    char out[8192];
    /* h8 makes exactly five on rank 8 and fours on the h file and the diagonal: legal, wins. */
    const char *seq = "e8 a1 d8 a3 f8 a5 g8 a7 h9 a9 h10 a11 h11 a13 i9 c1 j10 c3 k11 c5";
    char args[512];
    snprintf(args, sizeof args, "forbidden '%s'", seq);
    assert_int_equal(run(args, out, sizeof out), 0);
    assert_null(strstr(out, "h8 "));
    snprintf(args, sizeof args, "show '%s h8' --json", seq);
    assert_int_equal(run(args, out, sizeof out), 65);
    assert_non_null(strstr(out, "after move 21 'h8' (black won)"));
    snprintf(args, sizeof args, "show '%s h8 c7'", seq);
    assert_int_equal(run(args, out, sizeof out), 65);
    assert_non_null(strstr(out, "renju: move 22 'c7' comes after the game is over"));
    /* A black six (forbidden under renju) wins under freestyle and ends the game. */
    assert_int_equal(run("show 'c8 a1 e8 a3 d8 a5 g8 a7 h8 a9 f8' --rules freestyle", out, sizeof out), 65);
    assert_non_null(strstr(out, "after move 11 'f8' (black won)"));
    assert_int_equal(run("show 'c8 a1 e8 a3 d8 a5 g8 a7 h8 a9 f8 b12' --rules freestyle", out, sizeof out), 65);
    assert_non_null(strstr(out, "move 12 'b12' comes after the game is over"));
    /* Under standard rules a black six does not win: the game goes on. */
    assert_int_equal(run("show 'c8 a1 e8 a3 d8 a5 g8 a7 h8 a9 f8 b12' --rules standard", out, sizeof out), 0);
}

static void test_bad_input(void **state)
{
    (void)state;
    char out[8192];
    assert_int_equal(run("forbidden 'h8 zz9'", out, sizeof out), 65);
    assert_non_null(strstr(out, "renju: "));
    assert_int_equal(run("forbidden 'h8 h8'", out, sizeof out), 65);
    assert_non_null(strstr(out, "occupied"));
    /* A stone set with a black six: forbidden when played under renju, a win under freestyle. */
    assert_int_equal(run("show 'B:c8,d8,e8,f8,g8,h8 W:a1,a3,a5,a7,a9,a11'", out, sizeof out), 65);
    assert_non_null(strstr(out, "black overline"));
    assert_int_equal(run("show 'B:c8,d8,e8,f8,g8,h8 W:a1,a3,a5,a7,a9,a11' --rules freestyle", out, sizeof out), 65);
    assert_non_null(strstr(out, "already over"));
    assert_int_equal(run("show 'B:c8,d8,e8,f8,g8,h8 W:a1,a3,a5,a7,a9,a11' --rules standard", out, sizeof out), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forbidden_text_and_json),
        cmocka_unit_test(test_show_marks_forbidden),
        cmocka_unit_test(test_forbidden_move_rejected),
        cmocka_unit_test(test_five_wins_and_ends_the_game),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
