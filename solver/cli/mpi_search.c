/*
 * mpi_search.c - `renju-mpi opening search ...`: the opening-level search
 * (jobtree.h) with one master and MPI worker ranks.
 *
 *   mpirun -np K renju-mpi opening search POSITION [the options of `renju opening search`]
 *
 * Rank 0 is the master: it owns the tree (the same master logic as the local
 * search, jt_next / jt_done), the only writer of the results database (--db,
 * on the master's disk) and the scheduler.  Ranks 1..K-1 are workers: each
 * asks for a job, solves it with its own df-pn solver (--threads OpenMP
 * threads), and sends back the outcome (result, effort, root pn/dn, child
 * estimates) and every result it would store, proofs included.  The master
 * stores them: every proof was checked by the independent checker on the
 * worker before it was sent (jobrun.h), and the master checks again every
 * proof of up to MASTER_CHECK_BYTES and one in MASTER_CHECK_EVERY of the
 * larger ones (all of them with --master-check all).  Why a sample: a 4th-move
 * proof (~80 KB) takes the checker about a second, so re-checking every
 * large proof would make the master the bottleneck near 10 workers
 * (results/scaling.md), and the worker's check is the same code; the
 * sample guards the transfer and the workers' binaries, and `renju db
 * verify` re-checks everything offline.  Then it commits the job's results, reports the outcome to the tree
 * and hands the worker the next most-proving job, so workers that finish
 * early get more work.  One job is in flight per worker: a job runs for
 * seconds to minutes, against microseconds of messaging.
 *
 * With --class-time S (cli_search.h, ClassList) the master keeps one tree
 * per open class (Slot): a class opens when no open tree has a job for a
 * waiting worker, runs S seconds from its opening, and closes when nothing
 * of it is in flight; so with W workers up to W classes run at once.
 *
 * Stopping and failures.  --time / --max-jobs stop new jobs; SIGINT,
 * SIGTERM or SIGUSR1 (mpirun and srun forward them; Slurm's --signal warning)
 * interrupt the running jobs (dropped, as locally), the master commits and
 * reports and every rank exits 75.  A rank that dies (kill -9, a lost node)
 * ends the MPI job under Open MPI's default error handling; every job the
 * master had recorded is committed with its state, so the same command
 * resumes from there (each result is stored once: a rerun looks it up).
 *
 * Messages (MPI_BYTE, the same binary on every rank): READY (worker, empty),
 * JOB (master: node u32, sym u32, budget u64, extend i32, extend_pn u32, look u8, to_move u8, 225 cells), STOP
 * (master, empty), RESULT (worker: node u32, status i32 (0 done, RJ_EINTR,
 * or an error), the JtOutcome, u32 record count, then per record to_move
 * u8, 225 cells, the StoredResult, u32 proof length, the proof bytes).
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "cli.h"
#include "clock.h"
#include "cli_run.h"
#include "cli_search.h"
#include "db.h"
#include "error.h"
#include "jobpool.h"
#include "jobrun.h"
#include "jobtree.h"
#include "notation.h"
#include "proof.h"
#include "search_db.h"

enum { TAG_READY = 1, TAG_JOB = 2, TAG_RESULT = 3, TAG_STOP = 4 };
enum { POS_LEN = 1 + BOARD_POINTS, MASTER_CHECK_BYTES = 16384, MASTER_CHECK_EVERY = 256 };

/* ---- byte buffers ---- */

typedef struct {
    uint8_t *p;
    size_t len, cap;
    bool err;
} Buf;

