/* test_db.c - the LMDB results database: record codec, canonical keys through the
 * 8 symmetries, merge policy, map growth, concurrent readers, the ResultStore
 * adapter, resume state, the exchange format and damaged files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <lmdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board.h"
#include "db.h"
#include "error.h"
#include "exchange.h"
#include "notation.h"
#include "position.h"
#include "proof.h"
#include "record.h"
#include "rules.h"
#include "sym.h"
#include "test_util.h"

static char g_dir[256];

static Point P(const char *s)
{
    Point p;
    int used;
    assert_int_equal(notation_parse_point(s, &p, &used), 0);
    return p;
}

static const char *path(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", g_dir, name);
    return buf;
}

static void rm_db(const char *p)
{
    char lock[600];
    snprintf(lock, sizeof lock, "%s-lock", p);
    unlink(p);
    unlink(lock);
}

static Db *open_new(const char *name, size_t map_size)
{
    const char *p = path(name);
    rm_db(p);
    DbOptions o = {DB_CREATE, map_size, 0};
    Db *db = NULL;
    char why[256];
    int rc = db_open(p, &o, &db, why, sizeof why);
    if (rc)
        fail_msg("db_open(%s): %d %s", p, rc, why);
    return db;
}

static DbRecord rec(Result r, Color att, Point best, uint64_t nodes)
{
    DbRecord x;
    memset(&x, 0, sizeof x);
    x.result = r;
    x.attacker = att;
    x.best = best;
    x.proof_nodes = nodes / 10;
    x.proof_depth = 7;
    x.nodes = nodes;
    x.time = 1700000000;
    strcpy(x.version, "renju test");
    return x;
}

/* Board b mapped through transform t (setup stones, same side to move). */
static void board_map(const Board *b, int t, Board *out)
{
    board_init(out);
    for (int p = 0; p < BOARD_POINTS; p++)
        if (board_at(b, (Point)p) != EMPTY)
            board_setup_stone(out, sym_apply(t, (Point)p), board_at(b, (Point)p));
    board_set_to_move(out, b->to_move);
}

/* The four-three position of test_checker.c and a proof for black (framing needs no wins at once). */
static const char *POS = "B:c5,d5,e5,h10,h11,h12,f9,g9 W:b5,h13,a1,d1,g1,j1,m1,o4";
static const uint8_t PROOF_HDR[PROOF_HEADER_LEN] = {'R', 'J', 'P', 'F', PROOF_VERSION, RULE_RENJU, BLACK, 0};

static size_t make_proof(uint8_t *buf)
{
    memcpy(buf, PROOF_HDR, sizeof PROOF_HDR);
    size_t n = sizeof PROOF_HDR;
    const char *seq[] = {"f5", "#1", "g5", "h9", "#1", "h8", "i9", "#0"};
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        if (seq[i][0] == '#') {
            buf[n++] = (uint8_t)(seq[i][1] - '0');
            buf[n++] = 0;
        } else {
            buf[n++] = P(seq[i]);
        }
    }
    return n;
}

/* ---- record codec ---- */

static void test_record_codec(void **state)
{
    (void)state;
    DbRecord r = rec(RESULT_PROVEN, WHITE, P("j10"), 123456789012ull), d;
    r.flags = RECORD_HAS_PROOF;
    uint8_t buf[RECORD_MAX_LEN];
    size_t n;
    assert_int_equal(record_encode(&r, buf, sizeof buf, &n), 0);
    assert_int_equal(n, RECORD_FIXED_LEN + strlen("renju test"));
    assert_int_equal(record_decode(buf, n, &d), 0);
    assert_int_equal(d.result, r.result);
    assert_int_equal(d.attacker, WHITE);
    assert_int_equal(d.best, P("j10"));
    assert_int_equal(d.nodes, r.nodes);
    assert_int_equal(d.proof_nodes, r.proof_nodes);
    assert_int_equal(d.proof_depth, 7);
    assert_int_equal(d.time, 1700000000);
    assert_string_equal(d.version, "renju test");
    /* Every truncation and any extra byte is rejected. */
    for (size_t k = 0; k < n; k++)
        assert_int_equal(record_decode(buf, k, &d), RJ_EBADDATA);
    uint8_t big[RECORD_MAX_LEN + 1];
    memcpy(big, buf, n);
    big[n] = 'x';
    assert_int_equal(record_decode(big, n + 1, &d), RJ_EBADDATA);
    /* Field ranges. */
    const struct {
        size_t at;
        uint8_t v;
    } bad[] = {{0, 2}, {1, 3}, {2, 0}, {2, 3}, {3, 230}, {4, 2}, {5, 1}, {20, 1}, {40, 9}, {41, 0x07}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(big, buf, n);
        big[bad[i].at] = bad[i].v;
        assert_int_equal(record_decode(big, n, &d), RJ_EBADDATA);
    }
    assert_int_equal(record_encode(&r, buf, 10, &n), RJ_ENOMEM);
    r.attacker = EMPTY;
    assert_int_equal(record_encode(&r, buf, sizeof buf, &n), RJ_EBADARG);
}

