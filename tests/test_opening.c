/* test_opening.c - solver/opening: store use (reuse, effort skips, writes),
 * class iteration with deadlines and the stop flag, fair-N bounds over a
 * subset, and plans without symmetric duplicates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "error.h"
#include "opening.h"
#include "position.h"
#include "rules.h"
#include "sym.h"
#include "test_util.h"

/* An in-memory ResultStore keyed by the canonical position. */
typedef struct {
    int n, lookups, stores, with_proof;
    SymKey key[512];
    StoredResult r[512];
} MemStore;

static int mem_find(MemStore *m, const Board *b, RuleSet rs)
{
    SymKey k;
    sym_canonical(b, rs, &k, NULL);
    for (int i = 0; i < m->n; i++)
        if (!memcmp(m->key[i].b, k.b, SYMKEY_LEN))
            return i;
    return -1;
}

static int mem_lookup(void *ctx, const Board *b, Color attacker, RuleSet rs, StoredResult *out)
{
    MemStore *m = ctx;
    assert_int_equal(attacker, BLACK);
    m->lookups++;
    int i = mem_find(m, b, rs);
    if (i < 0)
        return RJ_ENOTFOUND;
    *out = m->r[i];
    return 0;
}

static int mem_store(void *ctx, const Board *b, RuleSet rs, const StoredResult *r, const uint8_t *proof, size_t len)
{
    MemStore *m = ctx;
    m->stores++;
    m->with_proof += proof != NULL && len > 0;
    int i = mem_find(m, b, rs);
    if (i < 0) {
        assert_true(m->n < 512);
        i = m->n++;
        sym_canonical(b, rs, &m->key[i], NULL);
    }
    m->r[i] = *r;
    return 0;
}

static MemStore g_m;
static ResultStore g_rs = { &g_m, mem_lookup, mem_store };

static Dfpn *make_dfpn(uint64_t nodes, double time_s, atomic_bool *stop)
{
    DfpnConfig c;
    dfpn_config_default(&c);
    c.attacker = BLACK;
    c.max_nodes = nodes;
    c.max_time = time_s;
    c.tt_mb = 2;
    c.stop = stop;
    Dfpn *s;
    assert_int_equal(dfpn_create(&s, &c), 0);
    return s;
}

static void test_solve_store(void **state)
{
    (void)state;
    memset(&g_m, 0, sizeof g_m);
    Dfpn *s = make_dfpn(1, 0, NULL);
    OpeningConfig c = { .dfpn = s, .rules = RULE_RENJU, .store = &g_rs, .proofs = true };
    /* An open four, white to move: proven, with a checked proof written. */
    Board b = parse_pos("B:f8,g8,h8,i8 W:h7,h9,a1", WHITE);
    OpeningSolve r;
    assert_int_equal(opening_solve(&c, &b, &r), 0);
    assert_int_equal(r.status, RESULT_PROVEN);
    assert_true(r.searched && !r.from_store && r.proof_stored);
    assert_int_equal(g_m.stores, 1);
    assert_int_equal(g_m.with_proof, 1);
    /* Again: from the store, no search, nothing written. */
    assert_int_equal(opening_solve(&c, &b, &r), 0);
    assert_int_equal(r.status, RESULT_PROVEN);
    assert_true(r.from_store && !r.searched);
    assert_int_equal(g_m.stores, 1);
    /* An unsolved position within the budget: an effort record with the nodes spent. */
    Board u = parse_pos("h8 h9 i9 j10", EMPTY);
    assert_int_equal(opening_solve(&c, &u, &r), 0);
    assert_int_equal(r.status, RESULT_UNKNOWN);
    assert_true(r.searched && r.nodes >= 1);
    int i = mem_find(&g_m, &u, RULE_RENJU);
    assert_true(i >= 0);
    assert_int_equal(g_m.r[i].result, RESULT_UNKNOWN);
    assert_int_equal(g_m.r[i].nodes, r.nodes);
    /* Same budget: skipped as already tried. */
    assert_int_equal(opening_solve(&c, &u, &r), 0);
    assert_true(r.from_store && !r.searched);
    assert_int_equal(r.status, RESULT_UNKNOWN);
    dfpn_free(s);
    /* A larger node budget searches again; a time-only budget never skips. */
    g_m.r[i].nodes = 1;
    s = make_dfpn(100, 0, NULL);
    c.dfpn = s;
    assert_int_equal(opening_solve(&c, &u, &r), 0);
    assert_true(r.searched);
    dfpn_free(s);
    s = make_dfpn(0, 0.01, NULL);
    c.dfpn = s;
    g_m.r[i].nodes = 1u << 30;
    assert_int_equal(opening_solve(&c, &u, &r), 0);
    assert_true(r.searched);
    dfpn_free(s);
    /* A finished game needs no search: a black five is proven, a white five disproven. */
    Board w = parse_pos("B:d8,e8,f8,g8 W:h7,h9,a1,a2", BLACK);
    board_play(&w, point_make(7, 7)); /* h8: five */
    assert_int_equal(opening_solve(&c, &w, &r), 0);
    assert_int_equal(r.status, RESULT_PROVEN);
    assert_false(r.searched);
}

