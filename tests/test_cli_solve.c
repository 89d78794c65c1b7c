/* test_cli_solve.c - end to end: `renju solve` / `renju verify` output, JSON
 * keys, exit codes, the database round trip and a clean stop (75) on SIGINT,
 * SIGTERM and SIGUSR1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"

static void test_solve_json(void **state)
{
    (void)state;
    Run r;
    run(&r, "solve", "h8 h9 i8 i9 j8 j9", "--json", "--tt-mb", "8", "--quiet", NULL);
    assert_int_equal(r.code, 0);
    static const char *keys[] = {
        "\"result\":\"proven\"", "\"attacker\":\"black\"", "\"best\":", "\"nodes\":", "\"time_s\":", "\"pv\":",
        "\"proof_nodes\":",      "\"proof_depth\":"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strstr(r.out, keys[i]))
            fail_msg("missing %s in %s", keys[i], r.out);
}

static void test_verify(void **state)
{
    (void)state;
    Run r;
    run(&r, "verify", "B:a1,a15,o1,o15 W:h8,i9,j8", "--to-move", "white", "--tt-mb", "8", "--quiet", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "result: proven (attacker white)"));
    assert_non_null(strstr(r.out, "verified: yes"));
}

/* An unknown black solve points to the opening-level search (stderr); --quiet and other outcomes do not. */
static void test_unknown_hint(void **state)
{
    (void)state;
    Run r;
    run(&r, "solve", "h8 i9 i7 i8 g7 h7", "--attacker", "black", "--nodes", "20000", "--tt-mb", "8", "--progress",
        "none", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "result: unknown"));
    assert_string_equal(r.err, "");
    run(&r, "solve", "h8 i9 i7 i8 g7 h7", "--attacker", "black", "--nodes", "20000", "--tt-mb", "8",
        "--progress-interval", "1000", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.err, "hint: "));
    assert_non_null(strstr(r.err, "renju opening search \"h8 i9 i7 i8 g7 h7\" --goal win"));
    run(&r, "solve", "h8 h9 i8 i9 j8 j9", "--tt-mb", "8", "--progress-interval", "1000", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "result: proven"));
    assert_null(strstr(r.err, "hint: "));
}

static void test_bad_input(void **state)
{
    (void)state;
    Run r;
    run(&r, "solve", "h8 h8", "--quiet", NULL);
    assert_int_equal(r.code, 65);
    run(&r, "solve", "h8 h9", "--threads", "0", NULL);
    assert_int_equal(r.code, 64);
    /* A game already over. */
    run(&r, "solve", "B:h8,i8,j8,k8,l8 W:a1,a3,a5,a7", "--to-move", "white", "--quiet", NULL);
    assert_int_equal(r.code, 65);
}

static void test_db_round_trip(void **state)
{
    (void)state;
    char path[] = "/tmp/rj_cli_solve_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    Run r;
    run(&r, "solve", "h8 h9 i9 e11 i11 k5 j8 g10", "--json", "--tt-mb", "16", "--quiet", "--db", path, NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"stored\":"));
    run(&r, "solve", "h8 h9 i9 e11 i11 k5 j8 g10", "--json", "--tt-mb", "16", "--quiet", "--db", path, NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"from_db\":true"));
    assert_non_null(strstr(r.out, "\"result\":\"proven\""));
    run(&r, "query", "h8 h9 i9 e11 i11 k5 j8 g10", "--json", "--db", path, NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"found\":true"));
    char lock[64];
    snprintf(lock, sizeof lock, "%s-lock", path);
    unlink(path);
    unlink(lock);
}

/* SIGINT, SIGTERM and SIGUSR1 mid-solve: the partial result and exit 75. */
static void test_signals(void **state)
{
    (void)state;
    const int sigs[] = {SIGINT, SIGTERM, SIGUSR1};
    char out[64], err[64];
    snprintf(out, sizeof out, "/tmp/rj_cli_solve_%d.out", (int)getpid());
    snprintf(err, sizeof err, "/tmp/rj_cli_solve_%d.err", (int)getpid());
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        /* "h8 h9" is far beyond any test budget; the progress line shows the search is running. */
        pid_t pid = run_until(out, err, " root pn ", "solve", "h8 h9", "--json", "--tt-mb", "8", NULL);
        kill(pid, sigs[i]);
        assert_int_equal(run_wait(pid), 75);
        FILE *f = fopen(out, "r");
        assert_non_null(f);
        char line[4096] = "";
        assert_non_null(fgets(line, sizeof line, f));
        fclose(f);
        assert_non_null(strstr(line, "\"result\":\"unknown\""));
        assert_non_null(strstr(line, "\"interrupted\":true"));
    }
    unlink(out);
    unlink(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_json), cmocka_unit_test(test_verify),        cmocka_unit_test(test_unknown_hint),
        cmocka_unit_test(test_bad_input),  cmocka_unit_test(test_db_round_trip), cmocka_unit_test(test_signals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
