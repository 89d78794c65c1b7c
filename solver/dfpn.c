/* dfpn.c - see dfpn.h. */
#include "dfpn.h"

#include <assert.h>
#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "error.h"
#include "nodegen.h"
#include "placement.h"
#include "rules.h"
#include "sym.h"
#include "vct.h"
#include "zobrist.h"

enum { ROOT_SOLVED = 1, ROOT_PROVEN = 2, ROOT_EXACT = 4 };

enum {
    FLUSH_EVERY = 64,            /* nodes between flushes of a thread's count */
    PREPARE_BYTES = 1 << 20,     /* TT memory a thread of a parallel solve populates ahead at a flush */
    DEFAULT_VCF_BUDGET = 2000,
    VCT_TT_LOG2 = 16,
    VCF_TT_LOG2 = 18,
    VCT_TREE = 1 << 14,
    SOLVED_START_BYTES = 64 << 10, /* the solved store's size when it is made (it grows like the TT) */
    SOLVED_CAP_DIV = 8             /* its cap: tt_mb / SOLVED_CAP_DIV (at least its start) */
};

/*
 * The fields each thread reads at every node and the ones the threads keep
 * writing lie on different cache lines: a write invalidates the line in the
 * other cores' caches, and the next read there waits for it (measured: a
 * 2-thread solve's thread 0 ran 1.3-1.5x slower than one thread alone with
 * them mixed; solver-bench.md).
 */
enum { CACHE_LINE = 64 };

struct Dfpn {
    /* Read at every node; written once per solve or rarely. */
    DfpnConfig cfg;
    TT tt; /* its counters are on lines of their own (tt.h) */
    /*
     * The solved store: the proven and disproven entries the TT evicted at
     * its cap (see "Solved store" in dfpn.h).  Made (entries not NULL) when
     * the TT reaches its cap; in use (solved_on) from the first entry kept.
     */
    TT solved;
    atomic_bool solved_on;
    atomic_bool stop_internal;
    /* A table is due to grow (the TT: a quarter full or an eviction; or solved_grow): at the next node, mid(). */
    atomic_bool grow_req;
    uint64_t node_limit;    /* absolute limit on nodes (0: none) */
    double t0, deadline;    /* deadline 0: none */
    Color attacker;
    Key root_key;
    int result_tid; /* the thread that solved the last root: its TT entries hold the proof */
    struct Worker *workers; /* one per thread, kept between solves (worker_begin) */
    int nworkers;
    char pad0[CACHE_LINE];
    /* Written as the threads search. */
    _Atomic uint64_t nodes; /* flushed work count of the current solve (df-pn + leaf threat nodes) */
    _Atomic uint64_t dfpn_nodes; /* df-pn nodes (MID calls) of finished workers */
    _Atomic uint64_t root_numbers; /* the root's pn << 32 | dn as last computed (progress reports) */
    /*
     * The root's result, recorded by the first thread that solves it (0: not
     * yet): ROOT_SOLVED | ROOT_PROVEN | ROOT_EXACT | best << 8 | thread << 32.
     * The solve reads it rather than the TT, where a racing store may replace
     * the root's entry.
     */
    _Atomic uint64_t root_result;
    atomic_bool interrupted;
    /* Growing the TT with several threads (see park()). */
    _Atomic int running;   /* threads in this solve that may still touch the TT (counted as they arrive) */
    _Atomic int parked;    /* threads waiting in park() */
    atomic_bool solved_grow; /* with grow_req: the solved store is due to grow */
    atomic_bool growing;   /* a thread is growing it */
    /*
     * Solves started: written by the caller before a parallel region, read
     * by each thread as it enters, so ThreadSanitizer (which cannot see
     * libgomp's wake-up of its pooled threads) sees the solve's set-up
     * happen before the threads' reads.
     */
    _Atomic uint64_t solves;
    _Atomic int started; /* the same for start_threads(): each thread adds 1 last, the caller reads it */
    char pad1[CACHE_LINE];
    Placement place; /* the helper threads kept off the master's CPU (placement.h) */
};


/*
 * A worker's cache of child lists (direct-mapped by key): df-pn re-enters the
 * nodes near the root constantly, and generating a list costs far more than
 * copying it.  Only non-terminal nodes are cached; a list depends on the
 * position alone, so a hit is always right.
 */
enum { GEN_CACHE_BITS = 12 };
typedef struct {
    Key key;
    uint32_t epoch; /* the worker's epoch when written: older entries are empty (0: never) */
    uint16_t n;
    bool complete, ordered;
    Point mv[MAX_CHILDREN];
    uint8_t init_pn[MAX_CHILDREN];
} GenCacheEntry;