static void test_classes_deadline_and_stop(void **state)
{
    (void)state;
    atomic_bool stop = false;
    Dfpn *s = make_dfpn(1, 0, &stop);
    OpeningClass *cl = malloc(sizeof *cl * BOARD_POINTS);
    /* Deadline passed: nothing searched, every class unknown, W in [0, n]. */
    OpeningConfig c = { .dfpn = s, .rules = RULE_RENJU, .deadline = clock_now() - 1 };
    Board b = parse_pos("D1 h11", EMPTY);
    int n, lo, hi;
    assert_int_equal(opening_move_classes(&c, &b, cl, &n, &lo, &hi), 0);
    assert_int_equal(n, opening_count_classes(&b, RULE_RENJU));
    assert_true(n > 100);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, n);
    for (int i = 0; i < n; i++)
        assert_false(cl[i].res.searched);
    /* White to move is not a black-move question. */
    Board w = parse_pos("D1", EMPTY);
    assert_int_equal(opening_move_classes(&c, &w, cl, &n, &lo, &hi), RJ_EBADPOS);
    /* Stop flag raised: RJ_EINTR, all classes listed, bounds still valid. */
    c.deadline = 0;
    atomic_store(&stop, true);
    assert_int_equal(opening_move_classes(&c, &b, cl, &n, &lo, &hi), RJ_EINTR);
    assert_int_equal(n, opening_count_classes(&b, RULE_RENJU));
    assert_int_equal(lo, 0);
    assert_int_equal(hi, n);
    /* Immediate wins: the open-four class is proven and counted. */
    atomic_store(&stop, false);
    Board t = parse_pos("B:g8,h8,i8 W:h7,h9", BLACK);
    c.deadline = 0;
    assert_int_equal(opening_move_classes(&c, &t, cl, &n, &lo, &hi), 0);
    int proven = 0;
    for (int i = 0; i < n; i++) {
        proven += cl[i].res.status == RESULT_PROVEN;
        if (cl[i].cls.moves[0] == point_make(5, 7)) /* f8 */
            assert_int_equal(cl[i].res.status, RESULT_PROVEN);
    }
    assert_int_equal(lo, proven);
    assert_true(lo >= 1 && lo <= hi);
    free(cl);
    dfpn_free(s);
}

