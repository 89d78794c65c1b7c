/* test_tt.c - the lock-free transposition table: round trips, saturation,
 * replacement preferences, torn entries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

/* Fill key 7's bucket: a solved entry with little work (key 7), the others unsolved with more (7 + i * nb). */
static void fill_bucket7(TT *tt)
{
    uint64_t nb = tt->nbuckets;
    TTData solved = { 0, PN_INF, 5, 1, false };
    assert_int_equal(tt_store(tt, 7, &solved), TT_FILLED);
    for (int i = 1; i < TT_WAYS; i++) {
        TTData d = { 3, 3, 0, (uint8_t)(10 + i), false };
        assert_int_equal(tt_store(tt, 7 + i * nb, &d), TT_FILLED);
    }
}

static void test_replacement(void **state)
{
    (void)state;
    TT tt;
    assert_int_equal(tt_create(&tt, 1), 0);
    uint64_t nb = tt.nbuckets;
    TTData r;
    fill_bucket7(&tt);
    /* A new entry evicts the unsolved one with the least work, never the proof. */
    TTData d = { 2, 2, 0, 0, false };
    assert_int_equal(tt_store(&tt, 7 + 9 * nb, &d), TT_EVICTED);
    assert_true(tt_probe(&tt, 7, &r));
    assert_false(tt_probe(&tt, 7 + 1 * nb, &r));
    assert_true(tt_probe(&tt, 7 + 2 * nb, &r));
    assert_true(tt_probe(&tt, 7 + 9 * nb, &r));
    /* A stale unsolved store does not overwrite a solved entry of the same key. */
    TTData stale = { 5, 5, 0, 20, false };
    assert_int_equal(tt_store(&tt, 7, &stale), TT_KEPT);
    assert_true(tt_probe(&tt, 7, &r));
    assert_int_equal(r.pn, 0);
    /* A bucket of solved entries: a new key evicts the one with the least work. */
    uint64_t others[TT_WAYS - 1];
    for (int i = 0; i < TT_WAYS - 2; i++)
        others[i] = 7 + (uint64_t)(i + 2) * nb;
    others[TT_WAYS - 2] = 7 + 9 * nb;
    for (int i = 0; i < TT_WAYS - 1; i++) {
        TTData p = { 0, PN_INF, 0, (uint8_t)(30 + i), false };
        assert_int_equal(tt_store(&tt, others[i], &p), TT_KEPT); /* its own entry, overwritten */
    }
    TTData p = { 0, PN_INF, 0, 40, false };
    Key ek = 0;
    TTData ev = { 1, 1, 0, 0, false };
    assert_int_equal(tt_store_ev(&tt, 7 + 20 * nb, &p, &ek, &ev), TT_EVICTED_SOLVED);
    assert_false(tt_probe(&tt, 7, &r)); /* work 1: the least */
    assert_true(tt_probe(&tt, 7 + 20 * nb, &r));
    for (int i = 0; i < TT_WAYS - 1; i++)
        assert_true(tt_probe(&tt, others[i], &r));
    /* The evicted entry is reported whole (for the solved store). */
    assert_int_equal(ek, 7);
    assert_int_equal(ev.pn, 0);
    assert_int_equal(ev.dn, PN_INF);
    assert_int_equal(ev.best, 5);
    assert_int_equal(ev.work, 1);
    tt_free(&tt);
}

