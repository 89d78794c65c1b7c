/* dfpn.c - see dfpn.h: the search (the node loop, mid) and the solve's phases; dfpn_impl.h lists the other parts. */
#include "dfpn.h"

#include <assert.h>
#include <omp.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "dfpn_impl.h"
#include "error.h"
#include "nodegen.h"
#include "placement.h"
#include "rules.h"
#include "zobrist.h"

/* ---- small helpers ---------------------------------------------------- */

/* A 64-bit sum clamped to PN_INF. */
static inline ProofNum pn_clamp64(uint64_t v) { return v >= PN_INF ? PN_INF : (ProofNum)v; }

Key dfpn_tt_key(const Board *b, Color attacker)
{
    return b->key ^ (attacker == WHITE ? zob_mix(ZOB_SEED ^ UINT64_C(0xa77ac0e5)) : 0);
}

/* ---- the search ------------------------------------------------------- */

static void report_progress(Worker *w, double t)
{
    Dfpn *s = w->s;
    /* From the solver, not the TT: a long search may replace the root's unsolved entry. */
    uint64_t rn = atomic_load_explicit(&s->root_numbers, memory_order_relaxed);
    DfpnProgress p = { atomic_load(&s->nodes), t - s->t0, (ProofNum)(rn >> 32), (ProofNum)rn, tt_fill_permille(&s->tt) };
    s->cfg.progress(s->cfg.progress_ctx, &p);
}

/*
 * Count n units of work (a df-pn node is one, each leaf VCF/VCT node one);
 * every FLUSH_EVERY units publish the count and check the budgets.
 */
void dfpn_count_work(Worker *w, uint64_t n)
{
    Dfpn *s = w->s;
    w->nodes += n;
    if (w->limit && w->nodes >= w->limit)
        w->halt = true;
    w->unflushed += n;
    /* The node budget is exact with one thread (flushed total + this thread's unflushed count). */
    if (s->node_limit && atomic_load_explicit(&s->nodes, memory_order_relaxed) + w->unflushed >= s->node_limit)
        atomic_store(&s->stop_internal, true);
    if (w->unflushed < FLUSH_EVERY)
        return;
    uint64_t total = atomic_fetch_add(&s->nodes, w->unflushed) + w->unflushed;
    w->unflushed = 0;
    dfpn_flush_tt_count(w);
    if (s->node_limit && total >= s->node_limit)
        atomic_store(&s->stop_internal, true);
    if (s->cfg.stop && atomic_load(s->cfg.stop))
        atomic_store(&s->interrupted, true);
    if (s->deadline > 0 || (w->tid == 0 && s->cfg.progress)) {
        double t = clock_now();
        if (s->deadline > 0 && t >= s->deadline)
            atomic_store(&s->stop_internal, true);
        if (w->tid == 0 && s->cfg.progress && t >= w->next_progress) {
            w->next_progress = t + s->cfg.progress_interval;
            report_progress(w, t);
        }
    }
}

/*
 * Other threads use the TT now: several are in the solve (those that left
 * it are done with the table; the acquire orders their last accesses first).
 */
static inline bool tt_shared(Dfpn *s) { return atomic_load_explicit(&s->running, memory_order_acquire) > 1; }

/* Record a solved result d of the node at depth (see root_result). */
static inline void record_root(Worker *w, int depth, const TTData *d)
{
    if (depth > 0 || !w->solve_root || (d->pn != 0 && d->dn != 0))
        return;
    uint64_t v = ROOT_SOLVED | (d->pn == 0 ? ROOT_PROVEN : 0) | (d->exact ? ROOT_EXACT : 0) | (uint64_t)d->best << 8 |
                 (uint64_t)w->tid << 32;
    uint64_t none = 0;
    atomic_compare_exchange_strong(&w->s->root_result, &none, v);
}

