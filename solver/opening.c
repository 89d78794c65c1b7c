/* opening.c - see opening.h. */
#include "opening.h"

#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "error.h"
#include "proof.h"
#include "proof_extract.h"
#include "rules.h"
#include "sym.h"

static void solve_init(OpeningSolve *o)
{
    memset(o, 0, sizeof *o);
    o->status = RESULT_UNKNOWN;
    o->best = POINT_NONE;
}

/* Write the result of a finished search to the store (proof checked first). */
static int store_result(const OpeningConfig *c, const Board *b, const DfpnResult *r, OpeningSolve *out)
{
    StoredResult sr;
    memset(&sr, 0, sizeof sr);
    sr.result = r->result;
    sr.attacker = BLACK;
    sr.best = POINT_NONE;
    sr.nodes = r->nodes;
    ProofWriter w = { 0 };
    if (r->result == RESULT_PROVEN) {
        if (b->to_move == BLACK)
            sr.best = r->best;
        if (c->proofs) {
            ExtractStats st;
            out->proof_rc = proof_extract(c->dfpn, b, BLACK, 0, 0, &w, &st);
            if (out->proof_rc == 0) {
                ProofStats ps;
                if (proof_check(b, w.data, w.len, &ps, NULL, 0)) {
                    /* A search bug: claim nothing rather than an unchecked win. */
                    free(w.data);
                    out->proof_rc = RJ_EBADDATA;
                    out->status = RESULT_UNKNOWN;
                    out->best = POINT_NONE;
                    return 0;
                }
                sr.proof_nodes = ps.nodes;
                sr.proof_depth = ps.depth;
                if (b->to_move == BLACK && w.len > PROOF_HEADER_LEN)
                    sr.best = out->best = w.data[PROOF_HEADER_LEN];
            } else {
                free(w.data);
                w.data = NULL;
                w.len = 0;
            }
        }
    }
    int rc = 0;
    if (c->store) {
        rc = c->store->store(c->store->ctx, b, c->rules, &sr, w.data, w.len);
        out->proof_stored = rc == 0 && w.data != NULL;
    }
    free(w.data);
    return rc;
}

int opening_solve(const OpeningConfig *c, const Board *b, OpeningSolve *out)
{
    solve_init(out);
    Color winner;
    if (rules_game_over(b, c->rules, &winner)) {
        out->status = winner == BLACK ? RESULT_PROVEN : RESULT_DISPROVEN;
        return 0;
    }
    if (c->store) {
        StoredResult sr;
        int rc = c->store->lookup(c->store->ctx, b, BLACK, c->rules, &sr);
        if (rc == 0) {
            uint64_t budget = dfpn_config(c->dfpn)->max_nodes;
            if (sr.result != RESULT_UNKNOWN) {
                out->status = sr.result;
                out->best = sr.result == RESULT_PROVEN ? sr.best : POINT_NONE;
                out->from_store = true;
                return 0;
            }
            if (budget && sr.nodes >= budget) {
                out->from_store = true;
                return 0;
            }
        } else if (rc != RJ_ENOTFOUND) {
            return rc;
        }
    }
    dfpn_clear(c->dfpn);
    DfpnResult r;
    int rc = dfpn_solve(c->dfpn, b, &r);
    if (rc)
        return rc;
    out->searched = true;
    out->nodes = r.nodes;
    out->time_s = r.time_s;
    out->interrupted = r.interrupted;
    if (r.interrupted && r.result == RESULT_UNKNOWN)
        return RJ_EINTR; /* a partial search is not an effort record */
    out->status = r.result;
    out->best = r.result == RESULT_PROVEN && b->to_move == BLACK ? r.best : POINT_NONE;
    rc = store_result(c, b, &r, out);
    if (rc)
        return rc;
    return r.interrupted ? RJ_EINTR : 0;
}

/*
 * Solve the classes cls[0..k) of b (black to move) into out; *done counts
 * positions over a whole run of total.  Unstarted classes stay unknown.
 */