/* ---- symmetric round trip ---- */

static void test_symmetric_round_trip(void **state)
{
    (void)state;
    Board b0 = parse_pos(POS, EMPTY);
    uint8_t proof[64];
    size_t plen = make_proof(proof);
    assert_int_equal(proof_stats(&b0, proof, plen, NULL), 0);
    for (int t = 0; t < NUM_SYMS; t++) {
        Db *db = open_new("sym.lmdb", 0);
        Board bt;
        board_map(&b0, t, &bt);
        uint8_t pt[64];
        memcpy(pt, proof, plen);
        assert_int_equal(proof_transform(&b0, pt, plen, t), 0);
        DbRecord r = rec(RESULT_PROVEN, BLACK, sym_apply(t, P("f5")), 1000);
        assert_int_equal(db_queue(db, &bt, RULE_RENJU, &r, pt, plen), 0);
        /* Not visible before the flush. */
        DbRecord got;
        assert_int_equal(db_get(db, &bt, RULE_RENJU, BLACK, &got), RJ_ENOTFOUND);
        assert_int_equal(db_flush(db), 0);
        for (int u = 0; u < NUM_SYMS; u++) {
            Board bu;
            board_map(&b0, u, &bu);
            assert_int_equal(db_get(db, &bu, RULE_RENJU, BLACK, &got), 0);
            assert_int_equal(got.result, RESULT_PROVEN);
            assert_int_equal(got.best, sym_apply(u, P("f5")));
            assert_true(got.flags & RECORD_HAS_PROOF);
            assert_string_equal(got.version, "renju test");
            uint8_t *gp;
            size_t glen;
            assert_int_equal(db_get_proof(db, &bu, RULE_RENJU, BLACK, &gp, &glen), 0);
            uint8_t want[64];
            memcpy(want, proof, plen);
            assert_int_equal(proof_transform(&b0, want, plen, u), 0);
            assert_int_equal(glen, plen);
            assert_memory_equal(gp, want, plen);
            char why[256];
            if (proof_check(&bu, gp, glen, NULL, why, sizeof why))
                fail_msg("t=%d u=%d: %s", t, u, why);
            free(gp);
            /* The other attacker, rule set and side to move are other keys. */
            assert_int_equal(db_get(db, &bu, RULE_RENJU, WHITE, &got), RJ_ENOTFOUND);
            assert_int_equal(db_get(db, &bu, RULE_FREESTYLE, BLACK, &got), RJ_ENOTFOUND);
            bu.to_move = WHITE;
            assert_int_equal(db_get(db, &bu, RULE_RENJU, BLACK, &got), RJ_ENOTFOUND);
        }
        db_close(db);
    }
    /* Keys of all images are equal; the decoded key is canonical. */
    DbKey k0, k;
    db_key(&b0, RULE_RENJU, BLACK, &k0, NULL);
    for (int t = 0; t < NUM_SYMS; t++) {
        Board bt;
        board_map(&b0, t, &bt);
        db_key(&bt, RULE_RENJU, BLACK, &k, NULL);
        assert_memory_equal(k.b, k0.b, DB_KEY_LEN);
    }
    Board c;
    RuleSet rs;
    Color att;
    assert_int_equal(db_key_decode(&k0, &c, &rs, &att), 0);
    assert_int_equal(att, BLACK);
    assert_int_equal(rs, RULE_RENJU);
    db_key(&c, rs, att, &k, NULL);
    assert_memory_equal(k.b, k0.b, DB_KEY_LEN);
    k.b[60] = 1;
    assert_int_equal(db_key_decode(&k, NULL, NULL, NULL), RJ_EBADDATA);
    /* A proof that does not frame against the position is refused. */
    Db *db = open_new("sym.lmdb", 0);
    DbRecord r = rec(RESULT_PROVEN, BLACK, P("f5"), 10);
    proof[PROOF_HEADER_LEN] = P("c5"); /* occupied */
    assert_int_equal(db_queue(db, &b0, RULE_RENJU, &r, proof, plen), RJ_EBADDATA);
    db_close(db);
}