/*
 * Probe key, the TT key of a node at depth.  The root's children, once
 * solved, are shared between the racing threads: a thread t > 0 also reads
 * a depth-1 node's solved entry under the plain key (thread 0's, where
 * every thread stores its solved depth-1 results too: mid()).  At a
 * defender root the threads so split the defences between them; deeper
 * down they stay apart (see "Parallel search" in dfpn.h).
 */

static inline bool tt_get(const Worker *w, int depth, Key key, TTData *e)
{
    bool found = probe_kept(w->s, key, e);
    if (depth != 1 || (found && (e->pn == 0 || e->dn == 0)))
        return found;
    TTData p;
    if (w->salt && probe_kept(w->s, key ^ w->salt, &p) && (p.pn == 0 || p.dn == 0)) {
        *e = p;
        return true;
    }
    return found;
}

/*
 * Store d for key in the TT.  Below the cap an eviction makes the TT grow,
 * so the table keeps what a table of the cap would (the entry whose
 * eviction asks for it aside).  At the cap a solved entry it evicts moves
 * to the solved store, which grows the same way up to a cap of its own.
 * Returns what the TT store did; *solved_new counts the solved store's
 * slots filled (NULL: not counted, outside a search).
 */
static TTStoreResult keep_store(Dfpn *s, Key key, const TTData *d, uint64_t *solved_new)
{
    Key ek;
    TTData ev;
    TTStoreResult r = tt_store_ev(&s->tt, key, d, &ek, &ev);
    if (r < TT_EVICTED)
        return r;
    if (s->tt.nbuckets < s->tt.max_buckets) /* below the cap: nothing is lost for long */
        ask_growth(s);
    if (r == TT_EVICTED_SOLVED && (ev.pn == 0 || ev.dn == 0) && s->tt.solved_elsewhere) { /* at the cap */
        /* (ev unsolved: a torn read of a victim that changed meanwhile) */
        TTStoreResult r2 = tt_store(&s->solved, ek, &ev);
        if (!atomic_load_explicit(&s->solved_on, memory_order_relaxed))
            atomic_store(&s->solved_on, true);
        if (r2 == TT_FILLED && solved_new)
            ++*solved_new;
        if (r2 == TT_EVICTED_SOLVED && s->solved.nbuckets < s->solved.max_buckets)
            ask_solved_growth(s);
    }
    return r;
}

/*
 * The work a preloaded entry claims (log2): a solved entry that costly is
 * kept by the TT's replacement, and proof extraction prefers the search's
 * own proven children (less work) where it has both.
 */
enum { PRELOAD_WORK = 40 };

int dfpn_preload(Dfpn *s, const DfpnKnown *k, size_t n)
{
    int nt = s->cfg.threads;
    uint64_t want = (uint64_t)n * (uint64_t)nt * 8u; /* slots: an eighth full */
    while (s->tt.nbuckets < s->tt.max_buckets && s->tt.nbuckets * TT_WAYS < want)
        dfpn_grow_tables(s);
    for (size_t i = 0; i < n; i++) {
        if (k[i].result != RESULT_PROVEN && k[i].result != RESULT_DISPROVEN)
            return RJ_EBADARG;
        bool proven = k[i].result == RESULT_PROVEN;
        TTData d = {proven ? 0 : PN_INF, proven ? PN_INF : 0, POINT_NONE, PRELOAD_WORK, !proven};
        for (int t = 0; t < nt; t++) {
            uint64_t solved_new = 0;
            if (keep_store(s, k[i].key ^ thread_salt(t), &d, &solved_new) == TT_FILLED && tt_add_used(&s->tt, 1))
                ask_growth(s);
            if (solved_new && tt_add_used(&s->solved, solved_new))
                ask_solved_growth(s);
            if (atomic_load(&s->grow_req)) { /* no solve runs: grow here, alone */
                atomic_store(&s->grow_req, false);
                dfpn_grow_tables(s);
            }
        }
    }
    return 0;
}

