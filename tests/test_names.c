/* test_names.c - the shared names of colours, rule sets and results (core/names.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "error.h"
#include "names.h"

/* The spellings the export format, plan files and JSON output document. */
static void test_spellings(void **state)
{
    (void)state;
    assert_string_equal(color_name(BLACK), "black");
    assert_string_equal(color_name(WHITE), "white");
    assert_string_equal(color_name(EMPTY), "none");
    assert_string_equal(ruleset_name(RULE_RENJU), "renju");
    assert_string_equal(ruleset_name(RULE_FREESTYLE), "freestyle");
    assert_string_equal(ruleset_name(RULE_STANDARD), "standard");
    assert_string_equal(ruleset_name((RuleSet)3), "invalid");
    assert_string_equal(result_name(RESULT_PROVEN), "proven");
    assert_string_equal(result_name(RESULT_DISPROVEN), "disproven");
    assert_string_equal(result_name(RESULT_UNKNOWN), "unknown");
    assert_string_equal(result_name((Result)7), "unknown");
}

/* Every name parses back to its value, exactly or in any case. */
static void test_round_trip(void **state)
{
    (void)state;
    for (Color c = BLACK; c <= WHITE; c++) {
        Color got = EMPTY;
        assert_int_equal(color_parse(color_name(c), false, &got), 0);
        assert_int_equal(got, c);
    }
    for (RuleSet rs = RULE_RENJU; rs <= RULE_STANDARD; rs++) {
        RuleSet got = (RuleSet)9;
        assert_int_equal(ruleset_parse(ruleset_name(rs), false, &got), 0);
        assert_int_equal(got, rs);
    }
    for (Result r = RESULT_UNKNOWN; r <= RESULT_DISPROVEN; r++) {
        Result got = (Result)9;
        assert_int_equal(result_parse(result_name(r), false, &got), 0);
        assert_int_equal(got, r);
    }
    Color c = EMPTY;
    RuleSet rs = RULE_RENJU;
    assert_int_equal(color_parse("White", true, &c), 0);
    assert_int_equal(c, WHITE);
    assert_int_equal(ruleset_parse("FREESTYLE", true, &rs), 0);
    assert_int_equal(rs, RULE_FREESTYLE);
}

/* Anything else is refused and leaves the output alone. */
static void test_refused(void **state)
{
    (void)state;
    Color c = BLACK;
    RuleSet rs = RULE_STANDARD;
    Result r = RESULT_PROVEN;
    assert_int_equal(color_parse("White", false, &c), RJ_EBADARG);
    assert_int_equal(color_parse("none", true, &c), RJ_EBADARG);
    assert_int_equal(color_parse("b", true, &c), RJ_EBADARG);
    assert_int_equal(color_parse("", false, &c), RJ_EBADARG);
    assert_int_equal(color_parse(NULL, false, &c), RJ_EBADARG);
    assert_int_equal(c, BLACK);
    assert_int_equal(ruleset_parse("renju ", false, &rs), RJ_EBADARG);
    assert_int_equal(ruleset_parse("invalid", true, &rs), RJ_EBADARG);
    assert_int_equal(rs, RULE_STANDARD);
    assert_int_equal(result_parse("Proven", false, &r), RJ_EBADARG);
    assert_int_equal(result_parse("win", true, &r), RJ_EBADARG);
    assert_int_equal(r, RESULT_PROVEN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spellings),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
