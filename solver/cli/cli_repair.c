/* cli_repair.c - `renju repair`: prove a position by mending the stored proof of another (repair.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "cli.h"
#include "cli_run.h"
#include "db.h"
#include "dfpn.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "progress.h"
#include "proof.h"
#include "proof_extract.h"
#include "repair.h"
#include "repair_db.h"
#include "resultstore.h"

enum { REPAIR_DEFAULT_NODES = 1000000 };

typedef struct {
    RepairDb r;
    Progress pr;
} Prover;

static void tick(void *ctx)
{
    Prover *p = ctx;
    ProgressInfo in = progress_info();
    in.nodes = p->r.work;
    in.done = p->r.from_db + p->r.searched;
    in.proven = p->r.proven;
    in.disproven = p->r.disproven;
    in.unknown = p->r.unknown;
    in.from_db = p->r.from_db;
    progress_tick(&p->pr, &in);
}

static void trace(void *ctx, const char *line)
{
    Prover *p = ctx;
    progress_clear(&p->pr);
    fprintf(stderr, "repair: %s\n", line);
}

static void print_result(const CliArgs *a, const char *from, Result res, const ProofStats *ps, const RepairStats *st,
                         const Prover *p, double secs)
{
    if (a->json) {
        printf("{\"result\":\"%s\",\"attacker\":\"%s\",\"from\":", result_name(res), color_name(p->r.att));
        cli_json_str(stdout, from);
        printf(",\"failures\":%llu,\"from_db\":%lld,\"searched\":%lld,\"declined\":%lld,\"added\":%llu,\"wide\":%llu,"
               "\"escalated\":%llu,\"nodes\":%llu",
               (unsigned long long)st->failures, p->r.from_db, p->r.searched, p->r.declined,
               (unsigned long long)st->added, (unsigned long long)st->wide, (unsigned long long)st->escalated,
               (unsigned long long)p->r.work);
        if (ps)
            printf(",\"proof_nodes\":%llu,\"proof_depth\":%u", (unsigned long long)ps->nodes, ps->depth);
        if (res != RESULT_PROVEN && st->why[0]) {
            printf(",\"why\":");
            cli_json_str(stdout, st->why);
        }
        printf(",\"time_s\":%.3f}\n", secs);
        return;
    }
    if (res == RESULT_PROVEN)
        printf("proven for %s: the proof of %s mended (%llu nodes proven afresh: %lld from the database, %lld "
               "searched; %llu defender moves added), proof %llu nodes depth %u, %llu search nodes\n",
               color_name(p->r.att), from, (unsigned long long)st->failures, p->r.from_db, p->r.searched,
               (unsigned long long)st->added, (unsigned long long)ps->nodes, ps->depth, (unsigned long long)p->r.work);
    else
        printf("unknown: the proof of %s could not be mended (%s; %llu nodes tried: %lld from the database, %lld "
               "searched%s), %llu search nodes\n",
               from, st->why[0] ? st->why : "-", (unsigned long long)st->failures, p->r.from_db, p->r.searched,
               p->r.declined ? ", then --max-work spent" : "", (unsigned long long)p->r.work);
}

int cmd_repair(int argc, char **argv)
{
    const char *from = NULL, *maxf = NULL, *maxw = NULL;
    int rc = cli_take_opt(&argc, argv, "from", true, &from);
    if (rc > 1)
        return rc;
    if ((rc = cli_take_opt(&argc, argv, "max-failures", true, &maxf)) > 1)
        return rc;
    if ((rc = cli_take_opt(&argc, argv, "max-work", true, &maxw)) > 1)
        return rc;
    CliArgs a;
    if ((rc = cli_parse(argc, argv, &a)))
        return rc;
    if (a.npos < 1 || !from)
        return cli_error(EXIT_USAGE, "usage: renju repair POSITION --from SOURCE [--nodes N] [--max-failures K] "
                                     "[--max-work W] [--db PATH]");
    int max_failures = REPAIR_MAX_FAILURES;
    if (maxf) {
        char *e;
        long v = strtol(maxf, &e, 10);
        if (*e || v < 1 || v > 1000000)
            return cli_error(EXIT_USAGE, "bad --max-failures '%s' (1 to 1000000)", maxf);
        max_failures = (int)v;
    }
    uint64_t max_work = 0;
    if (maxw) {
        char *e;
        double v = strtod(maxw, &e);
        if (*e || !(v >= 1 && v < 9.2e18) || v != (double)(uint64_t)v)
            return cli_error(EXIT_USAGE, "bad --max-work '%s' (a positive whole number, 1e8 or 100000000)", maxw);
        max_work = (uint64_t)v;
    }
    Board t, s;
    if ((rc = cli_position(&a, 0, &t)))
        return rc;
    CliArgs fa = a;
    fa.npos = 1;
    fa.pos[0] = (char *)from;
    if ((rc = cli_position(&fa, 0, &s)))
        return rc;
    if (board_last_move(&s) == POINT_PASS) { /* stored as its stone set, as the opening search stores white's pass */
        Board sb;
        board_setup_copy(&s, &sb);
        s = sb;
    }
    if (s.to_move != t.to_move)
        return cli_error(EXIT_DATAERR, "repair: %s and the position differ in the side to move", from);
    Prover p;
    memset(&p, 0, sizeof p);
    p.r.rules = a.rules;
    p.r.att = a.side == EMPTY ? t.to_move : a.side;
    p.r.max_work = max_work;
    const char *tr = getenv("RENJU_REPAIR_TRACE"); /* tuning knob: a line per df-pn solve on stderr */
    if (tr && *tr && strcmp(tr, "0"))
        p.r.trace = trace;
    p.r.tick = tick;
    p.r.cb_ctx = &p;
    if ((rc = cli_db_open(cli_db_path(&a), 0, &p.r.db)))
        return rc;
    db_result_store(p.r.db, &p.r.store);
    uint8_t *src = NULL;
    size_t slen = 0;
    DbRecord rec;
    if (db_get(p.r.db, &t, a.rules, p.r.att, &rec) == 0 && rec.result != RESULT_UNKNOWN &&
        (rec.result == RESULT_DISPROVEN || (rec.flags & RECORD_HAS_PROOF))) {
        db_close(p.r.db);
        if (a.json)
            printf("{\"result\":\"%s\",\"attacker\":\"%s\",\"stored_already\":true}\n", result_name(rec.result),
                   color_name(p.r.att));
        else
            printf("%s for %s: stored already (renju query)\n", result_name(rec.result), color_name(p.r.att));
        return EXIT_DONE;
    }
    if ((rc = db_get_proof(p.r.db, &s, a.rules, p.r.att, &src, &slen))) {
        db_close(p.r.db);
        return cli_error(rc == RJ_ENOTFOUND ? EXIT_NOINPUT : cli_exit_code(rc), "repair: no stored proof of %s for %s",
                         from, color_name(p.r.att));
    }
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.attacker = p.r.att;
    cfg.rules = a.rules;
    cfg.threads = a.threads;
    cfg.max_nodes = a.nodes > 0 ? (uint64_t)a.nodes : REPAIR_DEFAULT_NODES;
    cfg.max_time = a.time_s;
    cfg.tt_mb = (size_t)a.tt_mb;
    cfg.stop = cli_run_stop();
    if ((rc = dfpn_create(&p.r.dfpn, &cfg))) {
        free(src);
        db_close(p.r.db);
        return cli_error(cli_exit_code(rc), "cannot create the solver: %s", rj_strerror(rc));
    }
    cli_run_signals();
    progress_init(&p.pr, &a, "repair", false);
    RepairStats st;
    ProofStats ps;
    char why[512] = "";
    double t0 = clock_now();
    rc = repair_db_run(&p.r, &s, src, slen, &t, max_failures, &st, &ps, why, sizeof why);
    double secs = clock_now() - t0;
    ProgressInfo last = progress_info();
    last.nodes = p.r.work;
    progress_end(&p.pr, &last);
    free(src);
    int code = EXIT_DONE;
    if (rc == 0)
        print_result(&a, from, RESULT_PROVEN, &ps, &st, &p, secs);
    else if (rc == RJ_ENOTFOUND)
        print_result(&a, from, RESULT_UNKNOWN, NULL, &st, &p, secs);
    else if (rc == RJ_EINTERNAL)
        code = cli_error(EXIT_SOFTWARE, "repair: the mended proof does not check: %s", why);
    else if (rc == RJ_EINTR)
        code = cli_error(EXIT_TEMPFAIL, "repair: interrupted (the positions proven so far are stored)");
    else
        code = cli_error(cli_exit_code(rc), "repair: %s", rj_strerror(rc));
    int frc = db_flush(p.r.db);
    db_close(p.r.db);
    dfpn_free(p.r.dfpn);
    if (frc && code == EXIT_DONE)
        code = cli_error(cli_exit_code(frc), "storing the results failed: %s", rj_strerror(frc));
    return code;
}