static void put(Buf *b, const void *src, size_t n)
{
    if (b->err)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->err = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

typedef struct {
    const uint8_t *p;
    size_t len, at;
    bool err;
} Rd;

static void get(Rd *r, void *dst, size_t n)
{
    if (r->err || r->at + n > r->len) {
        r->err = true;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, r->p + r->at, n);
    r->at += n;
}

static void put_pos(Buf *b, const Board *bd)
{
    uint8_t v = (uint8_t)bd->to_move;
    put(b, &v, 1);
    put(b, bd->cell, BOARD_POINTS);
}

/* A setup position from its side to move and cells; false when malformed. */
static bool get_pos(Rd *r, Board *bd)
{
    uint8_t tm, cells[BOARD_POINTS];
    get(r, &tm, 1);
    get(r, cells, BOARD_POINTS);
    if (r->err || (tm != BLACK && tm != WHITE))
        return false;
    board_init(bd);
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (cells[p] > WHITE)
            return false;
        if (cells[p] != EMPTY)
            board_setup_stone(bd, (Point)p, (Color)cells[p]);
    }
    board_set_to_move(bd, (Color)tm);
    return true;
}

/* ---- worker ---- */

/* The worker's results store: every record goes into the RESULT message. */
typedef struct {
    Buf *msg;
    uint32_t n;
} Collect;

static int collect_store(void *ctx, const Board *b, RuleSet rs, const StoredResult *r, const uint8_t *proof,
                         size_t len)
{
    (void)rs;
    Collect *c = ctx;
    put_pos(c->msg, b);
    put(c->msg, r, sizeof *r);
    uint32_t l = (uint32_t)len;
    put(c->msg, &l, sizeof l);
    if (len)
        put(c->msg, proof, len);
    c->n++;
    return c->msg->err ? RJ_ENOMEM : 0;
}

static int no_lookup(void *ctx, const Board *b, Color attacker, RuleSet rs, StoredResult *out)
{
    (void)ctx, (void)b, (void)attacker, (void)rs, (void)out;
    return RJ_ENOTFOUND;
}