void dfpn_tt_put(Worker *w, Key key, const TTData *d)
{
    TTStoreResult r = keep_store(w->s, key, d, &w->solved_new);
    w->tt_new += r == TT_FILLED;
}

/*
 * The children of the worker's board (TT key `key`) in c: from the child-list
 * cache when the node was found in the TT (its leaf test ran at its first
 * visit), else generated (the leaf test run when not found), counting the
 * threat searches' work.  Non-terminal lists are cached.
 */
NodeStatus dfpn_node_gen(Worker *w, Key key, bool found, Children *c)
{
    Dfpn *s = w->s;
    GenCacheEntry *gce = &w->cache[key & ((1u << GEN_CACHE_BITS) - 1)];
    NodeStatus st = {.result = RESULT_UNKNOWN, .best = POINT_NONE}; /* children follow */
    if (found && gce->epoch == w->epoch && gce->key == key) {
        c->n = gce->n;
        c->complete = gce->complete;
        c->ordered = gce->ordered;
        memcpy(c->mv, gce->mv, c->n);
        for (int i = 0; i < c->n; i++)
            c->init_pn[i] = gce->init_pn[i];
        return st;
    }
    uint64_t threat0 = w->ng.threat_nodes;
    st = ng_generate(&s->node_rules, &w->b, s->attacker, c, !found, &w->ng);
    if (w->ng.threat_nodes > threat0)
        dfpn_count_work(w, w->ng.threat_nodes - threat0);
    if (st.result == RESULT_UNKNOWN)
        dfpn_cache_put(gce, w->epoch, key, c);
    return st;
}

/*
 * ng_order() for a node whose children's TT values are already read: the
 * values follow their moves into the new order, so they need not be read
 * again.  (Its own frame: the copies stay off the recursion's stack.)
 */
static __attribute__((noinline)) void order_keeping_values(Board *b, Color att, Key key, Children *c,
                                                           const TieOrder *tie)
{
    ProofNum pn[MAX_CHILDREN], dn[MAX_CHILDREN];
    uint8_t work[MAX_CHILDREN], slot[256];
    bool exact[MAX_CHILDREN];
    for (int i = 0; i < c->n; i++) {
        slot[c->mv[i]] = (uint8_t)i;
        pn[i] = c->pn[i], dn[i] = c->dn[i], work[i] = c->work[i], exact[i] = c->exact[i];
    }
    ng_order(b, att, key, c, tie);
    for (int i = 0; i < c->n; i++) {
        int j = slot[c->mv[i]];
        c->pn[i] = pn[j], c->dn[i] = dn[j], c->work[i] = work[j], c->exact[i] = exact[j];
    }
}

/*
 * Where mid() stands with the children's values (and so which of them it
 * reads from the TT at the next pass of its loop):
 *   - a new node first uses its children's initial values without reading
 *     the TT: most new nodes exceed their thresholds at once, and fewer
 *     than 1% of their children were found in the TT (measured).  The TT is
 *     read before a child is chosen.  Initial values never claim a result.
 *   - a new node whose initial values already exceed its thresholds (most
 *     of them) returns at once: one pass over the initial numbers, the same
 *     values and best move as the loop would compute from them.
 *   - otherwise the values are all read from the TT at first (prefetched
 *     together), then only the child just searched, unless other threads
 *     are writing too (the root re-reads all: shared results).  A stale
 *     value of another child (a transposition) is only a guide: the child
 *     is re-read when it is next searched.
 */
typedef enum {
    MID_INITIAL,   /* the children's initial values; the TT not read yet */
    MID_FRESH,     /* a new node returning at once on its initial values (no loop) */
    MID_READ_ALL,  /* read every child's values from the TT */
    MID_CARRIED,   /* the values read were carried over the reordering: read none */
    MID_REREAD_ONE /* read the child just searched (`searched`) only */
} MidState;