typedef struct Worker {
    Dfpn *s;
    GenCacheEntry *cache; /* 1 << GEN_CACHE_BITS entries */
    uint32_t epoch;       /* this solve's cache epoch (worker_begin) */
    double prep_s;        /* seconds this solve spent populating TT memory ahead (flush_tt_count) */
    NgCtx ng;             /* the worker's VCF / VCT contexts */
    Board b;
    int tid;
    Key salt; /* this thread's private-entry salt (0 for thread 0): see "Parallel search" */
    const TieOrder *tie; /* ng_order's tie-break (NULL: point order, thread 0) */
    TieOrder tie_order;  /* what tie points to */
    uint64_t nodes, unflushed, limit; /* limit: absolute local node limit (0: none) */
    uint64_t dfpn_nodes; /* MID calls */
    uint64_t tt_new;     /* TT slots this thread's stores filled, not yet counted */
    uint64_t solved_new; /* the same for the solved store */
    bool halt;
    bool solve_root; /* a dfpn_solve thread: records the root's result */
    double next_progress;
    Children *stack; /* one per depth below the search root */
    char pad[CACHE_LINE]; /* the workers lie in one array: keep the next one's fields off this one's lines */
} Worker;

/* ---- small helpers ---------------------------------------------------- */

static void cache_put(GenCacheEntry *e, uint32_t epoch, Key key, const Children *c)
{
    e->epoch = epoch;
    e->key = key;
    e->n = (uint16_t)c->n;
    e->complete = c->complete;
    e->ordered = c->ordered;
    memcpy(e->mv, c->mv, (size_t)c->n);
    for (int i = 0; i < c->n; i++)
        e->init_pn[i] = (uint8_t)c->init_pn[i];
}

/* A 64-bit sum clamped to PN_INF. */
static inline ProofNum pn_clamp64(uint64_t v) { return v >= PN_INF ? PN_INF : (ProofNum)v; }

Key dfpn_tt_key(const Board *b, Color attacker)
{
    return b->key ^ (attacker == WHITE ? zob_mix(ZOB_SEED ^ UINT64_C(0xa77ac0e5)) : 0);
}

Result dfpn_node_children(const Dfpn *s, Board *b, Color attacker, Point *mv, int *n)
{
    Children *c = malloc(sizeof *c);
    if (!c) {
        *n = 0;
        return RESULT_UNKNOWN;
    }
    NodeStatus st = ng_generate(&s->cfg, b, attacker, c, false, NULL);
    if (st.result == RESULT_UNKNOWN && !c->ordered)
        ng_order(b, attacker, dfpn_tt_key(b, attacker), c, NULL);
    *n = c->n;
    memcpy(mv, c->mv, (size_t)c->n * sizeof *mv);
    free(c);
    return st.result;
}

/* ---- the search ------------------------------------------------------- */

static bool should_stop(const Worker *w)
{
    const Dfpn *s = w->s;
    return w->halt || atomic_load_explicit(&s->stop_internal, memory_order_relaxed) ||
           (s->cfg.stop && atomic_load_explicit(s->cfg.stop, memory_order_relaxed));
}

static void report_progress(Worker *w, double t)
{
    Dfpn *s = w->s;
    /* From the solver, not the TT: a long search may replace the root's unsolved entry. */
    uint64_t rn = atomic_load_explicit(&s->root_numbers, memory_order_relaxed);
    DfpnProgress p = { atomic_load(&s->nodes), t - s->t0, (ProofNum)(rn >> 32), (ProofNum)rn, tt_fill_permille(&s->tt) };
    s->cfg.progress(s->cfg.progress_ctx, &p);
}

/*
 * Ask for the TT's growth.  grow_req lies on the line every node reads:
 * only the first request writes it.
 */
static inline void ask_growth(Dfpn *s)
{
    if (!atomic_load_explicit(&s->grow_req, memory_order_relaxed))
        atomic_store(&s->grow_req, true);
}

/* Ask for the solved store's growth (at the same safe point as the TT's). */
static inline void ask_solved_growth(Dfpn *s)
{
    if (!atomic_load_explicit(&s->solved_grow, memory_order_relaxed))
        atomic_store(&s->solved_grow, true);
    ask_growth(s);
}

/*
 * Make the solved store, with no other thread in the tables.  From then on
 * the TT ranks its entries by work alone: the solved ones it evicts are
 * kept in the store, and a TT full of cheap solved entries would leave no
 * room for the search's unsolved ones (`h8 i9 i7 i8 g7 f11` with
 * --tt-mb 2: 20 M work without a result, the table all but full of solved
 * entries).  If it cannot be made, solved entries evicted at the cap are
 * lost, as they were before there was one.
 */
static void make_solved_store(Dfpn *s)
{
    uint64_t cap = ((uint64_t)s->cfg.tt_mb << 20) / SOLVED_CAP_DIV;
    if (tt_create_bytes(&s->solved, cap > SOLVED_START_BYTES ? cap : SOLVED_START_BYTES, SOLVED_START_BYTES) == 0)
        s->tt.solved_elsewhere = true;
}

/*
 * Grow what is due, with no other thread in the tables (park(), or alone):
 * the TT (nothing at its cap), then the solved store, made when the TT
 * reaches its cap.
 */
