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
#include "resultstore.h"

enum { REPAIR_DEFAULT_NODES = 1000000 };

typedef struct {
    Db *db;
    ResultStore store;
    RuleSet rules;
    Color att;
    Dfpn *dfpn;
    Progress pr;
    uint64_t work; /* df-pn work of the searches */
    long long from_db, searched, proven, disproven, unknown;
    bool trace; /* RENJU_REPAIR_TRACE: a line per search on stderr */
} Prover;

static void tick(Prover *p)
{
    ProgressInfo in = progress_info();
    in.nodes = p->work;
    in.done = p->from_db + p->searched;
    in.proven = p->proven;
    in.disproven = p->disproven;
    in.unknown = p->unknown;
    in.from_db = p->from_db;
    progress_tick(&p->pr, &in);
}

/* Append the tree of a proof (header stripped) to w. */
static int append_tree(ProofWriter *w, const uint8_t *proof, size_t len)
{
    if (len <= PROOF_HEADER_LEN)
        return RJ_EBADDATA;
    return pw_bytes(w, proof + PROOF_HEADER_LEN, len - PROOF_HEADER_LEN);
}

/*
 * RepairProver: the stored result of b when there is one (a stored proof is
 * used as it is; a stored disproof ends the repair), else a df-pn solve in
 * the table the earlier failures left (their positions are related).  A
 * proof found is checked, then stored; a disproof is stored too.
 */
static int prove(void *ctx, Board *b, int depth, ProofWriter *w)
{
    Prover *p = ctx;
    if (atomic_load(cli_run_stop()))
        return RJ_EINTR;
    DbRecord rec;
    if (db_get(p->db, b, p->rules, p->att, &rec) == 0) {
        if (rec.result == RESULT_DISPROVEN) {
            p->from_db++;
            p->disproven++;
            return RJ_ENOTFOUND;
        }
        uint8_t *proof = NULL;
        size_t len = 0;
        if (rec.result == RESULT_PROVEN && db_get_proof(p->db, b, p->rules, p->att, &proof, &len) == 0) {
            int rc = append_tree(w, proof, len);
            free(proof);
            p->from_db++;
            p->proven++;
            tick(p);
            return rc;
        }
    }
    DfpnResult res;
    int rc = dfpn_solve(p->dfpn, b, &res);
    if (rc)
        return rc;
    if (p->trace) {
        char line[MAX_PLY * 6 + 8];
        notation_moves_str(b->hist + b->ply - depth, depth, line, sizeof line);
        progress_clear(&p->pr);
        fprintf(stderr, "repair: [%s] %s, %llu nodes\n", line, result_name(res.result), (unsigned long long)res.nodes);
    }
    p->work += res.nodes;
    p->searched++;
    tick(p);
    if (res.interrupted)
        return RJ_EINTR;
    if (res.result == RESULT_DISPROVEN) {
        p->disproven++;
        StoredResult sr = {RESULT_DISPROVEN, p->att, POINT_NONE, 0, 0, res.nodes};
        rc = p->store.store(p->store.ctx, b, p->rules, &sr, NULL, 0);
        return rc ? rc : RJ_ENOTFOUND;
    }
    if (res.result != RESULT_PROVEN) {
        p->unknown++;
        return RJ_ENOTFOUND;
    }
    ProofWriter pw = {0};
    ExtractStats es;
    ProofStats ps;
    rc = proof_extract(p->dfpn, b, p->att, 0, 0, &pw, &es);
    if (rc == 0 && proof_check(b, pw.data, pw.len, &ps, NULL, 0) == 0) {
        p->proven++;
        if (p->trace)
            fprintf(stderr, "repair:   proof %llu nodes depth %u\n", (unsigned long long)ps.nodes, ps.depth);
        StoredResult sr = {RESULT_PROVEN, p->att, pw.data[PROOF_HEADER_LEN], ps.nodes, ps.depth, res.nodes};
        rc = p->store.store(p->store.ctx, b, p->rules, &sr, pw.data, pw.len);
        if (rc == 0)
            rc = append_tree(w, pw.data, pw.len);
    } else {
        p->unknown++; /* no checked proof: claim nothing */
        rc = rc == RJ_ENOMEM ? rc : RJ_ENOTFOUND;
    }
    free(pw.data);
    return rc;
}

static void print_result(const CliArgs *a, const char *from, Result res, const ProofStats *ps, const RepairStats *st,
                         const Prover *p, double secs)
{
    if (a->json) {
        printf("{\"result\":\"%s\",\"attacker\":\"%s\",\"from\":", result_name(res), color_name(p->att));
        cli_json_str(stdout, from);
        printf(",\"failures\":%llu,\"from_db\":%lld,\"searched\":%lld,\"added\":%llu,\"wide\":%llu,\"escalated\":%llu,"
               "\"nodes\":%llu",
               (unsigned long long)st->failures, p->from_db, p->searched, (unsigned long long)st->added,
               (unsigned long long)st->wide, (unsigned long long)st->escalated, (unsigned long long)p->work);
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
               color_name(p->att), from, (unsigned long long)st->failures, p->from_db, p->searched,
               (unsigned long long)st->added, (unsigned long long)ps->nodes, ps->depth, (unsigned long long)p->work);
    else
        printf("unknown: the proof of %s could not be mended (%s; %llu nodes tried: %lld from the database, %lld "
               "searched), %llu search nodes\n",
               from, st->why[0] ? st->why : "-", (unsigned long long)st->failures, p->from_db, p->searched,
               (unsigned long long)p->work);
}

