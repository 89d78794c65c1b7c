/* test_cli_threat.c - end to end: `renju vcf` and `renju vct` output, JSON keys and exit codes. */
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

static Run r;

static const char *FOUR_THREE = "B:h8,i8,j8,k9,k10 W:g8,a1,a3,o15,o13";

static void expect_has(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("'%s' not in output: %s", needle, hay);
}

static void test_vcf_json(void **state)
{
    (void)state;
    run(&r, "vcf", FOUR_THREE, "--shortest", "--json", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "{\"result\":\"win\",\"side\":\"black\",\"line\":\"k8 l8 ");
    expect_has(r.out, "\"attacker_moves\":3,");
    expect_has(r.out, "\"nodes\":");
    expect_has(r.out, "\"time_s\":");
    assert_int_equal(strchr(r.out, '\n') - r.out + 1, (long)strlen(r.out)); /* one line */
    run(&r, "vcf", FOUR_THREE, "--side", "white", "--json", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "\"result\":\"none\",\"side\":\"white\",\"line\":\"\"");
    run(&r, "vcf", FOUR_THREE, "--nodes", "1", "--json", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "\"result\":\"unknown\"");
}

static void test_vcf_text(void **state)
{
    (void)state;
    run(&r, "vcf", "B:f3,c8,d8,e8,g8,h8 W:f4,f5,f6,a15,o1", "--to-move", "white", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "vcf: win for white in 2 moves: f7 pass f8");
    run(&r, "vcf", "B:f3,c8,d8,e8,g8,h8 W:f4,f5,f6,a15,o1", "--to-move", "white", "--rules", "standard", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "vcf: none for white");
}

static void test_vct_json(void **state)
{
    (void)state;
    run(&r, "vct", "B:a1,a3,o15,o13 W:h8,i8,j9,j10", "--to-move", "white", "--json", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "{\"result\":\"win\",\"side\":\"white\",\"line\":\"j8 ");
    run(&r, "vct", "B:a1,a3,o15,o13 W:h8,l11,o1", "--json", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "\"result\":\"none\"");
}

/* A position whose only VCT needs the wide order: black sets up a four-three and more (found by a random search). */
static const char *WIDE_ONLY = "h9 l4 j8 m3 g8 m4 e9 n2 j6 l3 h7 n1 l7 o4";

static void test_vct_order(void **state)
{
    (void)state;
    run(&r, "vct", WIDE_ONLY, "--json", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "{\"result\":\"none\",\"side\":\"black\"");
    run(&r, "vct", WIDE_ONLY, "--order", "2", "--check", "--json", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "{\"result\":\"win\",\"side\":\"black\",\"line\":\"k4 ");
    expect_has(r.out, "\"proof_checked\":true");
    run(&r, "vct", WIDE_ONLY, "--order", "3", "--check", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "vct: win for black");
    expect_has(r.out, "nodes, checked\n");
    run(&r, "vct", "--help", NULL);
    assert_int_equal(r.code, 0);
    expect_has(r.out, "--order K");
    expect_has(r.out, "wide (2..4)");
    run(&r, "vct", WIDE_ONLY, "--order", "5", NULL);
    assert_int_equal(r.code, 64);
    expect_has(r.err, "--order");
    run(&r, "vct", WIDE_ONLY, "--order", "1.5", NULL);
    assert_int_equal(r.code, 64);
}

static void test_errors(void **state)
{
    (void)state;
    run(&r, "vcf", "h8 zz9", NULL);
    assert_int_equal(r.code, 65);
    expect_has(r.err, "renju: ");
    run(&r, "vct", FOUR_THREE, "--side", "purple", NULL);
    assert_int_equal(r.code, 64);
    run(&r, "vcf", NULL);
    assert_int_equal(r.code, 64);
    run(&r, "vct", FOUR_THREE, "--nodes", "-5", NULL);
    assert_int_equal(r.code, 64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vcf_json),  cmocka_unit_test(test_vcf_text), cmocka_unit_test(test_vct_json),
        cmocka_unit_test(test_vct_order), cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