/*
 * A child's proof number at an attacker node with its effort counted: pn plus
 * 2^excess, where the child's last search took about 2^(effort_shift + excess)
 * work nodes (DfpnConfig.effort_shift); finite, at most TT_PN_MAX.  Only the
 * choice among the children and the node's own proof number see it: a proof
 * number 0 stays 0, so results never depend on it.  The chosen child's
 * threshold is the node's minus this extra, which stays above the child's
 * own pn (the node's pn, child's pn plus extra, is below the node's threshold).
 */
static inline ProofNum effort_pn(ProofNum pn, int excess)
{
    uint64_t v = (uint64_t)pn + (UINT64_C(1) << (excess > 24 ? 24 : excess));
    return v > TT_PN_MAX ? TT_PN_MAX : (ProofNum)v;
}

/* The df-pn MID procedure at depth (the worker's board is the node). */
static void mid(Worker *w, int depth, ProofNum thphi, ProofNum thdelta)
{
    Dfpn *s = w->s;
    Board *b = &w->b;
    Color att = s->attacker;
    bool is_or = b->to_move == att;
    Key key = dfpn_tt_key(b, att) ^ w->salt; /* children's keys inherit the salt (ng_child_key) */
    /*
     * Grow the TT when asked, between TT accesses (the search holds copies of
     * entries, never pointers).  In a solve the threads meet in dfpn_park() first
     * (a 1-thread solve finds itself alone there and grows the table at a
     * point fixed by the node count: the search stays deterministic);
     * dfpn_search_node runs outside any solve, alone.
     */
    if (atomic_load_explicit(&s->grow_req, memory_order_relaxed)) {
        if (atomic_load(&s->running) > 0) { /* in a solve: another thread may join at any time */
            dfpn_park(w);
        } else {
            atomic_store_explicit(&s->grow_req, false, memory_order_relaxed);
            dfpn_grow_tables(s);
        }
    }
    uint64_t start = w->nodes;
    w->dfpn_nodes++;
    dfpn_count_work(w, 1);
    TTData e;
    bool found = tt_get(w, depth, key, &e);
    if (found && (e.pn == 0 || e.dn == 0)) {
        record_root(w, depth, &e);
        return;
    }
    Children *c = &w->stack[depth];
    GenCacheEntry *gce = &w->cache[key & ((1u << GEN_CACHE_BITS) - 1)];
    NodeStatus st = dfpn_node_gen(w, key, found, c);
    /* A wide defender node the search came back to: its replies that lose to a VCT (dfpn_prune.c). */
    if (found && !is_or && s->cfg.vct_prune_budget && st.result == RESULT_UNKNOWN && dfpn_prune_wanted(w, c))
        dfpn_prune_by_vct(w, key, c); /* once a solve per node (Worker.tried) */
    if (st.result != RESULT_UNKNOWN) {
        TTData t = { st.result == RESULT_PROVEN ? 0 : PN_INF, st.result == RESULT_PROVEN ? PN_INF : 0,
                     st.best, 0, st.exact };
        dfpn_tt_put(w, key, &t);
        record_root(w, depth, &t);
        return;
    }
    ProofNum phi, delta;
    int best = 0;
    MidState state = found ? MID_READ_ALL : MID_INITIAL; /* see MidState */
    int searched = 0; /* MID_REREAD_ONE: the child just searched */
    if (state == MID_INITIAL && c->n > 0) { /* a new node: does it return at once? */
        ProofNum lo_v = PN_INF;
        int arg = 0;
        uint64_t sum = 0;
        for (int i = 0; i < c->n; i++) {
            ProofNum ip = c->init_pn[i]; /* 1 <= ip < PN_INF: no child is decided by its initial value */
            sum += ip;
            if (ip < lo_v)
                lo_v = ip, arg = i;
        }
        /* OR: pn = the least child pn, dn = the children's dn (1 each); AND: dn = 1, pn = the sum. */
        phi = is_or ? lo_v : 1;
        delta = is_or ? (ProofNum)c->n : sum > TT_PN_MAX ? TT_PN_MAX : (ProofNum)sum;
        best = is_or ? arg : 0;
        if (phi >= thphi || delta >= thdelta || should_stop(w))
            state = MID_FRESH;
    }
    /* Children's TT keys: ng_order() computes them when it runs first. */
    if (state == MID_READ_ALL || (state == MID_INITIAL && c->ordered))
        for (int i = 0; i < c->n; i++)
            c->key[i] = ng_child_key(b, key, c->mv[i]);
    while (state != MID_FRESH) {
        int lo = 0, hi = c->n;
        if (state == MID_CARRIED) {
            lo = hi = 0;
        } else if (state == MID_REREAD_ONE && !(depth == 0 && tt_shared(s))) { /* the root re-reads all: shared results */
            lo = searched, hi = searched + 1;
        } else if (state != MID_INITIAL) {
            for (int i = 0; i < c->n; i++)
                tt_prefetch(&s->tt, c->key[i]);
            if (atomic_load_explicit(&s->solved_on, memory_order_relaxed))
                for (int i = 0; i < c->n; i++)
                    tt_prefetch(&s->solved, c->key[i]);
        }
        for (int i = lo; i < hi; i++) {
            TTData ce;
            if (state != MID_INITIAL && tt_get(w, depth + 1, c->key[i], &ce)) {
                c->pn[i] = ce.pn, c->dn[i] = ce.dn, c->exact[i] = ce.exact, c->work[i] = (uint8_t)ce.work;
            } else { /* initial values: init_pn >= 1, dn 1 */
                c->pn[i] = c->init_pn[i];
                c->dn[i] = 1;
                c->exact[i] = false, c->work[i] = 0;
            }
        }
        /* A defence just proven: try its proof on the unsolved defences (dfpn_sim.c). */
        if (state == MID_REREAD_ONE && !is_or && c->pn[searched] == 0 && s->cfg.sim_budget)
            dfpn_simulate_siblings(w, depth, c, searched);
        /* The child's own phi/delta: it is an AND node under an OR node and vice versa. */
        const ProofNum *cph = is_or ? c->dn : c->pn, *cdl = is_or ? c->pn : c->dn;
        ProofNum best_v = PN_INF + 1u, second_v = PN_INF;
        int sel = 0;
        uint64_t sum = 0;
        bool inf = false;
        int shift = is_or ? s->cfg.effort_shift : -1; /* effort in the proof number (DfpnConfig.effort_shift) */
        for (int i = 0; i < c->n; i++) {
            ProofNum v = cdl[i];
            if (shift > 0 && c->work[i] > shift && v > 0 && v < PN_INF)
                v = effort_pn(v, c->work[i] - shift);
            sum += cph[i];
            inf |= cph[i] >= PN_INF;
            if (v < best_v) {
                second_v = best_v > PN_INF ? PN_INF : best_v;
                best_v = v, sel = i;
            } else if (v < second_v) {
                second_v = v;
            }
        }
        ProofNum sel_phi = c->n > 0 ? cph[sel] : 0;
        ProofNum sel_extra = c->n > 0 && is_or && best_v <= PN_INF ? best_v - cdl[sel] : 0; /* its effort's share */
        phi = best_v > PN_INF ? PN_INF : best_v;
        delta = inf ? PN_INF : sum > TT_PN_MAX ? TT_PN_MAX : (ProofNum)sum; /* finite sums saturate */
        best = sel;
        if (phi >= thphi || delta >= thdelta || should_stop(w))
            break;
        if (!c->ordered || state == MID_INITIAL) { /* about to choose a child: order them and read the TT */
            /* Values read from the TT already: they are carried over the reordering. */
            bool carry = state != MID_INITIAL;
            if (!c->ordered) {
                if (carry)
                    order_keeping_values(b, att, key, c, w->tie);
                else
                    ng_order(b, att, key, c, w->tie);
                dfpn_cache_put(gce, w->epoch, key, c);
            }
            state = carry ? MID_CARRIED : MID_READ_ALL;
            continue;
        }
        if (depth == 0) { /* keep the root's numbers current for progress reports */
            TTData rt = { is_or ? phi : delta, is_or ? delta : phi, c->mv[best], tt_work_log(w->nodes - start), false };
            dfpn_tt_put(w, key, &rt);
            if (w->tid == 0)
                atomic_store_explicit(&s->root_numbers, (uint64_t)rt.pn << 32 | rt.dn, memory_order_relaxed);
        }
        uint64_t d2 = (uint64_t)second_v + second_v / 4 + 1;
        ProofNum c_thdelta = (d2 < thphi ? (ProofNum)d2 : thphi) - sel_extra; /* > the child's pn: see effort_pn */
        uint64_t tp = thdelta >= PN_INF ? PN_INF : (uint64_t)thdelta - delta + sel_phi;
        ProofNum c_thphi = pn_clamp64(tp);
        board_play(b, c->mv[sel]);
        mid(w, depth + 1, c_thphi, c_thdelta);
        board_undo(b);
        state = MID_REREAD_ONE, searched = sel;
    }
    /* Exactness of the result, and the defender's hardest (most searched) move for a proof. */
    bool fresh = state == MID_FRESH;
    bool all_exact = !fresh, some_exact = false;
    int hard = 0, hard_work = -1;
    for (int i = 0; i < (fresh ? 0 : c->n); i++) {
        if (c->work[i] > hard_work)
            hard_work = c->work[i], hard = i;
        all_exact &= c->pn[i] == PN_INF && c->exact[i];
        some_exact |= c->dn[i] == 0 && c->exact[i];
    }
    bool exact = is_or ? (c->complete && all_exact) : some_exact;
    ProofNum pn = is_or ? phi : delta, dn = is_or ? delta : phi;
    Point bm = c->n == 0 ? POINT_NONE : c->mv[(!is_or && pn == 0) ? hard : best];
    TTData t = { pn, dn, bm, tt_work_log(w->nodes - start), exact };
    dfpn_tt_put(w, key, &t);
    if (depth == 1 && w->salt && (pn == 0 || dn == 0)) /* shared with the other threads: tt_get() */
        dfpn_tt_put(w, key ^ w->salt, &t);
    record_root(w, depth, &t);
    if (depth == 0 && (w->tid == 0 || pn == 0 || dn == 0))
        atomic_store_explicit(&s->root_numbers, (uint64_t)pn << 32 | dn, memory_order_relaxed);
}

