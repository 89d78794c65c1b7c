/*
 * cli_opening.c - `renju fifth` and `renju fair-n`: the 5th-move classes of a
 * 4-stone position with their status for black and the W bounds, and the
 * fair-N bounds of an opening (docs/renju.md "What solved and fair N mean").
 *
 * Budget: --nodes N / --time S are the total, split evenly over the positions
 * to solve, or each position's own with --per-class; with neither, 10000
 * nodes a position (fair-n: 2000, as an opening has 25000-50000 positions).
 * --time also bounds the whole run (positions not started
 * in time stay unknown).  Results go to the database given by --db, or to the
 * default one when that file exists (--no-db: none); a rerun reuses them (a
 * proven/disproven position is never searched again, an unknown one only
 * with a larger node budget).  SIGINT/SIGTERM/SIGUSR1: what is solved is committed,
 * the partial (still valid) bounds are printed, exit 75.
 */
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

enum { DEFAULT_NODES = 10000, DEFAULT_NODES_FAIR = 2000 };

/* State shared by the progress callback. */
typedef struct {
    const CliArgs *a;
    const char *what;
    Db *db;
    double t0, next_flush;
    int proven, disproven, searched, from_db, done, total;
    uint64_t nodes;    /* of the positions done */
    uint64_t inflight; /* of the position being solved */
    Progress pr;
    int err;            /* first DB error (the run is stopped on it) */
} RunCtx;

/* A report of the run so far. */
static ProgressInfo run_info(const RunCtx *x)
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

static void run_progress(void *ctx, int done, int total, const Board *pos, const OpeningSolve *r)
{
    (void)pos;
    RunCtx *x = ctx;
    x->proven += r->status == RESULT_PROVEN;
    x->disproven += r->status == RESULT_DISPROVEN;
    x->searched += r->searched;
    x->from_db += r->from_store;
    x->nodes += r->nodes;
    double now = clock_now();
    if (x->db && now >= x->next_flush) {
        int rc = db_flush(x->db);
        if (rc && rc != RJ_ECONFLICT && !x->err) {
            x->err = rc;
            atomic_store(cli_run_stop(), true);
        }
        x->next_flush = now + 1.0;
    }
    x->done = done;
    x->total = total;
    x->inflight = 0;
    ProgressInfo in = run_info(x);
    progress_tick(&x->pr, &in);
}

/* Solver progress inside one position (DfpnConfig.progress): ctx is the RunCtx. */
static void run_dfpn_progress(void *ctx, const DfpnProgress *p)
{
    RunCtx *x = ctx;
    x->inflight = p->nodes;
    ProgressInfo in = run_info(x);
    progress_tick(&x->pr, &in);
}

/* Common setup: extra options, parse, DB, budget.  *npos_fn decides the split. */
typedef struct {
    CliArgs a;
    bool per_class, no_db, tt_given;
    const char *fourth;
    Db *db;
    ResultStore rs;
    DfpnConfig cfg;
    Dfpn *dfpn;
    OpeningConfig oc;
    RunCtx x;
} Run;

static int run_parse(Run *r, int argc, char **argv, bool fair)
{
    memset(r, 0, sizeof *r);
    char **av = malloc(sizeof *av * ((size_t)argc + 1));
    if (!av)
        return cli_error(EXIT_SOFTWARE, "out of memory");
    memcpy(av, argv, sizeof *av * (size_t)argc);
    av[argc] = NULL;
    int rc;
    r->tt_given = cli_has_opt(argc, argv, "tt-mb");
    if ((rc = cli_take_opt(&argc, av, "per-class", false, NULL)) > 1)
        goto out;
    r->per_class = rc == 1;
    if ((rc = cli_take_opt(&argc, av, "no-db", false, NULL)) > 1)
        goto out;
    r->no_db = rc == 1;
    if (fair && (rc = cli_take_opt(&argc, av, "fourth", true, &r->fourth)) > 1)
        goto out;
    rc = cli_parse(argc, av, &r->a);
out:
    free(av);
    return rc > 1 ? rc : 0;
}

static int run_start(Run *r, long npos, const char *what, uint64_t default_nodes)
{
    int rc = cli_run_open_db(&r->a, r->no_db, &r->db);
    if (rc)
        return rc;
    cli_run_budget(&r->a, r->per_class, npos, default_nodes, r->tt_given, &r->cfg);
    r->cfg.stop = cli_run_stop();
    progress_init(&r->x.pr, &r->a, what, false);
    if (r->x.pr.mode != PROGRESS_NONE) {
        r->cfg.progress = run_dfpn_progress;
        r->cfg.progress_ctx = &r->x;
        r->cfg.progress_interval = progress_interval(&r->x.pr);
    }
    r->x.total = (int)npos;
    if ((rc = dfpn_create(&r->dfpn, &r->cfg))) {
        db_close(r->db);
        return cli_error(cli_exit_code(rc), "cannot create the solver: %s", rj_strerror(rc));
    }
    if (r->db)
        cli_run_store(r->db, &r->rs);
    double now = clock_now();
    r->x.a = &r->a;
    r->x.what = what;
    r->x.db = r->db;
    r->x.t0 = now;
    r->x.next_flush = now + 1.0;
    r->oc = (OpeningConfig){ .dfpn = r->dfpn, .rules = r->a.rules, .store = r->db ? &r->rs : NULL,
                             .proofs = r->db != NULL, .progress = run_progress, .progress_ctx = &r->x };
    if (r->a.time_s > 0 && !r->per_class)
        r->oc.deadline = now + r->a.time_s;
    cli_run_signals();
    return 0;
}

