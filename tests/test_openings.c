/* test_openings.c - the 26 openings: table contents and lookup by every name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "notation.h"
#include "openings.h"

static void test_table(void **state)
{
    (void)state;
    /* docs/renju.md: code and black 3 of each opening, in order D1..D13, I1..I13. */
    static const char *const b3[NUM_OPENINGS] = {
        "h10", "i10", "j10", "i9", "j9", "i8", "j8", "h7", "i7", "j7", "h6", "i6", "j6",
        "j10", "j9",  "j8",  "j7", "j6", "i8", "i7", "i6", "h7", "h6", "g7", "g6", "f6",
    };
    assert_null(opening_get(-1));
    assert_null(opening_get(NUM_OPENINGS));
    for (int i = 0; i < NUM_OPENINGS; i++) {
        const Opening *o = opening_get(i);
        char code[8], pt[8];
        snprintf(code, sizeof code, "%c%d", i < 13 ? 'D' : 'I', i % 13 + 1);
        assert_string_equal(o->code, code);
        assert_string_equal(notation_point_str(o->moves[0], pt), "h8");
        assert_string_equal(notation_point_str(o->moves[1], pt), i < 13 ? "h9" : "i9");
        assert_string_equal(notation_point_str(o->moves[2], pt), b3[i]);
        assert_true(strlen(o->japanese) > 0 && strlen(o->chinese) > 0 && strlen(o->english) > 0);
    }
    assert_string_equal(opening_get(3)->japanese, "Kagetsu");
    assert_string_equal(opening_get(3)->chinese, "花月");
    assert_string_equal(opening_get(3)->english, "Flower Moon");
    assert_string_equal(opening_get(19)->japanese, "Hogetsu");
    assert_string_equal(opening_get(25)->chinese, "彗星");
}

static void upcase(char *s)
{
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 'a' + 'A');
}

static void downcase(char *s)
{
    for (; *s; s++)
        if (*s >= 'A' && *s <= 'Z')
            *s = (char)(*s - 'A' + 'a');
}

/* Every name of every opening finds it, in any case. */
static void test_lookup_every_name(void **state)
{
    (void)state;
    for (int i = 0; i < NUM_OPENINGS; i++) {
        const Opening *o = opening_get(i);
        const char *names[] = {o->code, o->japanese, o->chinese, o->english};
        for (size_t j = 0; j < 4; j++) {
            char buf[64];
            assert_ptr_equal(opening_find(names[j]), o);
            snprintf(buf, sizeof buf, "%s", names[j]);
            upcase(buf);
            assert_ptr_equal(opening_find(buf), o);
            downcase(buf);
            assert_ptr_equal(opening_find(buf), o);
        }
    }
}

static void test_lookup_variants(void **state)
{
    (void)state;
    struct {
        const char *name, *code;
    } cases[] = {
        {"d4", "D4"},          {"i13", "I13"},       {"KAGETSU", "D4"},     {"kagetsu", "D4"},   {"flower moon", "D4"},
        {"Flower-Moon", "D4"}, {"FLOWERMOON", "D4"}, {"flower_moon", "D4"}, {"cold star", "D1"}, {"Kyuugetsu", "D9"},
        {"Ryuusei", "I5"},     {"Myoujou", "I10"},   {"長星", "I1"},        {"长星", "I1"},      {"雲月", "I6"},
        {"渓月", "D2"},        {"溪月", "D2"},       {"hogetsu", "I7"},     {"Bay Moon", "I7"},  {"浦月", "I7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Opening *o = opening_find(cases[i].name);
        if (!o)
            fail_msg("'%s' not found", cases[i].name);
        assert_string_equal(o->code, cases[i].code);
    }
    const char *none[] = {"",         " ",      "D0",   "D14", "I14", "X1",
                          "kagetsuu", "flower", "moon", "花",  "h8",  "Flower Moon j10"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        if (opening_find(none[i]))
            fail_msg("'%s' should not be found", none[i]);
}

/* No two openings share a name (so a lookup is never ambiguous). */
static void test_names_unique(void **state)
{
    (void)state;
    for (int i = 0; i < NUM_OPENINGS; i++) {
        const Opening *o = opening_get(i);
        const char *names[] = {o->code, o->japanese, o->chinese, o->english};
        for (size_t j = 0; j < 4; j++)
            assert_ptr_equal(opening_find(names[j]), o);
        for (int k = 0; k < i; k++) {
            const Opening *p = opening_get(k);
            assert_string_not_equal(o->japanese, p->japanese);
            assert_string_not_equal(o->chinese, p->chinese);
            assert_string_not_equal(o->english, p->english);
            assert_false(o->moves[1] == p->moves[1] && o->moves[2] == p->moves[2]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_lookup_every_name),
        cmocka_unit_test(test_lookup_variants),
        cmocka_unit_test(test_names_unique),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
