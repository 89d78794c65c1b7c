/* test_cli.c - end to end: runs the built `renju` binary (RJ_RENJU_BIN) and checks output and exit codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"

/* ---- a minimal JSON validator (RFC 8259 grammar, no semantics) ---- */
static const char *js_value(const char *p);

static const char *js_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

static const char *js_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    while (*p != '"') {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
                        return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
        p++;
    }
    return p + 1;
}

static const char *js_number(const char *p)
{
    const char *s = p;
    if (*p == '-')
        p++;
    if (*p < '0' || *p > '9')
        return NULL;
    while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' || *p == '+' || *p == '-')
        p++;
    return p > s ? p : NULL;
}

static const char *js_seq(const char *p, char close, bool object)
{
    p = js_ws(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (object) {
            if (!(p = js_string(js_ws(p))))
                return NULL;
            p = js_ws(p);
            if (*p++ != ':')
                return NULL;
        }
        if (!(p = js_value(p)))
            return NULL;
        p = js_ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
    }
}

static const char *js_value(const char *p)
{
    p = js_ws(p);
    switch (*p) {
    case '{':
        return js_seq(p, '}', true);
    case '[':
        return js_seq(p, ']', false);
    case '"':
        return js_string(p);
    case 't':
        return strncmp(p, "true", 4) ? NULL : p + 4;
    case 'f':
        return strncmp(p, "false", 5) ? NULL : p + 5;
    case 'n':
        return strncmp(p, "null", 4) ? NULL : p + 4;
    default:
        return js_number(p);
    }
}

/* The line is exactly one JSON object. */
static bool json_object_line(const char *line)
{
    const char *p = js_ws(line);
    if (*p != '{')
        return false;
    p = js_value(p);
    return p && *js_ws(p) == 0;
}

/* Split r->out into lines (in place); returns the count. */
static int lines(char *text, char **line, int max)
{
    int n = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && n < max; l = strtok_r(NULL, "\n", &save))
        line[n++] = l;
    return n;
}

static void test_openings_json(void **state)
{
    (void)state;
    static Run r;
    run(&r, "openings", "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_string_equal(r.err, "");
    char *line[64];
    int n = lines(r.out, line, 64);
    assert_int_equal(n, 26);
    for (int i = 0; i < n; i++) {
        if (!json_object_line(line[i]))
            fail_msg("not a JSON object: %s", line[i]);
        const char *keys[] = {"\"code\":", "\"japanese\":", "\"chinese\":", "\"english\":", "\"moves\":"};
        for (size_t k = 0; k < 5; k++)
            assert_non_null(strstr(line[i], keys[k]));
        char code[32];
        snprintf(code, sizeof code, "\"code\":\"%c%d\"", i < 13 ? 'D' : 'I', i % 13 + 1);
        assert_non_null(strstr(line[i], code));
    }
    assert_non_null(strstr(line[3], "\"japanese\":\"Kagetsu\""));
    assert_non_null(strstr(line[3], "\"chinese\":\"花月\""));
    assert_non_null(strstr(line[3], "\"moves\":\"h8 h9 i9\""));
    run(&r, "openings", NULL);
    assert_int_equal(r.code, 0);
    assert_int_equal(lines(r.out, line, 64), 26);
    assert_non_null(strstr(line[25], "Suisei"));
}

static void test_show(void **state)
{
    (void)state;
    static Run r;
    run(&r, "show", "D4", "--json", NULL);
    assert_int_equal(r.code, 0);
    char *line[64];
    assert_int_equal(lines(r.out, line, 64), 1);
    assert_true(json_object_line(line[0]));
    assert_non_null(strstr(line[0], "\"board\":["));
    assert_non_null(strstr(line[0], "\"to_move\":\"white\""));
    assert_non_null(strstr(line[0], "\"forbidden\":["));
    /* Row 15 first; h8 (black) and h9 (white), i9 (black). */
    assert_non_null(strstr(line[0], "\"board\":[\"...............\""));
    assert_non_null(strstr(line[0], "\".......OX......\",\".......X.......\""));

    /* Human board: coordinates on the edges, a1 at the bottom left. */
    run(&r, "show", "h8", "h9", "a1", NULL);
    assert_int_equal(r.code, 0);
    int n = lines(r.out, line, 64);
    assert_true(n >= 17);
    assert_non_null(strstr(line[0], "a b c d e f g h i j k l m n o"));
    assert_int_equal(strncmp(line[1], "15 ", 3), 0);
    assert_int_equal(strncmp(line[15], " 1 ", 3), 0);
    assert_int_equal(line[15][4], 'x'); /* a1: black, the last move */
    assert_non_null(strstr(line[16], "a b c"));
    assert_non_null(strstr(line[8], " X "));
    assert_non_null(strstr(line[17], "White to move"));

    run(&r, "show", "B:e13,c12 W:o15,o11,a1", "--to-move", "white", "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"to_move\":\"white\""));
    run(&r, "show", "花月", "j10", "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"to_move\":\"black\""));
}

