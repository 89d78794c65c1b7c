/* test_notation.c - point and move text, Gomocup and RenLib coordinates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "notation.h"

/* Every point prints as letter+rank and parses back, in lower and upper case. */
static void test_point_round_trip(void **state)
{
    (void)state;
    for (int p = 0; p < BOARD_POINTS; p++) {
        char buf[8], up[8];
        notation_point_str((Point)p, buf);
        assert_int_equal(buf[0], 'a' + point_col((Point)p));
        assert_int_equal(atoi(buf + 1), point_row((Point)p) + 1);
        Point q = POINT_NONE;
        int used = 0;
        assert_int_equal(notation_parse_point(buf, &q, &used), 0);
        assert_int_equal(q, p);
        assert_int_equal(used, (int)strlen(buf));
        strcpy(up, buf);
        up[0] = (char)(up[0] - 'a' + 'A');
        assert_int_equal(notation_parse_point(up, &q, &used), 0);
        assert_int_equal(q, p);
    }
    char buf[8];
    assert_string_equal(notation_point_str(point_make(7, 7), buf), "h8");
    assert_string_equal(notation_point_str(0, buf), "a1");
    assert_string_equal(notation_point_str(224, buf), "o15");
    assert_string_equal(notation_point_str(POINT_PASS, buf), "pass");
    assert_string_equal(notation_point_str(POINT_NONE, buf), "none");
}

static void test_point_rejects(void **state)
{
    (void)state;
    const char *bad[] = {"", "h", "h0", "h16", "p8", "z1", "8h", "h08", "h-1", "pas", "i99", "@1", "é1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Point p;
        int used;
        assert_int_equal(notation_parse_point(bad[i], &p, &used), RJ_EBADPOS);
    }
    Point p;
    int used;
    assert_int_equal(notation_parse_point("PaSs", &p, &used), 0);
    assert_int_equal(p, POINT_PASS);
    assert_int_equal(used, 4);
}

/* Every pair of points, written in every spelling, parses back to the pair. */
static void test_every_spelling(void **state)
{
    (void)state;
    const char *fmt[] = {"%s %s", "%s%s", "%s,%s", "%s, %s", "%s;%s", "%s-%s", " %s\t%s\n", "%s,,%s,"};
    for (int p = 0; p < BOARD_POINTS; p++)
        for (int q = 0; q < BOARD_POINTS; q += 7) {
            char a[8], b[8], text[32];
            notation_point_str((Point)p, a);
            notation_point_str((Point)q, b);
            for (size_t f = 0; f < sizeof fmt / sizeof fmt[0]; f++)
                for (int upper = 0; upper < 2; upper++) {
                    snprintf(text, sizeof text, fmt[f], a, b);
                    if (upper)
                        for (char *c = text; *c; c++)
                            if (*c >= 'a' && *c <= 'z')
                                *c = (char)(*c - 'a' + 'A');
                    Point mv[4];
                    int n = notation_parse_moves(text, mv, 4, NULL, 0);
                    assert_int_equal(n, 2);
                    assert_int_equal(mv[0], p);
                    assert_int_equal(mv[1], q);
                }
        }
}

static void expect_moves(const char *text, const char *canon)
{
    Point mv[32];
    char err[128] = "", out[256];
    int n = notation_parse_moves(text, mv, 32, err, sizeof err);
    if (n < 0)
        fail_msg("'%s' rejected: %s", text, err);
    assert_string_equal(notation_moves_str(mv, n, out, sizeof out), canon);
}

static void test_sequences(void **state)
{
    (void)state;
    expect_moves("h8 h9 i10", "h8 h9 i10");
    expect_moves("h8h9i10", "h8 h9 i10");
    expect_moves("H8,H9,I10", "h8 h9 i10");
    expect_moves("h8 pass h9", "h8 pass h9");
    expect_moves("h8passh9PASS", "h8 pass h9 pass");
    expect_moves("a1a15", "a1 a15");
    expect_moves("a15a1", "a15 a1");
    expect_moves("o15o1a10a1", "o15 o1 a10 a1");
    expect_moves("  h8 ,  h9 ;i10 - j11  ", "h8 h9 i10 j11");
    expect_moves("", "");
    expect_moves(" , ; ", "");
}

/* A rejected sequence must name the offending token in the message. */
static void expect_reject(const char *text, const char *token)
{
    Point mv[8];
    char err[128] = "";
    int n = notation_parse_moves(text, mv, 8, err, sizeof err);
    assert_int_equal(n, RJ_EBADPOS);
    if (!strstr(err, token))
        fail_msg("'%s': message '%s' does not name '%s'", text, err, token);
}