/* ---- merge policy ---- */

static void test_merge_policy(void **state)
{
    (void)state;
    Db *db = open_new("policy.lmdb", 0);
    Board b = parse_pos("h8 h9 i10", EMPTY);
    DbRecord got, r;
    uint8_t proof[64];
    size_t plen;
    /* unknown, then proven: proven wins; unknown afterwards changes nothing. */
    r = rec(RESULT_UNKNOWN, WHITE, POINT_NONE, 50);
    assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    assert_int_equal(db_flush(db), 0);
    r = rec(RESULT_UNKNOWN, WHITE, POINT_NONE, 70);
    assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    assert_int_equal(db_flush(db), 0);
    assert_int_equal(db_get(db, &b, RULE_RENJU, WHITE, &got), 0);
    assert_int_equal(got.nodes, 70);
    r = rec(RESULT_PROVEN, WHITE, P("g7"), 100);
    assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    r = rec(RESULT_UNKNOWN, WHITE, POINT_NONE, 1000);
    assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    assert_int_equal(db_flush(db), 0);
    assert_int_equal(db_get(db, &b, RULE_RENJU, WHITE, &got), 0);
    assert_int_equal(got.result, RESULT_PROVEN);
    assert_int_equal(got.best, P("g7"));
    /* Contradiction: counted, stored entry kept, the rest of the batch committed. */
    Board b2 = parse_pos("h8 h9 i10 j10", EMPTY);
    r = rec(RESULT_DISPROVEN, WHITE, POINT_NONE, 5);
    assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    assert_int_equal(db_queue(db, &b2, RULE_RENJU, &r, NULL, 0), 0);
    assert_int_equal(db_flush(db), RJ_ECONFLICT);
    assert_int_equal(db_conflicts(db), 1);
    assert_int_equal(db_get(db, &b, RULE_RENJU, WHITE, &got), 0);
    assert_int_equal(got.result, RESULT_PROVEN);
    assert_int_equal(db_get(db, &b2, RULE_RENJU, WHITE, &got), 0);
    assert_int_equal(got.result, RESULT_DISPROVEN);
    /* Same result: an entry with a proof replaces one without; a larger proof does not replace a smaller one. */
    Board b3 = parse_pos(POS, EMPTY);
    plen = make_proof(proof);
    r = rec(RESULT_PROVEN, BLACK, P("f5"), 10);
    assert_int_equal(db_queue(db, &b3, RULE_RENJU, &r, NULL, 0), 0);
    r.proof_nodes = 6;
    assert_int_equal(db_queue(db, &b3, RULE_RENJU, &r, proof, plen), 0);
    r.proof_nodes = 9;
    assert_int_equal(db_queue(db, &b3, RULE_RENJU, &r, proof, plen), 0);
    r.proof_nodes = 1;
    assert_int_equal(db_queue(db, &b3, RULE_RENJU, &r, NULL, 0), 0);
    assert_int_equal(db_flush(db), 0);
    assert_int_equal(db_get(db, &b3, RULE_RENJU, BLACK, &got), 0);
    assert_true(got.flags & RECORD_HAS_PROOF);
    assert_int_equal(got.proof_nodes, 6);
    /* Read-only handles refuse writes. */
    db_close(db);
    DbOptions ro = {DB_RDONLY, 0, 0};
    assert_int_equal(db_open(path("policy.lmdb"), &ro, &db, NULL, 0), 0);
    assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), RJ_EBADARG);
    DbStats st;
    assert_int_equal(db_stats(db, &st), 0);
    assert_int_equal(st.entries, 3);
    assert_int_equal(st.proven, 2);
    assert_int_equal(st.disproven, 1);
    assert_int_equal(st.proofs, 1);
    assert_int_equal(st.schema, DB_SCHEMA_VERSION);
    assert_int_equal(st.rules_mask, 1);
    db_close(db);
}