static void grow_tables(Dfpn *s)
{
    tt_grow(&s->tt);
    if (s->tt.nbuckets == s->tt.max_buckets) {
        if (!s->solved.entries)
            make_solved_store(s);
        else
            s->tt.solved_elsewhere = true; /* made before dfpn_clear: in use again */
    }
    if (atomic_load(&s->solved_grow)) {
        atomic_store(&s->solved_grow, false);
        tt_grow(&s->solved);
    }
}

/*
 * Count the TT slots w's stores filled; ask for growth when the table is a
 * quarter full.  In a parallel solve every thread populates the next
 * doubling's memory ahead, PREPARE_BYTES at a flush and at most an eighth
 * of its time: the kernel zeroes it (0.4-25 GB/s on this VM, slowest on
 * memory the VM never touched: a 2 MiB huge page then takes ~4.6 ms; 32 MiB
 * took 41 ms of a 129 ms solve), and otherwise the thread that grows the
 * table does it while the others wait.  The racers share that work evenly:
 * either may win (over the suite thread 1's order gives 65% of the fastest
 * solves' time), and a thread that pays for the others' memory loses races
 * it would win alone (`h8 i9 i7 i8 g7 e7`: thread 1 won in 0.036-0.048 s
 * with 5-14 ms of populating, against 0.029 s alone).
 */
static void flush_tt_count(Worker *w)
{
    Dfpn *s = w->s;
    if (w->tt_new && tt_add_used(&s->tt, w->tt_new))
        ask_growth(s);
    w->tt_new = 0;
    if (w->solved_new && tt_add_used(&s->solved, w->solved_new))
        ask_solved_growth(s);
    w->solved_new = 0;
    if (s->cfg.threads > 1 && tt_growth_unprepared(&s->tt) && !should_stop(w)) { /* not after the solve */
        /*
         * At most an eighth of the thread's time (together a quarter of a
         * 2-thread solve's): on memory the VM never touched a 1 MiB piece
         * takes ~2.5 ms, and a thread doing little else would stop being a
         * racer.
         */
        double t = clock_now();
        if (w->prep_s * 8 <= t - s->t0) {
            tt_prepare_growth(&s->tt, PREPARE_BYTES);
            w->prep_s += clock_now() - t;
        }
    }
}

/*
 * Count n units of work (a df-pn node is one, each leaf VCF/VCT node one);
 * every FLUSH_EVERY units publish the count and check the budgets.
 */
static void count_work(Worker *w, uint64_t n)
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
    flush_tt_count(w);
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
 * Grow the TT with several threads: a thread at a safe point (node entry:
 * it holds copies of entries, never pointers) waits here until every thread
 * still in the solve has arrived, then one of them doubles the table while
 * the others wait.  A thread that leaves the solve stops counting as
 * running, so the rest never wait for it.  A thread leaves the count before
 * it looks at the request a last time, and waits again if a new one came
 * meanwhile: so nobody grows the table while a thread it counted as parked
 * is back in the search.  When the solve is stopping, a waiting thread
 * drops the request instead (the table need not grow any more), so a
 * thread stuck elsewhere cannot hold a stop.
 */
static void park(Worker *w)
{
    Dfpn *s = w->s;
    for (;;) {
        atomic_fetch_add(&s->parked, 1);
        while (atomic_load(&s->grow_req)) {
            bool idle = false;
            bool stopping = should_stop(w);
            if ((stopping || atomic_load(&s->parked) == atomic_load(&s->running)) &&
                atomic_compare_exchange_strong(&s->growing, &idle, true)) {
                /*
                 * Count again under the lock: the two loads above are not one
                 * snapshot (another thread may have grown the table, left and
                 * asked again in between).  The request is read first: only a
                 * holder of the lock clears it, so it stands from then on; a
                 * thread that left park() to search saw it clear before that,
                 * so its leaving shows in the count read after; a thread that
                 * arrived and found no request counted itself in `running`
                 * before, so it shows too; a thread that arrives now, or is
                 * still on its way out of park(), finds the request and waits.
                 * Equal counts then mean every thread that can touch the
                 * table is waiting.  This needs the request cleared only under
                 * the lock (outside a solve aside) and these atomics seq_cst.
                 */
                bool req = atomic_load(&s->grow_req);
                bool all = atomic_load(&s->parked) == atomic_load(&s->running);
                if (req && !stopping && !all) {
                    atomic_store(&s->growing, false);
                    sched_yield();
                    continue;
                }
                if (req && !stopping) /* not already done by another thread */
                    grow_tables(s);
                atomic_store(&s->grow_req, false);
                atomic_store(&s->growing, false);
                break;
            }
            sched_yield();
        }
        atomic_fetch_sub(&s->parked, 1);
        if (!atomic_load(&s->grow_req))
            return;
    }
}

/*
 * Other threads use the TT now: several are in the solve (those that left
 * it are done with the table; the acquire orders their last accesses first).
 */
static inline bool tt_shared(Dfpn *s) { return atomic_load_explicit(&s->running, memory_order_acquire) > 1; }

/* Thread tid's TT keys are the positions' keys ^ its salt: see "Parallel search" in dfpn.h. */
static inline Key thread_salt(int tid) { return (Key)tid * UINT64_C(0x9e3779b97f4a7c15); }

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