static int solve_classes(const OpeningConfig *c, Board *b, const MoveClass *cls, int k, OpeningClass *out,
                         int *done, int total)
{
    for (int i = 0; i < k; i++) {
        out[i].cls = cls[i];
        solve_init(&out[i].res);
    }
    for (int i = 0; i < k; i++) {
        if (c->deadline > 0 && clock_now() >= c->deadline)
            return 0;
        board_play(b, cls[i].moves[0]);
        int rc = opening_solve(c, b, &out[i].res);
        (*done)++;
        if (c->progress)
            c->progress(c->progress_ctx, *done, total, b, &out[i].res);
        board_undo(b);
        if (rc)
            return rc;
    }
    return 0;
}

static void class_bounds(const OpeningClass *cl, int k, int *wins_min, int *wins_max)
{
    Result st[BOARD_POINTS];
    for (int i = 0; i < k; i++)
        st[i] = cl[i].res.status;
    fifth_w_bounds(st, k, wins_min, wins_max);
}

int opening_move_classes(const OpeningConfig *c, Board *b, OpeningClass *out, int *n, int *wins_min, int *wins_max)
{
    *n = 0;
    *wins_min = *wins_max = 0;
    if (b->to_move != BLACK)
        return RJ_EBADPOS;
    MoveClass cls[BOARD_POINTS];
    Color winner;
    int k = rules_game_over(b, c->rules, &winner) ? 0 : fifth_move_classes(b, c->rules, cls);
    int done = 0;
    int rc = solve_classes(c, b, cls, k, out, &done, k);
    *n = k;
    class_bounds(out, k, wins_min, wins_max);
    return rc;
}

int opening_count_classes(Board *b, RuleSet rs)
{
    MoveClass cls[BOARD_POINTS];
    Color winner;
    if (b->to_move != BLACK || rules_game_over(b, rs, &winner))
        return 0;
    return fifth_move_classes(b, rs, cls);
}

static bool class_selected(const MoveClass *m, const Point *only, int nonly)
{
    if (!only)
        return true;
    for (int i = 0; i < m->n; i++)
        for (int j = 0; j < nonly; j++)
            if (m->moves[i] == only[j])
                return true;
    return false;
}

long opening_count_fair_n(Board *b, RuleSet rs, const Point *only, int nonly)
{
    MoveClass f4[BOARD_POINTS];
    if (b->to_move != WHITE)
        return 0;
    int n4 = fifth_move_classes(b, rs, f4);
    long total = 0;
    for (int i = 0; i < n4; i++) {
        if (!class_selected(&f4[i], only, nonly))
            continue;
        board_play(b, f4[i].moves[0]);
        total += opening_count_classes(b, rs);
        board_undo(b);
    }
    return total;
}

int opening_fair_n(const OpeningConfig *c, Board *b, const Point *only, int nonly, OpeningFourth *out, int *n,
                   int *nfair_min, int *nfair_max)
{
    *n = 0;
    *nfair_min = *nfair_max = 0;
    MoveClass f4[BOARD_POINTS];
    Color winner;
    if (b->to_move != WHITE || rules_game_over(b, c->rules, &winner))
        return RJ_EBADPOS;
    int n4 = fifth_move_classes(b, c->rules, f4);
    if (n4 == 0)
        return RJ_EBADPOS;
    long total = opening_count_fair_n(b, c->rules, only, nonly);
    OpeningClass *tmp = malloc(sizeof *tmp * BOARD_POINTS);
    if (!tmp)
        return RJ_ENOMEM;
    MoveClass cls[BOARD_POINTS];
    int done = 0, rc = 0;
    int lo[BOARD_POINTS], hi[BOARD_POINTS];
    for (int i = 0; i < n4; i++) {
        OpeningFourth *o = &out[i];
        memset(o, 0, sizeof *o);
        o->cls = f4[i];
        o->selected = class_selected(&f4[i], only, nonly);
        board_play(b, f4[i].moves[0]);
        int k = rules_game_over(b, c->rules, &winner) ? 0 : fifth_move_classes(b, c->rules, cls);
        o->nfifth = k;
        o->wins_min = 0;
        o->wins_max = k;
        if (o->selected && rc == 0) {
            rc = solve_classes(c, b, cls, k, tmp, &done, (int)total);
            class_bounds(tmp, k, &o->wins_min, &o->wins_max);
        }
        board_undo(b);
        o->proven = o->wins_min;
        o->disproven = k - o->wins_max;
        lo[i] = o->wins_min;
        hi[i] = o->wins_max;
        if (rc && rc != RJ_EINTR)
            break;
    }
    free(tmp);
    if (rc && rc != RJ_EINTR)
        return rc;
    *n = n4;
    fifth_fair_n_bounds(lo, hi, n4, nfair_min, nfair_max);
    return rc;
}

