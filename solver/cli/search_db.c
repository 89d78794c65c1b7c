/* search_db.c - see search_db.h. */
#include "search_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "error.h"
#include "proof.h"
#include "repair_db.h"
#include "rules.h"
#include "sym.h"

enum { STATE_LEN = 22, EST_LEN = 9, WKEY_LEN = 4 + DB_KEY_LEN };

static const char STATE_PREFIX[] = "jt1:"; /* the saved states' keys begin with these 4 bytes */

static void work_key(const SearchDb *s, const Board *b, uint8_t *k, int *t)
{
    DbKey dk;
    db_key(b, s->rules, BLACK, &dk, t);
    memcpy(k, STATE_PREFIX, 4);
    memcpy(k + 4, dk.b, DB_KEY_LEN);
}

int search_db_forget_tree(Db *db, uint64_t *n) { return db_work_clear(db, STATE_PREFIX, 4, n); }

static int src_lookup(void *ctx, const Board *b, Result *res)
{
    SearchDb *s = ctx;
    DbRecord r;
    int rc = db_get(s->db, b, s->rules, BLACK, &r);
    if (rc)
        return rc == RJ_EBADDATA ? RJ_ENOTFOUND : rc;
    /* A proven record without a proof cannot enter a composed proof: the tree searches it again. */
    if (r.result == RESULT_UNKNOWN || (r.result == RESULT_PROVEN && !(r.flags & RECORD_HAS_PROOF)))
        return RJ_ENOTFOUND;
    *res = r.result;
    return 0;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int src_load(void *ctx, const Board *b, JtState *st)
{
    SearchDb *s = ctx;
    uint8_t k[WKEY_LEN];
    int t;
    work_key(s, b, k, &t);
    void *val = NULL;
    size_t len = 0;
    int rc = db_work_get(s->db, k, sizeof k, &val, &len);
    if (rc)
        return rc;
    const uint8_t *v = val;
    if (len < STATE_LEN || (len - STATE_LEN) % EST_LEN) {
        free(val);
        return RJ_ENOTFOUND; /* not ours: start afresh rather than fail */
    }
    st->nest = (int)((len - STATE_LEN) / EST_LEN);
    st->est = NULL;
    if (st->nest > 0) {
        st->est = malloc(sizeof *st->est * (size_t)st->nest);
        if (!st->est) {
            free(val);
            return RJ_ENOMEM;
        }
        int ti = sym_inverse(t);
        for (int i = 0; i < st->nest; i++) {
            const uint8_t *e = v + STATE_LEN + (size_t)i * EST_LEN;
            st->est[i].mv = e[0] < BOARD_POINTS ? sym_apply(ti, e[0]) : e[0];
            st->est[i].pn = (ProofNum)get_le(e + 1, 4);
            st->est[i].dn = (ProofNum)get_le(e + 5, 4);
        }
    }
    st->effort = get_le(v, 8);
    st->jobs = (uint32_t)get_le(v + 8, 4);
    st->pn = (ProofNum)get_le(v + 12, 4);
    st->dn = (ProofNum)get_le(v + 16, 4);
    Point best = v[20];
    st->best = best < BOARD_POINTS ? sym_apply(sym_inverse(t), best) : POINT_NONE;
    st->expanded = (v[21] & 1) != 0;
    st->probed = (v[21] & 2) != 0;
    st->repair_level = (uint8_t)(v[21] >> 2);
    free(val);
    return 0;
}

static int src_save(void *ctx, const Board *b, const JtState *st)
{
    SearchDb *s = ctx;
    uint8_t k[WKEY_LEN], v[STATE_LEN + JT_MAX_EST * EST_LEN];
    int t;
    work_key(s, b, k, &t);
    int nest = st->nest > JT_MAX_EST ? JT_MAX_EST : st->nest;
    for (int i = 0; i < nest; i++) {
        uint8_t *e = v + STATE_LEN + (size_t)i * EST_LEN;
        e[0] = st->est[i].mv < BOARD_POINTS ? sym_apply(t, st->est[i].mv) : st->est[i].mv;
        put_le(e + 1, st->est[i].pn, 4);
        put_le(e + 5, st->est[i].dn, 4);
    }
    put_le(v, st->effort, 8);
    put_le(v + 8, st->jobs, 4);
    put_le(v + 12, st->pn, 4);
    put_le(v + 16, st->dn, 4);
    v[20] = st->best < BOARD_POINTS ? sym_apply(t, st->best) : POINT_NONE;
    int level = st->repair_level > JT_MAX_REPAIR_LEVEL ? JT_MAX_REPAIR_LEVEL : st->repair_level;
    v[21] = (uint8_t)((st->expanded ? 1 : 0) | (st->probed ? 2 : 0) | level << 2);
    size_t len = STATE_LEN + (size_t)nest * EST_LEN;
    if (s->keep_ahead) { /* another open tree may have saved this position further along: it stays */
        void *old = NULL;
        size_t olen = 0;
        int rc = db_work_get(s->db, k, sizeof k, &old, &olen);
        bool keep = rc == 0 && search_db_state_ahead(old, olen, v, len) && !search_db_state_ahead(v, len, old, olen);
        free(old);
        if (rc && rc != RJ_ENOTFOUND)
            return rc;
        if (keep)
            return 0;
    }
    return db_work_put(s->db, k, sizeof k, v, len);
}

int search_db_foreach_state(Db *db, DbWorkFn fn, void *ctx) { return db_work_foreach(db, STATE_PREFIX, 4, fn, ctx); }

/*
 * The order of progress: expanded, then work, then jobs, then probed, then
 * the root repair's level (JtState.repair_level).  An
 * expanded node heads a subtree whose children have their own states, so it
 * stays even against more work on the same position as another tree's leaf
 * (two searches sharing a node: the root of one, a probed leaf of another).
 */
static uint64_t state_field(const uint8_t *v, size_t len, int f)
{
    if (len < STATE_LEN)
        return 0;
    return f == 0   ? (uint64_t)(v[21] & 1)
           : f == 1 ? get_le(v, 8)
           : f == 2 ? get_le(v + 8, 4)
           : f == 3 ? (uint64_t)(v[21] >> 1 & 1)
                    : (uint64_t)(v[21] >> 2);
}

bool search_db_state_ahead(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    for (int f = 0; f < 5; f++) {
        uint64_t x = state_field(a, alen, f), y = state_field(b, blen, f);
        if (x != y)
            return x > y;
    }
    return true;
}

int search_db_check_state(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, char *why, size_t whylen)
{
    if (klen < 4 || memcmp(key, STATE_PREFIX, 4))
        return RJ_ENOTFOUND;
    const char *bad = NULL;
    DbKey dk, ck;
    Board b;
    RuleSet rs;
    Color att;
    int t;
    if (klen != WKEY_LEN) {
        bad = "a jt1: key has the wrong length";
    } else {
        memcpy(dk.b, key + 4, DB_KEY_LEN);
        if (db_key_decode(&dk, &b, &rs, &att) || att != BLACK)
            bad = "the key is not a position with attacker black";
        else if (db_key(&b, rs, BLACK, &ck, &t), memcmp(ck.b, dk.b, DB_KEY_LEN))
            bad = "the key is not canonical";
    }
    if (!bad && (vlen < STATE_LEN || (vlen - STATE_LEN) % EST_LEN || (vlen - STATE_LEN) / EST_LEN > JT_MAX_EST))
        bad = "the state has the wrong length";
    if (!bad && ((val[20] != POINT_NONE && (val[20] >= BOARD_POINTS || board_at(&b, val[20]) != EMPTY)) ||
                 ((val[21] >> 2) && ((val[21] >> 2) < JT_MIN_REPAIR_LEVEL || b.to_move != BLACK)) ||
                 get_le(val + 12, 4) > PN_INF || get_le(val + 16, 4) > PN_INF || get_le(val, 8) > (1ull << 50) ||
                 get_le(val + 8, 4) > (1u << 24)))
        bad = "the state's work, jobs, best move, flags or proof numbers are out of range";
    for (size_t i = 0; !bad && i < (vlen - STATE_LEN) / EST_LEN; i++) {
        const uint8_t *e = val + STATE_LEN + i * EST_LEN;
        if ((e[0] != POINT_PASS && (e[0] >= BOARD_POINTS || board_at(&b, e[0]) != EMPTY)) ||
            get_le(e + 1, 4) > PN_INF || get_le(e + 5, 4) > PN_INF)
            bad = "an estimate's move or proof numbers are out of range";
    }
    if (bad) {
        if (why && whylen)
            snprintf(why, whylen, "%s", bad);
        return RJ_EBADDATA;
    }
    return 0;
}

/*
 * Append the tree of the stored proof of the position after move m (b
 * restored): nothing when m wins at once.  RJ_EBADDATA when it has no proof.
 */
static int append_child(SearchDb *s, Board *b, Point m, ProofWriter *w)
{
    pw_u8(w, m);
    board_play(b, m);
    Color winner;
    int rc = 0;
    if (rules_game_over(b, s->rules, &winner)) {
        rc = winner == BLACK ? 0 : RJ_EBADDATA;
    } else {
        Board sb;
        const Board *lb = b;
        if (m == POINT_PASS) {
            board_setup_copy(b, &sb);
            lb = &sb;
        }
        uint8_t *proof = NULL;
        size_t len = 0;
        rc = db_get_proof(s->db, lb, s->rules, BLACK, &proof, &len);
        if (rc == RJ_ENOTFOUND)
            rc = RJ_EBADDATA;
        if (rc == 0 && len > PROOF_HEADER_LEN)
            pw_bytes(w, proof + PROOF_HEADER_LEN, len - PROOF_HEADER_LEN);
        else if (rc == 0)
            rc = RJ_EBADDATA;
        free(proof);
    }
    board_undo(b);
    return rc ? rc : w->err;
}

static int src_solved(void *ctx, const Board *b0, Result r, const JtMoves *m)
{
    SearchDb *s = ctx;
    StoredResult sr;
    memset(&sr, 0, sizeof sr);
    sr.result = r;
    sr.attacker = BLACK;
    sr.best = POINT_NONE;
    if (r == RESULT_DISPROVEN)
        return s->store.store(s->store.ctx, b0, s->rules, &sr, NULL, 0);
    int rc = db_flush(s->db);
    if (rc && rc != RJ_ECONFLICT)
        return rc;
    Board b = *b0;
    ProofWriter w = { 0 };
    pw_header(&w, s->rules, BLACK);
    rc = 0;
    if (b.to_move == BLACK) {
        sr.best = m->mv[0];
        rc = append_child(s, &b, m->mv[0], &w);
    } else {
        pw_u16(&w, (uint16_t)m->n);
        for (int i = 0; i < m->n && rc == 0; i++)
            rc = append_child(s, &b, m->mv[i], &w);
    }
    ProofStats ps;
    if (rc == 0 && proof_check(&b, w.data, w.len, &ps, NULL, 0) != 0)
        rc = RJ_EBADDATA;
    if (rc == 0) {
        sr.proof_nodes = ps.nodes;
        sr.proof_depth = ps.depth;
        rc = s->store.store(s->store.ctx, &b, s->rules, &sr, w.data, w.len);
        if (rc == 0) {
            s->composed++;
            s->compose_bytes += w.len;
        }
    } else if (rc == RJ_EBADDATA) {
        s->compose_failed++;
    }
    free(w.data);
    return rc;
}

static int src_borrow(void *ctx, const Board *b, const Board *pass)
{
    SearchDb *s = ctx;
    int rc = db_flush(s->db); /* the pass's proof may still be queued */
    if (rc && rc != RJ_ECONFLICT)
        return rc;
    uint8_t *proof = NULL;
    size_t len = 0;
    rc = db_get_proof(s->db, pass, s->rules, BLACK, &proof, &len);
    /*
     * The donor's proof lists defender replies on points b has stones on
     * (white's move itself, where the donor has the pass): the defender
     * cannot play there, so those entries go; the checker then decides.
     */
    uint64_t drop[4] = {0, 0, 0, 0};
    for (Point p = 0; p < BOARD_POINTS; p++)
        if (board_at(b, p) != EMPTY && board_at(pass, p) == EMPTY)
            drop[p >> 6] |= UINT64_C(1) << (p & 63);
    ProofWriter w = {0};
    if (rc == 0 && (len <= PROOF_HEADER_LEN || proof_drop_moves(pass, proof, len, drop, &w, NULL) != 0))
        rc = w.err ? w.err : RJ_EBADDATA;
    ProofStats ps;
    if (rc == 0 && proof_check(b, w.data, w.len, &ps, NULL, 0) != 0)
        rc = RJ_EBADDATA;
    if (rc == 0) {
        StoredResult sr;
        memset(&sr, 0, sizeof sr);
        sr.result = RESULT_PROVEN;
        sr.attacker = BLACK;
        sr.best = w.data[PROOF_HEADER_LEN] < BOARD_POINTS ? w.data[PROOF_HEADER_LEN] : POINT_NONE;
        sr.proof_nodes = ps.nodes;
        sr.proof_depth = ps.depth;
        rc = s->store.store(s->store.ctx, b, s->rules, &sr, w.data, w.len);
        if (rc == 0)
            s->borrowed++;
    }
    free(w.data);
    free(proof);
    return rc;
}

/*
 * The first move of b's stored proof (JtSource.first_move: a repair's donor
 * families).  A database error reads as no proof: it only leaves a donor
 * out, and the next read reports it.
 */
static int src_first_move(void *ctx, const Board *b, Point *mv)
{
    SearchDb *s = ctx;
    int rc = db_flush(s->db); /* a sibling's proof may still be queued */
    if (rc && rc != RJ_ECONFLICT)
        return rc;
    DbRecord r;
    rc = db_get(s->db, b, s->rules, BLACK, &r);
    if (rc)
        return rc == RJ_EBADDATA ? RJ_ENOTFOUND : rc;
    if (r.result != RESULT_PROVEN || !(r.flags & RECORD_HAS_PROOF) || r.best >= BOARD_POINTS)
        return RJ_ENOTFOUND;
    *mv = r.best;
    return 0;
}

/* Repair (jobtree.h): mend donor's stored proof for b, fresh proofs in the repairs' own solver. */
static int src_repair(void *ctx, const Board *b, const Board *donor, uint64_t nodes, int calls, uint64_t *work)
{
    SearchDb *s = ctx;
    *work = 0;
    if ((s->repair_deadline > 0 && clock_now() >= s->repair_deadline) || (s->stop && atomic_load(s->stop)))
        return RJ_EINTR; /* the search's time is up, or a stop request: not started, not counted */
    s->repair_tries++;
    int rc = db_flush(s->db); /* the donor's proof may still be queued */
    if (rc && rc != RJ_ECONFLICT)
        return rc;
    DfpnConfig cfg;
    if (!s->repair_dfpn) {
        dfpn_config_default(&cfg);
        cfg.attacker = BLACK;
        cfg.rules = s->rules;
        cfg.threads = 1;
        cfg.tt_mb = s->repair_tt_mb;
        cfg.stop = s->stop;
        cfg.max_nodes = nodes;
        if ((rc = dfpn_create(&s->repair_dfpn, &cfg)))
            return rc;
    } else if (dfpn_config(s->repair_dfpn)->max_nodes != nodes) {
        cfg = *dfpn_config(s->repair_dfpn);
        cfg.max_nodes = nodes;
        if ((rc = dfpn_set_config(s->repair_dfpn, &cfg)))
            return rc;
    }
    uint8_t *proof = NULL;
    size_t len = 0;
    if ((rc = db_get_proof(s->db, donor, s->rules, BLACK, &proof, &len)))
        return rc;
    RepairDb r;
    memset(&r, 0, sizeof r);
    r.db = s->db;
    r.store = s->store;
    r.rules = s->rules;
    r.att = BLACK;
    r.dfpn = s->repair_dfpn;
    r.decline_root = true;                /* the whole leaf is the tree's job */
    r.max_work = nodes * (uint64_t)calls; /* stored results are free: only the solves' work counts */
    RepairStats st;
    ProofStats ps;
    int max_calls = calls > REPAIR_MAX_FAILURES / 4 ? 4 * calls : REPAIR_MAX_FAILURES;
    rc = repair_db_run(&r, donor, proof, len, b, max_calls, &st, &ps, NULL, 0);
    free(proof);
    *work = r.work;
    s->repair_work += r.work;
    if (rc == 0)
        s->repaired++;
    if (s->repair_pr) {
        ProgressInfo in = progress_info();
        in.nodes = s->repair_work;
        in.done = (long long)s->repair_tries;
        in.proven = (long long)s->repaired;
        char text[64];
        snprintf(text, sizeof text, "%llu proof repairs tried", (unsigned long long)s->repair_tries);
        in.text = text;
        progress_tick(s->repair_pr, &in);
    }
    if (rc == RJ_EINTERNAL) /* the mended proof did not check: nothing was claimed */
        s->repair_rejected++;
    if (rc == RJ_EINTERNAL || rc == RJ_ENOTFOUND)
        rc = RJ_EBADDATA; /* it ran and did not prove b (JtSource.repair) */
    return rc;
}

void search_db_enable_repair(SearchDb *s, JtSource *src, size_t tt_mb, atomic_bool *stop, double deadline, Progress *pr)
{
    s->repair_tt_mb = tt_mb;
    s->repair_deadline = deadline;
    s->stop = stop;
    s->repair_pr = pr;
    src->repair = src_repair;
    src->first_move = src_first_move;
}

void search_db_free(SearchDb *s)
{
    dfpn_free(s->repair_dfpn);
    s->repair_dfpn = NULL;
}

void search_db_init(SearchDb *s, Db *db, RuleSet rs, bool read_only, JtSource *src)
{
    memset(s, 0, sizeof *s);
    s->db = db;
    s->rules = rs;
    db_result_store(db, &s->store);
    src->ctx = s;
    src->lookup = src_lookup;
    src->load = src_load;
    src->save = read_only ? NULL : src_save;
    src->solved = read_only ? NULL : src_solved;
    src->borrow = read_only ? NULL : src_borrow;
}
