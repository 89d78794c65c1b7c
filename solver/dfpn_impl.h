/*
 * dfpn_impl.h - what the df-pn solver's files share (private to solver/dfpn*.c):
 * the solver and worker structs, the small inline helpers every part uses,
 * and the functions dfpn_pool.c gives the search.
 *
 *   dfpn.c          the search: the node loop (mid), the work count and the
 *                   solve's phases
 *   dfpn_pool.c     the solver's memory and threads: creation, configuration
 *                   and clearing, the tables' growth (parking the threads),
 *                   the workers' memory and their set-up for a solve
 *   dfpn_extract.c  what proof extraction asks of a solved solver: probes,
 *                   a node's children, the leaf win with its proof
 */
#ifndef RJ_DFPN_IMPL_H
#define RJ_DFPN_IMPL_H

#include <stdatomic.h>
#include <string.h>

#include "dfpn.h"
#include "nodegen.h"
#include "placement.h"
#include "tt.h"
#include "types.h"

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
    NodeRules node_rules; /* cfg's fields the node rules read (node_rules_of in dfpn_pool.c) */
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
    struct Worker *workers; /* one per thread, kept between solves (dfpn_worker_begin) */
    int nworkers;
    char pad0[CACHE_LINE];
    /* Written as the threads search. */
    _Atomic uint64_t nodes; /* flushed work count of the current solve (df-pn + leaf threat nodes) */
    _Atomic uint64_t dfpn_nodes; /* df-pn nodes (MID calls) of finished workers */
    _Atomic uint64_t sim_proven; /* defences proven by simulation, of finished workers */
    _Atomic uint64_t vct_pruned; /* defences proven by dfpn_prune_by_vct, of finished workers */
    _Atomic uint64_t root_numbers; /* the root's pn << 32 | dn as last computed (progress reports) */
    /*
     * The root's result, recorded by the first thread that solves it (0: not
     * yet): ROOT_SOLVED | ROOT_PROVEN | ROOT_EXACT | best << 8 | thread << 32.
     * The solve reads it rather than the TT, where a racing store may replace
     * the root's entry.
     */
    _Atomic uint64_t root_result;
    atomic_bool interrupted;
    /* Growing the TT with several threads (see dfpn_park()). */
    _Atomic int running;   /* threads in this solve that may still touch the TT (counted as they arrive) */
    _Atomic int parked;    /* threads waiting in dfpn_park() */
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

/* A node dfpn_prune_by_vct has run on (direct-mapped by key, PRUNE_TRIED_BITS). */
enum { PRUNE_TRIED_BITS = 16 };
typedef struct {
    Key key;
    uint32_t epoch; /* the worker's epoch when written (0: never) */
} PruneTried;

typedef struct Worker {
    Dfpn *s;
    GenCacheEntry *cache; /* 1 << GEN_CACHE_BITS entries */
    uint32_t epoch;       /* this solve's cache epoch (dfpn_worker_begin) */
    double prep_s;        /* seconds this solve spent populating TT memory ahead (dfpn_flush_tt_count) */
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
    Board sim_src;   /* the source position of a simulation (dfpn_sim.c) */
    uint64_t sim_proven;  /* defences it proved this solve */
    uint64_t vct_pruned;  /* defences dfpn_prune_by_vct proved this solve */
    PruneTried *tried;    /* 1 << PRUNE_TRIED_BITS entries when VCT pruning is on */
    char pad[CACHE_LINE]; /* the workers lie in one array: keep the next one's fields off this one's lines */
} Worker;

/* ---- helpers shared by the parts ---------------------------------------- */

static inline bool should_stop(const Worker *w)
{
    const Dfpn *s = w->s;
    return w->halt || atomic_load_explicit(&s->stop_internal, memory_order_relaxed) ||
           (s->cfg.stop && atomic_load_explicit(s->cfg.stop, memory_order_relaxed));
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

/* Thread tid's TT keys are the positions' keys ^ its salt: see "Parallel search" in dfpn.h. */
static inline Key thread_salt(int tid) { return (Key)tid * UINT64_C(0x9e3779b97f4a7c15); }

/* Look key up in the TT, then in the solved store once it holds entries (only solved ones are kept there). */
static inline bool probe_kept(const Dfpn *s, Key key, TTData *e)
{
    if (tt_probe(&s->tt, key, e))
        return true;
    return atomic_load_explicit(&s->solved_on, memory_order_relaxed) && tt_probe(&s->solved, key, e) &&
           (e->pn == 0 || e->dn == 0);
}

/* Put a non-terminal child list in the worker's cache entry e. */
static inline void dfpn_cache_put(GenCacheEntry *e, uint32_t epoch, Key key, const Children *c)
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

/* ---- dfpn.c ---------------------------------------------------------------- */

/* Count n units of work; every FLUSH_EVERY units publish the count and check the budgets. */
void dfpn_count_work(Worker *w, uint64_t n);

/* Store d for key (the TT, evicted solved entries to the solved store), counting the slots filled. */
void dfpn_tt_put(Worker *w, Key key, const TTData *d);

/* The children of the worker's board, TT key key (cached, or generated with the leaf test unless found). */
NodeStatus dfpn_node_gen(Worker *w, Key key, bool found, Children *c);

/* ---- dfpn_sim.c ------------------------------------------------------------- */

/*
 * Simulation: at a defender node of the worker's board (its children c at
 * stack[depth]), child src_i just proven, try to prove each other unsolved
 * child by replaying that child's proof (see dfpn_sim.c).  Children proven
 * so get pn 0 in c (and their proofs are in the TT).
 */
void dfpn_simulate_siblings(Worker *w, int depth, Children *c, int src_i);

/* ---- dfpn_prune.c ------------------------------------------------------------ */

/* Is defender node c (the worker's board) one dfpn_prune_by_vct may prune (wide, pruning on)? */
bool dfpn_prune_wanted(const Worker *w, const Children *c);

/*
 * When the attacker wins by VCT after a defender pass at the worker's board
 * (TT key key, children c), prove each unsolved child the attacker still
 * wins by VCT (stored in the TT as leaf wins).  See dfpn_prune.c.
 */
void dfpn_prune_by_vct(Worker *w, Key key, const Children *c);

/* ---- dfpn_pool.c --------------------------------------------------------- */

/*
 * Grow what is due, with no other thread in the tables (dfpn_park(), or
 * alone): the TT (nothing at its cap), then the solved store, made when the
 * TT reaches its cap.
 */
void dfpn_grow_tables(Dfpn *s);

/* Count the TT slots w's stores filled, ask for growth, populate memory ahead (see dfpn_pool.c). */
void dfpn_flush_tt_count(Worker *w);

/* Wait at a safe point until the tables' growth asked for is done (see dfpn_pool.c). */
void dfpn_park(Worker *w);

/* Make w (allocated: dfpn_workers_reserve) thread tid's worker for a search of b. */
void dfpn_worker_begin(Worker *w, Dfpn *s, const Board *b, int tid);

/* Grow the solver's pool of workers to n and allocate their memory for s->cfg: 0 or RJ_ENOMEM. */
int dfpn_workers_reserve(Dfpn *s, int n);

/* Publish w's last counts (its TT slots, nodes and df-pn nodes) at the end of a solve. */
void dfpn_worker_flush(Worker *w);

#endif /* RJ_DFPN_IMPL_H */