/* Principal variation: follow the TT's best moves from the root. */
static void extract_pv(const Dfpn *s, const Board *root, DfpnResult *res)
{
    Board b = *root;
    res->pv_len = 0;
    while (res->pv_len < DFPN_MAX_PV && b.ply < MAX_PLY - 1) {
        TTData e;
        if (!dfpn_probe(s, &b, s->attacker, &e) || e.best == POINT_NONE)
            break;
        if (e.best != POINT_PASS && (e.best >= BOARD_POINTS || board_at(&b, e.best) != EMPTY))
            break;
        res->pv[res->pv_len++] = e.best;
        board_play(&b, e.best);
        Color winner;
        if (rules_game_over(&b, s->cfg.rules, &winner))
            break;
    }
}

/* Per-thread work totals of a solve (atomics: set by the threads, read after). */
typedef struct {
    _Atomic uint64_t max_thread_nodes; /* the most work one thread did */
    _Atomic uint64_t thread0_nodes;
} ThreadTotals;

/* Phase 1: reset the solver's per-solve state for a solve of b. */
static void solve_begin(Dfpn *s, const Board *b)
{
    s->attacker = s->cfg.attacker == EMPTY ? b->to_move : s->cfg.attacker;
    s->root_key = dfpn_tt_key(b, s->attacker);
    atomic_store(&s->root_numbers, UINT64_C(1) << 32 | 1);
    atomic_store(&s->root_result, 0);
    atomic_store(&s->stop_internal, false);
    atomic_store(&s->interrupted, false);
    atomic_store(&s->nodes, 0);
    atomic_store(&s->dfpn_nodes, 0);
    atomic_store(&s->sim_proven, 0);
    atomic_store(&s->vct_pruned, 0);
    s->t0 = clock_now();
    s->deadline = s->cfg.max_time > 0 ? s->t0 + s->cfg.max_time : 0;
    s->node_limit = s->cfg.max_nodes;
    s->node_rules.first_or_stones = ng_first_or_stones(b, s->attacker);
}