/* Look key up in the TT, then in the solved store once it holds entries (only solved ones are kept there). */
static inline bool probe_kept(const Dfpn *s, Key key, TTData *e)
{
    if (tt_probe(&s->tt, key, e))
        return true;
    return atomic_load_explicit(&s->solved_on, memory_order_relaxed) && tt_probe(&s->solved, key, e) &&
           (e->pn == 0 || e->dn == 0);
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

static inline void tt_put(Worker *w, Key key, const TTData *d)
{
    TTStoreResult r = keep_store(w->s, key, d, &w->solved_new);
    w->tt_new += r == TT_FILLED;
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
     * entries, never pointers).  In a solve the threads meet in park() first
     * (a 1-thread solve finds itself alone there and grows the table at a
     * point fixed by the node count: the search stays deterministic);
     * dfpn_search_node runs outside any solve, alone.
     */
    if (atomic_load_explicit(&s->grow_req, memory_order_relaxed)) {
        if (atomic_load(&s->running) > 0) { /* in a solve: another thread may join at any time */
            park(w);
        } else {
            atomic_store_explicit(&s->grow_req, false, memory_order_relaxed);
            grow_tables(s);
        }
    }
    uint64_t start = w->nodes;
    w->dfpn_nodes++;
    count_work(w, 1);
    TTData e;
    bool found = tt_get(w, depth, key, &e);
    if (found && (e.pn == 0 || e.dn == 0)) {
        record_root(w, depth, &e);
        return;
    }
    Children *c = &w->stack[depth];
    GenCacheEntry *gce = &w->cache[key & ((1u << GEN_CACHE_BITS) - 1)];
    NodeStatus st = { RESULT_UNKNOWN, false, false, POINT_NONE };
    if (found && gce->epoch == w->epoch && gce->key == key) {
        c->n = gce->n;
        c->complete = gce->complete;
        c->ordered = gce->ordered;
        memcpy(c->mv, gce->mv, c->n);
        for (int i = 0; i < c->n; i++)
            c->init_pn[i] = gce->init_pn[i];
    } else {
        uint64_t threat0 = w->ng.threat_nodes;
        st = ng_generate(&s->cfg, b, att, c, !found, &w->ng);
        if (w->ng.threat_nodes > threat0)
            count_work(w, w->ng.threat_nodes - threat0);
        if (st.result == RESULT_UNKNOWN)
            cache_put(gce, w->epoch, key, c);
    }
    if (st.result != RESULT_UNKNOWN) {
        TTData t = { st.result == RESULT_PROVEN ? 0 : PN_INF, st.result == RESULT_PROVEN ? PN_INF : 0,
                     st.best, 0, st.exact };
        tt_put(w, key, &t);
        record_root(w, depth, &t);
        return;
    }
    ProofNum phi, delta;
    int best = 0;
    /*
     * Children's values: all read from the TT at first (prefetched together),
     * then only the child just searched, unless other threads are writing too.
     * A stale value of another child (a transposition) is only a guide: the
     * child is re-read when it is next searched.
     */
    int reread = -1;
    /*
     * A new node first uses its children's initial values without reading
     * the TT: most new nodes exceed their thresholds at once, and fewer than
     * 1% of their children were found in the TT (measured).  The TT is read
     * before a child is chosen.  Initial values never claim a result.
     */
    bool probed = found;
    /*
     * A new node whose initial values already exceed its thresholds (most
     * of them) returns at once: one pass over the initial numbers, the same
     * values and best move as the loop below would compute from them.
     */
    bool fresh = false;
    if (!probed && c->n > 0) {
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
        fresh = phi >= thphi || delta >= thdelta || should_stop(w);
    }
    /* Children's TT keys: ng_order() computes them when it runs first. */
    if (!fresh && (c->ordered || probed))
        for (int i = 0; i < c->n; i++)
            c->key[i] = ng_child_key(b, key, c->mv[i]);
    while (!fresh) {
        int lo = 0, hi = c->n;
        if (reread == -2) { /* values carried over the reordering */
            lo = hi = 0;
        } else if (reread >= 0 && !(depth == 0 && tt_shared(s))) { /* the root re-reads all: shared results */
            lo = reread, hi = reread + 1;
        } else if (probed) {
            for (int i = 0; i < c->n; i++)
                tt_prefetch(&s->tt, c->key[i]);
            if (atomic_load_explicit(&s->solved_on, memory_order_relaxed))
                for (int i = 0; i < c->n; i++)
                    tt_prefetch(&s->solved, c->key[i]);
        }
        for (int i = lo; i < hi; i++) {
            TTData ce;
            if (probed && tt_get(w, depth + 1, c->key[i], &ce)) {
                c->pn[i] = ce.pn, c->dn[i] = ce.dn, c->exact[i] = ce.exact, c->work[i] = (uint8_t)ce.work;
            } else { /* initial values: init_pn >= 1, dn 1 */
                c->pn[i] = c->init_pn[i];
                c->dn[i] = 1;
                c->exact[i] = false, c->work[i] = 0;
            }
        }
        /* The child's own phi/delta: it is an AND node under an OR node and vice versa. */
        const ProofNum *cph = is_or ? c->dn : c->pn, *cdl = is_or ? c->pn : c->dn;
        ProofNum best_v = PN_INF + 1u, second_v = PN_INF;
        int sel = 0;
        uint64_t sum = 0;
        bool inf = false;
        for (int i = 0; i < c->n; i++) {
            ProofNum v = cdl[i];
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
        phi = best_v > PN_INF ? PN_INF : best_v;
        delta = inf ? PN_INF : sum > TT_PN_MAX ? TT_PN_MAX : (ProofNum)sum; /* finite sums saturate */
        best = sel;
        if (phi >= thphi || delta >= thdelta || should_stop(w))
            break;
        if (!c->ordered || !probed) { /* about to choose a child: order them and read the TT */
            /* Values read from the TT already: they are carried over the reordering. */
            bool carry = probed;
            if (!c->ordered) {
                if (carry)
                    order_keeping_values(b, att, key, c, w->tie);
                else
                    ng_order(b, att, key, c, w->tie);
                cache_put(gce, w->epoch, key, c);
            }
            probed = true;
            reread = carry ? -2 : -1;
            continue;
        }
        if (depth == 0) { /* keep the root's numbers current for progress reports */
            TTData rt = { is_or ? phi : delta, is_or ? delta : phi, c->mv[best], tt_work_log(w->nodes - start), false };
            tt_put(w, key, &rt);
            if (w->tid == 0)
                atomic_store_explicit(&s->root_numbers, (uint64_t)rt.pn << 32 | rt.dn, memory_order_relaxed);
        }
        uint64_t d2 = (uint64_t)second_v + second_v / 4 + 1;
        ProofNum c_thdelta = d2 < thphi ? (ProofNum)d2 : thphi;
        uint64_t tp = thdelta >= PN_INF ? PN_INF : (uint64_t)thdelta - delta + sel_phi;
        ProofNum c_thphi = pn_clamp64(tp);
        board_play(b, c->mv[sel]);
        mid(w, depth + 1, c_thphi, c_thdelta);
        board_undo(b);
        reread = sel;
    }
    /* Exactness of the result, and the defender's hardest (most searched) move for a proof. */
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
    tt_put(w, key, &t);
    if (depth == 1 && w->salt && (pn == 0 || dn == 0)) /* shared with the other threads: tt_get() */
        tt_put(w, key ^ w->salt, &t);
    record_root(w, depth, &t);
    if (depth == 0 && (w->tid == 0 || pn == 0 || dn == 0))
        atomic_store_explicit(&s->root_numbers, (uint64_t)pn << 32 | dn, memory_order_relaxed);
}

/* Free a worker's memory. */
static void worker_free(Worker *w)
{
    free(w->stack);
    free(w->cache);
    vct_free(w->ng.vct);
    vcf_free(w->ng.vcf);
    memset(w, 0, sizeof *w);
}

/*
 * Allocate what w lacks for cfg (the memory stays until dfpn_free, so a
 * solve neither allocates nor frees: freeing would unmap it, a TLB-shootdown
 * interrupt to every other CPU running the process's threads).  A new leaf
 * VCF table is faulted in now: its probes read pages before writing them,
 * and each such page would cost the same interrupt at its first store once
 * other threads run (see "Growth" in tt.h).  The child-list cache is
 * written before it is read (only nodes found in the TT read it) and needs
 * nothing.  0 or RJ_ENOMEM (what was allocated stays for worker_free).
 */
static int worker_alloc(Worker *w, const DfpnConfig *cfg)
{
    if (!w->stack)
        w->stack = malloc(sizeof(Children) * MAX_PLY);
    if (!w->cache)
        w->cache = calloc((size_t)1 << GEN_CACHE_BITS, sizeof *w->cache);
    if (!w->ng.vct && cfg->vct_budget && (w->ng.vct = vct_new(VCT_TT_LOG2, VCT_TREE)))
        vct_clear(w->ng.vct);
    if (!w->ng.vcf && (w->ng.vcf = vcf_new(VCF_TT_LOG2)))
        vcf_clear(w->ng.vcf);
    if (!w->stack || !w->cache || (!w->ng.vct && cfg->vct_budget) || !w->ng.vcf)
        return RJ_ENOMEM;
    if (w->epoch == 0)
        w->epoch = 1; /* cache entries of epoch 0 are empty */
    return 0;
}

/* Empty w's child-list cache (its epoch moves on): the lists depend on the configuration. */
static void worker_drop_lists(Worker *w)
{
    if (++w->epoch == 0) { /* wrapped: entries of every age are left */
        if (w->cache)
            memset(w->cache, 0, ((size_t)1 << GEN_CACHE_BITS) * sizeof *w->cache);
        w->epoch = 1;
    }
}

/* Forget everything w learnt (dfpn_clear): its VCF/VCT facts and its cached lists. */
static void worker_forget(Worker *w)
{
    if (w->ng.vcf)
        vcf_clear(w->ng.vcf);
    if (w->ng.vct)
        vct_clear(w->ng.vct);
    worker_drop_lists(w);
}

/*
 * Make w (allocated: worker_alloc) thread tid's worker for a search of b.
 * What it learnt in earlier solves (VCF facts, child lists) stays, as the TT
 * does, until dfpn_clear.
 */
static void worker_begin(Worker *w, Dfpn *s, const Board *b, int tid)
{
    Worker keep = *w;
    memset(w, 0, sizeof *w);
    w->cache = keep.cache;
    w->stack = keep.stack;
    w->ng.vcf = keep.ng.vcf;
    w->ng.vct = keep.ng.vct;
    w->epoch = keep.epoch;
    w->s = s;
    w->b = *b;
    w->tid = tid;
    if (tid > 0) { /* see "Parallel search" in dfpn.h */
        /* The 180-degree turn first, then the other transforms, then shuffles. */
        static const int ties[NUM_SYMS] = { 0, 3, 4, 7, 1, 2, 5, 6 };
        ng_tie_order(tid < NUM_SYMS ? ties[tid] : tid, &w->tie_order);
        w->tie = &w->tie_order;
        w->salt = thread_salt(tid);
    }
}

/* Grow the solver's pool of workers to n and allocate their memory for s->cfg. */
static int workers_reserve(Dfpn *s, int n)
{
    if (n > s->nworkers) {
        Worker *ws = realloc(s->workers, (size_t)n * sizeof *ws);
        if (!ws)
            return RJ_ENOMEM;
        memset(ws + s->nworkers, 0, (size_t)(n - s->nworkers) * sizeof *ws);
        s->workers = ws;
        s->nworkers = n;
    }
    for (int i = 0; i < n; i++)
        if (worker_alloc(&s->workers[i], &s->cfg))
            return RJ_ENOMEM;
    return 0;
}

static void worker_flush(Worker *w)
{
    /* First: the count adds below publish it to the thread that reads the totals. */
    flush_tt_count(w); /* a growth asked for now happens in a later solve (or is asked for again) */
    atomic_fetch_add(&w->s->nodes, w->unflushed);
    atomic_fetch_add(&w->s->dfpn_nodes, w->dfpn_nodes);
    w->unflushed = 0;
    w->dfpn_nodes = 0;
}

void dfpn_config_default(DfpnConfig *c)
{
    memset(c, 0, sizeof *c);
    c->attacker = EMPTY;
    c->rules = RULE_RENJU;
    c->threads = 1;
    c->tt_mb = 64;
    c->progress_interval = 0.5;
}

/* cfg with the defaults filled in. */
static DfpnConfig effective_config(const DfpnConfig *cfg)
{
    DfpnConfig c = *cfg;
    if (c.vcf_budget == 0)
        c.vcf_budget = DEFAULT_VCF_BUDGET;
    if (c.progress_interval <= 0)
        c.progress_interval = 0.5;
    return c;
}

/*
 * Start OpenMP's threads for a solver of n threads now, not in the first
 * solve: starting a thread can take milliseconds on a virtual machine (the
 * new thread first runs on its parent's CPU), which a short solve would pay
 * on its clock.  libgomp keeps them for later parallel regions.
 */
static void start_threads(Dfpn *s, int n)
{
    if (n > 1) {
#pragma omp parallel num_threads(n)
        {
            place_record(&s->place, omp_get_thread_num());
            atomic_fetch_add(&s->started, 1);
        }
        (void)atomic_load(&s->started);
    }
}

int dfpn_set_config(Dfpn *s, const DfpnConfig *cfg)
{
    /* The TT's entries depend on the rule set and on candidate-only vs full-width disproofs. */
    if (cfg->threads < 1 || cfg->tt_mb != s->cfg.tt_mb || cfg->rules != s->cfg.rules ||
        cfg->full_width != s->cfg.full_width)
        return RJ_EBADARG;
    s->cfg = effective_config(cfg);
    start_threads(s, cfg->threads);
    /* Child lists depend on the threat-search budgets: cached ones are dropped. */
    for (int i = 0; i < s->nworkers; i++)
        worker_drop_lists(&s->workers[i]);
    return workers_reserve(s, cfg->threads);
}

int dfpn_create(Dfpn **out, const DfpnConfig *cfg)
{
    *out = NULL;
    if (cfg->threads < 1 || cfg->tt_mb < 1)
        return RJ_EBADARG;
    Dfpn *s = calloc(1, sizeof *s);
    if (!s)
        return RJ_ENOMEM;
    s->cfg = effective_config(cfg);
    int rc = tt_create(&s->tt, cfg->tt_mb);
    if (rc) {
        dfpn_free(s);
        return rc;
    }
    if (s->tt.nbuckets == s->tt.max_buckets) /* at its cap from the start: see grow_tables() */
        make_solved_store(s);
    start_threads(s, cfg->threads);
    if (workers_reserve(s, cfg->threads)) {
        dfpn_free(s);
        return RJ_ENOMEM;
    }
    *out = s;
    return 0;
}

void dfpn_free(Dfpn *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nworkers; i++)
        worker_free(&s->workers[i]);
    free(s->workers);
    tt_free(&s->solved);
    tt_free(&s->tt);
    free(s);
}

