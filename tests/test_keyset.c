/* test_keyset.c - the set of 64-bit keys (core/keyset.h) against a sorted reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "keyset.h"

static uint64_t next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Keys drawn from a small range (many repeats), through several growths: put's answer and has agree with a reference.
 */
static void test_against_reference(void **state)
{
    (void)state;
    enum { N = 20000, RANGE = 12000 };
    KeySet s = {0};
    uint64_t *ref = calloc(RANGE, sizeof *ref); /* ref[i]: key i+1 was put */
    uint64_t seed = 42;
    assert_non_null(ref);
    assert_false(keyset_has(&s, 7)); /* an empty set has nothing, and no table */
    for (int i = 0; i < N; i++) {
        uint64_t v = next(&seed) % RANGE;
        uint64_t key = (v + 1) * UINT64_C(0x100000001b3); /* spread over the 64 bits */
        int added = keyset_put(&s, key);
        assert_int_equal(added, ref[v] ? 0 : 1);
        ref[v] = 1;
    }
    size_t n = 0;
    for (uint64_t v = 0; v < RANGE; v++) {
        n += ref[v];
        assert_int_equal(keyset_has(&s, (v + 1) * UINT64_C(0x100000001b3)), ref[v] != 0);
    }
    assert_int_equal(s.n, n);
    assert_true(s.cap >= 2 * s.n);
    /* every stored slot is a distinct key */
    uint64_t *slots = malloc(s.cap * sizeof *slots);
    size_t m = 0;
    assert_non_null(slots);
    for (size_t i = 0; i < s.cap; i++)
        if (s.k[i])
            slots[m++] = s.k[i];
    assert_int_equal(m, n);
    qsort(slots, m, sizeof *slots, cmp);
    for (size_t i = 1; i < m; i++)
        assert_true(slots[i - 1] != slots[i]);
    free(slots);
    free(ref);
    keyset_free(&s);
    assert_int_equal(s.n, 0);
    assert_false(keyset_has(&s, UINT64_C(0x100000001b3)));
}

/* Key 0 is a key like any other. */
static void test_zero(void **state)
{
    (void)state;
    KeySet s = {0};
    assert_false(keyset_has(&s, 0));
    assert_int_equal(keyset_put(&s, 0), 1);
    assert_true(keyset_has(&s, 0));
    assert_int_equal(keyset_put(&s, 0), 0);
    assert_false(keyset_has(&s, 1));
    assert_int_equal(s.n, 1);
    keyset_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