/* One thread's part of the solve (inside the parallel region): search from b until solved or stopped. */
static void solve_thread(Dfpn *s, const Board *b, ThreadTotals *tot)
{
    (void)atomic_load(&s->solves); /* see Dfpn.solves */
    place_record(&s->place, omp_get_thread_num());
    Worker *w = &s->workers[omp_get_thread_num()];
    dfpn_worker_begin(w, s, b, omp_get_thread_num());
    /*
     * A thread joins the solve when it starts, with no barrier: a
     * thread can take milliseconds to start on a virtual machine,
     * and thread 0 need not wait for it.  It counts itself among
     * the threads the TT's growth waits for (dfpn_park()) before its
     * first TT access, then waits out a growth already asked for:
     * a thread growing the table counted the threads before this
     * one came, but has not cleared the request yet.
     */
    atomic_fetch_add(&s->running, 1);
    if (atomic_load(&s->grow_req))
        dfpn_park(w);
    w->next_progress = s->t0 + s->cfg.progress_interval;
    w->solve_root = true;
    while (!should_stop(w) && !atomic_load(&s->root_result))
        mid(w, 0, PN_INF, PN_INF);
    atomic_store(&s->stop_internal, true); /* solved or stopped: everyone unwinds */
    /* An atomic maximum (not an OpenMP critical: visible to ThreadSanitizer). */
    if (w->tid == 0)
        atomic_store(&tot->thread0_nodes, w->nodes);
    uint64_t seen = atomic_load(&tot->max_thread_nodes);
    while (w->nodes > seen && !atomic_compare_exchange_weak(&tot->max_thread_nodes, &seen, w->nodes))
        ;
    dfpn_worker_flush(w); /* reads the TT's size: before leaving the count */
    atomic_fetch_sub(&s->running, 1); /* no more TT use: nobody waits for this thread */
}