static void test_sequence_rejects(void **state)
{
    (void)state;
    expect_reject("h8 h16", "'h16'");
    expect_reject("h8 p8", "'p8'");
    expect_reject("h8 h0", "'h0'");
    expect_reject("h8h9x10", "'x10'");
    expect_reject("a1a16", "'a16'");
    expect_reject("h8 h9 i10 !", "'!'");
    expect_reject("h8 h9.", "'h9.'");
    expect_reject("h8 8h", "'8h'");
    expect_reject("h8 h08", "'h08'");
    expect_reject("h8 passs", "'s'");
    expect_reject("h8 h9 h10 h11 h12 h13 h14 h15 a1", "too many moves at 'a1'");
    /* Control characters are never echoed. */
    Point mv[8];
    char err[128];
    assert_int_equal(notation_parse_moves("h8 \001x", mv, 8, err, sizeof err), RJ_EBADPOS);
    assert_non_null(strstr(err, "'?x'"));
    /* The token is cut at a UTF-8 boundary: the message stays valid UTF-8. */
    assert_int_equal(notation_parse_moves("花花花花花花花花花花花花花花花花", mv, 8, err, sizeof err), RJ_EBADPOS);
    size_t quoted = (size_t)(strrchr(err, '\'') - strchr(err, '\'') - 1);
    assert_int_equal(quoted % 3, 0);
    /* The length limit of notation_parse_moves_n is respected. */
    assert_int_equal(notation_parse_moves_n("h8h9", 2, mv, 8, NULL, 0), 1);
    assert_int_equal(notation_parse_moves_n("h8h", 3, mv, 8, NULL, 0), RJ_EBADPOS);
    assert_int_equal(notation_parse_moves_n("h8h10", 4, mv, 8, NULL, 0), 2);
    assert_int_equal(mv[1], point_make(7, 0));
}

static void test_moves_str_truncates_at_move(void **state)
{
    (void)state;
    Point mv[3] = {point_make(7, 7), point_make(7, 8), point_make(8, 9)};
    char buf[9];
    assert_string_equal(notation_moves_str(mv, 3, buf, sizeof buf), "h8 h9");
}

static void test_gomocup(void **state)
{
    (void)state;
    int x, y;
    notation_to_gomocup(point_make(0, 0), &x, &y); /* a1 */
    assert_int_equal(x, 0);
    assert_int_equal(y, 14);
    notation_to_gomocup(point_make(7, 7), &x, &y); /* h8 */
    assert_int_equal(x, 7);
    assert_int_equal(y, 7);
    notation_to_gomocup(point_make(0, 14), &x, &y); /* a15 */
    assert_int_equal(x, 0);
    assert_int_equal(y, 0);
    notation_to_gomocup(point_make(14, 0), &x, &y); /* o1 */
    assert_int_equal(x, 14);
    assert_int_equal(y, 14);
    for (int p = 0; p < BOARD_POINTS; p++) {
        Point q;
        notation_to_gomocup((Point)p, &x, &y);
        assert_true(x >= 0 && x < 15 && y >= 0 && y < 15);
        assert_int_equal(notation_from_gomocup(x, y, &q), 0);
        assert_int_equal(q, p);
    }
    Point q;
    assert_int_equal(notation_from_gomocup(-1, 0, &q), RJ_EBADPOS);
    assert_int_equal(notation_from_gomocup(0, 15, &q), RJ_EBADPOS);
    assert_int_equal(notation_from_gomocup(15, 3, &q), RJ_EBADPOS);
}

static void test_renlib(void **state)
{
    (void)state;
    assert_int_equal(notation_to_renlib(point_make(7, 7)), 0x78);  /* h8 */
    assert_int_equal(notation_to_renlib(point_make(0, 0)), 0xE1);  /* a1 */
    assert_int_equal(notation_to_renlib(point_make(0, 14)), 0x01); /* a15 */
    assert_int_equal(notation_to_renlib(point_make(14, 0)), 0xEF); /* o1 */
    int seen[256] = {0};
    for (int p = 0; p < BOARD_POINTS; p++) {
        uint8_t byte = notation_to_renlib((Point)p);
        Point q;
        assert_int_equal(notation_from_renlib(byte, &q), 0);
        assert_int_equal(q, p);
        seen[byte]++;
    }
    /* Exactly 225 bytes decode, and they are the images of the points. */
    int ok = 0;
    for (int v = 0; v < 256; v++) {
        Point q;
        int rc = notation_from_renlib((uint8_t)v, &q);
        if (rc == 0)
            ok++;
        assert_int_equal(rc == 0, seen[v] == 1);
    }
    assert_int_equal(ok, BOARD_POINTS);
    Point q;
    assert_int_equal(notation_from_renlib(0, &q), RJ_EBADPOS);
    assert_int_equal(notation_from_renlib(0xF1, &q), RJ_EBADPOS);
    assert_int_equal(notation_from_renlib(0x10, &q), RJ_EBADPOS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_round_trip), cmocka_unit_test(test_point_rejects),
        cmocka_unit_test(test_every_spelling),   cmocka_unit_test(test_sequences),
        cmocka_unit_test(test_sequence_rejects), cmocka_unit_test(test_moves_str_truncates_at_move),
        cmocka_unit_test(test_gomocup),          cmocka_unit_test(test_renlib),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