void dfpn_clear(Dfpn *s)
{
    tt_clear(&s->tt);
    tt_clear(&s->solved); /* (kept for the next time the TT reaches its cap) */
    /* Below the cap again (unless it starts there): ranked as a fresh solver's TT. */
    s->tt.solved_elsewhere = s->solved.entries && s->tt.nbuckets == s->tt.max_buckets;
    atomic_store(&s->solved_on, false);
    atomic_store(&s->solved_grow, false);
    for (int i = 0; i < s->nworkers; i++)
        worker_forget(&s->workers[i]);
    atomic_store(&s->grow_req, false);
}

void dfpn_request_stop(Dfpn *s) { atomic_store(&s->stop_internal, true); }

const TT *dfpn_tt(const Dfpn *s) { return &s->tt; }

const DfpnConfig *dfpn_config(const Dfpn *s) { return &s->cfg; }

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

int dfpn_solve(Dfpn *s, const Board *b, DfpnResult *res)
{
    memset(res, 0, sizeof *res);
    s->attacker = s->cfg.attacker == EMPTY ? b->to_move : s->cfg.attacker;
    s->root_key = dfpn_tt_key(b, s->attacker);
    atomic_store(&s->root_numbers, UINT64_C(1) << 32 | 1);
    atomic_store(&s->root_result, 0);
    atomic_store(&s->stop_internal, false);
    atomic_store(&s->interrupted, false);
    atomic_store(&s->nodes, 0);
    atomic_store(&s->dfpn_nodes, 0);
    s->t0 = clock_now();
    s->deadline = s->cfg.max_time > 0 ? s->t0 + s->cfg.max_time : 0;
    s->node_limit = s->cfg.max_nodes;
    int nthreads = s->cfg.threads;
    if (workers_reserve(s, nthreads))
        return RJ_ENOMEM;
    _Atomic uint64_t max_thread_nodes = 0, thread0_nodes = 0;
    atomic_store(&s->parked, 0);
    place_helpers_away(&s->place, nthreads);
    atomic_fetch_add(&s->solves, 1);
#pragma omp parallel num_threads(nthreads) shared(max_thread_nodes, thread0_nodes)
    {
        (void)atomic_load(&s->solves); /* see Dfpn.solves */
        place_record(&s->place, omp_get_thread_num());
        Worker *w = &s->workers[omp_get_thread_num()];
        worker_begin(w, s, b, omp_get_thread_num());
        /*
         * A thread joins the solve when it starts, with no barrier: a
         * thread can take milliseconds to start on a virtual machine,
         * and thread 0 need not wait for it.  It counts itself among
         * the threads the TT's growth waits for (park()) before its
         * first TT access, then waits out a growth already asked for:
         * a thread growing the table counted the threads before this
         * one came, but has not cleared the request yet.
         */
        atomic_fetch_add(&s->running, 1);
        if (atomic_load(&s->grow_req))
            park(w);
        w->next_progress = s->t0 + s->cfg.progress_interval;
        w->solve_root = true;
        while (!should_stop(w) && !atomic_load(&s->root_result))
            mid(w, 0, PN_INF, PN_INF);
        atomic_store(&s->stop_internal, true); /* solved or stopped: everyone unwinds */
        /* An atomic maximum (not an OpenMP critical: visible to ThreadSanitizer). */
        if (w->tid == 0)
            atomic_store(&thread0_nodes, w->nodes);
        uint64_t seen = atomic_load(&max_thread_nodes);
        while (w->nodes > seen && !atomic_compare_exchange_weak(&max_thread_nodes, &seen, w->nodes))
            ;
        worker_flush(w); /* reads the TT's size: before leaving the count */
        atomic_fetch_sub(&s->running, 1); /* no more TT use: nobody waits for this thread */
    }
    /*
     * Every thread left the count last (0 now): reading it orders their last
     * writes before what follows for ThreadSanitizer, which cannot see
     * libgomp's closing barrier.
     */
    int left = atomic_load(&s->running);
    place_restore(&s->place, nthreads);
    assert(left == 0);
    (void)left;
    TTData e = { 1, 1, POINT_NONE, 0, false };
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
        e = (TTData){ proven ? 0 : PN_INF, proven ? PN_INF : 0, (Point)(rr >> 8 & 0xff), 63, (rr & ROOT_EXACT) != 0 };
        keep_store(s, s->root_key, &e, NULL);
        if (s->result_tid)
            keep_store(s, s->root_key ^ thread_salt(s->result_tid), &e, NULL);
        found = true;
    } else {
        found = probe_kept(s, s->root_key, &e);
    }
    if (!found) { /* an unsolved root entry replaced in a full table: the last numbers computed */
        uint64_t rn = atomic_load(&s->root_numbers);
        e.pn = (ProofNum)(rn >> 32), e.dn = (ProofNum)rn;
    }
    res->attacker = s->attacker;
    res->nodes = atomic_load(&s->nodes);
    res->dfpn_nodes = atomic_load(&s->dfpn_nodes);
    res->max_thread_nodes = atomic_load(&max_thread_nodes);
    res->thread0_nodes = atomic_load(&thread0_nodes);
    res->time_s = clock_now() - s->t0;
    res->root_pn = e.pn;
    res->root_dn = e.dn;
    res->best = found ? e.best : POINT_NONE;
    res->interrupted = s->cfg.stop && atomic_load(s->cfg.stop);
    if (found && e.pn == 0) {
        res->result = RESULT_PROVEN;
    } else if (found && e.dn == 0) {
        res->result = e.exact ? RESULT_DISPROVEN : RESULT_UNKNOWN;
        res->candidates_refuted = !e.exact;
    } else {
        res->result = RESULT_UNKNOWN;
        res->stopped = true;
    }
    extract_pv(s, b, res);
    return 0;
}