/* Phase 2: the threads race from b (the helpers kept off the master's CPU meanwhile). */
static void solve_race(Dfpn *s, const Board *b, int nthreads, ThreadTotals *tot)
{
    atomic_store(&s->parked, 0);
    place_helpers_away(&s->place, nthreads);
    atomic_fetch_add(&s->solves, 1);
#pragma omp parallel num_threads(nthreads) shared(tot)
    solve_thread(s, b, tot);
    /*
     * Every thread left the count last (0 now): reading it orders their last
     * writes before what follows for ThreadSanitizer, which cannot see
     * libgomp's closing barrier.
     */
    int left = atomic_load(&s->running);
    place_restore(&s->place, nthreads);
    assert(left == 0);
    (void)left;
}

/*
 * Phase 3: the root's entry after the race, in *e; false when there is
 * none (an unsolved root entry replaced in a full table: *e then holds the
 * last numbers computed).
 */
static bool solve_root_entry(Dfpn *s, TTData *e)
{
    *e = (TTData){ 1, 1, POINT_NONE, 0, false };
    uint64_t rr = atomic_load(&s->root_result);
    bool found;
    s->result_tid = rr ? (int)(rr >> 32) : 0;
    if (rr) {
        /*
         * Solved: put the result back in the TT (a racing store may have
         * replaced it) under the solving thread's key, where the PV and the
         * proof's extraction read, and the plain key, for later solves.
         */
        bool proven = rr & ROOT_PROVEN;
        *e = (TTData){ proven ? 0 : PN_INF, proven ? PN_INF : 0, (Point)(rr >> 8 & 0xff), 63, (rr & ROOT_EXACT) != 0 };
        keep_store(s, s->root_key, e, NULL);
        if (s->result_tid)
            keep_store(s, s->root_key ^ thread_salt(s->result_tid), e, NULL);
        found = true;
    } else {
        found = probe_kept(s, s->root_key, e);
    }
    if (!found) { /* an unsolved root entry replaced in a full table: the last numbers computed */
        uint64_t rn = atomic_load(&s->root_numbers);
        e->pn = (ProofNum)(rn >> 32), e->dn = (ProofNum)rn;
    }
    return found;
}

