/*
 * test_sgf.c - SGF game records (core/sgf.h): coordinates, hand-written
 * files (setup stones, passes, variations, escapes), round trips through
 * sgf_write / sgf_parse / sgf_board, malformed files, and the hand-written
 * files in tests/data/sgf/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "notation.h"
#include "position.h"
#include "rules.h"
#include "sgf.h"
#include "test_util.h"

static SgfGame g_game, g_game2;

/* Parse text; fail the test when it does not parse. */
static SgfGame *parse_ok(const char *text)
{
    char err[256];
    int rc = sgf_parse(text, strlen(text), &g_game, err, sizeof err);
    if (rc)
        fail_msg("sgf_parse(\"%s\"): %s", text, err);
    return &g_game;
}

/* The board of an SGF text, renju rules; fail the test when it is refused. */
static Board board_of(const char *text)
{
    Board b;
    char err[256];
    SgfGame *g = parse_ok(text);
    if (sgf_board(g, RULE_RENJU, EMPTY, &b, err, sizeof err))
        fail_msg("sgf_board(\"%s\"): %s", text, err);
    return b;
}

static void expect_same(const Board *a, const Board *b)
{
    assert_memory_equal(a->cell, b->cell, sizeof a->cell);
    assert_int_equal(a->to_move, b->to_move);
    assert_true(a->key == b->key);
}

/* Corners and the centre: "aa" is a15, "ao" a1, "oa" o15, "oo" o1, "hh" h8. */
static void test_coordinates(void **state)
{
    (void)state;
    SgfGame *g = parse_ok("(;GM[4]FF[4]SZ[15];B[aa];W[ao];B[oa];W[oo];B[hh])");
    const char *want[] = {"a15", "a1", "o15", "o1", "h8"};
    assert_int_equal(g->nmoves, 5);
    for (int i = 0; i < 5; i++) {
        char s[8];
        assert_string_equal(notation_point_str(g->moves[i], s), want[i]);
        assert_int_equal(g->color[i], i % 2 ? WHITE : BLACK);
    }
}

/* A game record is the position of its move list; passes B[] / W[tt]. */
static void test_moves_and_passes(void **state)
{
    (void)state;
    Board b = board_of("(;GM[4]FF[4]SZ[15]\n;B[hh]\n;W[hg];B[ii] ;W[])");
    Board want = parse_pos("h8 h9 i7 pass", EMPTY);
    expect_same(&b, &want);
    assert_int_equal(b.ply, 4);
    b = board_of("(;B[hh];W[tt];B[ii])");
    want = parse_pos("h8 pass i7", EMPTY);
    expect_same(&b, &want);
}

/* The main line is the first variation at every fork; the others are read but not played. */
static void test_main_line(void **state)
{
    (void)state;
    Board b = board_of("(;GM[4];B[hh](;W[hg](;B[ii])(;B[gi]))(;W[ig];B[aa]))(;B[aa])");
    Board want = parse_pos("h8 h9 i7", EMPTY);
    expect_same(&b, &want);
}

/* AB / AW (lists and rectangles), AE and PL make a stone set; later moves play on it. */
static void test_setup(void **state)
{
    (void)state;
    Board b = board_of("(;GM[4]SZ[15]AB[hh][ii]AW[hg]PL[W])");
    Board want0 = parse_pos("B:a15,b15,a14,b14", BLACK);
    Board rect = board_of("(;AB[bb:aa]PL[B])"); /* corners in either order */
    expect_same(&rect, &want0);
    Board want = parse_pos("B:h8,i7 W:h9", WHITE);
    expect_same(&b, &want);
    b = board_of("(;AB[aa:ba]AW[ab:bb]AE[ba][bb];W[hh])");
    want = parse_pos("B:a15 W:a14,h8", BLACK);
    expect_same(&b, &want);
    /* The first move's colour says who moves after the setup when PL is absent. */
    b = board_of("(;AB[hh][ii]AW[hg];W[gg])");
    want = parse_pos("B:h8,i7 W:h9,g9", BLACK);
    expect_same(&b, &want);
}

