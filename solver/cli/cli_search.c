/*
 * cli_search.c - `renju opening search|status`: the opening-level search
 * (solver/jobtree.h) run on local worker threads (jobpool.h) over the
 * results database (search_db.h), and the report of where a position
 * stands.
 *
 *   renju opening search POSITION [--goal win|w4|fair-n] [--job-nodes N]
 *         [--job-scale K] [--fail-weight P] [--time S] [--nodes N] [--max-jobs N]
 *         [--workers W] [--threads T] [--tt-mb MB] [--fresh-tree] [--job-log FILE] [--db PATH] [--json]
 *         [--quiet]
 *   renju opening status POSITION [--goal ...] [--db PATH] [--json]
 *
 * POSITION is an opening ("I7", white to move) or any later position;
 * with `--goal w4` it is the 4-stone position whose W is wanted ("I7 i8";
 * `--goal w4 I7 i8` reads the same, the arguments being joined).  All
 * state is in the database (created when missing), so the same command
 * resumes; SIGINT/SIGTERM/SIGUSR1 end the running jobs (dropped), print the
 * bounds reached and exit 75.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "cli.h"
#include "clock.h"
#include "cli_run.h"
#include "cli_sgf.h"
#include "db.h"
#include "error.h"
#include "jobpool.h"
#include "names.h"
#include "jobrun.h"
#include "jobtree.h"
#include "notation.h"
#include "openings.h"
#include "oprules.h"
#include "position.h"
#include "rules.h"
#include "search_db.h"
#include "cli_search.h"

enum {
    DEFAULT_JOB_NODES = 1000000,
    DEFAULT_CLASS_JOB_NODES = 100000, /* --class-time (results/solver-bench.md, session 36) */
    DEFAULT_CLASS_JOB_SCALE = 4,
    /* --class-time: each move's tree's root (4 stones) gets one search of up to 256 x 1e5 = 2.56e7 work in one
     * table before it is split (results/solver-bench.md, session 44) */
    DEFAULT_CLASS_ROOT_RERUN = 3,
    DEFAULT_CLASS_ROOT_CAP = 256,
    DEFAULT_CLASS_TT_MB = 1024, /* ... and the jobs' table may grow to this (MiB) without --tt-mb */
    DEFAULT_FAIL_WEIGHT = 100,
    DEFAULT_UNLISTED_PN = 100000,
    DEFAULT_EARLY_PERMILLE = 200,
    DEFAULT_EARLY_DN = 16000,
    DEFAULT_EARLY_DN_ROOT = 1000,
    DEFAULT_RERUN = 1,
    DEFAULT_RERUN_PN = 10,
    DEFAULT_ROOT_RERUN = 2,
    DEFAULT_ROOT_CAP = 16,
    DEFAULT_RERUN_KEEP = 1,
    DEFAULT_BORROW = 1,
    DEFAULT_PROBE_PERMILLE = 40,
    DEFAULT_PROBE_BLACK_PERMILLE = 40,
    DEFAULT_SIM_DONORS = 16,
    DEFAULT_BALANCE = 200,
    DEFAULT_EXPAND_BELOW = 5,
    DEFAULT_AND_PN = 1000000,
    DEFAULT_PASS_PN = 0,
    DEFAULT_REPAIR_PERMILLE = 0,
    DEFAULT_REPAIR_CALLS = 16,
    DEFAULT_BORROW_REPAIR_PERMILLE = 0,
    DEFAULT_REPAIR_TT_MB = 128,
    MAX_WORKERS = 64
};

static const char *goal_str(JtGoal g) { return g == JT_GOAL_WIN ? "win" : g == JT_GOAL_COUNT ? "w4" : "fair-n"; }

/* Where the root stands: W bounds per child and the fair-N interval. */
typedef struct {
    JtChild *ch;
    int n;
    int proven, disproven;    /* children */
    int wmin, wmax;           /* root W (black to move) */
    int nfair_min, nfair_max; /* white to move */
    bool has_pass;            /* white to move: the pass child (not in ch) */
    Result pass;
    JtChild pass_ch; /* its numbers (has_pass) */
} Standing;

static int standing(JobTree *t, const Board *root, Standing *s)
{
    memset(s, 0, sizeof *s);
    s->ch = malloc(sizeof *s->ch * (BOARD_POINTS + 1));
    if (!s->ch)
        return RJ_ENOMEM;
    jt_root_children(t, s->ch, &s->n);
    s->pass = RESULT_UNKNOWN;
    s->has_pass = false;
    /* White's pass is listed apart: it is no 4th move of the opening rules. */
    int k = 0;
    for (int i = 0; i < s->n; i++) {
        if (s->ch[i].cls.moves[0] == POINT_PASS) {
            s->has_pass = true;
            s->pass = s->ch[i].status;
            s->pass_ch = s->ch[i];
            continue;
        }
        s->ch[k++] = s->ch[i];
    }
    s->n = k;
    for (int i = 0; i < s->n; i++) {
        s->proven += s->ch[i].status == RESULT_PROVEN;
        s->disproven += s->ch[i].status == RESULT_DISPROVEN;
    }
    if (root->to_move == BLACK) {
        jt_root_w(t, &s->wmin, &s->wmax);
    } else if (s->n > 0) {
        int lo = 1 << 30, hi = 1 << 30;
        for (int i = 0; i < s->n; i++) {
            lo = s->ch[i].wins_min < lo ? s->ch[i].wins_min : lo;
            hi = s->ch[i].wins_max < hi ? s->ch[i].wins_max : hi;
        }
        s->nfair_min = 1 + lo;
        s->nfair_max = 1 + hi;
    }
    return 0;
}

int search_progress_init(SearchProgress *p, const SearchOpts *o)
{
    memset(p, 0, sizeof *p);
    p->a = &o->a;
    p->root = o->root;
    if (o->job_log && !(p->log = fopen(o->job_log, "a")))
        return cli_error(EXIT_IOERR, "--job-log: cannot open %s: %s", o->job_log, strerror(errno));
    progress_init(&p->pr, &o->a, "search", true); /* --json has meant JSON progress lines here from the start */
    return 0;
}

/* One line of the job log (--job-log): the job, its position, and what it found. */
static void log_job(SearchProgress *p, JobTree *t, const JtJob *job, const JtOutcome *o)
{
    char pos[POSITION_STR_LEN];
    const JtStats *st = jt_stats(t);
    fprintf(p->log, "{\"job\":%llu,\"node\":%d,\"position\":", (unsigned long long)p->done, job->node);
    cli_json_str(p->log, position_str(&job->board, pos, sizeof pos));
    fprintf(p->log,
            ",\"to_move\":\"%s\",\"stones\":%d,\"budget\":%llu,\"result\":\"%s\",\"work\":%llu,\"pn\":%u,"
            "\"dn\":%u,\"early\":%s,\"probe\":%s,\"extended\":%d,\"time_s\":%.3f,\"total_work\":%llu,"
            "\"tree_nodes\":%llu}\n",
            color_name(job->board.to_move), board_stone_count(&job->board), (unsigned long long)job->budget,
            result_name(o->result), (unsigned long long)o->nodes, o->pn, o->dn, o->early ? "true" : "false",
            job->probe ? "true" : "false", o->extended, o->time_s, (unsigned long long)st->nodes,
            (unsigned long long)st->tree_nodes);
    fflush(p->log);
}

