/*
 * cli_batch.c - `renju batch plan` and `renju batch run`: split the positions
 * of an opening analysis into a job list, and solve one shard of it into a
 * results database (merged later with `renju db merge`).
 *
 * Plan file (text, one position a line; written by `batch plan`):
 *
 *   renju-plan 1 rules=<renju|freestyle|standard>
 *   # comment lines start with '#'; blank lines are ignored
 *   <to-move> <stones>
 *
 * where <to-move> is `b` or `w` and <stones> a stone set in the POSITION
 * spelling ("B:h8,i9,j10 W:h9,i10").  The attacker is always black (the
 * position is solved for a black win).  Position lines are numbered from 0 in
 * file order, comments and blanks not counted; shard I of N takes the lines
 * i with i % N == I.  The file has no duplicates up to symmetry.
 *
 * `batch run` skips positions already stored in its DB (proven/disproven, or
 * an unknown effort record with at least this run's node budget), so a rerun
 * resumes; on SIGINT/SIGTERM/SIGUSR1 it commits what is solved and exits 75.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "cli.h"
#include "cli_run.h"
#include "clock.h"
#include "db.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "opening.h"
#include "position.h"
#include "progress.h"
#include "rules.h"

enum { DEFAULT_NODES = 10000, PLAN_LINE_MAX = 2048 };


/* "B:h8,i9 W:h9" (empty groups left out). */
static void stones_str(const Board *b, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (Color c = BLACK; c <= WHITE; c++) {
        bool first = true;
        for (int p = 0; p < BOARD_POINTS && n < len; p++) {
            if (board_at(b, (Point)p) != c)
                continue;
            char s[8];
            n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? (c == BLACK ? "B:" : n ? " W:" : "W:") : ",",
                                  notation_point_str((Point)p, s));
            first = false;
        }
    }
}

/* ---- plan ---- */

typedef struct {
    FILE *f;
    long count;
    int err;
} PlanOut;

static int plan_line(void *ctx, const Board *pos)
{
    PlanOut *o = ctx;
    char s[PLAN_LINE_MAX];
    stones_str(pos, s, sizeof s);
    if (fprintf(o->f, "%c %s\n", pos->to_move == BLACK ? 'b' : 'w', s) < 0) {
        o->err = errno ? errno : EIO;
        return 1;
    }
    o->count++;
    return 0;
}

static int batch_plan(int argc, char **argv)
{
    const char *out = NULL, *depth_s = NULL;
    int rc;
    if ((rc = cli_take_opt(&argc, argv, "out", true, &out)) > 1 ||
        (rc = cli_take_opt(&argc, argv, "depth", true, &depth_s)) > 1)
        return rc;
    CliArgs a;
    if ((rc = cli_parse(argc, argv, &a)))
        return rc;
    Board b;
    if ((rc = cli_position(&a, 0, &b)))
        return rc;
    /* Default depth: the 5th-move positions (2 plies from an opening, 1 from a 4-stone position). */
    int depth = b.to_move == WHITE ? 2 : 1;
    if (depth_s) {
        char *end;
        long d = strtol(depth_s, &end, 10);
        if (*end || end == depth_s || d < 1 || d > 3)
            return cli_error(EXIT_USAGE, "bad --depth '%s' (1..3)", depth_s);
        depth = (int)d;
    }
    Color winner;
    if (rules_game_over(&b, a.rules, &winner))
        return cli_error(EXIT_DATAERR, "the game is already over in this position");
    PlanOut o = { out ? fopen(out, "w") : stdout, 0, 0 };
    if (!o.f)
        return cli_error(EXIT_IOERR, "cannot write '%s': %s", out, strerror(errno));
    char pos[POSITION_STR_LEN];
    position_str(&b, pos, sizeof pos);
    fprintf(o.f, "renju-plan 1 rules=%s\n# from: %s (%s to move), depth %d plies, one representative of every move "
                 "class; attacker black\n",
            ruleset_name(a.rules), pos, color_name(b.to_move), depth);
    rc = opening_plan(&b, a.rules, depth, plan_line, &o);
    int cerr = out ? (fclose(o.f) ? errno : 0) : (fflush(stdout) ? errno : 0);
    if (o.err || cerr)
        return cli_error(EXIT_IOERR, "cannot write '%s': %s", out ? out : "stdout", strerror(o.err ? o.err : cerr));
    if (rc)
        return cli_error(cli_exit_code(rc), "plan: %s", rj_strerror(rc));
    if (out) {
        if (a.json)
            printf("{\"plan\":\"%s\",\"positions\":%ld,\"depth\":%d}\n", out, o.count, depth);
        else
            printf("plan: %ld positions (depth %d) written to %s\n", o.count, depth, out);
    } else if (!a.quiet) {
        fprintf(stderr, "plan: %ld positions (depth %d)\n", o.count, depth);
    }
    return EXIT_DONE;
}

/* ---- run ---- */

static int parse_shard(const char *s, long *i, long *n)
{
    char *end;
    *i = strtol(s, &end, 10);
    if (end == s || *end != '/')
        return -1;
    const char *p = end + 1;
    *n = strtol(p, &end, 10);
    if (end == p || *end || *n < 1 || *i < 0 || *i >= *n)
        return -1;
    return 0;
}

