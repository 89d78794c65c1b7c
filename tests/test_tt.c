/* test_tt.c - the lock-free transposition table: round trips, saturation,
 * replacement preferences, torn entries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tt.h"

static void test_round_trip(void **state)
{
    (void)state;
    TT tt;
    assert_int_equal(tt_create(&tt, 1), 0);
    assert_int_equal((uintptr_t)tt.entries % (2u << 20), 0);
    TTData d = { 17, 4000, 112, 9, true }, r;
    assert_false(tt_probe(&tt, 0x1234, &r));
    tt_store(&tt, 0x1234, &d);
    assert_true(tt_probe(&tt, 0x1234, &r));
    assert_int_equal(r.pn, 17);
    assert_int_equal(r.dn, 4000);
    assert_int_equal(r.best, 112);
    assert_int_equal(r.work, 9);
    assert_true(r.exact);
    /* A different key in the same bucket is absent. */
    assert_false(tt_probe(&tt, 0x1234 + tt.nbuckets, &r));
    tt_clear(&tt);
    assert_false(tt_probe(&tt, 0x1234, &r));
    tt_free(&tt);
}

static void test_saturation(void **state)
{
    (void)state;
    TT tt;
    assert_int_equal(tt_create(&tt, 1), 0);
    TTData d = { PN_INF, 0, 0, 0, false }, r;
    tt_store(&tt, 99, &d);
    assert_true(tt_probe(&tt, 99, &r));
    assert_int_equal(r.pn, PN_INF);
    assert_int_equal(r.dn, 0);
    /* Large finite values stay finite. */
    d = (TTData){ PN_INF - 1, 50000000, 0, 0, false };
    tt_store(&tt, 100, &d);
    assert_true(tt_probe(&tt, 100, &r));
    assert_int_equal(r.pn, TT_PN_MAX);
    assert_int_equal(r.dn, TT_PN_MAX);
    assert_true(r.pn < PN_INF);
    assert_int_equal(tt_work_log(0), 0);
    assert_int_equal(tt_work_log(2), 1);
    assert_int_equal(tt_work_log(1024), 10);
    assert_int_equal(tt_work_log(UINT64_MAX), 63);
    tt_free(&tt);
}

static void test_replacement(void **state)
{
    (void)state;
    TT tt;
    assert_int_equal(tt_create(&tt, 1), 0);
    uint64_t nb = tt.nbuckets;
    /* Fill one bucket: a solved entry with little work, three unsolved with more. */
    TTData solved = { 0, PN_INF, 5, 1, false }, r;
    tt_store(&tt, 7, &solved);
    for (int i = 1; i < TT_WAYS; i++) {
        TTData d = { 3, 3, 0, (uint8_t)(10 + i), false };
        tt_store(&tt, 7 + i * nb, &d);
    }
    /* A new entry evicts the unsolved one with the least work, never the proof. */
    TTData d = { 2, 2, 0, 0, false };
    tt_store(&tt, 7 + 9 * nb, &d);
    assert_true(tt_probe(&tt, 7, &r));
    assert_false(tt_probe(&tt, 7 + 1 * nb, &r));
    assert_true(tt_probe(&tt, 7 + 2 * nb, &r));
    assert_true(tt_probe(&tt, 7 + 9 * nb, &r));
    /* A stale unsolved store does not overwrite a solved entry of the same key. */
    TTData stale = { 5, 5, 0, 20, false };
    tt_store(&tt, 7, &stale);
    assert_true(tt_probe(&tt, 7, &r));
    assert_int_equal(r.pn, 0);
    tt_free(&tt);
}

static void test_torn_entry(void **state)
{
    (void)state;
    TT tt;
    assert_int_equal(tt_create(&tt, 1), 0);
    TTData d = { 1, 2, 3, 4, false }, r;
    tt_store(&tt, 42, &d);
    /* Simulate a torn write: the data word of another writer with the old lock. */
    TTEntry *e = &tt.entries[(42 & (tt.nbuckets - 1)) * TT_WAYS];
    int slot = -1;
    for (int i = 0; i < TT_WAYS; i++)
        if (atomic_load(&e[i].data))
            slot = i;
    assert_true(slot >= 0);
    atomic_store(&e[slot].data, atomic_load(&e[slot].data) ^ 0x5);
    assert_false(tt_probe(&tt, 42, &r));
    tt_free(&tt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_saturation),
        cmocka_unit_test(test_replacement),
        cmocka_unit_test(test_torn_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