/* Report where the search stands (force: whatever the time; final: the last report). */
static void search_report_progress(SearchProgress *p, JobTree *t, bool final)
{
    if (p->pr.mode == PROGRESS_NONE || (!final && !progress_due(&p->pr)))
        return;
    const JtStats *st = jt_stats(t);
    ProofNum pn, dn;
    jt_root_pn(t, &pn, &dn);
    Standing s;
    if (standing(t, &p->root, &s))
        return;
    ProgressInfo in = progress_info();
    char text[256], json[512];
    in.nodes = st->nodes;
    in.have_root = true;
    in.root_pn = pn;
    in.root_dn = dn;
    bool nfair = p->root.to_move == WHITE && board_stone_count(&p->root) == 3;
    if (p->pr.mode == PROGRESS_JSON) {
        in.proven = (long long)st->jobs_proven;
        in.disproven = (long long)st->jobs_disproven;
        in.unknown = (long long)st->jobs_unknown;
        int k = snprintf(json, sizeof json,
                         "\"jobs\":%llu,\"children\":%d,\"children_proven\":%d,\"children_disproven\":%d,",
                         (unsigned long long)st->jobs, s.n, s.proven, s.disproven);
        if (nfair)
            k += snprintf(json + k, sizeof json - (size_t)k, "\"n_fair_min\":%d,\"n_fair_max\":%d,", s.nfair_min,
                          s.nfair_max);
        else
            k += snprintf(json + k, sizeof json - (size_t)k, "\"wins_min\":%d,\"wins_max\":%d,", s.wmin, s.wmax);
        snprintf(json + k, sizeof json - (size_t)k, "\"tree_nodes\":%llu", (unsigned long long)st->tree_nodes);
        in.json = json;
    } else {
        int k = snprintf(text, sizeof text, "%llu jobs (%llu proven, %llu disproven, %llu unknown), ",
                         (unsigned long long)st->jobs, (unsigned long long)st->jobs_proven,
                         (unsigned long long)st->jobs_disproven, (unsigned long long)st->jobs_unknown);
        if (nfair)
            k += snprintf(text + k, sizeof text - (size_t)k, "4th moves %d/%d proven, N_fair in [%d, %d], ", s.proven,
                          s.n, s.nfair_min, s.nfair_max);
        else if (p->root.to_move == WHITE)
            k += snprintf(text + k, sizeof text - (size_t)k, "white moves %d/%d proven, ", s.proven, s.n);
        else
            k += snprintf(text + k, sizeof text - (size_t)k, "W in [%d, %d] of %d, ", s.wmin, s.wmax, s.n);
        snprintf(text + k, sizeof text - (size_t)k, "%llu tree nodes", (unsigned long long)st->tree_nodes);
        in.text = text;
    }
    if (final)
        progress_end(&p->pr, &in);
    else
        progress_report(&p->pr, &in);
    free(s.ch);
}

void search_progress(void *ctx, JobTree *t, const JtJob *job, const JtOutcome *o)
{
    SearchProgress *p = ctx;
    p->done++;
    if (p->log)
        log_job(p, t, job, o);
    search_report_progress(p, t, false);
}

void search_progress_end(SearchProgress *p, JobTree *t)
{
    if (p->pr.mode == PROGRESS_LIVE || p->pr.mode == PROGRESS_JSON || p->pr.lines > 0)
        search_report_progress(p, t, true);
    if (p->log && fclose(p->log) != 0)
        fprintf(stderr, "renju: warning: --job-log: %s\n", strerror(errno));
    p->log = NULL;
}

static void class_json(const MoveClass *m)
{
    char s[8];
    printf("\"move\":\"%s\",\"members\":[", notation_point_str(m->moves[0], s));
    for (int i = 0; i < m->n; i++)
        printf("%s\"%s\"", i ? "," : "", notation_point_str(m->moves[i], s));
    putchar(']');
}

/* --sgf: the position and its most-proving line (no line when the tree is solved). */
static int line_sgf(const CliArgs *a, JobTree *t, const Board *root, const JtLineStep *line, int n)
{
    Point mv[JT_MAX_PATH];
    for (int i = 0; i < n; i++)
        mv[i] = line[i].mv;
    return cli_sgf_export(a->sgf, root, a->rules, BLACK, jt_root_result(t), POINT_NONE, 0, mv, n,
                          "the opening search's most-proving line");
}