/* Position number i: the bits of i as isolated white stones (even columns of
 * rows 1, 3, 5: never a five) plus an asymmetric anchor near the centre, so
 * distinct numbers are never symmetric images of each other. */
static void numbered_board(uint32_t i, Board *b)
{
    board_init(b);
    board_setup_stone(b, point_make(7, 7), BLACK);
    board_setup_stone(b, point_make(8, 9), WHITE);
    board_setup_stone(b, point_make(10, 12), BLACK);
    for (int k = 0; k < 20; k++)
        if (i >> k & 1)
            board_setup_stone(b, point_make((k % 8) * 2, (k / 8) * 2), WHITE);
    board_set_to_move(b, BLACK);
}

static void test_map_growth(void **state)
{
    (void)state;
    Db *db = open_new("grow.lmdb", 256 * 1024);
    DbStats st;
    assert_int_equal(db_stats(db, &st), 0);
    uint64_t map0 = st.map_bytes;
    enum { N = 20000 };
    for (uint32_t i = 0; i < N; i++) {
        Board b;
        numbered_board(i, &b);
        DbRecord r = rec(i % 3 ? RESULT_PROVEN : RESULT_DISPROVEN, BLACK, point_make(14, 14), i);
        assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    }
    assert_int_equal(db_flush(db), 0);
    assert_int_equal(db_stats(db, &st), 0);
    assert_int_equal(st.entries, N);
    assert_true(st.map_bytes > map0);
    for (uint32_t i = 0; i < N; i += 997) {
        Board b;
        numbered_board(i, &b);
        DbRecord got;
        assert_int_equal(db_get(db, &b, RULE_RENJU, BLACK, &got), 0);
        assert_int_equal(got.nodes, i);
    }
    db_close(db);
}

/* ---- concurrent readers ---- */

typedef struct {
    Db *db;
    _Atomic uint32_t committed;
    _Atomic int stop;
    _Atomic long reads, errors;
} Shared;

static void *reader_main(void *arg)
{
    Shared *s = arg;
    uint64_t x = (uint64_t)(uintptr_t)&x;
    while (!atomic_load(&s->stop)) {
        uint32_t n = atomic_load(&s->committed);
        if (n == 0)
            continue;
        x = x * 6364136223846793005ull + 1;
        uint32_t i = (uint32_t)((x >> 33) % n);
        Board b;
        numbered_board(i, &b);
        DbRecord got;
        int rc = db_get(s->db, &b, RULE_RENJU, BLACK, &got);
        if (rc || got.nodes != i)
            atomic_fetch_add(&s->errors, 1);
        atomic_fetch_add(&s->reads, 1);
    }
    return NULL;
}

static void test_readers_while_writing(void **state)
{
    (void)state;
    Shared s = {.db = open_new("conc.lmdb", 1 << 20)};
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&th[i], NULL, reader_main, &s), 0);
    for (uint32_t i = 0; i < 6000; i++) {
        Board b;
        numbered_board(i, &b);
        DbRecord r = rec(RESULT_PROVEN, BLACK, POINT_NONE, i);
        assert_int_equal(db_queue(s.db, &b, RULE_RENJU, &r, NULL, 0), 0);
        if (i % 100 == 99) {
            assert_int_equal(db_flush(s.db), 0);
            atomic_store(&s.committed, i + 1);
        }
    }
    atomic_store(&s.stop, 1);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(atomic_load(&s.errors), 0);
    assert_true(atomic_load(&s.reads) > 0);
    db_close(s.db);
}

/* ---- ResultStore adapter ---- */

typedef struct {
    ResultStore rs;
    int id;
} StoreArg;

static void *store_main(void *arg)
{
    StoreArg *a = arg;
    for (uint32_t i = 0; i < 500; i++) {
        Board b;
        numbered_board((uint32_t)a->id * 1000 + i, &b);
        StoredResult r = {RESULT_PROVEN, BLACK, POINT_NONE, 3, 2, (uint64_t)a->id * 1000 + i};
        if (a->rs.store(a->rs.ctx, &b, RULE_RENJU, &r, NULL, 0))
            return (void *)1;
        StoredResult got;
        int rc = a->rs.lookup(a->rs.ctx, &b, BLACK, RULE_RENJU, &got);
        if (rc != 0 && rc != RJ_ENOTFOUND)
            return (void *)1;
    }
    return NULL;
}