bool dfpn_probe(const Dfpn *s, const Board *b, Color attacker, TTData *e)
{
    Key key = dfpn_tt_key(b, attacker);
    bool found = probe_kept(s, key ^ thread_salt(s->result_tid), e);
    if (found && (e->pn == 0 || e->dn == 0))
        return true;
    /* A subtree another thread solved (the root's children are shared): any thread's proof is a proof. */
    for (int t = 0; t < s->nworkers; t++) { /* every thread any solve of s ran (set_config may lower threads) */
        TTData o;
        if (t != s->result_tid && probe_kept(s, key ^ thread_salt(t), &o) && (o.pn == 0 || o.dn == 0)) {
            *e = o;
            return true;
        }
    }
    return found;
}

Result dfpn_search_node(Dfpn *s, Board *b, Color attacker, uint64_t max_nodes)
{
    if (workers_reserve(s, s->result_tid + 1))
        return RESULT_UNKNOWN;
    Worker *w = &s->workers[s->result_tid];
    worker_begin(w, s, b, s->result_tid); /* it continues the solving thread's search */
    Color saved = s->attacker;
    s->attacker = attacker;
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
    flush_tt_count(w);
    s->attacker = saved;
    if (dfpn_probe(s, b, attacker, &e))
        return e.pn == 0 ? RESULT_PROVEN : e.dn == 0 ? RESULT_DISPROVEN : RESULT_UNKNOWN;
    return RESULT_UNKNOWN;
}