int search_report(const CliArgs *a, JobTree *t, const Board *root, JtGoal goal, double time_s, bool interrupted,
                  const SearchDb *sd)
{
    Standing s;
    if (standing(t, root, &s))
        return cli_error(EXIT_SOFTWARE, "out of memory");
    JtStats sum = *jt_stats(t); /* with --class-time, the first tree's counters too (SearchDb.first_tree) */
    if (sd && sd->has_first_tree) {
        const JtStats *f = &sd->first_tree;
        sum.jobs += f->jobs, sum.jobs_proven += f->jobs_proven, sum.jobs_disproven += f->jobs_disproven;
        sum.jobs_unknown += f->jobs_unknown, sum.jobs_early += f->jobs_early;
        sum.borrow_tries += f->borrow_tries, sum.borrowed += f->borrowed;
        sum.sim_tries += f->sim_tries, sum.simulated += f->simulated;
        sum.repair_tries += f->repair_tries, sum.repaired += f->repaired, sum.repair_nodes += f->repair_nodes;
        sum.nodes += f->nodes, sum.job_time_s += f->job_time_s;
        sum.expanded += f->expanded, sum.composed += f->composed, sum.compose_failed += f->compose_failed;
    }
    const JtStats *st = &sum;
    ProofNum pn, dn;
    jt_root_pn(t, &pn, &dn);
    char pos[POSITION_STR_LEN];
    position_str(root, pos, sizeof pos);
    bool white = root->to_move == WHITE;
    JtLineStep line[JT_MAX_PATH];
    int nline = jt_line(t, line, JT_MAX_PATH);
    if (nline < 0) {
        fprintf(stderr, "renju: warning: the most-proving line: %s\n", rj_strerror(nline));
        nline = 0;
    }
    if (a->json) {
        printf("{\"position\":");
        cli_json_str(stdout, pos);
        printf(",\"to_move\":\"%s\",\"goal\":\"%s\",\"result\":\"%s\",\"pn\":%u,\"dn\":%u,", color_name(root->to_move),
               goal_str(goal), result_name(jt_root_result(t)), pn, dn);
        printf("\"%s\":[", white ? "fourth" : "classes");
        for (int i = 0; i < s.n; i++) {
            const JtChild *c = &s.ch[i];
            printf("%s{", i ? "," : "");
            class_json(&c->cls);
            printf(",\"status\":\"%s\",\"wins_min\":%d,\"wins_max\":%d,\"nfifth\":%d,\"pn\":%u,\"dn\":%u,"
                   "\"effort\":%llu}",
                   result_name(c->status), c->wins_min, c->wins_max, c->nchild, c->pn, c->dn,
                   (unsigned long long)c->effort);
        }
        printf("],\"line\":[");
        for (int i = 0; i < nline; i++) {
            char m[8];
            printf("%s{\"move\":\"%s\",\"status\":\"%s\",\"pn\":%u,\"dn\":%u,\"work\":%llu,\"open\":%d}", i ? "," : "",
                   notation_point_str(line[i].mv, m), result_name(line[i].status), line[i].pn, line[i].dn,
                   (unsigned long long)line[i].effort, line[i].open);
        }
        printf("],");
        if (white)
            printf("\"pass\":\"%s\",\"pass_pn\":%u,\"pass_dn\":%u,\"pass_work\":%llu,\"n_fair_min\":%d,"
                   "\"n_fair_max\":%d,",
                   result_name(s.pass), s.has_pass ? s.pass_ch.pn : 1, s.has_pass ? s.pass_ch.dn : 1,
                   (unsigned long long)(s.has_pass ? s.pass_ch.effort : 0), s.nfair_min, s.nfair_max);
        else
            printf("\"wins_min\":%d,\"wins_max\":%d,", s.wmin, s.wmax);
        printf("\"finished\":%s,", jt_finished(t) ? "true" : "false");
        printf("\"jobs\":%llu,\"jobs_proven\":%llu,\"jobs_disproven\":%llu,\"jobs_unknown\":%llu,\"jobs_early\":%llu,"
               "\"nodes\":%llu,\"tree_nodes\":%llu,\"composed\":%llu,\"compose_failed\":%llu,\"borrowed\":%llu,"
               "\"simulated\":%llu,\"repair_tries\":%llu,\"repaired\":%llu,\"repair_nodes\":%llu,\"class_runs\":%llu,"
               "\"class_proven\":%llu,\"class_jobs\":%llu,\"class_nodes\":%llu,\"time_s\":%.3f,\"interrupted\":%s}\n",
               (unsigned long long)st->jobs, (unsigned long long)st->jobs_proven,
               (unsigned long long)st->jobs_disproven, (unsigned long long)st->jobs_unknown,
               (unsigned long long)st->jobs_early, (unsigned long long)st->nodes, (unsigned long long)st->tree_nodes,
               (unsigned long long)(sd ? sd->composed : 0), (unsigned long long)(sd ? sd->compose_failed : 0),
               (unsigned long long)st->borrowed, (unsigned long long)st->simulated,
               (unsigned long long)st->repair_tries, (unsigned long long)st->repaired,
               (unsigned long long)st->repair_nodes, (unsigned long long)(sd ? sd->class_runs : 0),
               (unsigned long long)(sd ? sd->class_proven : 0), (unsigned long long)(sd ? sd->class_jobs : 0),
               (unsigned long long)(sd ? sd->class_nodes : 0), time_s, interrupted ? "true" : "false");
        free(s.ch);
        return a->sgf ? line_sgf(a, t, root, line, nline) : 0;
    }
    printf("%s (%s to move), goal %s: %s (root pn %u, dn %u)\n", pos, color_name(root->to_move), goal_str(goal),
           result_name(jt_root_result(t)), pn, dn);
    if (white && board_stone_count(root) == 3)
        printf("4th-move classes: %d, proven black wins %d, not black wins %d; N_fair in [%d, %d]\n", s.n, s.proven,
               s.disproven, s.nfair_min, s.nfair_max);
    else if (white)
        printf("white move classes: %d, proven black wins %d, not black wins %d\n", s.n, s.proven, s.disproven);
    else
        printf("5th-move classes: %d, proven %d, disproven %d; W in [%d, %d]\n", s.n, s.proven, s.disproven, s.wmin,
               s.wmax);
    if (white) {
        printf("white's pass: %s", result_name(s.pass));
        if (s.has_pass && s.pass == RESULT_UNKNOWN) /* its proof proves the moves it never meets (Borrowing) */
            printf(" (pn %u dn %u  work %.3g)", s.pass_ch.pn, s.pass_ch.dn, (double)s.pass_ch.effort);
        printf("\n");
    }
    printf("goal %s\n", jt_finished(t) ? "reached (or nothing left to search)" : "open: the same command continues");
    int shown = 0;
    for (int i = 0; i < s.n; i++) {
        const JtChild *c = &s.ch[i];
        if (c->status == RESULT_UNKNOWN && c->effort == 0 && !(white && c->wins_min > 0))
            continue;
        char m[8];
        printf("  %-5s %-9s", notation_point_str(c->cls.moves[0], m), result_name(c->status));
        if (white)
            printf(" W in [%d, %d] of %d", c->wins_min, c->wins_max, c->nchild);
        printf("  pn %u dn %u  work %.3g\n", c->pn, c->dn, (double)c->effort);
        shown++;
    }
    if (shown < s.n)
        printf("  (%d classes not searched yet)\n", s.n - shown);
    if (nline > 0) {
        /* Where the next job goes: the moves, then the numbers and work below each. */
        printf("most-proving line:");
        for (int i = 0; i < nline; i++) {
            char m[8];
            printf(" %s", notation_point_str(line[i].mv, m));
        }
        printf("\n");
        for (int i = 0; i < nline; i++) {
            char m[8];
            printf("  %2d. %-5s %s to move  pn %u dn %u  work %.3g  open children %d\n", i + 1,
                   notation_point_str(line[i].mv, m), (root->to_move == BLACK) == (i % 2 == 0) ? "white" : "black",
                   line[i].pn, line[i].dn, (double)line[i].effort, line[i].open);
        }
    }
    printf("this run: %llu jobs (%llu proven, %llu disproven, %llu unknown, %llu of them ended at the early look), "
           "%.3g work nodes, %llu tree nodes, %llu proofs composed, %llu proven by the pass's proof, %llu by a "
           "sibling's, %.1fs%s\n",
           (unsigned long long)st->jobs, (unsigned long long)st->jobs_proven, (unsigned long long)st->jobs_disproven,
           (unsigned long long)st->jobs_unknown, (unsigned long long)st->jobs_early, (double)st->nodes,
           (unsigned long long)st->tree_nodes, (unsigned long long)(sd ? sd->composed : 0),
           (unsigned long long)st->borrowed, (unsigned long long)st->simulated, time_s,
           interrupted ? " (interrupted)" : "");
    if (sd && sd->class_runs)
        printf("moves searched on their own (--class-time): %llu runs, %llu proven, %llu jobs, %.3g work nodes\n",
               (unsigned long long)sd->class_runs, (unsigned long long)sd->class_proven,
               (unsigned long long)sd->class_jobs, (double)sd->class_nodes);
    if (st->repair_tries)
        printf("repairs: %llu tried, %llu proven, %.3g work nodes (counted above)\n",
               (unsigned long long)st->repair_tries, (unsigned long long)st->repaired, (double)st->repair_nodes);
    if (sd && sd->repair_rejected)
        printf("warning: %llu mended proofs failed the independent checker; their positions stay unknown\n",
               (unsigned long long)sd->repair_rejected);
    if (sd && sd->compose_failed)
        printf("warning: %llu inner nodes proven by their children could not get a composed, checked proof "
               "(a child's stored result has no proof); they are not stored\n",
               (unsigned long long)sd->compose_failed);
    free(s.ch);
    return a->sgf ? line_sgf(a, t, root, line, nline) : 0;
}

/*
 * Commit the runners' queued results after each job (a killed process then
 * loses at most the running jobs), and write them out to the disk at most
 * once a second (the database is opened DB_NOSYNC: a commit does not wait).
 */
typedef struct {
    Db *db;
    double next_sync;
} FlushCtx;

static int flush_db(void *ctx)
{
    FlushCtx *f = ctx;
    int rc = db_flush(f->db);
    if (rc == RJ_ECONFLICT)
        rc = 0;
    double now = clock_now();
    if (!rc && now >= f->next_sync) {
        rc = db_sync(f->db);
        f->next_sync = now + 1.0;
    }
    return rc;
}