/* Strip the newline; true for a position line (not blank, not a comment). */
static bool plan_is_position(char *line)
{
    line[strcspn(line, "\r\n")] = 0;
    const char *p = line + strspn(line, " \t");
    return *p && *p != '#';
}

static int plan_header(FILE *f, const char *path, RuleSet *rs)
{
    char line[PLAN_LINE_MAX];
    if (!fgets(line, sizeof line, f))
        return cli_error(EXIT_DATAERR, "%s: empty file, not a plan", path);
    line[strcspn(line, "\r\n")] = 0;
    char rules[32];
    int ver;
    if (sscanf(line, "renju-plan %d rules=%31s", &ver, rules) != 2)
        return cli_error(EXIT_DATAERR, "%s: not a plan (the first line must be 'renju-plan 1 rules=...')", path);
    if (ver != 1)
        return cli_error(EXIT_DATAERR, "%s: plan version %d not supported", path, ver);
    if (ruleset_parse(rules, false, rs) == 0)
        return 0;
    return cli_error(EXIT_DATAERR, "%s: unknown rule set '%s'", path, rules);
}

static int plan_position(const char *line, RuleSet rs, Board *b, char *err, size_t errlen)
{
    const char *p = line + strspn(line, " \t");
    Color tm = (*p == 'b' || *p == 'B') ? BLACK : (*p == 'w' || *p == 'W') ? WHITE : EMPTY;
    if (tm == EMPTY || (p[1] != ' ' && p[1] != '\t')) {
        snprintf(err, errlen, "expected 'b' or 'w', then the stones");
        return RJ_EBADPOS;
    }
    return position_parse(p + 2, rs, tm, b, err, errlen);
}

typedef struct {
    const CliArgs *a;
    Db *db;
    double t0, next_flush;
    long done, total, proven, disproven, from_db;
    uint64_t nodes, inflight; /* nodes of the positions done, of the one being solved */
    int err;
    Progress pr;
} BatchCtx;

/* A report of the run so far. */
static ProgressInfo batch_info(const BatchCtx *x)
{
    ProgressInfo in = progress_info();
    in.nodes = x->nodes + x->inflight;
    in.done = x->done;
    in.total = x->total;
    in.proven = x->proven;
    in.disproven = x->disproven;
    in.from_db = x->from_db;
    return in;
}

/* Solver progress inside one position (DfpnConfig.progress): ctx is the BatchCtx. */
static void batch_dfpn_progress(void *ctx, const DfpnProgress *p)
{
    BatchCtx *x = ctx;
    x->inflight = p->nodes;
    ProgressInfo in = batch_info(x);
    progress_tick(&x->pr, &in);
}

static void batch_progress(BatchCtx *x, bool force)
{
    double now = clock_now();
    if (x->db && (force || now >= x->next_flush)) {
        int rc = db_flush(x->db);
        if (rc && rc != RJ_ECONFLICT && !x->err) {
            x->err = rc;
            atomic_store(cli_run_stop(), true);
        }
        x->next_flush = now + 1.0;
    }
    x->inflight = 0;
    ProgressInfo in = batch_info(x);
    if (force)
        progress_end(&x->pr, &in);
    else
        progress_tick(&x->pr, &in);
}