int cmd_repair(int argc, char **argv)
{
    const char *from = NULL, *maxf = NULL;
    int rc = cli_take_opt(&argc, argv, "from", true, &from);
    if (rc > 1)
        return rc;
    if ((rc = cli_take_opt(&argc, argv, "max-failures", true, &maxf)) > 1)
        return rc;
    CliArgs a;
    if ((rc = cli_parse(argc, argv, &a)))
        return rc;
    if (a.npos < 1 || !from)
        return cli_error(EXIT_USAGE, "usage: renju repair POSITION --from SOURCE [--nodes N] [--max-failures K] "
                                     "[--db PATH]");
    int max_failures = REPAIR_MAX_FAILURES;
    if (maxf) {
        char *e;
        long v = strtol(maxf, &e, 10);
        if (*e || v < 1 || v > 1000000)
            return cli_error(EXIT_USAGE, "bad --max-failures '%s' (1 to 1000000)", maxf);
        max_failures = (int)v;
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
    p.rules = a.rules;
    p.att = a.side == EMPTY ? t.to_move : a.side;
    const char *tr = getenv("RENJU_REPAIR_TRACE"); /* tuning knob: a line per df-pn solve on stderr */
    p.trace = tr && *tr && strcmp(tr, "0");
    if ((rc = cli_db_open(cli_db_path(&a), 0, &p.db)))
        return rc;
    db_result_store(p.db, &p.store);
    uint8_t *src = NULL;
    size_t slen = 0;
    DbRecord rec;
    if (db_get(p.db, &t, a.rules, p.att, &rec) == 0 && rec.result != RESULT_UNKNOWN &&
        (rec.result == RESULT_DISPROVEN || (rec.flags & RECORD_HAS_PROOF))) {
        db_close(p.db);
        if (a.json)
            printf("{\"result\":\"%s\",\"attacker\":\"%s\",\"stored_already\":true}\n", result_name(rec.result),
                   color_name(p.att));
        else
            printf("%s for %s: stored already (renju query)\n", result_name(rec.result), color_name(p.att));
        return EXIT_DONE;
    }
    if ((rc = db_get_proof(p.db, &s, a.rules, p.att, &src, &slen))) {
        db_close(p.db);
        return cli_error(rc == RJ_ENOTFOUND ? EXIT_NOINPUT : cli_exit_code(rc), "repair: no stored proof of %s for %s",
                         from, color_name(p.att));
    }
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.attacker = p.att;
    cfg.rules = a.rules;
    cfg.threads = a.threads;
    cfg.max_nodes = a.nodes > 0 ? (uint64_t)a.nodes : REPAIR_DEFAULT_NODES;
    cfg.max_time = a.time_s;
    cfg.tt_mb = (size_t)a.tt_mb;
    cfg.stop = cli_run_stop();
    if ((rc = dfpn_create(&p.dfpn, &cfg))) {
        free(src);
        db_close(p.db);
        return cli_error(cli_exit_code(rc), "cannot create the solver: %s", rj_strerror(rc));
    }
    cli_run_signals();
    progress_init(&p.pr, &a, "repair", false);
    RepairConfig rc_cfg = {a.rules, prove, &p, 0, max_failures};
    ProofWriter w = {0};
    RepairStats st;
    double t0 = clock_now();
    rc = proof_repair(&s, src, slen, &t, &rc_cfg, &w, &st);
    double secs = clock_now() - t0;
    ProgressInfo last = progress_info();
    last.nodes = p.work;
    progress_end(&p.pr, &last);
    free(src);
    int code = EXIT_DONE;
    if (rc == 0) {
        ProofStats ps;
        char why[512] = "";
        int crc = proof_check(&t, w.data, w.len, &ps, why, sizeof why);
        if (crc) {
            code = cli_error(EXIT_SOFTWARE, "repair: the mended proof does not check: %s", why);
        } else {
            Point best = t.to_move == p.att && w.len > PROOF_HEADER_LEN ? w.data[PROOF_HEADER_LEN] : POINT_NONE;
            StoredResult sr = {RESULT_PROVEN, p.att, best, ps.nodes, ps.depth, p.work};
            int src2 = p.store.store(p.store.ctx, &t, a.rules, &sr, w.data, w.len);
            if (src2)
                code = cli_error(cli_exit_code(src2), "storing the result failed: %s", rj_strerror(src2));
            else
                print_result(&a, from, RESULT_PROVEN, &ps, &st, &p, secs);
        }
    } else if (rc == RJ_ENOTFOUND) {
        print_result(&a, from, RESULT_UNKNOWN, NULL, &st, &p, secs);
    } else if (rc == RJ_EINTR) {
        code = cli_error(EXIT_TEMPFAIL, "repair: interrupted (the positions proven so far are stored)");
    } else {
        code = cli_error(cli_exit_code(rc), "repair: %s", rj_strerror(rc));
    }
    free(w.data);
    int frc = db_flush(p.db);
    db_close(p.db);
    dfpn_free(p.dfpn);
    if (frc && code == EXIT_DONE)
        code = cli_error(cli_exit_code(frc), "storing the results failed: %s", rj_strerror(frc));
    return code;
}