/* A positive integer, also written as 2e6 or 2.5e5 (a whole number below 2^63). */
static int parse_u64(const char *s, const char *what, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s && *end && s[0] != '-') {
        double d = strtod(s, &end);
        v = d >= 1 && d < 9.2e18 && d == (double)(unsigned long long)d ? (unsigned long long)d : 0;
    }
    if (!*s || *end || v == 0 || s[0] == '-')
        return cli_error(EXIT_USAGE, "%s: expected a positive integer, got '%s'", what, s);
    *out = v;
    return 0;
}

void search_tree_defaults(JtConfig *c, RuleSet rs)
{
    memset(c, 0, sizeof *c);
    JtConfig jc = {.goal = JT_GOAL_WIN,
                   .rules = rs,
                   .job_nodes = DEFAULT_JOB_NODES,
                   .scale = 1,
                   .fail_weight = DEFAULT_FAIL_WEIGHT};
    const char *un = getenv("RENJU_JT_UNLISTED"); /* tuning knob: JtConfig.unlisted_pn (0: twice the largest) */
    jc.unlisted_pn = un ? (ProofNum)strtoul(un, NULL, 10) : DEFAULT_UNLISTED_PN;
    /* tuning knobs (docs/cli.md): JtConfig.rerun and rerun_pn */
    const char *rr = getenv("RENJU_JT_RERUN"), *rp = getenv("RENJU_JT_RERUN_PN");
    jc.rerun = rr ? atoi(rr) : DEFAULT_RERUN;
    jc.rerun = jc.rerun < 0 ? 0 : jc.rerun > 8 ? 8 : jc.rerun;
    jc.rerun_pn = rp ? (ProofNum)strtoul(rp, NULL, 10) : DEFAULT_RERUN_PN;
    const char *sd = getenv("RENJU_JT_SIM"); /* JtConfig.sim_donors (0: none) */
    jc.sim_donors = sd ? atoi(sd) : DEFAULT_SIM_DONORS;
    jc.sim_donors = jc.sim_donors < 0 ? 0 : jc.sim_donors > JT_MAX_SIM_DONORS ? JT_MAX_SIM_DONORS : jc.sim_donors;
    const char *bal = getenv("RENJU_JT_BALANCE"); /* JtConfig.balance (0: off) */
    jc.balance = bal ? atoi(bal) : DEFAULT_BALANCE;
    jc.balance = jc.balance < 0 ? 0 : jc.balance > JT_MAX_BALANCE ? JT_MAX_BALANCE : jc.balance;
    const char *rrr = getenv("RENJU_JT_ROOT_RERUN");
    jc.root_rerun = rrr ? atoi(rrr) : DEFAULT_ROOT_RERUN;
    jc.root_rerun = jc.root_rerun < 0 ? 0 : jc.root_rerun > 8 ? 8 : jc.root_rerun;
    const char *rcap = getenv("RENJU_JT_ROOT_CAP"); /* JtConfig.root_cap (0: none) */
    jc.root_cap = rcap ? atoi(rcap) : DEFAULT_ROOT_CAP;
    jc.root_cap = jc.root_cap < 0 ? 0 : jc.root_cap > 1 << 20 ? 1 << 20 : jc.root_cap;
    const char *rk = getenv("RENJU_JT_RERUN_KEEP"); /* JtConfig.rerun_in_job */
    jc.rerun_in_job = rk ? atoi(rk) != 0 : DEFAULT_RERUN_KEEP;
    const char *bp = getenv("RENJU_JT_BORROW"); /* JtConfig.borrow_pass */
    jc.borrow_pass = bp ? atoi(bp) != 0 : DEFAULT_BORROW;
    const char *pp = getenv("RENJU_JT_PROBE"); /* JtConfig.probe_permille (0: none) */
    jc.probe_permille = pp ? atoi(pp) : DEFAULT_PROBE_PERMILLE;
    jc.probe_permille = jc.probe_permille < 0 ? 0 : jc.probe_permille > 1000 ? 1000 : jc.probe_permille;
    const char *pbk = getenv("RENJU_JT_PROBE_BLACK"); /* JtConfig.probe_black_permille (0: none) */
    int pbm = pbk ? atoi(pbk) : DEFAULT_PROBE_BLACK_PERMILLE;
    jc.probe_black_permille = pbm < 0 ? 0 : pbm > 1000 ? 1000 : pbm;
    const char *eb = getenv("RENJU_JT_EXPAND_BELOW"); /* JtConfig.expand_below (0: off) */
    int ebs = eb ? atoi(eb) : DEFAULT_EXPAND_BELOW;
    jc.expand_below = ebs < 0 ? 0 : ebs > 40 ? 40 : ebs;
    const char *ap = getenv("RENJU_JT_AND_PN"); /* JtConfig.and_pn_dn (0: off) */
    jc.and_pn_dn = ap ? (ProofNum)strtoul(ap, NULL, 10) : DEFAULT_AND_PN;
    const char *ppn = getenv("RENJU_JT_PASS_PN"); /* JtConfig.pass_pn (0: off) */
    jc.pass_pn = ppn ? (ProofNum)strtoul(ppn, NULL, 10) : DEFAULT_PASS_PN;
    const char *rpm = getenv("RENJU_JT_REPAIR"); /* JtConfig.repair_permille (0: off) */
    int rpv = rpm ? atoi(rpm) : DEFAULT_REPAIR_PERMILLE;
    jc.repair_permille = rpv < 0 ? 0 : rpv > 1000 ? 1000 : rpv;
    const char *rpc = getenv("RENJU_JT_REPAIR_CALLS"); /* JtConfig.repair_calls */
    int rcv = rpc ? atoi(rpc) : DEFAULT_REPAIR_CALLS;
    jc.repair_calls = rcv < 1 ? 1 : rcv > 100000 ? 100000 : rcv;
    const char *brp = getenv("RENJU_JT_BORROW_REPAIR"); /* JtConfig.borrow_repair_permille (0: off) */
    int brv = brp ? atoi(brp) : DEFAULT_BORROW_REPAIR_PERMILLE;
    jc.borrow_repair_permille = brv < 0 ? 0 : brv > 1000 ? 1000 : brv;
    *c = jc;
}

