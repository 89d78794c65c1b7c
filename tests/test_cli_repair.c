/* test_cli_repair.c - end to end: `renju repair` mends a stored proof for a
 * position with one more white stone, stores the checked result, says where
 * it gives up, and rejects bad input with the documented exit codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"

#define SOURCE "h8 h9 i9 e11 i11 k5 j8 g10"

static void new_db(char *path)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
}

static void drop_db(const char *path)
{
    char lock[64];
    snprintf(lock, sizeof lock, "%s-lock", path);
    unlink(path);
    unlink(lock);
}

static void test_repair_cli(void **state)
{
    (void)state;
    char path[] = "/tmp/rj_cli_repair_XXXXXX";
    new_db(path);
    Run r;
    /* no database yet, then no stored proof of the source: 66 */
    run(&r, "repair", SOURCE " pass l6", "--from", SOURCE, "--db", path, "--quiet", NULL);
    assert_int_equal(r.code, 66);
    run(&r, "solve", SOURCE, "--tt-mb", "16", "--quiet", "--db", path, NULL);
    assert_int_equal(r.code, 0);
    run(&r, "repair", SOURCE " pass l6", "--from", SOURCE " pass a1", "--db", path, "--quiet", NULL);
    assert_int_equal(r.code, 66);
    assert_non_null(strstr(r.err, "no stored proof of " SOURCE " pass a1"));
    /* the source after a pass (black's, then white's): found as its stone set for black, not for white */
    run(&r, "query", "h8 h9 i9 e11 i11 k5 pass g10 j8 pass", "--db", path, NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "found: proven for black"));
    assert_non_null(strstr(r.out, "(stored as the stones after the pass)"));
    run(&r, "query", "h8 h9 i9 e11 i11 k5 pass g10 j8 pass", "--db", path, "--attacker", "white", NULL);
    assert_non_null(strstr(r.out, "not found"));
    /* the same with the work of one solve allowed: the second node is not searched, nothing is claimed */
    run(&r, "repair", SOURCE " pass l6", "--from", SOURCE, "--db", path, "--json", "--quiet", "--tt-mb", "16",
        "--max-work", "1", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"result\":\"unknown\""));
    assert_non_null(strstr(r.out, "\"searched\":1,\"declined\":"));
    assert_null(strstr(r.out, "\"declined\":0"));
    run(&r, "query", SOURCE " pass l6", "--db", path, NULL);
    assert_non_null(strstr(r.out, "not found"));
    /* white l6 breaks the proof in two places: proven afresh, one white reply added, checked and stored */
    run(&r, "repair", SOURCE " pass l6", "--from", SOURCE, "--db", path, "--json", "--quiet", "--tt-mb", "16", NULL);
    assert_int_equal(r.code, 0);
    static const char *keys[] = {
        "\"result\":\"proven\"", "\"attacker\":\"black\"", "\"from\":\"" SOURCE "\"", "\"failures\":2", "\"added\":1",
        "\"proof_nodes\":",      "\"proof_depth\":",       "\"escalated\":0",         "\"time_s\":"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strstr(r.out, keys[i]))
            fail_msg("missing %s in %s", keys[i], r.out);
    run(&r, "query", SOURCE " pass l6", "--db", path, NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "proven for black"));
    run(&r, "repair", SOURCE " pass l6", "--from", SOURCE, "--db", path, "--quiet", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "stored already"));
    run(&r, "repair", SOURCE " pass l6", "--from", SOURCE, "--db", path, "--json", "--quiet", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"result\":\"proven\",\"attacker\":\"black\",\"stored_already\":true"));
    /* a far stone: the proof as it was, nothing searched (the source given after a pass: its stone set) */
    run(&r, "repair", SOURCE " pass m4", "--from", "h8 h9 i9 e11 i11 k5 pass g10 j8 pass", "--db", path, "--json",
        "--quiet", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"failures\":0"));
    assert_non_null(strstr(r.out, "\"nodes\":0"));
    /* white j10 within a small budget: not mended, and it says where it stopped */
    run(&r, "repair", SOURCE " pass j10", "--from", SOURCE, "--db", path, "--nodes", "200000", "--tt-mb", "16",
        "--quiet", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "unknown: the proof of " SOURCE " could not be mended (not proven at []"));
    assert_null(strstr(r.out, "--max-work"));
    run(&r, "repair", SOURCE " pass j10", "--from", SOURCE, "--db", path, "--nodes", "200000", "--tt-mb", "16",
        "--max-work", "1", "--quiet", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "1 searched, then --max-work spent)"));
    run(&r, "query", SOURCE " pass j10", "--db", path, NULL);
    assert_null(strstr(r.out, "proven for black"));
    drop_db(path);
}

static void test_repair_bad_input(void **state)
{
    (void)state;
    Run r;
    run(&r, "repair", SOURCE, "--quiet", NULL);
    assert_int_equal(r.code, 64); /* no --from */
    run(&r, "repair", SOURCE, "--from", SOURCE, "--max-failures", "0", NULL);
    assert_int_equal(r.code, 64);
    run(&r, "repair", SOURCE, "--from", SOURCE, "--max-work", "0", NULL);
    assert_int_equal(r.code, 64);
    run(&r, "repair", SOURCE, "--from", SOURCE, "--max-work", "lots", NULL);
    assert_int_equal(r.code, 64);
    assert_non_null(strstr(r.err, "bad --max-work 'lots'"));
    run(&r, "repair", SOURCE " pass l6", "--from", "h8 h8", NULL);
    assert_int_equal(r.code, 65);
    char path[] = "/tmp/rj_cli_repair_XXXXXX";
    new_db(path);
    run(&r, "solve", SOURCE, "--tt-mb", "16", "--quiet", "--db", path, NULL);
    assert_int_equal(r.code, 0);
    run(&r, "repair", SOURCE " l6", "--from", SOURCE, "--db", path, NULL);
    assert_int_equal(r.code, 65); /* white to move against black to move */
    assert_non_null(strstr(r.err, "differ in the side to move"));
    drop_db(path);
    run(&r, "repair", SOURCE " pass l6", "--from", SOURCE, "--db", "/nonexistent/dir/x.lmdb", NULL);
    assert_int_equal(r.code, 66);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repair_cli),
        cmocka_unit_test(test_repair_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