/* Comments, escapes, RE, unknown and FF[3]-style properties. */
static void test_texts(void **state)
{
    (void)state;
    SgfGame *g = parse_ok("(;GM[4]FF[3]C[a \\] b\\\\ c\\\nd]RE[B+]PB[Someone]AddBlack[hh]CoPyright[x];B[ii]C[later])");
    assert_string_equal(g->comment, "a ] b\\ cd");
    assert_string_equal(g->result, "B+");
    assert_int_equal(g->nsetup[0], 1); /* AddBlack is AB in FF[3] */
    assert_int_equal(g->nmoves, 1);
}

/* sgf_from_board -> sgf_write -> sgf_parse -> sgf_board gives the same board. */
static void round_trip(const Board *b)
{
    static char buf[65536];
    size_t len;
    char err[256];
    sgf_from_board(b, &g_game);
    snprintf(g_game.comment, sizeof g_game.comment, "round ] trip \\ test");
    snprintf(g_game.note, sizeof g_game.note, "note");
    g_game.note_at = g_game.nmoves;
    assert_int_equal(sgf_write(&g_game, buf, sizeof buf, &len), 0);
    assert_int_equal(strlen(buf), len);
    if (sgf_parse(buf, len, &g_game2, err, sizeof err))
        fail_msg("written SGF does not parse (%s): %s", err, buf);
    /* With no moves the note joins the root comment on a line of its own. */
    assert_string_equal(g_game2.comment, g_game.nmoves ? "round ] trip \\ test" : "round ] trip \\ test\nnote");
    Board c;
    if (sgf_board(&g_game2, RULE_RENJU, EMPTY, &c, err, sizeof err))
        fail_msg("written SGF is refused (%s): %s", err, buf);
    expect_same(b, &c);
    assert_int_equal(c.ply, b->ply);
    /* Too small a buffer: RJ_ENOMEM and the size needed. */
    size_t need;
    assert_int_equal(sgf_write(&g_game, buf, 10, &need), RJ_ENOMEM);
    assert_int_equal(need, len);
}

static void test_round_trip(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"h8 h9 i7 i8 g7 f8", ""}, {"D4 j10 i10 pass", ""},      {"a1 o15 a15 o1", ""},
        {"B:h8,i7 W:h9", "white"}, {"B:a1,b2,c3 W:o15,n14", ""}, {"B:h8 W:", "black"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Color tm = !strcmp(cases[i][1], "white") ? WHITE : !strcmp(cases[i][1], "black") ? BLACK : EMPTY;
        Board b = parse_pos(cases[i][0], tm);
        round_trip(&b);
    }
    /* A stone set with moves played on it keeps both. */
    Board b = parse_pos("B:h8,i7 W:h9", WHITE);
    board_play(&b, point_make(6, 8));
    board_play(&b, POINT_PASS);
    round_trip(&b);
}

/* Exact text of a small record: the layout the CLI writes. */
static void test_write_text(void **state)
{
    (void)state;
    static char buf[4096];
    size_t len;
    Board b = parse_pos("h8 h9", EMPTY);
    sgf_from_board(&b, &g_game);
    sgf_add_move(&g_game, POINT_PASS, BLACK);
    g_game.rules = "renju";
    snprintf(g_game.result, sizeof g_game.result, "W+");
    assert_int_equal(sgf_write(&g_game, buf, sizeof buf, &len), 0);
    assert_string_equal(buf, "(;GM[4]FF[4]CA[UTF-8]SZ[15]RU[renju]RE[W+]\n;B[hh];W[hg];B[])\n");
}