/* With its solved entries kept elsewhere a table ranks by work alone, and reports the solved ones it evicts. */
static void test_replacement_solved_elsewhere(void **state)
{
    (void)state;
    TT tt;
    assert_int_equal(tt_create(&tt, 1), 0);
    tt.solved_elsewhere = true;
    uint64_t nb = tt.nbuckets;
    TTData r;
    fill_bucket7(&tt);
    Key ek = 0;
    TTData ev = { 1, 1, 0, 0, false };
    TTData d = { 2, 2, 0, 0, false };
    assert_int_equal(tt_store_ev(&tt, 7 + 9 * nb, &d, &ek, &ev), TT_EVICTED_SOLVED);
    assert_int_equal(ek, 7);
    assert_int_equal(ev.pn, 0);
    assert_false(tt_probe(&tt, 7, &r));
    for (int i = 1; i < TT_WAYS; i++)
        assert_true(tt_probe(&tt, 7 + i * nb, &r));
    /* Of equal work the solved entry goes first; an unsolved victim is not reported. */
    TTData sv = { PN_INF, 0, 0, 11, true }, u = { 4, 4, 0, 11, false }, hi = { 4, 4, 0, 20, false };
    assert_int_equal(tt_store(&tt, 8, &u), TT_FILLED);
    assert_int_equal(tt_store(&tt, 8 + nb, &sv), TT_FILLED);
    for (int i = 2; i < TT_WAYS; i++)
        assert_int_equal(tt_store(&tt, 8 + i * nb, &hi), TT_FILLED);
    ek = 0;
    assert_int_equal(tt_store_ev(&tt, 8 + 20 * nb, &hi, &ek, &ev), TT_EVICTED_SOLVED);
    assert_int_equal(ek, 8 + nb);
    assert_int_equal(ev.dn, 0);
    assert_true(ev.exact);
    ek = 0;
    assert_int_equal(tt_store_ev(&tt, 8 + 21 * nb, &hi, &ek, &ev), TT_EVICTED);
    assert_int_equal(ek, 0);
    assert_false(tt_probe(&tt, 8, &r));
    assert_true(tt_probe(&tt, 8 + 21 * nb, &r));
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

static uint64_t mix(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The data a test key is stored with (derived from the key, so it can be checked). */
static TTData data_of(uint64_t k)
{
    return (TTData){ (ProofNum)(k & 0xffff) + 1, (ProofNum)((k >> 16) & 0xffff) + 1, (Point)(k >> 40), (uint8_t)((k >> 48) & 63),
                     (k >> 60) & 1 };
}

/*
 * Growth: a table starts at TT_START_BYTES, asks to grow exactly when more
 * than half its slots are in use, and doubling keeps every entry (same
 * data) and invents none; clearing shrinks it back and leaves nothing behind.
 */
static void test_growth(void **state)
{
    (void)state;
    TT tt;
    assert_int_equal(tt_create(&tt, 16), 0);
    const uint64_t start = TT_START_BYTES / TT_BUCKET_BYTES;
    assert_int_equal(tt.nbuckets, start);
    assert_int_equal(tt.max_buckets, ((uint64_t)16 << 20) / TT_BUCKET_BYTES);
    enum { N = 400000 };
    uint64_t *keys = malloc(N * sizeof *keys);
    assert_non_null(keys);
    uint64_t seed = 1, filled = 0;
    int grows = 0;
    for (int n = 0; n < N; n++) {
        keys[n] = mix(&seed);
        TTData d = data_of(keys[n]);
        bool fills = tt_store(&tt, keys[n], &d) == TT_FILLED;
        filled += fills;
        uint64_t slots = tt.nbuckets * TT_WAYS;
        bool due = tt_add_used(&tt, fills);
        assert_int_equal(due, tt.nbuckets < tt.max_buckets && filled * 4 > slots);
        /* The next doubling's memory is made ready piece by piece, never beyond it. */
        uint64_t before = atomic_load(&tt.ready);
        assert_true(before >= tt.nbuckets && before <= 2 * tt.nbuckets);
        tt_prepare_growth(&tt, 64 << 10);
        uint64_t ready = atomic_load(&tt.ready);
        if (tt.nbuckets < tt.max_buckets)
            assert_int_equal(ready, before + (64 << 10) / TT_BUCKET_BYTES < 2 * tt.nbuckets ? before + (64 << 10) / TT_BUCKET_BYTES : 2 * tt.nbuckets);
        else
            assert_int_equal(ready, tt.nbuckets);
        if (!due)
            continue;
        /* Every key present before the growth is present after it, with its data. */
        bool *had = calloc(N, 1);
        assert_non_null(had);
        TTData r;
        for (int i = 0; i <= n; i++)
            had[i] = tt_probe(&tt, keys[i], &r);
        tt_grow(&tt);
        grows++;
        assert_int_equal(tt.nbuckets, 2 * slots / TT_WAYS);
        /* Each bucket's entries lie in front (probes stop at the first empty slot). */
        for (uint64_t bi = 0; bi < tt.nbuckets; bi++) {
            bool gap = false;
            for (int i = 0; i < TT_WAYS; i++) {
                bool used = atomic_load(&tt.entries[bi * TT_WAYS + i].data) != 0;
                assert_false(used && gap);
                gap |= !used;
            }
        }
        int kept = 0;
        for (int i = 0; i <= n; i++) {
            bool now = tt_probe(&tt, keys[i], &r);
            assert_int_equal(now, had[i]);
            if (now) {
                TTData d2 = data_of(keys[i]);
                assert_int_equal(r.pn, d2.pn);
                assert_int_equal(r.dn, d2.dn);
                assert_int_equal(r.best, d2.best);
                assert_int_equal(r.work, d2.work);
                assert_int_equal(r.exact, d2.exact);
                kept++;
            }
        }
        assert_true(kept > n * 9 / 10); /* at a quarter load few keys were ever evicted */
        free(had);
    }
    assert_int_equal(grows, 3); /* 2 MiB -> 4 -> 8 -> 16 MiB, the cap */
    assert_int_equal(tt.nbuckets, tt.max_buckets);
    assert_int_equal(tt_fill_permille(&tt), (int)(filled * 1000 / (tt.max_buckets * TT_WAYS)));
    tt_grow(&tt); /* at the cap: no-op */
    assert_int_equal(tt.nbuckets, tt.max_buckets);
    /* Cleared: back to the start size, and no key comes back when it grows again. */
    tt_clear(&tt);
    assert_int_equal(tt.nbuckets, start);
    assert_int_equal(tt_fill_permille(&tt), 0);
    tt_grow(&tt);
    tt_grow(&tt);
    tt_grow(&tt);
    TTData r;
    for (int i = 0; i < N; i += 7)
        assert_false(tt_probe(&tt, keys[i], &r));
    free(keys);
    tt_free(&tt);
    /* A cap below the start size: the whole table from the start, never growing. */
    assert_int_equal(tt_create(&tt, 1), 0);
    assert_int_equal(tt.nbuckets, ((uint64_t)1 << 20) / TT_BUCKET_BYTES);
    assert_int_equal(tt.max_buckets, tt.nbuckets);
    assert_false(tt_add_used(&tt, 1u << 16));
    tt_free(&tt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_saturation),
        cmocka_unit_test(test_replacement),
        cmocka_unit_test(test_replacement_solved_elsewhere),
        cmocka_unit_test(test_torn_entry),
        cmocka_unit_test(test_growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