static void test_fair_n_subset(void **state)
{
    (void)state;
    Dfpn *s = make_dfpn(1, 0, NULL);
    OpeningConfig c = { .dfpn = s, .rules = RULE_RENJU };
    OpeningFourth *f = malloc(sizeof *f * BOARD_POINTS);
    Board b = parse_pos("B:g8,h8,i8 W:h7,h9", EMPTY);
    Point only[1] = { point_make(7, 9) }; /* h10 */
    int n, nmin, nmax;
    long npos = opening_count_fair_n(&b, RULE_RENJU, only, 1);
    assert_true(npos > 50 && npos < 130);
    assert_int_equal(opening_fair_n(&c, &b, only, 1, f, &n, &nmin, &nmax), 0);
    int lo = 1 << 30, hi = 1 << 30, sel = 0;
    for (int i = 0; i < n; i++) {
        assert_true(f[i].wins_min <= f[i].wins_max && f[i].wins_max <= f[i].nfifth);
        assert_int_equal(f[i].proven, f[i].wins_min);
        if (f[i].selected) {
            sel++;
            assert_int_equal(f[i].nfifth, npos);
            assert_true(f[i].wins_min >= 1);
        } else {
            assert_int_equal(f[i].wins_min, 0);
            assert_int_equal(f[i].wins_max, f[i].nfifth);
        }
        lo = f[i].wins_min < lo ? f[i].wins_min : lo;
        hi = f[i].wins_max < hi ? f[i].wins_max : hi;
    }
    assert_int_equal(sel, 1);
    assert_int_equal(nmin, 1 + lo);
    assert_int_equal(nmax, 1 + hi);
    Board k = parse_pos("D1 h11", EMPTY);
    assert_int_equal(opening_fair_n(&c, &k, NULL, 0, f, &n, &nmin, &nmax), RJ_EBADPOS);
    free(f);
    dfpn_free(s);
}

typedef struct {
    int n, cap, stop_at;
    SymKey *keys;
} PlanSeen;

static int plan_cb(void *ctx, const Board *pos)
{
    PlanSeen *p = ctx;
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 1024;
        p->keys = realloc(p->keys, sizeof *p->keys * (size_t)p->cap);
        assert_non_null(p->keys);
    }
    sym_canonical(pos, RULE_RENJU, &p->keys[p->n++], NULL);
    return p->stop_at && p->n == p->stop_at ? 7 : 0;
}

static int key_cmp(const void *a, const void *b) { return memcmp(a, b, SYMKEY_LEN); }

/* Sort the keys seen and assert they are distinct. */
static void assert_distinct(PlanSeen *p)
{
    qsort(p->keys, (size_t)p->n, sizeof *p->keys, key_cmp);
    for (int i = 1; i < p->n; i++)
        assert_memory_not_equal(p->keys[i - 1].b, p->keys[i].b, SYMKEY_LEN);
}

static void test_plan(void **state)
{
    (void)state;
    PlanSeen p = { 0 };
    Board b = parse_pos("D1 h11", EMPTY);
    assert_int_equal(opening_plan(&b, RULE_RENJU, 1, plan_cb, &p), 0);
    assert_int_equal(p.n, opening_count_classes(&b, RULE_RENJU));
    assert_distinct(&p);
    /* Depth 2 from h8 / h9 (black to move): (x, i8) and (x', i8), x' the diagonal
     * image of x, are different paths to symmetric positions: each is emitted once,
     * so there are fewer positions than paths. */
    p.n = 0;
    Board d = parse_pos("B:h8 W:h9", BLACK);
    assert_int_equal(opening_plan(&d, RULE_RENJU, 2, plan_cb, &p), 0);
    assert_distinct(&p);
    long paths = 0;
    MoveClass cls[BOARD_POINTS], cls2[BOARD_POINTS];
    int k = fifth_move_classes(&d, RULE_RENJU, cls);
    for (int i = 0; i < k; i++) {
        board_play(&d, cls[i].moves[0]);
        paths += fifth_move_classes(&d, RULE_RENJU, cls2);
        board_undo(&d);
    }
    assert_true(p.n < paths);
    assert_true(p.n > paths / 2);
    /* The callback's nonzero value stops the walk and is returned; b is restored. */
    p.n = 0;
    p.stop_at = 5;
    int stones = board_stone_count(&b);
    assert_int_equal(opening_plan(&b, RULE_RENJU, 2, plan_cb, &p), 7);
    assert_int_equal(p.n, 5);
    assert_int_equal(board_stone_count(&b), stones);
    assert_int_equal(opening_plan(&b, RULE_RENJU, 0, plan_cb, &p), RJ_EBADARG);
    assert_int_equal(opening_plan(&b, RULE_RENJU, 4, plan_cb, &p), RJ_EBADARG);
    free(p.keys);
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_store),
        cmocka_unit_test(test_classes_deadline_and_stop),
        cmocka_unit_test(test_fair_n_subset),
        cmocka_unit_test(test_plan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
