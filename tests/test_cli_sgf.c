/*
 * test_cli_sgf.c - end to end: SGF files as POSITION arguments, --sgf export
 * of solve and query (written files read back as positions), malformed
 * files (65, one line), and --progress=json lines (each a flat JSON object
 * with the keys docs/cli.md documents).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"

static char g_dir[256];

static const char *path(const char *name) { return scratch_path(g_dir, name); }

static void write_file(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* The "position" value of `renju show ARG --json`. */
static const char *shown_position(const char *arg, char *out, size_t len)
{
    Run r;
    run(&r, "show", arg, "--json", NULL);
    if (r.code != 0)
        fail_msg("show %s: exit %d, %s", arg, r.code, r.err);
    const char *p = strstr(r.out, "\"position\":\"");
    assert_non_null(p);
    p += strlen("\"position\":\"");
    size_t n = strcspn(p, "\"");
    assert_true(n < len);
    memcpy(out, p, n);
    out[n] = 0;
    return out;
}

/* Hand-written files: the main line, and a stone set from AB/AW. */
static void test_import(void **state)
{
    (void)state;
    char pos[512];
    assert_string_equal(shown_position(RJ_TEST_DATA "/sgf/game.sgf", pos, sizeof pos), "h8 h9 i9 j10 i10 j8 g11");
    assert_string_equal(shown_position("sgf:" RJ_TEST_DATA "/sgf/game.sgf", pos, sizeof pos),
                        "h8 h9 i9 j10 i10 j8 g11");
    assert_string_equal(shown_position(RJ_TEST_DATA "/sgf/setup.sgf", pos, sizeof pos),
                        "B:g7,h8,i8,j8 W:h9,i9,k10,k11");
    Run r;
    run(&r, "vcf", RJ_TEST_DATA "/sgf/setup.sgf", "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"result\":\"win\""));
}

/* solve --sgf: the position's moves, then the proof's main line; read back, it is a game that goes on from the
 * position. */
static void test_solve_export(void **state)
{
    (void)state;
    Run r;
    const char *out = path("pv.sgf");
    run(&r, "solve", "h8 i9 i7 i8 g7 f8", "--sgf", out, "--db", path("e.lmdb"), "--tt-mb", "8", "--quiet", NULL);
    assert_int_equal(r.code, 0);
    const char *s = slurp(out);
    assert_non_null(strstr(s, "(;GM[4]FF[4]CA[UTF-8]SZ[15]"));
    assert_non_null(strstr(s, "RU[renju]RE[B+]"));
    assert_non_null(strstr(s, "result proven for black, best g9"));
    assert_non_null(strstr(s, ";B[hh];W[ig];B[ii];W[ih];B[gi];W[fh]C[The position (black to move)"));
    assert_non_null(strstr(s, "];B[gg]")); /* the best move g9 right after the position */
    char pos[512];
    shown_position(out, pos, sizeof pos);
    assert_int_equal(strncmp(pos, "h8 i9 i7 i8 g7 f8 g9 ", 21), 0);

    /* query --sgf writes the stored proof's main line: the same record body. */
    const char *q = path("q.sgf");
    run(&r, "query", "h8 i9 i7 i8 g7 f8", "--db", path("e.lmdb"), "--sgf", q, NULL);
    assert_int_equal(r.code, 0);
    char pos2[512];
    shown_position(q, pos2, sizeof pos2);
    assert_string_equal(pos, pos2);

    /* An exported file is a POSITION like any other: solve it for the side to move. */
    run(&r, "solve", out, "--json", "--quiet", "--tt-mb", "8", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"result\":"));

    /* A position not in the database: the record holds the position alone. */
    run(&r, "query", "h8 h9", "--db", path("e.lmdb"), "--sgf", q, NULL);
    assert_int_equal(r.code, 0);
    shown_position(q, pos2, sizeof pos2);
    assert_string_equal(pos2, "h8 h9");
}