int search_opts(int argc, char **argv, bool run, SearchOpts *o)
{
    memset(o, 0, sizeof *o);
    char **av = malloc(sizeof *av * ((size_t)argc + 1));
    if (!av)
        return cli_error(EXIT_SOFTWARE, "out of memory");
    memcpy(av, argv, sizeof *av * (size_t)argc);
    av[argc] = NULL;
    const char *goal_s = NULL, *job_s = NULL, *maxj_s = NULL, *workers_s = NULL, *scale_s = NULL, *fail_s = NULL;
    const char *log_s = NULL, *class_s = NULL;
    int rc = cli_take_opt(&argc, av, "goal", true, &goal_s);
    if (rc <= 1)
        rc = cli_take_opt(&argc, av, "class-time", true, &class_s);
    if (rc <= 1)
        rc = cli_take_opt(&argc, av, "job-log", true, &log_s);
    if (rc <= 1)
        rc = cli_take_opt(&argc, av, "job-scale", true, &scale_s);
    if (rc <= 1)
        rc = cli_take_opt(&argc, av, "fail-weight", true, &fail_s);
    if (rc <= 1)
        rc = cli_take_opt(&argc, av, "job-nodes", true, &job_s);
    if (rc <= 1)
        rc = cli_take_opt(&argc, av, "max-jobs", true, &maxj_s);
    if (rc <= 1)
        rc = cli_take_opt(&argc, av, "workers", true, &workers_s);
    bool tt_given = cli_has_opt(argc, av, "tt-mb");
    const char *unused = NULL;
    bool fresh_tree = false;
    if (rc <= 1) {
        rc = cli_take_opt(&argc, av, "fresh-tree", false, &unused);
        fresh_tree = rc == 1;
    }
    CliArgs a;
    memset(&a, 0, sizeof a);
    if (rc <= 1)
        rc = cli_parse(argc, av, &a);
    else
        rc = rc > 1 ? rc : 0;
    if (rc > 1 || (rc && rc != 1)) {
        free(av);
        return rc;
    }
    JtConfig jc;
    search_tree_defaults(&jc, a.rules);
    uint64_t max_jobs = 0, workers = 1;
    rc = 0;
    if (goal_s && !strcmp(goal_s, "win"))
        jc.goal = JT_GOAL_WIN;
    else if (goal_s && (!strcmp(goal_s, "w4") || !strcmp(goal_s, "count")))
        jc.goal = JT_GOAL_COUNT;
    else if (goal_s && !strcmp(goal_s, "fair-n"))
        jc.goal = JT_GOAL_FAIR_N;
    else if (goal_s)
        rc = cli_error(EXIT_USAGE, "--goal: expected win, w4 or fair-n, got '%s'", goal_s);
    if (!rc && job_s && !(rc = parse_u64(job_s, "--job-nodes", &jc.job_nodes)) && jc.job_nodes > (1ull << 40))
        rc = cli_error(EXIT_USAGE, "--job-nodes: at most 2^40");
    uint64_t scale = 1;
    if (!rc && scale_s && !(rc = parse_u64(scale_s, "--job-scale", &scale)) && scale > 16)
        rc = cli_error(EXIT_USAGE, "--job-scale: at most 16");
    jc.scale = (int)scale;
    uint64_t fail_weight = DEFAULT_FAIL_WEIGHT;
    if (!rc && fail_s && !(rc = parse_u64(fail_s, "--fail-weight", &fail_weight)) && fail_weight > 10000)
        rc = cli_error(EXIT_USAGE, "--fail-weight: at most 10000 (percent)");
    jc.fail_weight = (int)fail_weight;
    if (!rc && maxj_s)
        rc = parse_u64(maxj_s, "--max-jobs", &max_jobs);
    if (!rc && workers_s && !(rc = parse_u64(workers_s, "--workers", &workers)) && workers > MAX_WORKERS)
        rc = cli_error(EXIT_USAGE, "--workers: at most %d", MAX_WORKERS);
    if (!rc && fresh_tree && !run)
        rc = cli_error(EXIT_USAGE, "--fresh-tree: only for opening search");
    if (!rc && log_s && !run)
        rc = cli_error(EXIT_USAGE, "--job-log: only for opening search");
    if (!rc && log_s && !*log_s)
        rc = cli_error(EXIT_USAGE, "--job-log: expected a file name");
    double class_time = 0;
    if (!rc && class_s) {
        char *end = NULL;
        class_time = strtod(class_s, &end);
        if (end == class_s || *end || !(class_time > 0) || class_time > 1e9)
            rc = cli_error(EXIT_USAGE, "--class-time: expected seconds > 0, got '%s'", class_s);
        else if (!run)
            rc = cli_error(EXIT_USAGE, "--class-time: only for opening search");
        else if (jc.goal != JT_GOAL_WIN)
            rc = cli_error(EXIT_USAGE, "--class-time: only with --goal win");
        /* Smaller jobs: a far move's tree is wide and shallow, and failed jobs spend their whole budget. */
        if (!job_s)
            jc.job_nodes = DEFAULT_CLASS_JOB_NODES;
        if (!scale_s)
            jc.scale = DEFAULT_CLASS_JOB_SCALE;
    }
    if (!rc && a.npos == 0)
        rc = cli_error(EXIT_USAGE, "opening %s: a POSITION is needed (e.g. I7, or \"I7 i8\" with --goal w4)",
                       run ? "search" : "status");
    Board root;
    if (!rc)
        rc = cli_position(&a, 0, &root);
    free(av);
    if (rc)
        return rc;
    Color winner;
    if (rules_game_over(&root, a.rules, &winner))
        return cli_error(EXIT_DATAERR, "the game is already over in this position");
    if (board_last_move(&root) == POINT_PASS)
        return cli_error(EXIT_DATAERR, "a position right after a pass cannot be searched here (another pass would "
                                       "draw); give the stones instead");
    if (jc.goal == JT_GOAL_COUNT && root.to_move != BLACK)
        return cli_error(EXIT_DATAERR, "--goal w4: black must be to move (an opening and a 4th move: \"I7 i8\")");
    if (jc.goal == JT_GOAL_FAIR_N && root.to_move != WHITE)
        return cli_error(EXIT_DATAERR, "--goal fair-n: white must be to move (an opening: \"I7\")");
    if (class_time > 0 && root.to_move != WHITE)
        return cli_error(EXIT_DATAERR, "--class-time: white must be to move (an opening: \"I7\"), its moves "
                                       "are the classes");

    o->a = a;
    o->jc = jc;
    o->max_jobs = max_jobs;
    o->workers = (int)workers;
    o->tt_given = tt_given;
    o->fresh_tree = fresh_tree;
    o->job_log = log_s;
    o->class_time = class_time;
    /* tuning knobs (docs/cli.md): the root's search of each move's own tree under --class-time (JtConfig) */
    o->class_jc = jc;
    const char *crr = getenv("RENJU_JT_CLASS_ROOT_RERUN"), *crc = getenv("RENJU_JT_CLASS_ROOT_CAP");
    int crrv = crr ? atoi(crr) : DEFAULT_CLASS_ROOT_RERUN, crcv = crc ? atoi(crc) : DEFAULT_CLASS_ROOT_CAP;
    o->class_jc.root_rerun = crrv < 0 ? 0 : crrv > 8 ? 8 : crrv;
    o->class_jc.root_cap = crcv < 0 ? 0 : crcv > 1 << 20 ? 1 << 20 : crcv;
    /* tuning knobs (docs/cli.md): JobRunner.early_permille (0: off) and early_dn */
    const char *ep = getenv("RENJU_JT_EARLY"), *ed = getenv("RENJU_JT_EARLY_DN");
    o->early_permille = ep ? atoi(ep) : DEFAULT_EARLY_PERMILLE;
    o->early_permille = o->early_permille < 0 ? 0 : o->early_permille > 1000 ? 1000 : o->early_permille;
    o->early_dn = ed ? (ProofNum)strtoul(ed, NULL, 10) : DEFAULT_EARLY_DN;
    const char *edr = getenv("RENJU_JT_EARLY_DN_ROOT");
    o->early_dn_root = edr ? (ProofNum)strtoul(edr, NULL, 10) : DEFAULT_EARLY_DN_ROOT;
    o->root = root;
    return 0;
}

JobRunner search_runner(const SearchOpts *o, Dfpn *s, const ResultStore *rs)
{
    return (JobRunner){.dfpn = s,
                       .rules = o->a.rules,
                       .store = rs,
                       .early_permille = o->early_permille,
                       .early_dn = o->early_dn,
                       .early_dn_root = o->early_dn_root};
}