/* ---- plans ---- */

/* A set of canonical keys (open addressing, linear probing). */
typedef struct {
    SymKey *keys;
    uint8_t *used;
    size_t cap, n;
} KeySet;

static uint64_t key_hash(const SymKey *k)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (int i = 0; i < SYMKEY_LEN; i++)
        h = (h ^ k->b[i]) * 1099511628211ull;
    return h;
}

static int keyset_grow(KeySet *s)
{
    size_t cap = s->cap ? s->cap * 2 : 1024;
    KeySet t = { calloc(cap, sizeof *t.keys), calloc(cap, 1), cap, 0 };
    if (!t.keys || !t.used) {
        free(t.keys);
        free(t.used);
        return RJ_ENOMEM;
    }
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->used[i])
            continue;
        size_t j = key_hash(&s->keys[i]) & (cap - 1);
        while (t.used[j])
            j = (j + 1) & (cap - 1);
        t.used[j] = 1;
        t.keys[j] = s->keys[i];
        t.n++;
    }
    free(s->keys);
    free(s->used);
    *s = t;
    return 0;
}

/* Insert k: 1 when new, 0 when present, or RJ_ENOMEM. */
static int keyset_add(KeySet *s, const SymKey *k)
{
    if (2 * (s->n + 1) > s->cap) {
        int rc = keyset_grow(s);
        if (rc)
            return rc;
    }
    size_t j = key_hash(k) & (s->cap - 1);
    while (s->used[j]) {
        if (!memcmp(s->keys[j].b, k->b, SYMKEY_LEN))
            return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->used[j] = 1;
    s->keys[j] = *k;
    s->n++;
    return 1;
}

typedef struct {
    RuleSet rs;
    KeySet seen;
    int (*fn)(void *ctx, const Board *pos);
    void *ctx;
} PlanCtx;

static int plan_emit(PlanCtx *p, const Board *b)
{
    SymKey k;
    sym_canonical(b, p->rs, &k, NULL);
    int rc = keyset_add(&p->seen, &k);
    if (rc < 0)
        return rc;
    return rc == 1 ? p->fn(p->ctx, b) : 0;
}

static int plan_rec(PlanCtx *p, Board *b, int left)
{
    Color winner;
    if (left == 0 || rules_game_over(b, p->rs, &winner))
        return plan_emit(p, b);
    MoveClass cls[BOARD_POINTS];
    int k = fifth_move_classes(b, p->rs, cls);
    if (k == 0)
        return plan_emit(p, b);
    for (int i = 0; i < k; i++) {
        board_play(b, cls[i].moves[0]);
        int rc = plan_rec(p, b, left - 1);
        board_undo(b);
        if (rc)
            return rc;
    }
    return 0;
}

int opening_plan(Board *b, RuleSet rs, int depth, int (*fn)(void *ctx, const Board *pos), void *ctx)
{
    if (depth < 1 || depth > 3)
        return RJ_EBADARG;
    PlanCtx p = { rs, { NULL, NULL, 0, 0 }, fn, ctx };
    int rc = plan_rec(&p, b, depth);
    free(p.seen.keys);
    free(p.seen.used);
    return rc;
}