/* Malformed and illegal files: 65 with one "renju: FILE: ..." line; a missing file 66. */
static void test_malformed(void **state)
{
    (void)state;
    const char *bad[][2] = {
        {"(;B[hh]", "end of file"},
        {"(;GM[1];B[hh])", "GM[1]"},
        {"(;B[hh];B[ii])", "out of turn"},
        {"not sgf", "not an SGF"},
        {"(;B[zz])", "B[zz]"},
        {"(;SZ[19])", "SZ[19]"},
        {"(;B[hh];W[hh])", "occupied"},
        {"(;B[hh]\n\n;W[ii]W[jj])", "line 3"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *p = path("bad.sgf");
        write_file(p, bad[i][0]);
        Run r;
        run(&r, "show", p, NULL);
        assert_int_equal(r.code, 65);
        assert_int_equal(strncmp(r.err, "renju: ", 7), 0);
        assert_int_equal(strchr(r.err, '\n') - r.err, (long)strlen(r.err) - 1);
        if (!strstr(r.err, bad[i][1]) || !strstr(r.err, "bad.sgf"))
            fail_msg("'%s': message '%s' lacks '%s' or the file name", bad[i][0], r.err, bad[i][1]);
    }
    Run r;
    run(&r, "show", path("missing.sgf"), NULL);
    assert_int_equal(r.code, 66);
    run(&r, "show", RJ_TEST_DATA "/sgf/game.sgf", "h8", NULL);
    assert_int_equal(r.code, 64);
    run(&r, "solve", "h8 h9", "--nodes", "10", "--sgf", "/nonexistent-dir/x.sgf", "--quiet", NULL);
    assert_int_equal(r.code, 74);
}

/* A flat JSON object {"k":v,...} with string, number, true/false values: returns false when not one. */
static bool flat_json(const char *s, size_t len)
{
    size_t i = 0;
    if (len < 2 || s[0] != '{' || s[len - 1] != '}')
        return false;
    i = 1;
    for (;;) {
        if (s[i] != '"')
            return false;
        i = i + 1 + strcspn(s + i + 1, "\"") + 1;
        if (i >= len || s[i++] != ':')
            return false;
        if (s[i] == '"') {
            i = i + 1 + strcspn(s + i + 1, "\"") + 1;
        } else if (!strncmp(s + i, "true", 4) || !strncmp(s + i, "null", 4)) {
            i += 4;
        } else if (!strncmp(s + i, "false", 5)) {
            i += 5;
        } else {
            char *end;
            strtod(s + i, &end);
            if (end == s + i)
                return false;
            i = (size_t)(end - s);
        }
        if (i >= len)
            return false;
        if (s[i] == '}')
            return i == len - 1;
        if (s[i++] != ',')
            return false;
    }
}

/* Every stderr line of a --progress=json run parses and has the keys; the last one is final. */
static void check_progress(const char *err, const char *what, const char *const *keys, int min_lines)
{
    int lines = 0;
    bool final = false;
    for (const char *p = err; *p;) {
        const char *e = strchr(p, '\n');
        assert_non_null(e);
        size_t len = (size_t)(e - p);
        char line[1024];
        assert_true(len < sizeof line);
        memcpy(line, p, len);
        line[len] = 0;
        if (!flat_json(line, len))
            fail_msg("not a flat JSON object: %s", line);
        char k[64];
        snprintf(k, sizeof k, "\"progress\":\"%s\"", what);
        assert_non_null(strstr(line, k));
        for (const char *const *q = keys; *q; q++) {
            snprintf(k, sizeof k, "\"%s\":", *q);
            if (!strstr(line, k))
                fail_msg("key %s missing in %s", *q, line);
        }
        assert_false(final); /* nothing after the final line */
        final = strstr(line, "\"final\":true") != NULL;
        lines++;
        p = e + 1;
    }
    assert_true(final);
    assert_true(lines >= min_lines);
}

static void test_progress_json(void **state)
{
    (void)state;
    Run r;
    run(&r, "solve", "h8 h9", "--nodes", "100000", "--tt-mb", "8", "--progress=json", "--progress-interval", "0.02",
        NULL);
    assert_int_equal(r.code, 0);
    static const char *const solve_keys[] = {"elapsed_s", "nodes", "nodes_per_s", "root_pn", "root_dn", "final", NULL};
    check_progress(r.err, "solve", solve_keys, 2);

    run(&r, "fifth", "D4 j10", "--nodes", "3000", "--per-class", "--no-db", "--progress", "json", "--progress-interval",
        "0.25", NULL);
    assert_int_equal(r.code, 0);
    static const char *const fifth_keys[] = {"elapsed_s", "nodes",     "nodes_per_s", "done",  "total",
                                             "proven",    "disproven", "from_db",     "final", NULL};
    check_progress(r.err, "fifth", fifth_keys, 1);
    assert_non_null(strstr(r.err, "\"done\":221,\"total\":221"));

    /* none and --quiet: silent; a bad mode: usage. */
    run(&r, "solve", "h8 h9", "--nodes", "100000", "--tt-mb", "8", "--progress=none", "--progress-interval", "0.02",
        NULL);
    assert_int_equal(r.code, 0);
    assert_string_equal(r.err, "");
    run(&r, "solve", "h8 h9", "--nodes", "1000", "--progress=loud", NULL);
    assert_int_equal(r.code, 64);
    assert_non_null(strstr(r.err, "'loud'"));
    /* plain: lines of text, "solve: nodes ..." */
    run(&r, "solve", "h8 h9", "--nodes", "100000", "--tt-mb", "8", "--progress=plain", "--progress-interval", "0.02",
        NULL);
    assert_int_equal(r.code, 0);
    assert_int_equal(strncmp(r.err, "solve: nodes ", 13), 0);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/rj_cli_sgf_%d", (int)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", g_dir, g_dir);
    if (system(cmd))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import),
        cmocka_unit_test(test_solve_export),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_progress_json),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd))
        return 1;
    return rc;
}