void search_dfpn_config(const SearchOpts *o, DfpnConfig *cfg)
{
    dfpn_config_default(cfg);
    cfg->attacker = BLACK;
    cfg->rules = o->a.rules;
    cfg->threads = o->a.threads;
    cfg->max_nodes = o->jc.job_nodes;
    cfg->stop = cli_run_stop();
    const char *es = getenv("RENJU_EFFORT_SHIFT"); /* tuning knob: DfpnConfig.effort_shift (-1: off) */
    if (es && *es)
        cfg->effort_shift = atoi(es);
    if (o->tt_given) {
        cfg->tt_mb = (size_t)o->a.tt_mb;
    } else {
        /* The largest job: at the root's stone count, rerun (JtConfig.rerun); with --class-time, a move's own
         * tree's root, one stone more (SearchOpts.class_jc). */
        bool cls = o->class_time > 0;
        const JtConfig *jc = cls ? &o->class_jc : &o->jc;
        uint64_t biggest = jc->job_nodes;
        for (int st = board_stone_count(&o->root) + cls; st < 6 && jc->scale > 1 && biggest < (1ull << 40); st++)
            biggest *= (uint64_t)jc->scale;
        int reruns = jc->goal == JT_GOAL_WIN && jc->root_rerun > jc->rerun ? jc->root_rerun : jc->rerun;
        for (int r = 0; r < reruns && biggest < (1ull << 40); r++)
            biggest *= 4;
        if (biggest > (1ull << 40))
            biggest = 1ull << 40;
        uint64_t mb = (biggest * 32 + (1u << 20) - 1) >> 20, cap = cls ? DEFAULT_CLASS_TT_MB : 256;
        cfg->tt_mb = mb < 2 ? 2 : mb > cap ? (size_t)cap : (size_t)mb;
    }
}

int search_fresh_tree(const SearchOpts *o, Db *db)
{
    if (!o->fresh_tree)
        return 0;
    uint64_t forgotten = 0;
    int rc = search_db_forget_tree(db, &forgotten);
    if (rc)
        return cli_error(cli_exit_code(rc), "%s: cannot clear the saved search tree: %s", cli_db_path(&o->a),
                         rj_strerror(rc));
    if (!o->a.quiet)
        fprintf(stderr, "--fresh-tree: forgot the saved state of %llu positions; the stored results stay\n",
                (unsigned long long)forgotten);
    return 0;
}

/*
 * Run the jobs of tree t (root: its position) with o's workers until it is
 * decided, the deadline (0: none), o's --max-jobs / --nodes, or a stop
 * request (*interrupted).  *rejected += proofs the checker refused.
 * Returns 0, an exit code already printed (the solvers), or the pool's error
 * code (not printed).
 */
static int run_tree(const SearchOpts *o, JobTree *t, SearchDb *sd, Db *db, const Board *root, double deadline,
                    bool *interrupted, uint64_t *rejected)
{
    int nw = o->workers, rc = 0;
    JobRunner runners[MAX_WORKERS];
    Dfpn *solvers[MAX_WORKERS] = {0};
    DfpnConfig cfg;
    search_dfpn_config(o, &cfg);
    for (int i = 0; i < nw && !rc; i++) {
        rc = dfpn_create(&solvers[i], &cfg);
        runners[i] = search_runner(o, solvers[i], &sd->store);
    }
    if (rc) {
        for (int i = 0; i < nw; i++)
            dfpn_free(solvers[i]);
        return cli_error(cli_exit_code(rc), "cannot create the solvers: %s", rj_strerror(rc));
    }
    SearchOpts po = *o;
    po.root = *root; /* the progress lines' position */
    SearchProgress pr;
    if ((rc = search_progress_init(&pr, &po))) {
        for (int i = 0; i < nw; i++)
            dfpn_free(solvers[i]);
        return rc;
    }
    FlushCtx fc = {db, clock_now() + 1.0};
    JobPoolConfig pc = {.workers = nw,
                        .runners = runners,
                        .stop = cli_run_stop(),
                        .deadline = deadline,
                        .max_jobs = o->max_jobs,
                        .max_work = o->a.nodes > 0 ? (uint64_t)o->a.nodes : 0,
                        .flush = flush_db,
                        .flush_ctx = &fc,
                        .progress = search_progress,
                        .ctx = &pr};
    int src_rc = jobpool_run(t, &pc);
    search_progress_end(&pr, t);
    *interrupted = src_rc == RJ_EINTR;
    for (int i = 0; i < nw; i++) {
        *rejected += runners[i].proofs_failed;
        dfpn_free(solvers[i]);
    }
    return *interrupted ? 0 : src_rc;
}

int class_effort_band(uint64_t effort)
{
    int b = 0;
    for (; effort >= 4; effort >>= 2)
        b++;
    return b;
}

int search_class_list(const SearchOpts *o, JobTree *t, ClassList *cl)
{
    cl->n = 0;
    if (jt_root_result(t) != RESULT_UNKNOWN)
        return 0; /* decided: nothing to search */
    JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    int n = 0;
    if (!ch || jt_root_children(t, ch, &n)) {
        free(ch);
        return RJ_ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        Point m = ch[i].cls.moves[0];
        if (m >= BOARD_POINTS || ch[i].status != RESULT_UNKNOWN)
            continue;
        int d = board_stone_dist(&o->root, m), b = class_effort_band(ch[i].effort), k = cl->n++;
        /* the least searched first, then the farthest, ties in class order */
        while (k > 0 && (cl->band[k - 1] > b || (cl->band[k - 1] == b && cl->dist[k - 1] < d))) {
            cl->move[k] = cl->move[k - 1], cl->dist[k] = cl->dist[k - 1], cl->band[k] = cl->band[k - 1];
            k--;
        }
        cl->move[k] = m, cl->dist[k] = d, cl->band[k] = b;
    }
    free(ch);
    return 0;
}

void search_class_line(const SearchOpts *o, const ClassList *cl, int k, int round, double secs, Result r, uint64_t work,
                       double time_s, uint64_t proven)
{
    if (o->a.quiet)
        return;
    char name[8];
    notation_point_str(cl->move[k], name);
    fprintf(stderr, "class %s (distance %d; round %d, %.3gs, %d of %d): %s, %.3g work nodes, %.1fs; %llu proven\n",
            name, cl->dist[k], round, secs, k + 1, cl->n, result_name(r), (double)work, time_s,
            (unsigned long long)proven);
}

int search_class_rebuild(const SearchOpts *o, JobTree **t, SearchDb *sd, JtSource *src, bool *interrupted)
{
    if (sd->class_runs == 0)
        return 0; /* nothing stored since the tree was built */
    sd->first_tree = *jt_stats(*t);
    sd->has_first_tree = true;
    jt_free(*t);
    *t = NULL;
    int rc = jt_create(t, &o->root, &o->jc, src);
    if (rc)
        return cli_error(cli_exit_code(rc), "cannot build the search tree: %s", rj_strerror(rc));
    if (atomic_load(cli_run_stop()))
        *interrupted = true; /* during the rebuild: no pool ran to see it */
    return 0;
}

/*
 * --class-time S: each open white move of root t (an opening; its 4th-move
 * classes) searched in turn as its own goal-win search of at most S
 * seconds (and o's --max-jobs / --nodes), in ClassList's order (the least
 * searched first, then the farthest from the stones), each with its own
 * saved tree; then the moves still open again with twice the time, and so
 * on until --time is up (without --time, one round),
 * or a stop request (*interrupted).  Then *t is built again over the
 * results.  The runs are counted in sd (class_*).
 * Returns as run_tree.
 */
