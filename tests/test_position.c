/* test_position.c - positions from user text: every accepted spelling, every reject class. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "notation.h"
#include "position.h"
#include "rules.h"

static int setup(void **state)
{
    (void)state;
    rules_init();
    return 0;
}

static void parse_ok(const char *text, RuleSet rs, Color tm, Board *b)
{
    char err[256] = "";
    int rc = position_parse(text, rs, tm, b, err, sizeof err);
    if (rc)
        fail_msg("'%s' rejected: %s", text, err);
    assert_true(board_check(b));
}

/* text parses to the same stones, side to move and key as ref. */
static void expect_same(const char *text, const char *ref)
{
    Board a, b;
    parse_ok(text, RULE_RENJU, EMPTY, &a);
    parse_ok(ref, RULE_RENJU, EMPTY, &b);
    if (memcmp(a.cell, b.cell, sizeof a.cell) || a.to_move != b.to_move || a.key != b.key)
        fail_msg("'%s' differs from '%s'", text, ref);
}

static void test_accepted_spellings(void **state)
{
    (void)state;
    const char *same[] = {"h8 h9 i10",
                          "h8h9i10",
                          "H8,H9,I10",
                          "H8H9I10",
                          " h8 ; h9 - i10 ",
                          "\th8,\nh9, i10\n",
                          "D2",
                          "d2",
                          "Keigetsu",
                          "KEIGETSU",
                          "溪月",
                          "Brook Moon",
                          "brook moon",
                          "brook-moon",
                          "B:h8,i10 W:h9",
                          "b:i10 w:h9 b:h8",
                          "W:h9 B:h8 B:i10"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        expect_same(same[i], "h8 h9 i10");
    const char *d4[] = {"D4 j10 i10",          "D4j10i10",
                        "D4,J10,I10",          "kagetsu j10 i10",
                        "Kagetsu,j10,i10",     "花月 j10 i10",
                        "花月j10i10",          "Flower Moon j10 i10",
                        "FLOWER MOON J10 I10", "flower-moon-j10-i10",
                        "h8 h9 i9 j10 i10",    "B:h8,i9,i10 W:h9,j10"};
    for (size_t i = 0; i < sizeof d4 / sizeof d4[0]; i++)
        expect_same(d4[i], "h8h9i9j10i10");
    expect_same("Cold Star", "h8 h9 h10");
    /* A lower-case code followed by moves that play as a game is a move list. */
    expect_same("d4 e5 f6", "B:d4,f6 W:e5");
    expect_same("i7,a1,h8", "B:i7,h8 W:a1");
    expect_same("d4 j10 i10", "B:d4,i10 W:j10");
    expect_same("d4", "h8 h9 i9"); /* a code alone is the opening */
    expect_same("I13 pass", "h8 i9 f6 pass");
    Board b;
    parse_ok("h8 pass h9", RULE_RENJU, EMPTY, &b);
    assert_int_equal(b.ply, 3);
    assert_int_equal(board_at(&b, point_make(7, 8)), BLACK);
    assert_int_equal(b.to_move, WHITE);
    parse_ok("h8 pass", RULE_RENJU, EMPTY, &b);
    assert_int_equal(board_last_move(&b), POINT_PASS);
}

static void test_stone_sets(void **state)
{
    (void)state;
    Board b;
    parse_ok("B:e13,c12,e12 W:o15,o11", RULE_RENJU, EMPTY, &b);
    assert_int_equal(b.to_move, WHITE);
    assert_int_equal(b.stones[0], 3);
    assert_int_equal(b.stones[1], 2);
    assert_int_equal(board_at(&b, point_make(4, 12)), BLACK);
    assert_int_equal(board_at(&b, point_make(14, 14)), WHITE);
    assert_int_equal(b.ply, 0);
    parse_ok("B:e13,c12 W:o15,o11", RULE_RENJU, EMPTY, &b);
    assert_int_equal(b.to_move, BLACK);
    /* --to-move overrides inference and permits any counts. */
    parse_ok("B:e13,c12 W:o15,o11", RULE_RENJU, WHITE, &b);
    assert_int_equal(b.to_move, WHITE);
    parse_ok("B:a1,a3,a5,c1", RULE_RENJU, BLACK, &b);
    assert_int_equal(b.to_move, BLACK);
    parse_ok("W:h8", RULE_RENJU, WHITE, &b);
    /* The empty board is a stone set with no stones. */
    parse_ok("B: W:", RULE_RENJU, EMPTY, &b);
    assert_int_equal(board_stone_count(&b), 0);
    assert_int_equal(b.to_move, BLACK);
}

/* text is rejected with RJ_EBADPOS and a message containing want. */
static void expect_reject_tm(const char *text, Color tm, const char *want)
{
    Board b;
    char err[256] = "";
    int rc = position_parse(text, RULE_RENJU, tm, &b, err, sizeof err);
    if (rc != RJ_EBADPOS)
        fail_msg("'%s' accepted", text);
    if (!strstr(err, want))
        fail_msg("'%s': message '%s' does not contain '%s'", text, err, want);
    assert_null(strchr(err, '\n'));
}

static void expect_reject(const char *text, const char *want) { expect_reject_tm(text, EMPTY, want); }

static void test_rejects(void **state)
{
    (void)state;
    /* Empty input. */
    expect_reject("", "empty");
    expect_reject("  , ", "empty");
    /* Two stones on one point. */
    expect_reject("h8 h8", "'h8'");
    expect_reject("h8 h9 i10 h9", "'h9'");
    expect_reject("D4 i9", "'i9'");
    expect_reject("B:h8 W:h8", "'h8'");
    expect_reject("B:h8,h8", "'h8'");
    /* A point off the board. */
    expect_reject("h8 h16", "'h16'");
    expect_reject("h8 p8", "'p8'");
    expect_reject("h8h9a0", "'a0'");
    expect_reject("D4 z1", "'z1'");
    expect_reject("B:e13,c16 W:o15", "'c16'");
    expect_reject("B:e13 W:q15", "'q15'");
    /* Unknown opening or junk. */
    expect_reject("kagetsuu", "'kagetsuu'");
    expect_reject("Flower Mooon j10", "'Flower'");
    expect_reject("foo h8", "'foo'");
    expect_reject("X:h8", "'X:h8'");
    expect_reject("h8 h9 x", "'x'");
    expect_reject("h8 h9 i10!", "'i10!'");
    expect_reject("I0 h8", "'I0'");
    expect_reject("B:h8 Q:h9", "'Q:h9'");
    expect_reject("B:h8 W:pass", "pass");
    /* Bad counts with no side to move. */
    expect_reject("B:a1,a2,a3", "black 3, white 0");
    expect_reject("W:h8", "black 0, white 1");
    expect_reject("B:a1 W:b1,b2", "black 1, white 2");
    /* A forced side to move that contradicts the moves. */
    expect_reject_tm("h8 h9 i10", BLACK, "--to-move black");
    expect_reject_tm("D4", BLACK, "--to-move black");
    /* Moves after the game is over, or a sequence that ends it (two passes). */
    expect_reject("h8 pass pass", "'pass'");
    expect_reject("h8 pass pass h9", "'h9'");
    /* Too many moves. */
    static char big[8 * MAX_PLY];
    big[0] = 0;
    for (int i = 0; i < MAX_PLY + 10; i++)
        strcat(big, "pass ");
    expect_reject(big, "too many moves at 'pass'");
}

/* Fives and forbidden moves end or refuse a game. */
static void test_rule_rejects(void **state)
{
    (void)state;
    Board b;
    char err[256];
    assert_int_equal(position_parse("h8 a1 h9 a2 h10 a3 h11 a4", RULE_RENJU, EMPTY, &b, err, sizeof err), 0);
    assert_true(rules_makes_five(&b, point_make(7, 11), BLACK, RULE_RENJU)); /* h12 completes h8-h12 */
    expect_reject("h8 a1 h9 a2 h10 a3 h11 a4 h12", "'h12'");
    expect_reject("h8 a1 h9 a2 h10 a3 h11 a4 h12 a5", "'a5'");
    expect_reject("B:h8,h9,h10,h11,h12 W:a1,a2,a3,a4", "black five");
    expect_reject("B:h8,h9,h10,h11,c3 W:a1,a2,a3,a4,a5", "white five");
    /* j8 makes two open threes (h8 i8 j8 and j8 j9 j10): a black double-three. */
    expect_reject("h8 a1 i8 a3 j9 a5 j10 a7 j8", "'j8' is forbidden for black (double-three)");
    /* ... but not under freestyle, and not for white. */
    assert_int_equal(position_parse("h8 a1 i8 a3 j9 a5 j10 a7 j8", RULE_FREESTYLE, EMPTY, &b, err, sizeof err), 0);
    assert_int_equal(position_parse("a1 h8 a3 i8 a5 j9 a7 j10 a9 j8", RULE_RENJU, EMPTY, &b, err, sizeof err), 0);
    /* An overline and a double-four. */
    expect_reject("h8 a1 h9 a3 h10 a5 h12 a7 h13 a9 h11", "'h11' is forbidden for black (overline)");
    expect_reject("h8 a1 h9 a3 h10 a5 i11 a7 j11 a9 k11 a11 h11", "'h11' is forbidden for black (double-four)");
}

/* position_str() writes text that parses back to the same position. */
static void test_round_trip(void **state)
{
    (void)state;
    const char *cases[] = {"h8 h9 i10", "D4 j10 i10 pass", "B:e13,c12,e12 W:o15,o11", "B: W:", "h8 pass h9 pass"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Board a, b;
        char text[POSITION_STR_LEN];
        parse_ok(cases[i], RULE_RENJU, EMPTY, &a);
        position_str(&a, text, sizeof text);
        parse_ok(text, RULE_RENJU, a.to_move, &b);
        assert_memory_equal(a.cell, b.cell, sizeof a.cell);
        assert_int_equal(a.key, b.key);
        assert_int_equal(a.ply, b.ply);
    }
    Board a;
    char text[POSITION_STR_LEN];
    parse_ok("h8 h9 i10", RULE_RENJU, EMPTY, &a);
    assert_string_equal(position_str(&a, text, sizeof text), "h8 h9 i10");
    parse_ok("b:I10 w:H9 b:H8", RULE_RENJU, EMPTY, &a);
    assert_string_equal(position_str(&a, text, sizeof text), "B:h8,i10 W:h9");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepted_spellings), cmocka_unit_test(test_stone_sets), cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_rule_rejects),       cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