static void test_forbidden(void **state)
{
    (void)state;
    static Run r;
    /* j8 would make two open threes (h8 i8 j8, j8 j9 j10). */
    run(&r, "show", "h8 a1 i8 a3 j9 a5 j10 a7", "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_true(json_object_line(r.out));
    assert_non_null(strstr(r.out, "\"forbidden\":[{\"point\":\"j8\",\"kind\":\"double-three\"}]"));
    assert_non_null(strstr(r.out, "\".......XX#.....\""));
    run(&r, "forbidden", "h8 a1 i8 a3 j9 a5 j10 a7", "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_true(json_object_line(r.out));
    assert_non_null(strstr(r.out, "{\"point\":\"j8\",\"kind\":\"double-three\"}"));
    run(&r, "forbidden", "h8 a1 i8 a3 j9 a5 j10 a7", "--rules", "freestyle", "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"forbidden\":[]"));
    run(&r, "show", "h8 a1 i8 a3 j9 a5 j10 a7 j8", NULL);
    assert_int_equal(r.code, 65);
    assert_non_null(strstr(r.err, "'j8'"));
}

/* Bad positions: exit 65, nothing on stdout, one stderr line naming the token. */
static void expect_bad(const char *pos, const char *token)
{
    static Run r;
    run(&r, "show", pos, NULL);
    if (r.code != 65)
        fail_msg("show '%s': exit %d, want 65", pos, r.code);
    assert_string_equal(r.out, "");
    assert_int_equal(strncmp(r.err, "renju: ", 7), 0);
    assert_int_equal(strchr(r.err, '\n') - r.err, (long)strlen(r.err) - 1);
    if (!strstr(r.err, token))
        fail_msg("show '%s': message '%s' does not name %s", pos, r.err, token);
}

static void test_bad_positions(void **state)
{
    (void)state;
    expect_bad("h8 h9 h8", "'h8'");
    expect_bad("B:h8 W:h8", "'h8'");
    expect_bad("h8 p8", "'p8'");
    expect_bad("h8h16", "'h16'");
    expect_bad("kagetsuu j10", "'kagetsuu'");
    expect_bad("D4 j10 !!", "'!!'");
    expect_bad("B:a1,a2,a3", "black 3, white 0");
    expect_bad("", "empty");
    static Run r;
    run(&r, "show", "h8 h9", "--to-move", "white", NULL);
    assert_int_equal(r.code, 65);
    assert_non_null(strstr(r.err, "--to-move"));
}

static void test_usage(void **state)
{
    (void)state;
    static Run r;
    run(&r, "show", "D4", "--bogus", NULL);
    assert_int_equal(r.code, 64);
    assert_non_null(strstr(r.err, "'--bogus'"));
    run(&r, "show", "D4", "-z", NULL);
    assert_int_equal(r.code, 64);
    assert_non_null(strstr(r.err, "'-z'"));
    run(&r, "show", "D4", "--json=yes", NULL);
    assert_int_equal(r.code, 64);
    assert_non_null(strstr(r.err, "--json"));
    run(&r, "show", "D4", "--to-move", NULL);
    assert_int_equal(r.code, 64);
    assert_non_null(strstr(r.err, "--to-move"));
    run(&r, "show", "D4", "--to-move", "red", NULL);
    assert_int_equal(r.code, 64);
    assert_non_null(strstr(r.err, "'red'"));
    run(&r, "show", NULL);
    assert_int_equal(r.code, 64);
    run(&r, "openings", "extra", NULL);
    assert_int_equal(r.code, 64);
    assert_non_null(strstr(r.err, "'extra'"));
    run(&r, "frobnicate", NULL);
    assert_int_equal(r.code, 64);
    assert_non_null(strstr(r.err, "'frobnicate'"));
    run(&r, NULL);
    assert_int_equal(r.code, 64);
    assert_non_null(strstr(r.err, "usage"));
}

static void test_help(void **state)
{
    (void)state;
    static Run r;
    run(&r, "--help", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "usage: renju"));
    assert_non_null(strstr(r.out, "openings"));
    assert_non_null(strstr(r.out, "show"));
    run(&r, "-h", NULL);
    assert_int_equal(r.code, 0);
    run(&r, "show", "--help", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "show POSITION"));
    run(&r, "help", "openings", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "openings"));
    run(&r, "--version", NULL);
    assert_int_equal(r.code, 0);
    assert_true(strlen(r.out) > 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_openings_json), cmocka_unit_test(test_show),  cmocka_unit_test(test_forbidden),
        cmocka_unit_test(test_bad_positions), cmocka_unit_test(test_usage), cmocka_unit_test(test_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