/* db_work_foreach callback: the keys seen, '|'-separated; returns 7 at the stop_at-th key (1-based). */
typedef struct {
    int n, stop_at;
    char keys[256];
} WorkSeen;

static int work_seen(void *ctx, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen)
{
    (void)val, (void)vlen;
    WorkSeen *w = ctx;
    w->n++;
    size_t l = strlen(w->keys);
    snprintf(w->keys + l, sizeof w->keys - l, "%.*s|", (int)klen, (const char *)key);
    return w->n == w->stop_at ? 7 : 0;
}

/* Keep the stored value when its first byte is at least the new one's. */
static bool keep_greater(void *ctx, const uint8_t *old, size_t olen, const DbWorkItem *item)
{
    (void)ctx;
    return olen && item->vlen && old[0] >= item->val[0];
}

static void test_result_store(void **state)
{
    (void)state;
    Db *db = open_new("store.lmdb", 0);
    StoreArg args[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        db_result_store(db, &args[i].rs);
        args[i].id = i;
        assert_int_equal(pthread_create(&th[i], NULL, store_main, &args[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        void *ret;
        pthread_join(th[i], &ret);
        assert_null(ret);
    }
    assert_int_equal(db_flush(db), 0);
    ResultStore rs;
    db_result_store(db, &rs);
    for (int i = 0; i < 4; i++) {
        Board b;
        numbered_board((uint32_t)i * 1000 + 499, &b);
        StoredResult got;
        assert_int_equal(rs.lookup(rs.ctx, &b, BLACK, RULE_RENJU, &got), 0);
        assert_int_equal(got.nodes, (uint64_t)i * 1000 + 499);
        assert_int_equal(got.result, RESULT_PROVEN);
        assert_int_equal(rs.lookup(rs.ctx, &b, WHITE, RULE_RENJU, &got), RJ_ENOTFOUND);
    }
    /* Effort-only records are invisible to the search. */
    Board b;
    numbered_board(77777, &b);
    DbRecord r = rec(RESULT_UNKNOWN, BLACK, POINT_NONE, 9);
    assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    assert_int_equal(db_flush(db), 0);
    StoredResult got;
    assert_int_equal(rs.lookup(rs.ctx, &b, BLACK, RULE_RENJU, &got), RJ_ENOTFOUND);
    /* A position right after a pass is never stored (another pass would draw,
     * and stone sets cannot spell it); the adapter skips it without error. */
    Board bp;
    numbered_board(499, &bp);
    board_play(&bp, POINT_PASS);
    DbRecord rp = rec(RESULT_PROVEN, BLACK, POINT_NONE, 5);
    assert_int_equal(db_queue(db, &bp, RULE_RENJU, &rp, NULL, 0), RJ_EBADARG);
    StoredResult sp = {RESULT_PROVEN, BLACK, POINT_NONE, 1, 1, 5};
    assert_int_equal(rs.store(rs.ctx, &bp, RULE_RENJU, &sp, NULL, 0), 0);
    assert_int_equal(db_flush(db), 0);
    assert_int_equal(rs.lookup(rs.ctx, &bp, BLACK, RULE_RENJU, &got), RJ_ENOTFOUND);
    /* Resume state. */
    void *v;
    size_t vlen;
    assert_int_equal(db_work_get(db, "job", 3, &v, &vlen), RJ_ENOTFOUND);
    assert_int_equal(db_work_put(db, "job", 3, "abc", 3), 0);
    assert_int_equal(db_work_get(db, "job", 3, &v, &vlen), 0);
    assert_int_equal(vlen, 3);
    assert_memory_equal(v, "abc", 3);
    free(v);
    assert_int_equal(db_work_del(db, "job", 3), 0);
    assert_int_equal(db_work_get(db, "job", 3, &v, &vlen), RJ_ENOTFOUND);
    /* Clearing by prefix: only the keys that begin with it go. */
    const char *keys[] = {"jt0", "jt1:a", "jt1:b", "jt1:ccc", "jt1", "jt2:a", "ju"};
    for (int i = 0; i < 7; i++)
        assert_int_equal(db_work_put(db, keys[i], strlen(keys[i]), "x", 1), 0);
    uint64_t gone = 99;
    assert_int_equal(db_work_clear(db, "jt1:", 4, &gone), 0);
    assert_int_equal(gone, 3);
    for (int i = 0; i < 7; i++) {
        int want = strncmp(keys[i], "jt1:", 4) ? 0 : RJ_ENOTFOUND;
        assert_int_equal(db_work_get(db, keys[i], strlen(keys[i]), &v, &vlen), want);
        if (!want)
            free(v);
    }
    assert_int_equal(db_work_clear(db, "jt1:", 4, &gone), 0);
    assert_int_equal(gone, 0);
    assert_int_equal(db_work_clear(db, "", 0, &gone), RJ_EBADARG);
    /* Iterating by prefix, in key order; an empty prefix: every key. */
    WorkSeen seen = {0};
    assert_int_equal(db_work_foreach(db, "jt", 2, work_seen, &seen), 0);
    assert_int_equal(seen.n, 3); /* jt0, jt1, jt2:a */
    assert_string_equal(seen.keys, "jt0|jt1|jt2:a|");
    memset(&seen, 0, sizeof seen);
    assert_int_equal(db_work_foreach(db, NULL, 0, work_seen, &seen), 0);
    assert_int_equal(seen.n, 4);
    assert_string_equal(seen.keys, "jt0|jt1|jt2:a|ju|");
    memset(&seen, 0, sizeof seen);
    seen.stop_at = 2;
    assert_int_equal(db_work_foreach(db, NULL, 0, work_seen, &seen), 7); /* fn's value stops it */
    assert_string_equal(seen.keys, "jt0|jt1|");
    /* Many in one transaction: a keep rule sees the stored value and the batch's own earlier puts. */
    DbWorkItem items[4] = {
        {(const uint8_t *)"k1", 2, (const uint8_t *)"5", 1},
        {(const uint8_t *)"k1", 2, (const uint8_t *)"3", 1}, /* less: kept out */
        {(const uint8_t *)"k1", 2, (const uint8_t *)"8", 1}, /* more: put */
        {(const uint8_t *)"ju", 2, (const uint8_t *)"0", 1}, /* "x" is stored: kept */
    };
    uint64_t kept = 99;
    assert_int_equal(db_work_put_many(db, items, 4, keep_greater, NULL, &kept), 0);
    assert_int_equal(kept, 2);
    assert_int_equal(db_work_get(db, "k1", 2, &v, &vlen), 0);
    assert_memory_equal(v, "8", 1);
    free(v);
    assert_int_equal(db_work_get(db, "ju", 2, &v, &vlen), 0);
    assert_memory_equal(v, "x", 1);
    free(v);
    DbWorkItem badk[2] = {{(const uint8_t *)"k2", 2, (const uint8_t *)"1", 1}, {(const uint8_t *)"", 0, NULL, 0}};
    assert_int_equal(db_work_put_many(db, badk, 2, NULL, NULL, NULL), RJ_EBADARG);
    assert_int_equal(db_work_get(db, "k2", 2, &v, &vlen), RJ_ENOTFOUND); /* nothing written */
    db_close(db);
    /* Closing flushed: reopen and count. */
    DbOptions ro = {DB_RDONLY, 0, 0};
    assert_int_equal(db_open(path("store.lmdb"), &ro, &db, NULL, 0), 0);
    DbStats st;
    assert_int_equal(db_stats(db, &st), 0);
    assert_int_equal(st.entries, 2001);
    db_close(db);
}

/* ---- exchange format ---- */

typedef struct {
    char **lines;
    int n;
} Lines;

static int collect(void *ctx, const DbEntry *e)
{
    Lines *l = ctx;
    assert_int_equal(dbx_format(e, &l->lines[l->n]), 0);
    l->n++;
    return 0;
}

static void test_exchange_round_trip(void **state)
{
    (void)state;
    Db *db = open_new("x1.lmdb", 0);
    Board b = parse_pos(POS, EMPTY);
    uint8_t proof[64];
    size_t plen = make_proof(proof);
    DbRecord r = rec(RESULT_PROVEN, BLACK, P("f5"), 1234);
    assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, proof, plen), 0);
    for (uint32_t i = 0; i < 20; i++) {
        numbered_board(i, &b);
        r = rec((Result)(i % 3), i % 2 ? WHITE : BLACK, i % 4 ? point_make(14, 14) : POINT_NONE, i);
        assert_int_equal(db_queue(db, &b, (RuleSet)(i % 3), &r, NULL, 0), 0);
    }
    board_init(&b);
    r = rec(RESULT_UNKNOWN, BLACK, POINT_NONE, 1);
    assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    assert_int_equal(db_flush(db), 0);
    char *mem[64];
    Lines l1 = {mem, 0};
    assert_int_equal(db_foreach(db, collect, &l1), 0);
    db_close(db);
    assert_int_equal(l1.n, 22);
    /* Import every line, in reverse order, into a new database; export again. */
    db = open_new("x2.lmdb", 0);
    for (int i = l1.n - 1; i >= 0; i--) {
        Board pb;
        RuleSet rs;
        DbRecord pr;
        uint8_t *pp;
        size_t pl;
        char why[256];
        if (dbx_parse(l1.lines[i], &pb, &rs, &pr, &pp, &pl, why, sizeof why))
            fail_msg("line %d: %s: %s", i, why, l1.lines[i]);
        assert_int_equal(db_queue(db, &pb, rs, &pr, pp, pl), 0);
        free(pp);
    }
    assert_int_equal(db_flush(db), 0);
    char *mem2[64];
    Lines l2 = {mem2, 0};
    assert_int_equal(db_foreach(db, collect, &l2), 0);
    db_close(db);
    assert_int_equal(l2.n, l1.n);
    for (int i = 0; i < l1.n; i++) {
        assert_string_equal(l1.lines[i], l2.lines[i]);
        free(l1.lines[i]);
        free(l2.lines[i]);
    }
    /* A line in another frame imports to the same key and best move. */
    Board pb;
    RuleSet rs;
    DbRecord pr;
    uint8_t *pp;
    size_t pl;
    char why[256];
    assert_int_equal(dbx_parse("{\"rules\":\"freestyle\",\"position\":\"B:h8 W:h9\",\"attacker\":\"white\","
                               "\"result\":\"disproven\",\"best\":\"pass\",\"extra\":[1],\"nodes\":5}",
                               &pb, &rs, &pr, &pp, &pl, why, sizeof why),
                     RJ_EBADDATA); /* arrays are not part of the format */
    assert_int_equal(dbx_parse("{\"rules\":\"freestyle\",\"position\":\"B:h8 W:h9\",\"attacker\":\"white\","
                               "\"result\":\"disproven\",\"best\":\"pass\",\"extra\":true,\"nodes\":5}",
                               &pb, &rs, &pr, &pp, &pl, why, sizeof why),
                     0);
    assert_int_equal(rs, RULE_FREESTYLE);
    assert_int_equal(pb.to_move, BLACK);
    assert_int_equal(pr.best, POINT_PASS);
    assert_null(pp);
    /* Malformed lines. */
    const char *bad[] = {
        "",
        "{",
        "[]",
        "{\"position\":\"B:h8 W:h9\",\"attacker\":\"white\"}",
        "{\"position\":\"B:h8 W:h9\",\"attacker\":\"red\",\"result\":\"proven\"}",
        "{\"position\":\"B:h8 W:h8\",\"attacker\":\"white\",\"result\":\"proven\"}",
        "{\"position\":\"B:h8 W:h9\",\"attacker\":\"white\",\"result\":\"proven\",\"best\":\"h8\"}",
        "{\"position\":\"B:h8 W:h9\",\"attacker\":\"white\",\"result\":\"proven\",\"proof\":\"5\"}",
        "{\"position\":\"B:h8 W:h9\",\"attacker\":\"white\",\"result\":\"proven\",\"nodes\":-1}",
        "{\"position\":\"B:h8 W:h9\",\"attacker\":\"white\",\"result\":\"proven\"} x",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (dbx_parse(bad[i], &pb, &rs, &pr, &pp, &pl, why, sizeof why) != RJ_EBADDATA)
            fail_msg("accepted: %s", bad[i]);
    }
}

/* ---- damaged files ---- */

static void write_file(const char *p, const void *data, size_t n)
{
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static void test_damaged_files(void **state)
{
    (void)state;
    Db *db;
    DbOptions ro = {DB_RDONLY, 0, 0}, rw = {DB_CREATE, 0, 0};
    char why[256];
    rm_db(path("none.lmdb"));
    assert_int_equal(db_open(path("none.lmdb"), &ro, &db, why, sizeof why), RJ_ENODB);
    assert_null(db);
    /* Foreign file (text), for readers and writers. */
    char text[20000];
    memset(text, 'x', sizeof text);
    write_file(path("foreign.lmdb"), text, sizeof text);
    assert_int_equal(db_open(path("foreign.lmdb"), &ro, &db, why, sizeof why), RJ_EDB);
    assert_non_null(strstr(why, "not a renju database"));
    assert_int_equal(db_open(path("foreign.lmdb"), &rw, &db, why, sizeof why), RJ_EDB);
    write_file(path("empty.lmdb"), text, 0);
    assert_int_equal(db_open(path("empty.lmdb"), &ro, &db, why, sizeof why), RJ_EDB);
    /* A good database with data, then truncated. */
    db = open_new("trunc.lmdb", 0);
    for (uint32_t i = 0; i < 3000; i++) {
        Board b;
        numbered_board(i, &b);
        DbRecord r = rec(RESULT_PROVEN, BLACK, POINT_NONE, i);
        assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    }
    db_close(db);
    struct stat sb;
    assert_int_equal(stat(path("trunc.lmdb"), &sb), 0);
    assert_true(sb.st_size > 16 * 4096);
    assert_int_equal(truncate(path("trunc.lmdb"), sb.st_size / 2), 0);
    assert_int_equal(db_open(path("trunc.lmdb"), &ro, &db, why, sizeof why), RJ_EDB);
    assert_non_null(strstr(why, "truncated"));
    assert_int_equal(db_open(path("trunc.lmdb"), &rw, &db, why, sizeof why), RJ_EDB);
    assert_int_equal(truncate(path("trunc.lmdb"), 100), 0);
    assert_int_equal(db_open(path("trunc.lmdb"), &ro, &db, why, sizeof why), RJ_EDB);
    /* Meta pages overwritten. */
    db = open_new("meta.lmdb", 0);
    db_close(db);
    FILE *f = fopen(path("meta.lmdb"), "r+b");
    assert_non_null(f);
    fwrite(text, 1, 64, f);
    fseek(f, 4096, SEEK_SET);
    fwrite(text, 1, 64, f);
    fclose(f);
    assert_int_equal(db_open(path("meta.lmdb"), &ro, &db, why, sizeof why), RJ_EDB);
    /* An LMDB file that is not ours. */
    rm_db(path("other.lmdb"));
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    assert_int_equal(mdb_env_create(&env), 0);
    assert_int_equal(mdb_env_open(env, path("other.lmdb"), MDB_NOSUBDIR, 0644), 0);
    assert_int_equal(mdb_txn_begin(env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_dbi_open(txn, NULL, 0, &dbi), 0);
    MDB_val k = {3, "abc"}, v = {3, "def"};
    assert_int_equal(mdb_put(txn, dbi, &k, &v, 0), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
    mdb_env_close(env);
    assert_int_equal(db_open(path("other.lmdb"), &ro, &db, why, sizeof why), RJ_EDB);
    assert_int_equal(db_open(path("other.lmdb"), &rw, &db, why, sizeof why), RJ_EDB);
    /* A newer schema version. */
    db = open_new("newer.lmdb", 0);
    db_close(db);
    assert_int_equal(mdb_env_create(&env), 0);
    assert_int_equal(mdb_env_set_maxdbs(env, 8), 0);
    assert_int_equal(mdb_env_open(env, path("newer.lmdb"), MDB_NOSUBDIR, 0644), 0);
    assert_int_equal(mdb_txn_begin(env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_dbi_open(txn, "meta", 0, &dbi), 0);
    MDB_val sk = {6, "schema"}, sv = {1, "2"};
    assert_int_equal(mdb_put(txn, dbi, &sk, &sv, 0), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
    mdb_env_close(env);
    assert_int_equal(db_open(path("newer.lmdb"), &ro, &db, why, sizeof why), RJ_ESCHEMA);
    assert_non_null(strstr(why, "schema version 2"));
    assert_int_equal(db_open(path("newer.lmdb"), &rw, &db, why, sizeof why), RJ_ESCHEMA);
    /* A directory where the file should be. */
    assert_int_equal(db_open(g_dir, &ro, &db, why, sizeof why), RJ_EDB);
}

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/rj_test_db.XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_codec),          cmocka_unit_test(test_symmetric_round_trip),
        cmocka_unit_test(test_merge_policy),          cmocka_unit_test(test_map_growth),
        cmocka_unit_test(test_readers_while_writing), cmocka_unit_test(test_result_store),
        cmocka_unit_test(test_exchange_round_trip),   cmocka_unit_test(test_damaged_files),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