/* Size and depth of the subtree appended to w from offset len: framed with a header for proof_stats. */
static void appended_stats(const Board *b, RuleSet rs, Color attacker, const ProofWriter *w, size_t len,
                           uint64_t *pnodes, uint32_t *pdepth)
{
    ProofStats st;
    ProofWriter tmp = { 0 };
    pw_header(&tmp, rs, attacker);
    pw_bytes(&tmp, w->data + len, w->len - len);
    if (!tmp.err && proof_stats(b, tmp.data, tmp.len, &st) == 0) {
        if (pnodes)
            *pnodes += st.nodes;
        if (pdepth && st.depth > *pdepth)
            *pdepth = st.depth;
    }
    free(tmp.data);
}

bool dfpn_leaf_win(const Dfpn *s, Board *b, Color attacker, ProofWriter *w, uint64_t *pnodes, uint32_t *pdepth)
{
    RuleSet rs = s->cfg.rules;
    size_t len = w ? w->len : 0;
    VcfCtx *vcf = vcf_new(VCF_TT_LOG2 - 4);
    if (!vcf)
        return false;
    ThreatOpts vo;
    memset(&vo, 0, sizeof vo);
    vo.max_nodes = s->cfg.vcf_budget * 20; /* a fresh context knows less than the search's */
    VcfResult vr1;
    bool vwin = vcf_search(vcf, b, attacker, rs, &vo, &vr1) == 0 && vr1.result == RESULT_PROVEN &&
                (!w || vcf_line_to_proof(b, attacker, rs, &vr1, w) == 0);
    vcf_free(vcf);
    if (vwin) {
        if (w)
            appended_stats(b, rs, attacker, w, len, pnodes, pdepth);
        return true;
    }
    if (w)
        w->len = len;
    if (s->cfg.vct_budget == 0)
        return false;
    VctCtx *vct = vct_new(VCT_TT_LOG2, VCT_TREE);
    if (!vct)
        return false;
    ThreatOpts o;
    memset(&o, 0, sizeof o);
    o.max_nodes = s->cfg.vct_budget * 20; /* a fresh context knows less than the search's */
    VctResult vr;
    bool win = vct_search(vct, b, attacker, rs, &o, &vr) == 0 && vr.result == RESULT_PROVEN;
    if (win && w) {
        win = vct_write_proof(vct, b, w) == 0;
        if (!win)
            w->len = len;
        else
            appended_stats(b, rs, attacker, w, len, pnodes, pdepth);
    }
    vct_free(vct);
    return win;
}