/* Malformed or illegal records: RJ_EBADDATA / RJ_EBADPOS with one line naming the problem. */
static void test_malformed(void **state)
{
    (void)state;
    const char *bad[][2] = {
        {"", "not an SGF"},
        {"B[hh]", "not an SGF"},
        {"(;B[hh]", "end of file"},
        {"(;B[hh])", NULL}, /* fine: checked below as the control */
        {"(;B[hh[)", "unterminated"},
        {"(;B[hh]))", NULL},
        {"(;GM[1];B[hh])", "GM[1]"},
        {"(;SZ[19];B[hh])", "SZ[19]"},
        {"(;B[zz])", "B[zz]"},
        {"(;B[h8])", "B[h8]"},
        {"(;B[hh]W[ii])", "two moves"},
        {"(;B[hh][ii])", "2 values"},
        {"((;B[hh]))", "before any node"},
        {"(;B[hh]())", "without nodes"},
        {"(;B[hh](;W[ii]);B[jj])", "after a variation"},
        {"(;B[hh];AB[aa])", "after move 1"},
        {"(;AB[aa:zz])", "bad point list"},
        {"(;PL[X])", "PL[X]"},
        {"(;B[hh]#)", "unexpected '#'"},
        {"(;B)", "without a value"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[256];
        memset(err, 'x', sizeof err);
        int rc = sgf_parse(bad[i][0], strlen(bad[i][0]), &g_game, err, sizeof err);
        if (!bad[i][1]) {
            assert_int_equal(rc, 0);
            continue;
        }
        if (rc != RJ_EBADDATA)
            fail_msg("'%s' parsed (rc %d)", bad[i][0], rc);
        assert_non_null(memchr(err, 0, sizeof err));
        assert_null(strchr(err, '\n'));
        if (!strstr(err, bad[i][1]))
            fail_msg("'%s': message '%s' lacks '%s'", bad[i][0], err, bad[i][1]);
    }
    /* Parsed but not a legal game: refused by sgf_board. */
    const char *illegal[][2] = {
        {"(;B[hh];B[ii])", "out of turn"},
        {"(;W[hh])", "white cannot move first"},
        {"(;B[hh];W[hh])", "occupied"},
        {"(;AB[hh]AW[hh])", "two stones"},
        {"(;B[hh];W[aa];B[ih];W[ab];B[jh];W[ac];B[kh];W[ad];B[lh];W[ae])", "over"},
        {"(;AB[aa][ab][ac][ad][ae]AW[oo][on][om][ol])", "five"},
    };
    for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++) {
        char err[256];
        Board b;
        SgfGame *g = parse_ok(illegal[i][0]);
        int rc = sgf_board(g, RULE_RENJU, EMPTY, &b, err, sizeof err);
        if (rc != RJ_EBADPOS)
            fail_msg("'%s' accepted as a board", illegal[i][0]);
        if (!strstr(err, illegal[i][1]))
            fail_msg("'%s': message '%s' lacks '%s'", illegal[i][0], err, illegal[i][1]);
    }
}

/* Deep nesting: refused past SGF_MAX_DEPTH, never a crash; accepted below it. */
static void test_nesting(void **state)
{
    (void)state;
    size_t n = SGF_MAX_DEPTH + 10;
    char *s = malloc(8 * n + 8);
    assert_non_null(s);
    for (int depth = SGF_MAX_DEPTH - 1; depth <= SGF_MAX_DEPTH + 5; depth += 6) {
        size_t k = 0;
        for (int i = 0; i < depth; i++)
            k += (size_t)sprintf(s + k, "(;C[]");
        for (int i = 0; i < depth; i++)
            s[k++] = ')';
        char err[256];
        int rc = sgf_parse(s, k, &g_game, err, sizeof err);
        if (depth <= SGF_MAX_DEPTH)
            assert_int_equal(rc, 0);
        else
            assert_int_equal(rc, RJ_EBADDATA);
    }
    free(s);
}

/* The parser never reads past len: the text cut anywhere is refused or parsed, nothing else. */
static void test_prefixes(void **state)
{
    (void)state;
    const char *text = "(;GM[4]FF[4]SZ[15]C[x\\]y]AB[aa:bb]AW[oo];B[hh](;W[hg])(;W[ii]))";
    size_t len = strlen(text);
    for (size_t k = 0; k < len; k++) {
        char *copy = malloc(k ? k : 1);
        assert_non_null(copy);
        memcpy(copy, text, k);
        char err[256];
        int rc = sgf_parse(copy, k, &g_game, err, sizeof err);
        assert_int_equal(rc, RJ_EBADDATA); /* every proper prefix is unfinished */
        free(copy);
    }
    assert_int_equal(sgf_parse(text, len, &g_game, NULL, 0), 0);
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coordinates), cmocka_unit_test(test_moves_and_passes),
        cmocka_unit_test(test_main_line),   cmocka_unit_test(test_setup),
        cmocka_unit_test(test_texts),       cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_write_text),  cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_nesting),     cmocka_unit_test(test_prefixes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