/* Phase 4: the result from the root's entry e (found: solve_root_entry) and the counts. */
static void solve_report(const Dfpn *s, const TTData *e, bool found, ThreadTotals *tot, DfpnResult *res)
{
    res->attacker = s->attacker;
    res->nodes = atomic_load(&s->nodes);
    res->dfpn_nodes = atomic_load(&s->dfpn_nodes);
    res->sim_proven = atomic_load(&s->sim_proven);
    res->vct_pruned = atomic_load(&s->vct_pruned);
    res->max_thread_nodes = atomic_load(&tot->max_thread_nodes);
    res->thread0_nodes = atomic_load(&tot->thread0_nodes);
    res->time_s = clock_now() - s->t0;
    res->root_pn = e->pn;
    res->root_dn = e->dn;
    res->best = found ? e->best : POINT_NONE;
    res->interrupted = s->cfg.stop && atomic_load(s->cfg.stop);
    if (found && e->pn == 0) {
        res->result = RESULT_PROVEN;
    } else if (found && e->dn == 0) {
        res->result = e->exact ? RESULT_DISPROVEN : RESULT_UNKNOWN;
        res->candidates_refuted = !e->exact;
    } else {
        res->result = RESULT_UNKNOWN;
        res->stopped = true;
    }
}

int dfpn_solve(Dfpn *s, const Board *b, DfpnResult *res)
{
    memset(res, 0, sizeof *res);
    solve_begin(s, b);
    if (dfpn_workers_reserve(s, s->cfg.threads))
        return RJ_ENOMEM;
    ThreadTotals tot = { 0, 0 };
    solve_race(s, b, s->cfg.threads, &tot);
    TTData e;
    bool found = solve_root_entry(s, &e);
    solve_report(s, &e, found, &tot, res);
    extract_pv(s, b, res); /* phase 5: the principal variation */
    return 0;
}

Result dfpn_search_node(Dfpn *s, Board *b, Color attacker, uint64_t max_nodes)
{
    if (dfpn_workers_reserve(s, s->result_tid + 1))
        return RESULT_UNKNOWN;
    Worker *w = &s->workers[s->result_tid];
    dfpn_worker_begin(w, s, b, s->result_tid); /* it continues the solving thread's search */
    Color saved = s->attacker;
    int saved_first = s->node_rules.first_or_stones;
    s->attacker = attacker;
    s->node_rules.first_or_stones = ng_first_or_stones(b, attacker); /* b is the root here */
    atomic_store(&s->stop_internal, false);
    s->deadline = 0;
    s->node_limit = 0;
    w->limit = max_nodes ? max_nodes : 0;
    TTData e;
    while (!should_stop(w)) {
        if (dfpn_probe(s, b, attacker, &e) && (e.pn == 0 || e.dn == 0))
            break;
        mid(w, 0, PN_INF, PN_INF); /* alone: no solve is running (s->running 0) */
    }
    dfpn_flush_tt_count(w);
    s->attacker = saved;
    s->node_rules.first_or_stones = saved_first;
    if (dfpn_probe(s, b, attacker, &e))
        return e.pn == 0 ? RESULT_PROVEN : e.dn == 0 ? RESULT_DISPROVEN : RESULT_UNKNOWN;
    return RESULT_UNKNOWN;
}