static int worker(const SearchOpts *o)
{
    DfpnConfig cfg;
    search_dfpn_config(o, &cfg);
    Dfpn *s = NULL;
    int rc = dfpn_create(&s, &cfg);
    if (rc) {
        cli_error(cli_exit_code(rc), "worker: cannot create the solver: %s", rj_strerror(rc));
        return EXIT_SOFTWARE;
    }
    MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD);
    Buf in = { 0 }, recs = { 0 }, msg = { 0 };
    JtOutcome *out = malloc(sizeof *out);
    int code = out ? EXIT_DONE : EXIT_SOFTWARE;
    while (out) {
        MPI_Status st;
        MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        int n;
        MPI_Get_count(&st, MPI_BYTE, &n);
        if ((size_t)n > in.cap) {
            uint8_t *q = realloc(in.p, (size_t)n);
            if (!q) {
                code = EXIT_SOFTWARE;
                break;
            }
            in.p = q;
            in.cap = (size_t)n;
        }
        MPI_Recv(in.p, n, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (st.MPI_TAG == TAG_STOP)
            break;
        Rd r = { in.p, (size_t)n, 0, false };
        uint32_t node, sym;
        uint64_t budget;
        int32_t extend;
        uint32_t extend_pn;
        Board b;
        get(&r, &node, 4);
        get(&r, &sym, 4);
        get(&r, &budget, 8);
        get(&r, &extend, 4);
        get(&r, &extend_pn, 4);
        uint8_t look = 0;
        get(&r, &look, 1);
        int32_t status = get_pos(&r, &b) ? 0 : RJ_EBADDATA;
        recs.len = 0;
        Collect col = { &recs, 0 };
        ResultStore store = { &col, no_lookup, collect_store };
        JobRunner run = search_runner(o, s, &store);
        memset(out, 0, sizeof *out);
        if (status == 0)
            status = jobrun_run(&run, &b, budget, extend, (ProofNum)extend_pn, look, out);
        msg.len = 0;
        put(&msg, &node, 4);
        put(&msg, &status, 4);
        put(&msg, out, sizeof *out);
        put(&msg, &col.n, 4);
        if (recs.len)
            put(&msg, recs.p, recs.len);
        if (msg.err) {
            code = EXIT_SOFTWARE;
            break;
        }
        MPI_Send(msg.p, (int)msg.len, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
    free(out);
    free(in.p);
    free(recs.p);
    free(msg.p);
    dfpn_free(s);
    return code;
}

/* ---- master ---- */

/*
 * A tree the master hands jobs from: the position's own, or under
 * --class-time one class's (a 4th move searched on its own).  Classes are
 * opened when no open tree has a job for a waiting worker, so with many
 * workers many classes run at once, each for its S seconds from its opening;
 * a round ends when its last class closes (then the moves still open get
 * twice the time while --time lasts, as locally).
 */
typedef struct {
    bool used;
    JobTree *t;
    SearchProgress pr;
    int k;            /* the class (index in Master.cl); -1: the position's own tree */
    double opened;    /* clock_now() when opened */
    double deadline;  /* 0: none */
    uint64_t w0, j0;  /* the tree's counters when opened */
    uint64_t started; /* jobs handed out from it by this run */
    int running;      /* of them in flight */
    bool exhausted;   /* nothing to hand out with none in flight (jt_next found none) */
    bool tried;       /* fetch: asked already */
} Slot;

typedef struct {
    const SearchOpts *o;
    JobTree *t; /* the position's own tree (the report's) */
    Db *db;
    SearchDb *sd;
    JtSource *src;
    JtJob *inflight; /* per rank */
    int *wslot;      /* per rank: the slot of its job in flight */
    bool *busy, *idle, *stopped;
    Slot *slot; /* size + 1 of them: at most one open per worker, and the root's */
    int size, active;
    uint64_t started;
    double deadline;
    bool stopping, interrupted;
    int err;
    uint64_t rechecked, refused, large;
    bool check_all; /* --master-check all */
    /* --class-time: the classes, the round, the next class to open */
    bool classes;
    enum { PH_ROOT, PH_CLASSES, PH_DONE } phase;
    ClassList *cl;
    bool *settled; /* not to be searched again (close_slot) */
    int round, next, left;
    double secs;
    /* Measurements (results/scaling.md): the master's own time, messages and commits. */
    double busy_s, check_s, commit_s, next_sync;
    uint64_t results, bytes_in, jobs_sent, bytes_out, commits;
} Master;

/* No new job from any tree: a stop request, --time, an error, or (without --class-time) --nodes / --max-jobs. */
static bool no_more_jobs(const Master *m)
{
    if (m->stopping || m->err)
        return true;
    if (atomic_load(cli_run_stop()))
        return true;
    if (m->deadline > 0 && clock_now() >= m->deadline)
        return true;
    if (m->classes)
        return false; /* --nodes and --max-jobs bound each tree (can_give) */
    if (m->o->a.nodes > 0 && jt_stats(m->t)->nodes >= (uint64_t)m->o->a.nodes) /* --nodes: the work of the jobs */
        return true;
    return m->o->max_jobs && m->started >= m->o->max_jobs;
}

/* Slot s may hand out a job now (as far as its own bounds go). */
static bool can_give(const Master *m, const Slot *s)
{
    if (no_more_jobs(m) || s->exhausted || jt_root_result(s->t) != RESULT_UNKNOWN)
        return false;
    if (!m->classes)
        return true;
    if (s->k < 0) /* the position's own jobs before its classes: one at a time, until it is expanded */
        return s->running == 0 && s->started < CLASS_ROOT_TRIES && !jt_root_expanded(s->t);
    const JtStats *st = jt_stats(s->t);
    if (s->deadline > 0 && clock_now() >= s->deadline)
        return false;
    if (m->o->max_jobs && s->started >= m->o->max_jobs)
        return false;
    return !(m->o->a.nodes > 0 && st->nodes - s->w0 >= (uint64_t)m->o->a.nodes);
}

static int open_slot(Master *m)
{
    for (int i = 0; i <= m->size; i++)
        if (!m->slot[i].used)
            return i;
    return -1;
}

/* Open class k of the current round in a free slot; 0 or an error code (printed). */
static int open_class(Master *m, int k)
{
    int i = open_slot(m);
    if (i < 0)
        return RJ_ENOTFOUND; /* every slot open (cannot happen: a class opens only for a waiting worker) */
    Slot *s = &m->slot[i];
    memset(s, 0, sizeof *s);
    SearchOpts po = *m->o;
    board_play(&po.root, m->cl->move[k]);
    int rc = jt_create(&s->t, &po.root, &m->o->class_jc, m->src);
    if (rc) {
        char name[8];
        notation_point_str(m->cl->move[k], name);
        cli_error(cli_exit_code(rc), "cannot build the search tree of %s: %s", name, rj_strerror(rc));
        return rc;
    }
    if ((rc = search_progress_init(&s->pr, &po))) {
        jt_free(s->t);
        return RJ_EIO;
    }
    s->pr.a = &m->o->a; /* not po's (this frame's): the same options */
    s->used = true;
    s->k = k;
    s->opened = clock_now();
    s->deadline = s->opened + m->secs;
    if (m->deadline > 0 && m->deadline < s->deadline)
        s->deadline = m->deadline;
    s->w0 = jt_stats(s->t)->nodes;
    s->j0 = jt_stats(s->t)->jobs;
    return 0;
}

/* Slot i is done: nothing in flight and nothing more to hand out. */
static bool closable(const Master *m, const Slot *s) { return s->used && s->running == 0 && !can_give(m, s); }

/* --class-time: the position's own jobs are over: its classes next (none when it is decided or not expanded). */
static void begin_classes(Master *m)
{
    m->phase = PH_DONE;
    if (m->err || jt_root_result(m->t) != RESULT_UNKNOWN || m->interrupted || atomic_load(cli_run_stop()))
        return;
    if (!jt_root_expanded(m->t)) {
        if (!m->o->a.quiet)
            fprintf(stderr, "renju-mpi: --class-time: the position is not expanded yet (its own jobs ran out of "
                            "time or budget): no move searched\n");
        return;
    }
    if (search_class_list(m->o, m->t, m->cl) || !(m->settled = calloc((size_t)m->cl->n + 1, sizeof *m->settled))) {
        m->err = RJ_ENOMEM;
        return;
    }
    m->phase = PH_CLASSES;
}

/* Close slot i: a class's line and counters, or the end of the position's own jobs (then its classes). */
static void close_slot(Master *m, int i)
{
    Slot *s = &m->slot[i];
    search_progress_end(&s->pr, s->t);
    s->used = false;
    if (s->k < 0) {
        if (m->classes)
            begin_classes(m);
        return;
    }
    const JtStats *cs = jt_stats(s->t);
    Result r = jt_root_result(s->t);
    SearchDb *sd = m->sd;
    /* Not searched again: decided, nothing left to run, or stopped before its time (--nodes, --max-jobs). */
    m->settled[s->k] = r != RESULT_UNKNOWN || jt_finished(s->t) || s->exhausted || clock_now() < s->deadline;
    m->left += !m->settled[s->k];
    sd->class_runs++;
    sd->class_proven += r == RESULT_PROVEN;
    sd->class_nodes += cs->nodes - s->w0;
    sd->class_jobs += cs->jobs - s->j0;
    search_class_line(m->o, m->cl, s->k, m->round, m->secs, r, cs->nodes - s->w0, clock_now() - s->opened,
                      sd->class_proven);
    jt_free(s->t);
    s->t = NULL;
}

/* Close every slot that is done; how many closed. */
static int tick(Master *m)
{
    int n = 0;
    for (int i = 0; i <= m->size; i++)
        if (closable(m, &m->slot[i])) {
            close_slot(m, i);
            n++;
        }
    return n;
}

/*
 * Open the next class (the next round's first when this round's last one
 * has closed); false when none may open now.
 */
static bool open_next(Master *m)
{
    while (m->phase == PH_CLASSES && !m->err && !no_more_jobs(m)) {
        while (m->next < m->cl->n && m->settled[m->next])
            m->next++;
        if (m->next < m->cl->n) {
            int rc = open_class(m, m->next);
            if (rc == RJ_ENOTFOUND)
                return false; /* no free slot: this worker waits */
            m->next++;
            if (rc)
                m->err = rc;
            return rc == 0;
        }
        for (int i = 0; i <= m->size; i++)
            if (m->slot[i].used)
                return false;                   /* the round ends with its last class */
        if (m->deadline == 0 || m->left == 0) { /* without --time one round; or nothing left */
            m->phase = PH_DONE;
            return false;
        }
        m->round++, m->secs *= 2, m->next = 0, m->left = 0;
    }
    return false;
}

/* The next job: from the open tree with the fewest jobs in flight that has one, else a new class. */
static int fetch(Master *m, JtJob *job, int *slot)
{
    for (;;) {
        tick(m); /* a tree done meanwhile (a new class decided as loaded, a deadline passed) closes first */
        for (int i = 0; i <= m->size; i++)
            m->slot[i].tried = false;
        for (;;) {
            int best = -1;
            for (int i = 0; i <= m->size; i++) {
                const Slot *s = &m->slot[i];
                if (s->used && !s->tried && can_give(m, s) && (best < 0 || s->running < m->slot[best].running))
                    best = i;
            }
            if (best < 0)
                break;
            m->slot[best].tried = true;
            Slot *s = &m->slot[best];
            int rc = jt_next(s->t, job);
            if (rc == 0) {
                *slot = best;
                s->started++;
                s->running++;
                return 0;
            }
            if (rc != RJ_ENOTFOUND)
                return rc;
            if (s->running == 0) {
                s->exhausted = true;
                close_slot(m, best);
            }
        }
        if (!open_next(m) && tick(m) == 0) /* (a tree done since the last tick: the round may end now) */
            return m->err ? m->err : RJ_ENOTFOUND;
    }
}

/* Jobs in flight over all trees. */
static int running(const Master *m)
{
    int n = 0;
    for (int i = 0; i <= m->size; i++)
        n += m->slot[i].used ? m->slot[i].running : 0;
    return n;
}

static void send_stop(Master *m, int w)
{
    if (m->stopped[w])
        return;
    MPI_Send(NULL, 0, MPI_BYTE, w, TAG_STOP, MPI_COMM_WORLD);
    m->stopped[w] = true;
    m->idle[w] = false;
    m->active--;
}

/* Give worker w the next job, park it, or stop it. */
static void assign(Master *m, int w)
{
    if (no_more_jobs(m)) {
        send_stop(m, w);
        return;
    }
    JtJob *job = &m->inflight[w];
    int rc = fetch(m, job, &m->wslot[w]);
    if (rc == RJ_ENOTFOUND) {
        if (running(m) == 0)
            send_stop(m, w); /* the goal is met or nothing is left */
        else
            m->idle[w] = true;
        return;
    }
    if (rc) {
        m->err = rc;
        send_stop(m, w);
        return;
    }
    Slot *s = &m->slot[m->wslot[w]];
    m->started++;
    Buf b = { 0 };
    uint32_t node = (uint32_t)job->node, sym = (uint32_t)job->sym;
    put(&b, &node, 4);
    put(&b, &sym, 4);
    put(&b, &job->budget, 8);
    int32_t extend = job->extend;
    uint32_t extend_pn = (uint32_t)job->extend_pn;
    put(&b, &extend, 4);
    put(&b, &extend_pn, 4);
    uint8_t look = (uint8_t)job->look;
    put(&b, &look, 1);
    put_pos(&b, &job->board);
    if (b.err) {
        m->err = RJ_ENOMEM;
        jt_abandon(s->t, job);
        s->running--;
        send_stop(m, w);
        return;
    }
    MPI_Send(b.p, (int)b.len, MPI_BYTE, w, TAG_JOB, MPI_COMM_WORLD);
    m->jobs_sent++;
    m->bytes_out += b.len;
    free(b.p);
    m->busy[w] = true;
    m->idle[w] = false;
}

/* A worker's RESULT: check and store its records, then report the outcome to its tree. */
static void on_result(Master *m, int w, const uint8_t *p, size_t len)
{
    m->busy[w] = false;
    JtJob *job = &m->inflight[w];
    Slot *s = &m->slot[m->wslot[w]];
    s->running--;
    Rd r = { p, len, 0, false };
    uint32_t node, nrec;
    int32_t status;
    JtOutcome *out = malloc(sizeof *out);
    if (!out) {
        m->err = RJ_ENOMEM;
        jt_abandon(s->t, job);
        return;
    }
    get(&r, &node, 4);
    get(&r, &status, 4);
    get(&r, out, sizeof *out);
    get(&r, &nrec, 4);
    if (r.err || node != (uint32_t)job->node)
        status = RJ_EBADDATA;
    for (uint32_t i = 0; i < nrec && status == 0; i++) {
        Board b;
        StoredResult sr;
        uint32_t plen;
        bool ok = get_pos(&r, &b);
        get(&r, &sr, sizeof sr);
        get(&r, &plen, 4);
        if (!ok || r.err || r.at + plen > len) {
            status = RJ_EBADDATA;
            break;
        }
        const uint8_t *proof = plen ? p + r.at : NULL;
        r.at += plen;
        /* The master's own check (all small proofs, a sample of the large ones; see the top). */
        bool check = sr.result == RESULT_PROVEN &&
                     (m->check_all || plen <= MASTER_CHECK_BYTES || m->large++ % MASTER_CHECK_EVERY == 0);
        if (sr.result == RESULT_PROVEN && !proof) {
            m->refused++;
            if (i == 0)
                out->result = RESULT_UNKNOWN;
            continue;
        }
        if (check) {
            m->rechecked++;
            ProofStats ps;
            double c0 = clock_now();
            int bad = !proof || proof_check(&b, proof, plen, &ps, NULL, 0) != 0;
            m->check_s += clock_now() - c0;
            if (bad) {
                m->refused++;
                if (sr.result == RESULT_PROVEN && i == 0)
                    out->result = RESULT_UNKNOWN; /* the job's own result is not taken either */
                continue;
            }
        }
        int rc = m->sd->store.store(m->sd->store.ctx, &b, m->o->a.rules, &sr, proof, plen);
        if (rc && !m->err)
            m->err = rc;
    }
    if (status == RJ_EINTR) {
        jt_abandon(s->t, job);
        m->interrupted = true;
        m->stopping = true;
    } else if (status) {
        jt_abandon(s->t, job);
        if (!m->err)
            m->err = status;
    } else {
        double c0 = clock_now();
        int rc = db_flush(m->db);
        if ((!rc || rc == RJ_ECONFLICT) && c0 >= m->next_sync) {
            rc = db_sync(m->db);
            m->next_sync = c0 + 1.0;
        }
        m->commit_s += clock_now() - c0;
        m->commits++;
        if (rc && rc != RJ_ECONFLICT && !m->err)
            m->err = rc;
        rc = jt_done(s->t, job, out);
        if (rc && !m->err)
            m->err = rc;
        search_progress(&s->pr, s->t, job, out);
    }
    free(out);
}

static int master(const SearchOpts *o, int size, bool check_all)
{
    const CliArgs *a = &o->a;
    Db *db;
    /* Each job commits (a killed rank loses at most the running jobs); the disk is synced once a second. */
    int rc = cli_db_open(cli_db_path(a), DB_CREATE | DB_NOSYNC, &db);
    if (rc)
        return rc;
    if ((rc = search_fresh_tree(o, db))) {
        db_close(db);
        return rc;
    }
    SearchDb sd;
    JtSource src;
    search_db_init(&sd, db, a->rules, false, &src);
    sd.keep_ahead = o->class_time > 0; /* several classes' trees open at once */
    JobTree *t = NULL;
    double t0 = clock_now();
    if ((rc = jt_create(&t, &o->root, &o->jc, &src))) {
        db_close(db);
        return cli_error(cli_exit_code(rc), "cannot build the search tree: %s", rj_strerror(rc));
    }
    Master m = {.o = o,
                .t = t,
                .db = db,
                .sd = &sd,
                .src = &src,
                .size = size,
                .active = size - 1,
                .check_all = check_all,
                .classes = o->class_time > 0,
                .round = 1,
                .secs = o->class_time};
    m.inflight = calloc((size_t)size, sizeof *m.inflight);
    m.wslot = calloc((size_t)size, sizeof *m.wslot);
    m.busy = calloc((size_t)size, sizeof *m.busy);
    m.idle = calloc((size_t)size, sizeof *m.idle);
    m.stopped = calloc((size_t)size, sizeof *m.stopped);
    m.slot = calloc((size_t)size + 1, sizeof *m.slot);
    m.cl = malloc(sizeof *m.cl);
    if (!m.inflight || !m.wslot || !m.busy || !m.idle || !m.stopped || !m.slot || !m.cl)
        m.err = RJ_ENOMEM;
    m.deadline = a->time_s > 0 ? t0 + a->time_s : 0;
    /* The position's own tree first (with --class-time: until it is expanded; then its classes). */
    if (!m.err && m.classes && (jt_root_expanded(t) || jt_root_result(t) != RESULT_UNKNOWN)) {
        begin_classes(&m); /* straight to the classes */
    } else if (!m.err) {
        Slot *s = &m.slot[0];
        s->t = t;
        s->k = -1;
        s->opened = t0;
        if (search_progress_init(&s->pr, o) != 0) /* printed; the workers are stopped below */
            m.err = RJ_EIO;
        else
            s->used = true;
    }
    if (!a->quiet)
        fprintf(stderr, "renju-mpi: master (rank 0, pid %ld) and %d workers\n", (long)getpid(), size - 1);
    Buf in = { 0 };
    double next_tick = 0;
    while (m.active > 0) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            /* Nothing to read: parked workers stop once no job will come; a tree may close (its time is up). */
            double now = clock_now();
            if (no_more_jobs(&m) || running(&m) == 0 || now >= next_tick) {
                next_tick = now + 0.1;
                for (int w = 1; w < size; w++)
                    if (m.idle[w])
                        assign(&m, w);
            }
            struct timespec ts = { 0, 2 * 1000 * 1000 };
            nanosleep(&ts, NULL);
            continue;
        }
        int n, w = st.MPI_SOURCE;
        MPI_Get_count(&st, MPI_BYTE, &n);
        if ((size_t)n > in.cap) {
            uint8_t *q = realloc(in.p, (size_t)n);
            if (!q) {
                m.err = RJ_ENOMEM;
                break;
            }
            in.p = q;
            in.cap = (size_t)n;
        }
        MPI_Recv(in.p, n, MPI_BYTE, w, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double b0 = clock_now();
        if (st.MPI_TAG == TAG_RESULT && m.busy[w]) {
            m.results++;
            m.bytes_in += (uint64_t)n;
            on_result(&m, w, in.p, (size_t)n);
        } else if (st.MPI_TAG != TAG_READY) {
            continue;
        }
        assign(&m, w);
        /* A finished job may have opened work for parked workers. */
        for (int v = 1; v < size; v++)
            if (m.idle[v])
                assign(&m, v);
        m.busy_s += clock_now() - b0;
    }
    free(in.p);
    /* What is still open (a stop, --time, an error): its line and counters; the position's own tree stays. */
    for (int i = 0; m.slot && i <= size; i++)
        if (m.slot[i].used)
            close_slot(&m, i);
    int frc = db_flush(db);
    if (frc == RJ_ECONFLICT)
        frc = 0;
    bool interrupted = m.interrupted;
    int exit_rc = m.classes && !m.err ? search_class_rebuild(o, &m.t, &sd, &src, &interrupted) : 0;
    int sgf_rc = m.t && !exit_rc ? search_report(a, m.t, &o->root, o->jc.goal, clock_now() - t0, interrupted, &sd) : 0;
    double wall = clock_now() - t0;
    if (!a->quiet) {
        fprintf(stderr, "renju-mpi: %llu proofs re-checked by the master (%s), %llu refused\n",
                (unsigned long long)m.rechecked, m.check_all ? "all" : "small ones and a sample of the large",
                (unsigned long long)m.refused);
        fprintf(stderr,
                "renju-mpi: stats {\"workers\":%d,\"results\":%llu,\"wall_s\":%.3f,\"master_busy_s\":%.4f,"
                "\"master_check_s\":%.4f,\"master_commit_s\":%.4f,\"commits\":%llu,\"bytes_in\":%llu,"
                "\"jobs_sent\":%llu,\"bytes_out\":%llu,\"job_time_s\":%.3f}\n",
                size - 1, (unsigned long long)m.results, wall, m.busy_s, m.check_s, m.commit_s,
                (unsigned long long)m.commits, (unsigned long long)m.bytes_in, (unsigned long long)m.jobs_sent,
                (unsigned long long)m.bytes_out, m.t ? jt_stats(m.t)->job_time_s : 0.0);
    }
    jt_free(m.t);
    search_db_free(&sd);
    db_close(db);
    free(m.inflight);
    free(m.wslot);
    free(m.busy);
    free(m.idle);
    free(m.stopped);
    free(m.slot);
    free(m.cl);
    free(m.settled);
    if (exit_rc)
        return exit_rc;
    if (m.err)
        return cli_error(cli_exit_code(m.err), "search stopped: %s", rj_strerror(m.err));
    if (frc)
        return cli_error(EXIT_IOERR, "%s: %s", cli_db_path(a), rj_strerror(frc));
    if (interrupted || atomic_load(cli_run_stop()))
        return cli_error(EXIT_TEMPFAIL, "interrupted: proven results and the search state are stored; "
                                        "the same command resumes");
    return sgf_rc ? sgf_rc : EXIT_DONE;
}

/* renju-mpi opening search ...: every rank parses the same options; rank 0 is the master. */
int mpi_opening_main(int argc, char **argv, int rank, int size)
{
    if (argc < 2 || strcmp(argv[1], "search")) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np K renju-mpi opening search POSITION [opening search options]\n");
        return EXIT_USAGE;
    }
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "renju-mpi: opening search needs at least 2 ranks (a master and a worker)\n");
        return EXIT_USAGE;
    }
    const char *mc = NULL;
    int rc = cli_take_opt(&argc, argv, "master-check", true, &mc);
    if (rc > 1)
        return rc;
    if (mc && strcmp(mc, "all") && strcmp(mc, "sample")) {
        if (rank == 0)
            fprintf(stderr, "renju-mpi: --master-check: expected all or sample, got '%s'\n", mc);
        return EXIT_USAGE;
    }
    SearchOpts o;
    rc = search_opts(argc - 1, argv + 1, true, &o);
    if (rc)
        return rc;
    cli_run_signals();
    if (rank != 0)
        o.a.quiet = true;
    return rank == 0 ? master(&o, size, mc && !strcmp(mc, "all")) : worker(&o);
}
