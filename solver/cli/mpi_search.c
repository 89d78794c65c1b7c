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

typedef struct {
    const SearchOpts *o;
    JobTree *t;
    Db *db;
    SearchDb *sd;
    SearchProgress *pr;
    JtJob *inflight; /* per rank */
    bool *busy, *idle, *stopped;
    int size, active;
    uint64_t started;
    double deadline;
    bool stopping, interrupted;
    int err;
    uint64_t rechecked, refused, large;
    bool check_all; /* --master-check all */
    /* Measurements (results/scaling.md): the master's own time, messages and commits. */
    double busy_s, check_s, commit_s, next_sync;
    uint64_t results, bytes_in, jobs_sent, bytes_out, commits;
} Master;

static bool no_more_jobs(const Master *m)
{
    if (m->stopping || m->err)
        return true;
    if (atomic_load(cli_run_stop()))
        return true;
    if (m->deadline > 0 && clock_now() >= m->deadline)
        return true;
    if (m->o->a.nodes > 0 && jt_stats(m->t)->nodes >= (uint64_t)m->o->a.nodes) /* --nodes: the work of the jobs */
        return true;
    return m->o->max_jobs && m->started >= m->o->max_jobs;
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
    int rc = jt_next(m->t, job);
    if (rc == RJ_ENOTFOUND) {
        if (jt_running(m->t) == 0)
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
        jt_abandon(m->t, job);
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

/* A worker's RESULT: check and store its records, then report the outcome. */
static void on_result(Master *m, int w, const uint8_t *p, size_t len)
{
    m->busy[w] = false;
    JtJob *job = &m->inflight[w];
    Rd r = { p, len, 0, false };
    uint32_t node, nrec;
    int32_t status;
    JtOutcome *out = malloc(sizeof *out);
    if (!out) {
        m->err = RJ_ENOMEM;
        jt_abandon(m->t, job);
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
        jt_abandon(m->t, job);
        m->interrupted = true;
        m->stopping = true;
    } else if (status) {
        jt_abandon(m->t, job);
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
        rc = jt_done(m->t, job, out);
        if (rc && !m->err)
            m->err = rc;
        search_progress(m->pr, m->t, job, out);
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
    JobTree *t = NULL;
    double t0 = clock_now();
    if ((rc = jt_create(&t, &o->root, &o->jc, &src))) {
        db_close(db);
        return cli_error(cli_exit_code(rc), "cannot build the search tree: %s", rj_strerror(rc));
    }
    SearchProgress pr;
    bool log_failed = search_progress_init(&pr, o) != 0; /* printed; the workers are stopped below */
    Master m = { .o = o, .t = t, .db = db, .sd = &sd, .pr = &pr, .size = size, .active = size - 1,
                 .check_all = check_all };
    m.inflight = calloc((size_t)size, sizeof *m.inflight);
    m.busy = calloc((size_t)size, sizeof *m.busy);
    m.idle = calloc((size_t)size, sizeof *m.idle);
    m.stopped = calloc((size_t)size, sizeof *m.stopped);
    if (!m.inflight || !m.busy || !m.idle || !m.stopped)
        m.err = RJ_ENOMEM;
    if (log_failed)
        m.err = RJ_EIO;
    m.deadline = a->time_s > 0 ? t0 + a->time_s : 0;
    if (!a->quiet)
        fprintf(stderr, "renju-mpi: master (rank 0, pid %ld) and %d workers\n", (long)getpid(), size - 1);
    Buf in = { 0 };
    while (m.active > 0) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            /* Nothing to read: once no job will come, parked workers stop; then wait a little. */
            if (no_more_jobs(&m) || jt_running(t) == 0)
                for (int w = 1; w < size; w++)
                    if (m.idle[w])
                        send_stop(&m, w);
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
    int frc = db_flush(db);
    if (frc == RJ_ECONFLICT)
        frc = 0;
    search_progress_end(&pr, t);
    int sgf_rc = search_report(a, t, &o->root, o->jc.goal, clock_now() - t0, m.interrupted, &sd);
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
                (unsigned long long)m.bytes_out, jt_stats(t)->job_time_s);
    }
    jt_free(t);
    db_close(db);
    free(m.inflight);
    free(m.busy);
    free(m.idle);
    free(m.stopped);
    if (m.err)
        return cli_error(cli_exit_code(m.err), "search stopped: %s", rj_strerror(m.err));
    if (frc)
        return cli_error(EXIT_IOERR, "%s: %s", cli_db_path(a), rj_strerror(frc));
    if (m.interrupted || atomic_load(cli_run_stop()))
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
    if (o.class_time > 0) {
        if (rank == 0)
            fprintf(stderr, "renju-mpi: --class-time: only for renju opening search (one machine)\n");
        return EXIT_USAGE;
    }
    cli_run_signals();
    if (rank != 0)
        o.a.quiet = true;
    return rank == 0 ? master(&o, size, mc && !strcmp(mc, "all")) : worker(&o);
}