static int class_rounds(const SearchOpts *o, JobTree **t, SearchDb *sd, JtSource *src, Db *db, double t0,
                        bool *interrupted, uint64_t *rejected)
{
    ClassList *cl = malloc(sizeof *cl);
    int rc = 0;
    if (!cl)
        return cli_error(EXIT_SOFTWARE, "out of memory");
    /* A root not expanded yet (a new search): its own jobs first, one at a time, until it is. */
    SearchOpts one = *o;
    one.max_jobs = 1;
    double end = o->a.time_s > 0 ? t0 + o->a.time_s : 0;
    for (int k = 0;
         k < CLASS_ROOT_TRIES && !jt_root_expanded(*t) && jt_root_result(*t) == RESULT_UNKNOWN && !rc && !*interrupted;
         k++) {
        rc = run_tree(&one, *t, sd, db, &o->root, end, interrupted, rejected);
        if (end > 0 && clock_now() >= end)
            break;
    }
    if (!rc && !*interrupted && !jt_root_expanded(*t) && jt_root_result(*t) == RESULT_UNKNOWN && !o->a.quiet)
        fprintf(stderr, "renju: --class-time: the position is not expanded yet (its own jobs ran out of time or "
                        "budget): no move searched\n");
    if (!rc && search_class_list(o, *t, cl))
        rc = cli_error(EXIT_SOFTWARE, "out of memory");
    int no = rc ? 0 : cl->n;
    double secs = o->class_time;
    bool *settled = calloc((size_t)no + 1, sizeof *settled); /* not to be searched again (below) */
    if (!settled && !rc)
        rc = cli_error(EXIT_SOFTWARE, "out of memory");
    bool stopped = false;
    for (int round = 1; !rc && !*interrupted && !stopped; round++, secs *= 2) {
        int left = 0;
        for (int k = 0; k < no && !rc && !*interrupted; k++) {
            if (settled[k])
                continue;
            double now = clock_now();
            if (atomic_load(cli_run_stop())) {
                *interrupted = true; /* between two searches: the same exit as within one */
                break;
            }
            if (end > 0 && now >= end) {
                stopped = true;
                break;
            }
            Board cb = o->root;
            board_play(&cb, cl->move[k]);
            JobTree *ct = NULL;
            if ((rc = jt_create(&ct, &cb, &o->class_jc, src))) {
                char name[8];
                notation_point_str(cl->move[k], name);
                rc = cli_error(cli_exit_code(rc), "cannot build the search tree of %s: %s", name, rj_strerror(rc));
                break;
            }
            double dl = now + secs;
            if (end > 0 && end < dl)
                dl = end;
            const JtStats *cs = jt_stats(ct);
            uint64_t w0 = cs->nodes, j0 = cs->jobs;
            rc = run_tree(o, ct, sd, db, &cb, dl, interrupted, rejected);
            Result r = jt_root_result(ct);
            /* Settled: decided, nothing left to run, or stopped before its time (--nodes, --max-jobs bound each
             * search). */
            settled[k] = r != RESULT_UNKNOWN || jt_finished(ct) || (!*interrupted && clock_now() < dl);
            sd->class_runs++;
            sd->class_proven += r == RESULT_PROVEN;
            sd->class_nodes += cs->nodes - w0;
            sd->class_jobs += cs->jobs - j0;
            left += !settled[k];
            search_class_line(o, cl, k, round, secs, r, cs->nodes - w0, clock_now() - now, sd->class_proven);
            jt_free(ct);
        }
        if (end == 0 || left == 0) /* without --time one round; or nothing left */
            break;
    }
    free(settled);
    free(cl);
    if (rc)
        return rc;
    return search_class_rebuild(o, t, sd, src, interrupted);
}

static int search_main(int argc, char **argv, bool run)
{
    SearchOpts o;
    int rc = search_opts(argc, argv, run, &o);
    if (rc)
        return rc;
    const CliArgs a = o.a;
    const JtConfig jc = o.jc;
    const Board root = o.root;
    Db *db;
    /* Each job commits (kill -9 loses at most the running jobs); the disk is synced once a second. */
    if ((rc = cli_db_open(cli_db_path(&a), run ? DB_CREATE | DB_NOSYNC : DB_RDONLY, &db)))
        return rc;
    if (run && (rc = search_fresh_tree(&o, db))) {
        db_close(db);
        return rc;
    }
    SearchDb sd;
    JtSource src;
    Progress repair_pr;
    double t0 = clock_now();
    search_db_init(&sd, db, a.rules, !run, &src);
    if (run && (jc.repair_permille > 0 || jc.borrow_repair_permille > 0)) {
        const char *rtt = getenv("RENJU_JT_REPAIR_TT"); /* the repairs' solver's table, MiB */
        long mb = rtt ? atol(rtt) : DEFAULT_REPAIR_TT_MB;
        progress_init(&repair_pr, &o.a, "repair", true);
        search_db_enable_repair(&sd, &src,
                                (size_t)(mb < 1       ? 1
                                         : mb > 65536 ? 65536
                                                      : mb),
                                cli_run_stop(), a.time_s > 0 ? t0 + a.time_s : 0, &repair_pr);
    }
    JobTree *t = NULL;
    if (run)
        cli_run_signals(); /* before the tree: its loading may repair proofs (RENJU_JT_BORROW_REPAIR) */
    if ((rc = jt_create(&t, &root, &jc, &src))) {
        search_db_free(&sd);
        db_close(db);
        return cli_error(cli_exit_code(rc), "cannot build the search tree: %s", rj_strerror(rc));
    }
    int src_rc = 0, exit_rc = 0;
    bool interrupted = false;
    uint64_t rejected = 0;
    if (run && o.class_time > 0)
        src_rc = class_rounds(&o, &t, &sd, &src, db, t0, &interrupted, &rejected);
    else if (run)
        src_rc = run_tree(&o, t, &sd, db, &root, a.time_s > 0 ? t0 + a.time_s : 0, &interrupted, &rejected);
    if (src_rc > 0 && src_rc < 256) { /* an exit code, printed */
        exit_rc = src_rc;
        src_rc = 0;
    }
    int frc = db_flush(db);
    if (frc == RJ_ECONFLICT)
        frc = 0;
    int sgf_rc = t && !exit_rc ? search_report(&a, t, &root, jc.goal, clock_now() - t0, interrupted, &sd) : 0;
    if (rejected) /* a search bug: those positions were left unknown, nothing was claimed */
        fprintf(stderr, "renju: warning: %llu proofs failed the independent checker; their positions stay unknown\n",
                (unsigned long long)rejected);
    jt_free(t);
    search_db_free(&sd);
    db_close(db);
    if (exit_rc)
        return exit_rc;
    if (src_rc)
        return cli_error(cli_exit_code(src_rc), "search stopped: %s", rj_strerror(src_rc));
    if (frc)
        return cli_error(EXIT_IOERR, "%s: %s", cli_db_path(&a), rj_strerror(frc));
    if (interrupted)
        return cli_error(EXIT_TEMPFAIL, "interrupted: proven results and the search state are stored; "
                                        "the same command resumes");
    return sgf_rc ? sgf_rc : EXIT_DONE;
}