/* The positions are done (or the run stopped): end the progress reports before the results. */
static void run_done(Run *r)
{
    r->x.inflight = 0;
    ProgressInfo in = run_info(&r->x);
    progress_end(&r->x.pr, &in);
}

/* Finish: commit, free; the exit code for the solve return code rc. */
static int run_finish(Run *r, int rc)
{
    int frc = r->db ? db_flush(r->db) : 0;
    if (frc == RJ_ECONFLICT)
        frc = 0;
    db_close(r->db);
    dfpn_free(r->dfpn);
    if (r->x.err || frc)
        return cli_error(EXIT_IOERR, "%s: %s", cli_db_path(&r->a), rj_strerror(r->x.err ? r->x.err : frc));
    if (rc == RJ_EINTR)
        return cli_error(EXIT_TEMPFAIL, "interrupted: solved positions are stored, bounds above are partial");
    if (rc)
        return cli_error(cli_exit_code(rc), "%s", rj_strerror(rc));
    return EXIT_DONE;
}

static void print_moves_json(const MoveClass *m)
{
    putchar('[');
    for (int i = 0; i < m->n; i++) {
        char s[8];
        printf("%s\"%s\"", i ? "," : "", notation_point_str(m->moves[i], s));
    }
    putchar(']');
}

static void moves_text(const MoveClass *m, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < m->n && n < len; i++) {
        char s[8];
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", notation_point_str(m->moves[i], s));
    }
}

int cmd_fifth(int argc, char **argv)
{
    Run r;
    int rc = run_parse(&r, argc, argv, false);
    if (rc)
        return rc;
    Board b;
    if ((rc = cli_position(&r.a, 0, &b)))
        return rc;
    if (b.to_move != BLACK)
        return cli_error(EXIT_DATAERR, "fifth: black must be to move (a 4-stone position: 2 black, 2 white)");
    Color winner;
    if (rules_game_over(&b, r.a.rules, &winner))
        return cli_error(EXIT_DATAERR, "the game is already over in this position");
    int ncls = opening_count_classes(&b, r.a.rules);
    if ((rc = run_start(&r, ncls, "fifth", DEFAULT_NODES)))
        return rc;
    OpeningClass *cl = malloc(sizeof *cl * BOARD_POINTS);
    if (!cl) {
        dfpn_free(r.dfpn);
        db_close(r.db);
        return cli_error(EXIT_SOFTWARE, "out of memory");
    }
    int n, lo, hi;
    int src = opening_move_classes(&r.oc, &b, cl, &n, &lo, &hi);
    run_done(&r);
    char pos[POSITION_STR_LEN];
    position_str(&b, pos, sizeof pos);
    bool four = b.stones[0] == 2 && b.stones[1] == 2;
    double t = clock_now() - r.x.t0;
    if (r.a.json) {
        printf("{\"position\":");
        cli_json_str(stdout, pos);
        printf(",\"four_stones\":%s,\"classes\":[", four ? "true" : "false");
        for (int i = 0; i < n; i++) {
            char s[8];
            printf("%s{\"moves\":", i ? "," : "");
            print_moves_json(&cl[i].cls);
            printf(",\"status\":\"%s\",\"best\":", result_name(cl[i].res.status));
            if (cl[i].res.best == POINT_NONE)
                printf("null");
            else
                printf("\"%s\"", notation_point_str(cl[i].res.best, s));
            printf(",\"nodes\":%llu,\"from_db\":%s}", (unsigned long long)cl[i].res.nodes,
                   cl[i].res.from_store ? "true" : "false");
        }
        printf("],\"wins_min\":%d,\"wins_max\":%d,\"nodes_per_class\":%llu,\"time_per_class\":%.3f,"
               "\"nodes\":%llu,\"time_s\":%.3f,\"interrupted\":%s}\n",
               lo, hi, (unsigned long long)r.cfg.max_nodes, r.cfg.max_time, (unsigned long long)r.x.nodes, t,
               src == RJ_EINTR ? "true" : "false");
    } else {
        printf("position: %s (black to move)%s\n", pos, four ? "" : "  [not a 4-stone position: W counts winning move classes]");
        printf("budget per class: %llu nodes%s, time %.3fs\n", (unsigned long long)r.cfg.max_nodes,
               r.cfg.max_nodes ? "" : " (unlimited)", r.cfg.max_time);
        for (int i = 0; i < n; i++) {
            char mv[96];
            moves_text(&cl[i].cls, mv, sizeof mv);
            printf("  %-36s %-9s%s\n", mv, result_name(cl[i].res.status), cl[i].res.from_store ? " (db)" : "");
        }
        printf("classes: %d, proven %d, disproven %d, unknown %d\n", n, lo, n - hi, hi - lo);
        printf("W in [%d, %d]%s\n", lo, hi, src == RJ_EINTR ? " (interrupted: partial)" : "");
    }
    fflush(stdout);
    free(cl);
    return run_finish(&r, src);
}