static int batch_run(int argc, char **argv)
{
    const char *shard = NULL;
    int rc;
    bool tt_given = cli_has_opt(argc, argv, "tt-mb");
    if ((rc = cli_take_opt(&argc, argv, "shard", true, &shard)) > 1)
        return rc;
    CliArgs a;
    if ((rc = cli_parse(argc, argv, &a)))
        return rc;
    if (a.npos != 1)
        return cli_error(EXIT_USAGE, "usage: renju batch run PLAN [--shard I/N] [--db PATH] [budget]");
    long si = 0, sn = 1;
    if (shard && parse_shard(shard, &si, &sn))
        return cli_error(EXIT_USAGE, "bad --shard '%s' (I/N with 0 <= I < N)", shard);
    const char *path = a.pos[0];
    FILE *f = fopen(path, "r");
    if (!f)
        return cli_error(errno == ENOENT ? EXIT_NOINPUT : EXIT_IOERR, "cannot read '%s': %s", path, strerror(errno));
    RuleSet rs = RULE_RENJU;
    if ((rc = plan_header(f, path, &rs))) {
        fclose(f);
        return rc;
    }
    a.rules = rs; /* the plan's rule set wins */
    /* Count this shard's positions (for progress) and check every line first. */
    char line[PLAN_LINE_MAX];
    long idx = 0, total = 0, lineno = 1;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!plan_is_position(line))
            continue;
        Board b;
        char err[256];
        if (plan_position(line, rs, &b, err, sizeof err)) {
            fclose(f);
            return cli_error(EXIT_DATAERR, "%s:%ld: %s", path, lineno, err);
        }
        total += idx++ % sn == si;
    }
    Db *db;
    if ((rc = cli_db_open(cli_db_path(&a), DB_CREATE, &db))) {
        fclose(f);
        return rc;
    }
    DfpnConfig cfg;
    cli_run_budget(&a, true, 1, DEFAULT_NODES, tt_given, &cfg);
    cfg.stop = cli_run_stop();
    double now = clock_now();
    BatchCtx x = {.a = &a, .db = db, .t0 = now, .next_flush = now + 1.0, .total = total};
    progress_init(&x.pr, &a, "batch", false);
    if (x.pr.mode != PROGRESS_NONE) {
        cfg.progress = batch_dfpn_progress;
        cfg.progress_ctx = &x;
        cfg.progress_interval = progress_interval(&x.pr);
    }
    Dfpn *s = NULL;
    if ((rc = dfpn_create(&s, &cfg))) {
        fclose(f);
        db_close(db);
        return cli_error(cli_exit_code(rc), "cannot create the solver: %s", rj_strerror(rc));
    }
    ResultStore store;
    cli_run_store(db, &store);
    OpeningConfig oc = {.dfpn = s, .rules = rs, .store = &store, .proofs = true};
    cli_run_signals();
    rewind(f);
    if (!fgets(line, sizeof line, f)) /* header, checked above */
        rc = RJ_EIO;
    idx = 0;
    int src = 0;
    while (rc == 0 && src == 0 && !x.err && fgets(line, sizeof line, f)) {
        if (!plan_is_position(line) || idx++ % sn != si)
            continue;
        Board b;
        char err[256];
        if (plan_position(line, rs, &b, err, sizeof err)) {
            rc = RJ_EBADDATA; /* the file changed under us */
            break;
        }
        OpeningSolve r;
        src = opening_solve(&oc, &b, &r);
        if (src && src != RJ_EINTR)
            break;
        if (src == RJ_EINTR && r.status == RESULT_UNKNOWN)
            break; /* cut short: not done, nothing stored */
        x.done++;
        x.proven += r.status == RESULT_PROVEN;
        x.disproven += r.status == RESULT_DISPROVEN;
        x.from_db += r.from_store;
        x.nodes += r.nodes;
        if (a.json) {
            char pos[PLAN_LINE_MAX], best[8];
            progress_clear(&x.pr); /* the result line must not land inside a live status line */
            stones_str(&b, pos, sizeof pos);
            printf("{\"line\":%ld,\"position\":", idx - 1);
            cli_json_str(stdout, pos);
            printf(",\"status\":\"%s\",\"best\":", result_name(r.status));
            if (r.best == POINT_NONE)
                printf("null");
            else
                printf("\"%s\"", notation_point_str(r.best, best));
            printf(",\"nodes\":%llu,\"from_db\":%s}\n", (unsigned long long)r.nodes, r.from_store ? "true" : "false");
        }
        batch_progress(&x, false);
    }
    fclose(f);
    batch_progress(&x, true);
    int frc = db_flush(db);
    db_close(db);
    dfpn_free(s);
    if (x.err || (frc && frc != RJ_ECONFLICT))
        return cli_error(EXIT_IOERR, "%s: %s", cli_db_path(&a), rj_strerror(x.err ? x.err : frc));
    if (rc)
        return cli_error(cli_exit_code(rc), "%s: %s", path, rj_strerror(rc));
    if (src && src != RJ_EINTR)
        return cli_error(cli_exit_code(src), "solve failed: %s", rj_strerror(src));
    bool intr = src == RJ_EINTR;
    if (a.json)
        printf("{\"summary\":true,\"shard\":\"%ld/%ld\",\"positions\":%ld,\"done\":%ld,\"proven\":%ld,"
               "\"disproven\":%ld,\"unknown\":%ld,\"from_db\":%ld,\"nodes\":%llu,\"time_s\":%.3f,\"interrupted\":%s}\n",
               si, sn, total, x.done, x.proven, x.disproven, x.done - x.proven - x.disproven, x.from_db,
               (unsigned long long)x.nodes, clock_now() - x.t0, intr ? "true" : "false");
    else
        printf("shard %ld/%ld: %ld of %ld positions done: %ld proven, %ld disproven, %ld unknown (%ld from db), "
               "%llu nodes\n",
               si, sn, x.done, total, x.proven, x.disproven, x.done - x.proven - x.disproven, x.from_db,
               (unsigned long long)x.nodes);
    fflush(stdout);
    if (intr)
        return cli_error(EXIT_TEMPFAIL, "interrupted: solved positions are stored; run again to resume");
    return EXIT_DONE;
}

int cmd_batch(int argc, char **argv)
{
    if (argc < 2)
        return cli_error(EXIT_USAGE, "usage: renju batch plan POSITION [--depth D] [--out PLAN] | "
                                     "batch run PLAN [--shard I/N] [--db PATH] [budget]");
    if (!strcmp(argv[1], "plan"))
        return batch_plan(argc - 1, argv + 1);
    if (!strcmp(argv[1], "run"))
        return batch_run(argc - 1, argv + 1);
    return cli_error(EXIT_USAGE, "unknown batch command '%s' (plan, run)", argv[1]);
}