/* One opening's entry of `opening report --json` (one line). */
static int report_opening(Db *db, const Opening *op, RuleSet rs, bool json, bool first)
{
    Board b;
    board_init(&b);
    for (int i = 0; i < 3; i++)
        board_play(&b, op->moves[i]);
    SearchDb sd;
    JtSource src;
    search_db_init(&sd, db, rs, true, &src);
    JtConfig jc = {.goal = JT_GOAL_FAIR_N, .rules = rs, .job_nodes = 1};
    JobTree *t;
    int rc = jt_create(&t, &b, &jc, &src);
    if (rc)
        return rc;
    Standing s;
    if ((rc = standing(t, &b, &s))) {
        jt_free(t);
        return rc;
    }
    int nf = 0;
    int nfifth[BOARD_POINTS + 1], lo[BOARD_POINTS + 1], hi[BOARD_POINTS + 1];
    Result fourth[BOARD_POINTS + 1];
    uint64_t work = 0;
    int proven = 0, disproven = 0, searched = 0;
    for (int i = 0; i < s.n; i++) {
        work += s.ch[i].effort;
        if (s.ch[i].cls.moves[0] == POINT_PASS)
            continue;
        nfifth[nf] = s.ch[i].nchild;
        lo[nf] = s.ch[i].wins_min;
        hi[nf] = s.ch[i].wins_max;
        fourth[nf] = s.ch[i].status;
        proven += s.ch[i].status == RESULT_PROVEN;
        disproven += s.ch[i].status == RESULT_DISPROVEN;
        searched += s.ch[i].effort > 0 || s.ch[i].status != RESULT_UNKNOWN;
        nf++;
    }
    ProofNum pn, dn;
    jt_root_pn(t, &pn, &dn);
    OpeningFacts f = {
        .noswap = jt_root_result(t), .nfourth = nf, .nfifth = nfifth, .wins_min = lo, .wins_max = hi, .fourth = fourth};
    OpruleVerdict v[OPRULE_COUNT];
    int nv = oprules_evaluate(&f, v, OPRULE_COUNT);
    char moves[64];
    notation_moves_str(op->moves, 3, moves, sizeof moves);
    if (!json) {
        int open = 0;
        for (int i = 0; i < nv; i++)
            open += v[i].verdict == OPRULE_OPEN;
        printf("%-4s %-10s %-9s no-swap %-9s 4th moves %3d/%d proven, %d disproven, %3d searched  N_fair [%d, %d]  "
               "rules open %d/%d  work %.2g\n",
               op->code, op->japanese, moves, result_name(jt_root_result(t)), proven, nf, disproven, searched,
               s.nfair_min, s.nfair_max, open, nv, (double)work);
        free(s.ch);
        jt_free(t);
        return nv < 0 ? nv : 0;
    }
    printf("%s{\"code\":\"%s\",\"japanese\":", first ? "" : ",\n", op->code);
    cli_json_str(stdout, op->japanese);
    printf(",\"chinese\":");
    cli_json_str(stdout, op->chinese);
    printf(",\"english\":");
    cli_json_str(stdout, op->english);
    printf(",\"moves\":\"%s\",\"noswap\":{\"result\":\"%s\",\"pn\":%u,\"dn\":%u},", moves,
           result_name(jt_root_result(t)), pn, dn);
    printf("\"fourth_classes\":%d,\"fourth_proven\":%d,\"fourth_disproven\":%d,\"fourth_searched\":%d,", nf, proven,
           disproven, searched);
    printf("\"fourth\":[");
    int k = 0;
    for (int i = 0; i < s.n; i++) {
        const JtChild *c = &s.ch[i];
        if (c->cls.moves[0] == POINT_PASS)
            continue;
        printf("%s{", k++ ? "," : "");
        class_json(&c->cls);
        printf(",\"status\":\"%s\",\"wins_min\":%d,\"wins_max\":%d,\"nfifth\":%d,\"effort\":%llu}",
               result_name(c->status), c->wins_min, c->wins_max, c->nchild, (unsigned long long)c->effort);
    }
    printf("],\"n_fair_min\":%d,\"n_fair_max\":%d,\"work_nodes\":%llu,\"rules\":[", s.nfair_min, s.nfair_max,
           (unsigned long long)work);
    for (int i = 0; i < nv; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *mf = open_memstream(&buf, &len);
        if (mf) {
            oprules_write_json(mf, &v[i]);
            fclose(mf);
            while (len && (buf[len - 1] == '\n'))
                buf[--len] = 0;
            printf("%s%s", i ? "," : "", buf);
        }
        free(buf);
    }
    printf("]}");
    free(s.ch);
    jt_free(t);
    return nv < 0 ? nv : 0;
}

/* `renju opening report [CODE...] [--json]`: where every opening (or the named ones) stands (--json: one array). */
static int report_main(int argc, char **argv)
{
    CliArgs a;
    int rc = cli_parse(argc, argv, &a);
    if (rc)
        return rc;
    const Opening *ops[64];
    int nops = 0;
    for (int i = 0; i < a.npos && nops < 64; i++) {
        const Opening *op = opening_find(a.pos[i]);
        if (!op)
            return cli_error(EXIT_DATAERR, "unknown opening '%s' (see renju openings)", a.pos[i]);
        ops[nops++] = op;
    }
    if (nops == 0)
        for (int i = 0; i < NUM_OPENINGS; i++)
            ops[nops++] = opening_get(i);
    Db *db;
    if ((rc = cli_db_open(cli_db_path(&a), DB_RDONLY, &db)))
        return rc;
    if (a.json)
        printf("[\n");
    for (int i = 0; i < nops && !rc; i++) {
        rc = report_opening(db, ops[i], a.rules, a.json, i == 0);
        if (!a.quiet && !rc)
            fprintf(stderr, "report: %s done\n", ops[i]->code);
    }
    if (a.json)
        printf("\n]\n");
    db_close(db);
    if (rc)
        return cli_error(cli_exit_code(rc), "report: %s", rj_strerror(rc));
    return EXIT_DONE;
}

int cmd_opening(int argc, char **argv)
{
    if (argc < 2 || (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fprintf(argc < 2 ? stderr : stdout,
                "usage: renju opening search POSITION [--goal win|w4|fair-n] [--job-nodes N] [--job-scale K]\n"
                "                     [--time S] [--max-jobs N] [--workers W] [--threads T] [--tt-mb MB] [--db PATH]\n"
                "  --job-nodes N  work nodes of one df-pn job (default 1000000; 100000 with --class-time)\n"
                "  --job-scale K  jobs on positions of s < 6 stones get K^(6-s) times that (default 1; 4 with\n"
                "                 --class-time)\n"
                "  --class-time S with --goal win: each open move on its own, S seconds, least searched first\n"
                "  --fail-weight P  a black-to-move node whose job failed adds P%% of its pn (default 100)\n"
                "  --fresh-tree   forget the saved tree of the database first (the results stay)\n"
                "  --job-log FILE append a JSON line per finished job to FILE\n"
                "  --nodes N      start no job once the jobs spent N work nodes in all\n"
                "       renju opening status POSITION [--goal win|w4|fair-n] [--db PATH] [--json]\n"
                "       renju opening report [CODE...] [--db PATH] [--json]   (every opening, or the named ones)\n");
        return argc < 2 ? EXIT_USAGE : EXIT_DONE;
    }
    if (!strcmp(argv[1], "search"))
        return search_main(argc - 1, argv + 1, true);
    if (!strcmp(argv[1], "status"))
        return search_main(argc - 1, argv + 1, false);
    if (!strcmp(argv[1], "report"))
        return report_main(argc - 1, argv + 1);
    return cli_error(EXIT_USAGE, "opening: unknown subcommand '%s' (search, status, report)", argv[1]);
}
