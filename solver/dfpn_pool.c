/*
 * dfpn_pool.c - the df-pn solver's memory and threads (dfpn_impl.h): its
 * creation, configuration and clearing; the tables' growth, with the
 * threads parked at a safe point; the workers' memory, kept between solves,
 * and their set-up for a solve.
 */
#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "dfpn_impl.h"
#include "error.h"
#include "sym.h"
#include "vcf.h"
#include "vct.h"

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
 * Grow what is due, with no other thread in the tables (dfpn_park(), or alone):
 * the TT (nothing at its cap), then the solved store, made when the TT
 * reaches its cap.
 */
void dfpn_grow_tables(Dfpn *s)
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
void dfpn_flush_tt_count(Worker *w)
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
void dfpn_park(Worker *w)
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
                 * thread that left dfpn_park() to search saw it clear before that,
                 * so its leaving shows in the count read after; a thread that
                 * arrived and found no request counted itself in `running`
                 * before, so it shows too; a thread that arrives now, or is
                 * still on its way out of dfpn_park(), finds the request and waits.
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
                    dfpn_grow_tables(s);
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

/* Free a worker's memory. */
static void worker_free(Worker *w)
{
    free(w->stack);
    free(w->cache);
    free(w->tried);
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
    bool want_vct = cfg->vct_budget || cfg->vct_prune_budget;
    if (!w->ng.vct && want_vct && (w->ng.vct = vct_new(VCT_TT_LOG2, VCT_TREE)))
        vct_clear(w->ng.vct);
    if (!w->ng.vcf && (w->ng.vcf = vcf_new(VCF_TT_LOG2)))
        vcf_clear(w->ng.vcf);
    if (!w->tried && cfg->vct_prune_budget)
        w->tried = calloc((size_t)1 << PRUNE_TRIED_BITS, sizeof *w->tried);
    if (!w->stack || !w->cache || (!w->ng.vct && want_vct) || !w->ng.vcf || (!w->tried && cfg->vct_prune_budget))
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
void dfpn_worker_begin(Worker *w, Dfpn *s, const Board *b, int tid)
{
    Worker keep = *w;
    memset(w, 0, sizeof *w);
    w->cache = keep.cache;
    w->stack = keep.stack;
    w->ng.vcf = keep.ng.vcf;
    w->ng.vct = keep.ng.vct;
    w->tried = keep.tried;
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
int dfpn_workers_reserve(Dfpn *s, int n)
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

void dfpn_worker_flush(Worker *w)
{
    /* First: the count adds below publish it to the thread that reads the totals. */
    dfpn_flush_tt_count(w); /* a growth asked for now happens in a later solve (or is asked for again) */
    atomic_fetch_add(&w->s->nodes, w->unflushed);
    atomic_fetch_add(&w->s->dfpn_nodes, w->dfpn_nodes);
    atomic_fetch_add(&w->s->sim_proven, w->sim_proven);
    atomic_fetch_add(&w->s->vct_pruned, w->vct_pruned);
    w->unflushed = 0;
    w->dfpn_nodes = 0;
    w->sim_proven = 0;
    w->vct_pruned = 0;
}

void dfpn_config_default(DfpnConfig *c)
{
    memset(c, 0, sizeof *c);
    c->attacker = EMPTY;
    c->rules = RULE_RENJU;
    c->threads = 1;
    c->tt_mb = 64;
    c->progress_interval = 0.5;
    c->sim_budget = DFPN_SIM_BUDGET;
}

/* cfg with the defaults filled in. */
static DfpnConfig effective_config(const DfpnConfig *cfg)
{
    DfpnConfig c = *cfg;
    if (c.vcf_budget == 0)
        c.vcf_budget = DEFAULT_VCF_BUDGET;
    if (c.progress_interval <= 0)
        c.progress_interval = 0.5;
    if (c.sim_min_children <= 0)
        c.sim_min_children = DFPN_SIM_MIN_CHILDREN;
    if (c.quiet_free == 0)
        c.quiet_free = DFPN_QUIET_FREE;
    if (c.effort_shift == 0)
        c.effort_shift = DFPN_EFFORT_SHIFT;
    if (c.quiet_deep_pn <= 0 || c.quiet_deep_pn > 255)
        c.quiet_deep_pn = DFPN_QUIET_DEEP_PN;
    return c;
}

/* The fields of cfg (its defaults filled in) the node rules read. */
static NodeRules node_rules_of(const DfpnConfig *cfg)
{
    return (NodeRules){.rules = cfg->rules,
                       .full_width = cfg->full_width,
                       .vcf_budget = cfg->vcf_budget,
                       .vct_budget = cfg->vct_budget,
                       .vct_order = cfg->vct_order,
                       .quiet_free = cfg->quiet_free,
                       .quiet_deep_pn = cfg->quiet_deep_pn};
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
        cfg->full_width != s->cfg.full_width || cfg->vct_order < 0 || cfg->vct_order > VCT_MAX_ORDER)
        return RJ_EBADARG;
    s->cfg = effective_config(cfg);
    s->node_rules = node_rules_of(&s->cfg);
    start_threads(s, cfg->threads);
    /* Child lists depend on the threat-search budgets: cached ones are dropped. */
    for (int i = 0; i < s->nworkers; i++)
        worker_drop_lists(&s->workers[i]);
    return dfpn_workers_reserve(s, cfg->threads);
}

int dfpn_create(Dfpn **out, const DfpnConfig *cfg)
{
    *out = NULL;
    if (cfg->threads < 1 || cfg->tt_mb < 1 || cfg->vct_order < 0 || cfg->vct_order > VCT_MAX_ORDER)
        return RJ_EBADARG;
    Dfpn *s = calloc(1, sizeof *s);
    if (!s)
        return RJ_ENOMEM;
    s->cfg = effective_config(cfg);
    s->node_rules = node_rules_of(&s->cfg);
    int rc = tt_create(&s->tt, cfg->tt_mb);
    if (rc) {
        dfpn_free(s);
        return rc;
    }
    if (s->tt.nbuckets == s->tt.max_buckets) /* at its cap from the start: see dfpn_grow_tables() */
        make_solved_store(s);
    start_threads(s, cfg->threads);
    if (dfpn_workers_reserve(s, cfg->threads)) {
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