/* Parse --fourth "j10,k11" into points. */
static int parse_fourth(const char *s, Point *out, int *n)
{
    char err[128];
    int k = notation_parse_moves(s, out, BOARD_POINTS, err, sizeof err);
    if (k < 0)
        return cli_error(EXIT_USAGE, "bad --fourth '%s': %s", s, err);
    for (int i = 0; i < k; i++)
        if (out[i] >= BOARD_POINTS)
            return cli_error(EXIT_USAGE, "bad --fourth '%s': a pass is not a 4th move", s);
    *n = k;
    return 0;
}

int cmd_fair_n(int argc, char **argv)
{
    Run r;
    int rc = run_parse(&r, argc, argv, true);
    if (rc)
        return rc;
    Board b;
    if ((rc = cli_position(&r.a, 0, &b)))
        return rc;
    if (b.to_move != WHITE)
        return cli_error(EXIT_DATAERR, "fair-n: white must be to move (an opening: 2 black, 1 white)");
    Color winner;
    if (rules_game_over(&b, r.a.rules, &winner))
        return cli_error(EXIT_DATAERR, "the game is already over in this position");
    Point only[BOARD_POINTS];
    int nonly = 0;
    if (r.fourth && (rc = parse_fourth(r.fourth, only, &nonly)))
        return rc;
    long npos = opening_count_fair_n(&b, r.a.rules, r.fourth ? only : NULL, nonly);
    if ((rc = run_start(&r, npos, "fair-n", DEFAULT_NODES_FAIR)))
        return rc;
    OpeningFourth *f = malloc(sizeof *f * BOARD_POINTS);
    if (!f) {
        dfpn_free(r.dfpn);
        db_close(r.db);
        return cli_error(EXIT_SOFTWARE, "out of memory");
    }
    int n, nmin, nmax;
    int src = opening_fair_n(&r.oc, &b, r.fourth ? only : NULL, nonly, f, &n, &nmin, &nmax);
    run_done(&r);
    if (src && src != RJ_EINTR) {
        free(f);
        return run_finish(&r, src);
    }
    char pos[POSITION_STR_LEN];
    position_str(&b, pos, sizeof pos);
    double t = clock_now() - r.x.t0;
    int nsel = 0;
    for (int i = 0; i < n; i++)
        nsel += f[i].selected;
    if (r.a.json) {
        printf("{\"opening\":");
        cli_json_str(stdout, pos);
        printf(",\"fourth\":[");
        for (int i = 0; i < n; i++) {
            char s[8];
            printf("%s{\"move\":\"%s\",\"members\":", i ? "," : "", notation_point_str(f[i].cls.moves[0], s));
            print_moves_json(&f[i].cls);
            printf(",\"fifth_classes\":%d,\"wins_min\":%d,\"wins_max\":%d,\"searched\":%s}", f[i].nfifth,
                   f[i].wins_min, f[i].wins_max, f[i].selected ? "true" : "false");
        }
        printf("],\"n_fair_min\":%d,\"n_fair_max\":%d,\"positions\":%ld,\"nodes_per_position\":%llu,"
               "\"time_per_position\":%.3f,\"nodes\":%llu,\"time_s\":%.3f,\"interrupted\":%s}\n",
               nmin, nmax, npos, (unsigned long long)r.cfg.max_nodes, r.cfg.max_time, (unsigned long long)r.x.nodes,
               t, src == RJ_EINTR ? "true" : "false");
    } else {
        printf("opening: %s (white to move)\n", pos);
        printf("4th-move classes: %d (%d searched), positions searched for: %ld, budget per position: %llu nodes, "
               "time %.3fs\n",
               n, nsel, npos, (unsigned long long)r.cfg.max_nodes, r.cfg.max_time);
        for (int i = 0; i < n; i++) {
            char mv[96];
            moves_text(&f[i].cls, mv, sizeof mv);
            printf("  %-36s W in [%d, %d] of %d%s\n", mv, f[i].wins_min, f[i].wins_max, f[i].nfifth,
                   f[i].selected ? "" : " (not searched)");
        }
        printf("N_fair in [%d, %d]%s\n", nmin, nmax, src == RJ_EINTR ? " (interrupted: partial)" : "");
    }
    fflush(stdout);
    free(f);
    return run_finish(&r, src);
}
