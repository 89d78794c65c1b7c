/* cli_solve.c - `renju solve` and `verify`. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board.h"
#include "db.h"
#include "resultstore.h"
#include "cli.h"
#include "cli_run.h"
#include "cli_sgf.h"
#include "dfpn.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "proof.h"
#include "proof_extract.h"
#include "progress.h"
#include "rules.h"
#include "warm_db.h"
#include "warm_focus.h"

/* Solver progress (DfpnConfig.progress): ctx is the Progress. */
static void progress(void *ctx, const DfpnProgress *p)
{
    ProgressInfo in = progress_info();
    char text[32], json[32];
    in.nodes = p->nodes;
    in.have_root = true;
    in.root_pn = p->root_pn;
    in.root_dn = p->root_dn;
    snprintf(text, sizeof text, "tt %.1f%%", p->tt_fill_permille / 10.0);
    snprintf(json, sizeof json, "\"tt_fill\":%.3f", p->tt_fill_permille / 1000.0);
    in.text = text;
    in.json = json;
    progress_tick(ctx, &in);
}

typedef struct {
    DfpnResult r;
    bool from_db;       /* answered from the database without searching */
    const char *stored; /* database path the result was written to, or NULL */
    bool have_proof;
    ExtractStats ps;
    int extract_rc;
    bool checked;
    int check_rc;
    char why[512];
    WarmStats warm;     /* the warm start from --db (warm_db.h) */
    bool warm_bad;      /* a proof built with stored subtrees failed the checker: not stored */
    WarmFocus focus;    /* the saved tree's move searched first (warm_focus.h); move POINT_NONE: none */
    DfpnResult focus_r; /* that search */
} SolveOut;

static void print_out(const CliArgs *a, const SolveOut *o, bool verify)
{
    char best[8], pv[DFPN_MAX_PV * 6 + 8];
    const DfpnResult *r = &o->r;
    notation_point_str(r->best, best);
    if (r->best == POINT_NONE)
        strcpy(best, "-");
    notation_moves_str(r->pv, r->pv_len, pv, sizeof pv);
    if (a->json) {
        printf("{\"result\":\"%s\",\"attacker\":\"%s\",\"best\":", result_name(r->result), color_name(r->attacker));
        if (r->best == POINT_NONE)
            printf("null");
        else
            cli_json_str(stdout, best);
        printf(",\"nodes\":%llu,\"time_s\":%.3f,\"pv\":", (unsigned long long)r->nodes, r->time_s);
        cli_json_str(stdout, pv);
        printf(",\"dfpn_nodes\":%llu,\"root_pn\":%u,\"root_dn\":%u,\"max_thread_nodes\":%llu",
               (unsigned long long)r->dfpn_nodes, r->root_pn, r->root_dn, (unsigned long long)r->max_thread_nodes);
        if (r->vct_pruned)
            printf(",\"vct_pruned\":%llu", (unsigned long long)r->vct_pruned);
        if (r->sim_proven)
            printf(",\"sim_proven\":%llu", (unsigned long long)r->sim_proven);
        if (r->candidates_refuted)
            printf(",\"note\":\"no win among candidate moves\"");
        if (o->have_proof)
            printf(",\"proof_nodes\":%llu,\"proof_depth\":%u", (unsigned long long)o->ps.nodes, o->ps.depth);
        if (verify) {
            printf(",\"verified\":%s", o->checked && o->check_rc == 0 ? "true" : "false");
            if (o->checked && o->check_rc) {
                printf(",\"why\":");
                cli_json_str(stdout, o->why);
            }
        }
        if (r->interrupted)
            printf(",\"interrupted\":true");
        if (o->warm.proven || o->warm.disproven)
            printf(",\"warm_proven\":%llu,\"warm_disproven\":%llu,\"proof_spliced\":%llu",
                   (unsigned long long)o->warm.proven, (unsigned long long)o->warm.disproven,
                   (unsigned long long)o->ps.spliced);
        if (o->focus.move != POINT_NONE) {
            char fm[8];
            notation_point_str(o->focus.move, fm);
            printf(",\"focus\":");
            cli_json_str(stdout, fm);
            printf(",\"focus_result\":\"%s\",\"focus_nodes\":%llu", result_name(o->focus_r.result),
                   (unsigned long long)o->focus_r.nodes);
        }
        if (o->from_db)
            printf(",\"from_db\":true");
        if (o->stored) {
            printf(",\"stored\":");
            cli_json_str(stdout, o->stored);
        }
        printf("}\n");
    } else {
        printf("result: %s (attacker %s)\n", result_name(r->result), color_name(r->attacker));
        if (r->candidates_refuted)
            printf("note: no win among the candidate moves (not a full disproof)\n");
        printf("best: %s\npv: %s\nnodes: %llu (df-pn %llu, the rest in leaf threat searches)\ntime_s: %.3f\n"
               "root pn/dn: %u/%u\n",
               best, pv, (unsigned long long)r->nodes, (unsigned long long)r->dfpn_nodes, r->time_s, r->root_pn,
               r->root_dn);
        if (o->have_proof)
            printf("proof: %llu nodes, depth %u plies (%llu VCF/VCT leaves)\n", (unsigned long long)o->ps.nodes,
                   o->ps.depth, (unsigned long long)o->ps.vcf_leaves);
        else if (r->result == RESULT_PROVEN && o->extract_rc)
            printf("proof: not extracted (%s)\n", rj_strerror(o->extract_rc));
        if (o->have_proof && o->ps.spliced)
            printf("proof: %llu subtrees from the database's stored proofs (checked)\n",
                   (unsigned long long)o->ps.spliced);
        if (o->from_db)
            printf("from database (no search)\n");
        if (o->stored)
            printf("stored in: %s\n", o->stored);
        if (verify) {
            if (o->checked)
                printf("verified: %s%s%s\n", o->check_rc == 0 ? "yes" : "NO", o->check_rc ? " - " : "",
                       o->check_rc ? o->why : "");
            else
                printf("verified: no proof to check\n");
        }
    }
    fflush(stdout);
}

/* --sgf: the position and the proof's main line (else the search's PV). */
static int write_sgf(const CliArgs *a, const Board *b, const SolveOut *o, const uint8_t *proof, size_t plen)
{
    Point line[MAX_PLY];
    int n = proof ? proof_main_line(b, proof, plen, line, MAX_PLY - 1 - b->ply) : -1;
    const char *what = "the proof's main line";
    if (n < 0) {
        n = o->r.pv_len;
        memcpy(line, o->r.pv, sizeof line[0] * (size_t)n);
        what = "the principal variation";
    }
    return cli_sgf_export(a->sgf, b, a->rules, o->r.attacker, o->r.result, o->r.best, o->have_proof ? o->ps.nodes : 0,
                          line, n, what);
}

/* Add the counts of an earlier search of the same solve to r. */
static void add_counts(DfpnResult *r, const DfpnResult *e)
{
    r->nodes += e->nodes;
    r->dfpn_nodes += e->dfpn_nodes;
    r->time_s += e->time_s;
    r->sim_proven += e->sim_proven;
    r->vct_pruned += e->vct_pruned;
    r->max_thread_nodes = r->max_thread_nodes > e->max_thread_nodes ? r->max_thread_nodes : e->max_thread_nodes;
}

/* cfg with the budget that is left after used nodes and used_s seconds of it, times keep / 100. */
static DfpnConfig budget_left(const DfpnConfig *cfg, uint64_t used, double used_s, int keep)
{
    DfpnConfig c = *cfg;
    uint64_t left = cfg->max_nodes > used ? cfg->max_nodes - used : 0;
    c.max_nodes = left / 100 * (uint64_t)keep + left % 100 * (uint64_t)keep / 100;
    if (c.max_nodes == 0 && cfg->max_nodes > 0) /* 0 stays "no node budget" */
        c.max_nodes = 1;
    if (cfg->max_time > 0)
        c.max_time = cfg->max_time > used_s ? (cfg->max_time - used_s) * keep / 100 : 0.001;
    return c;
}

/*
 * A warm solve with a focus (--focus SHARE, warm_focus.h), black to move:
 * the saved tree's most-proving move first, with that share of the budget
 * (at most 99%), then the position with the rest in the same table, which
 * meets that move's search where it ended (proven: the position is proven at
 * once).  Without such a move, the position alone.  o->r gets the whole
 * solve's result and counts, o->focus and o->focus_r the focus.
 */
static int solve_focused(Dfpn *s, const DfpnConfig *cfg, const Board *b, Db *tree, RuleSet rs, double share,
                         SolveOut *o, bool say, const char *cmd)
{
    int rc = warm_focus_move(tree, rs, b, &o->focus);
    if (rc || o->focus.move == POINT_NONE)
        return rc ? rc : dfpn_solve(s, b, &o->r);
    Board child = *b;
    board_play(&child, o->focus.move);
    if (say) {
        char fm[8];
        notation_point_str(o->focus.move, fm);
        fprintf(
            stderr,
            "%s: focus: the saved tree's move %s first (tree pn %u; %.1f s to read the tree), %.0f%% of the budget\n",
            cmd, fm, o->focus.pn, o->focus.time_s, share * 100);
    }
    int pct = share >= 0.99 ? 99 : (int)(share * 100 + 0.5);
    DfpnConfig c = budget_left(cfg, 0, 0, pct < 1 ? 1 : pct);
    if ((rc = dfpn_set_config(s, &c)) || (rc = dfpn_solve(s, &child, &o->focus_r)))
        return rc;
    c = budget_left(cfg, o->focus_r.nodes, o->focus_r.time_s, 100);
    if (c.max_nodes > 1 && cfg->max_nodes > 0) /* a search can pass its budget by its last node: stay within --nodes */
        c.max_nodes--;
    if ((rc = dfpn_set_config(s, &c)) || (rc = dfpn_solve(s, b, &o->r)))
        return rc;
    add_counts(&o->r, &o->focus_r);
    return 0;
}

/* Shared body of solve and verify. */
static int run_solve(int argc, char **argv, bool verify)
{
    CliArgs a;
    int rc = cli_parse(argc, argv, &a);
    if (rc)
        return rc;
    Board b;
    if ((rc = cli_position(&a, 0, &b)))
        return rc;
    if (a.focus > 0 && !a.db && !a.warm_db)
        return cli_error(EXIT_USAGE, "--focus needs --db or --warm-db (the saved tree it follows)");
    if (a.focus > 0 && a.nodes <= 0 && a.time_s <= 0)
        return cli_error(EXIT_USAGE, "--focus needs --nodes or --time (a budget to share)");
    Color winner;
    if (rules_game_over(&b, a.rules, &winner))
        return cli_error(EXIT_DATAERR, "the game is already over in this position");
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.attacker = a.side;
    cfg.rules = a.rules;
    cfg.threads = a.threads;
    cfg.max_nodes = a.nodes > 0 ? (uint64_t)a.nodes : 0;
    cfg.max_time = a.time_s;
    cfg.tt_mb = (size_t)a.tt_mb;
    cfg.stop = cli_run_stop();                   /* set by SIGINT, SIGTERM, SIGUSR1 (cli_run_signals below) */
    const char *vb = getenv("RENJU_VCT_BUDGET"); /* tuning knob: nodes of a leaf VCT (unset or 0: none) */
    if (vb)
        cfg.vct_budget = strtoull(vb, NULL, 10);
    const char *vo = getenv("RENJU_VCT_ORDER"); /* tuning knob: threat order of the leaf VCT (vct.h; unset: 1) */
    if (vo)
        cfg.vct_order = atoi(vo);
    const char *fb = getenv("RENJU_VCF_BUDGET"); /* tuning knob: nodes of each leaf VCF (unset or 0: 2000) */
    if (fb)
        cfg.vcf_budget = strtoull(fb, NULL, 10);
    const char *pb = getenv("RENJU_VCT_PRUNE"); /* tuning knob: VCT pruning's budget (dfpn_prune.c; 0: off) */
    if (pb)
        cfg.vct_prune_budget = strtoull(pb, NULL, 10);
    const char *zb = getenv("RENJU_VCT_ZONE"); /* tuning knob: VCT pruning by relevance zone (zone.h) */
    if (zb && *zb)
        cfg.vct_prune_zone = strtoull(zb, NULL, 10) != 0;
    const char *qf = getenv("RENJU_QUIET_FREE"), *qp = getenv("RENJU_QUIET_PN"); /* tuning knobs: NodeRules */
    if (qf && *qf)
        cfg.quiet_free = atoi(qf);
    if (qp && *qp)
        cfg.quiet_deep_pn = atoi(qp);
    const char *sw = getenv("RENJU_SIM_WIDTH"); /* tuning knob: simulation only above this many replies */
    if (sw)
        cfg.sim_min_children = atoi(sw);
    const char *es = getenv("RENJU_EFFORT_SHIFT"); /* tuning knob: DfpnConfig.effort_shift (-1: off) */
    if (es && *es)
        cfg.effort_shift = atoi(es);
    const char *sb = getenv("RENJU_SIM_BUDGET"); /* tuning knob: work cap of one simulation (0: none) */
    if (sb)
        cfg.sim_budget = strtoull(sb, NULL, 10);
    Progress pr;
    progress_init(&pr, &a, verify ? "verify" : "solve", false);
    if (pr.mode != PROGRESS_NONE) {
        cfg.progress = progress;
        cfg.progress_ctx = &pr;
        cfg.progress_interval = progress_interval(&pr);
    }
    Dfpn *s = NULL;
    if ((rc = dfpn_create(&s, &cfg)))
        return cli_error(cli_exit_code(rc), "cannot create the solver: %s", rj_strerror(rc));
    cli_run_signals();
    SolveOut o;
    memset(&o, 0, sizeof o);
    o.focus.move = POINT_NONE;
    Db *db = NULL, *wdb = NULL; /* --db; the warm start's database: --warm-db, else --db */
    ResultStore store;
    Color att = a.side == EMPTY ? b.to_move : a.side;
    if (a.db) {
        char why[256] = "";
        if ((rc = db_open(a.db, NULL, &db, why, sizeof why))) {
            dfpn_free(s);
            return cli_error(cli_exit_code(rc), "cannot open database %s: %s", a.db, why);
        }
        db_result_store(db, &store);
    }
    /* The same file twice: LMDB must not open one environment twice in a process (its locks break). */
    struct stat st1, st2;
    bool same = a.warm_db && a.db && stat(a.warm_db, &st1) == 0 && stat(a.db, &st2) == 0 && st1.st_dev == st2.st_dev &&
                st1.st_ino == st2.st_ino;
    if (a.warm_db && !same) {
        char why[256] = "";
        DbOptions wo = {0};
        wo.flags = DB_RDONLY;
        if ((rc = db_open(a.warm_db, &wo, &wdb, why, sizeof why))) {
            db_close(db);
            dfpn_free(s);
            return cli_error(cli_exit_code(rc), "cannot open database %s: %s", a.warm_db, why);
        }
    }
    /* A stored result is the answer: from --db, else from --warm-db (then copied, with its proof, to --db). */
    for (int k = 0; k < 2 && !verify; k++) {
        Db *from = k == 0 ? db : wdb;
        if (!from)
            continue;
        DbRecord rec;
        if (db_get(from, &b, a.rules, att, &rec) != 0 || rec.result == RESULT_UNKNOWN)
            continue;
        uint8_t *proof = NULL;
        size_t plen = 0;
        bool has_proof = (rec.flags & RECORD_HAS_PROOF) && (k == 1 || a.sgf) &&
                         db_get_proof(from, &b, a.rules, att, &proof, &plen) == 0;
        if (k == 1 && rec.result == RESULT_PROVEN && !has_proof) {
            free(proof);
            continue; /* nothing to copy: search (and store the proof found) */
        }
        o.from_db = true;
        o.r.result = rec.result;
        o.r.attacker = att;
        o.r.best = rec.best;
        o.r.nodes = rec.nodes;
        o.have_proof = rec.proof_nodes > 0;
        o.ps.nodes = rec.proof_nodes;
        o.ps.depth = rec.proof_depth;
        int dbrc = 0;
        if (k == 1 && db) {
            StoredResult sr = {rec.result, att, rec.best, rec.proof_nodes, rec.proof_depth, rec.nodes};
            dbrc = store.store(store.ctx, &b, a.rules, &sr, has_proof ? proof : NULL, has_proof ? plen : 0);
            if (!dbrc)
                dbrc = db_flush(db);
            if (!dbrc)
                o.stored = db_path(db);
        }
        print_out(&a, &o, false);
        if (a.sgf && !dbrc)
            rc = write_sgf(&a, &b, &o, has_proof ? proof : NULL, plen);
        free(proof);
        db_close(wdb);
        db_close(db);
        dfpn_free(s);
        if (dbrc)
            return cli_error(cli_exit_code(dbrc), "storing the result failed: %s", rj_strerror(dbrc));
        return rc;
    }
    WarmDb *warm = NULL;
    Db *wsrc = wdb ? wdb : db;
    if (wsrc && !a.no_warm && att == BLACK) {
        rc = warm_db_load(&warm, wsrc, a.rules, &b, s, 0, cfg.stop, &o.warm); /* a signal stops the walk too */
        if (rc) {
            db_close(wdb);
            db_close(db);
            dfpn_free(s);
            return cli_error(cli_exit_code(rc), "warm start from %s failed: %s", db_path(wsrc), rj_strerror(rc));
        }
        if ((o.warm.proven || o.warm.disproven) && !a.quiet && pr.mode != PROGRESS_NONE && pr.mode != PROGRESS_JSON)
            fprintf(stderr,
                    "%s: warm start: %llu proven and %llu disproven positions from the database's tree "
                    "(%llu nodes walked%s, %.1f s)\n",
                    verify ? "verify" : "solve", (unsigned long long)o.warm.proven,
                    (unsigned long long)o.warm.disproven, (unsigned long long)o.warm.walked,
                    o.warm.truncated ? ", stopped early" : "", o.warm.time_s);
    }
    /* --focus: the saved tree's most-proving move first (warm_focus.h); only where the walk met the tree */
    bool focus = a.focus > 0 && wsrc && !a.no_warm && att == BLACK && b.to_move == BLACK && o.warm.walked > 0 &&
                 !o.warm.truncated && (cfg.max_nodes > 1 || cfg.max_time > 0);
    bool say = !a.quiet && pr.mode != PROGRESS_NONE && pr.mode != PROGRESS_JSON;
    rc = focus ? solve_focused(s, &cfg, &b, wsrc, a.rules, a.focus, &o, say, verify ? "verify" : "solve")
               : dfpn_solve(s, &b, &o.r);
    ProgressInfo last = progress_info();
    last.nodes = o.r.nodes;
    last.have_root = true;
    last.root_pn = o.r.root_pn;
    last.root_dn = o.r.root_dn;
    progress_end(&pr, &last);
    if (rc) {
        warm_db_free(warm);
        db_close(wdb);
        db_close(db);
        dfpn_free(s);
        return cli_error(cli_exit_code(rc), "solve failed: %s", rj_strerror(rc));
    }
    ProofWriter w = {0};
    if (o.r.result == RESULT_PROVEN && !o.r.interrupted) {
        ProofSource src;
        warm_db_source(warm, &src);
        o.extract_rc = proof_extract_from(s, &b, o.r.attacker, 0, 0, warm ? &src : NULL, &w, &o.ps);
        o.have_proof = o.extract_rc == 0;
        /* Stored subtrees in it: the whole proof is checked before it is stored. */
        if (o.have_proof && o.ps.spliced && !verify) {
            ProofStats st;
            if (proof_check(&b, w.data, w.len, &st, o.why, sizeof o.why) != 0) {
                o.warm_bad = true;
                o.have_proof = false;
                o.extract_rc = RJ_EBADDATA;
            }
        }
        if (verify && o.have_proof) {
            ProofStats st;
            o.checked = true;
            o.check_rc = proof_check(&b, w.data, w.len, &st, o.why, sizeof o.why);
        }
    }
    int dbrc = 0;
    bool checked_ok = !verify || (o.checked && o.check_rc == 0);
    if (db && (o.r.result == RESULT_DISPROVEN || (o.r.result == RESULT_PROVEN && o.have_proof && checked_ok))) {
        StoredResult sr = {o.r.result, o.r.attacker, o.r.best, o.ps.nodes, o.ps.depth, o.r.nodes};
        dbrc = store.store(store.ctx, &b, a.rules, &sr, o.have_proof ? w.data : NULL, o.have_proof ? w.len : 0);
        if (!dbrc)
            dbrc = db_flush(db);
        if (!dbrc)
            o.stored = db_path(db);
    }
    print_out(&a, &o, verify);
    /* A hard black win: the job-level search splits it where one flat budget stalls. */
    if (o.r.result == RESULT_UNKNOWN && !o.r.interrupted && o.r.attacker == BLACK && !a.json && !a.quiet &&
        pr.mode != PROGRESS_JSON && pr.mode != PROGRESS_NONE && b.base_ply == 0 && b.ply > 0) {
        char mv[MAX_PLY * 6 + 8];
        notation_moves_str(b.hist, b.ply, mv, sizeof mv);
        fprintf(stderr,
                "hint: the opening-level search proves harder positions than one budget can: "
                "renju opening search \"%s\" --goal win --db PATH\n",
                mv);
    }
    int src = a.sgf ? write_sgf(&a, &b, &o, o.have_proof ? w.data : NULL, o.have_proof ? w.len : 0) : 0;
    free(w.data);
    warm_db_free(warm);
    db_close(wdb);
    db_close(db);
    dfpn_free(s);
    if (dbrc)
        return cli_error(cli_exit_code(dbrc), "storing the result failed: %s", rj_strerror(dbrc));
    if (src)
        return src;
    if (o.r.interrupted)
        return EXIT_TEMPFAIL;
    if (verify && o.checked && o.check_rc)
        return cli_error(EXIT_SOFTWARE, "the extracted proof does not check: %s", o.why);
    if (o.warm_bad)
        return cli_error(EXIT_SOFTWARE, "the proof built with the database's stored proofs does not check: %s", o.why);
    if (verify && o.r.result == RESULT_PROVEN && !o.have_proof)
        return cli_error(EXIT_SOFTWARE, "no proof could be extracted: %s", rj_strerror(o.extract_rc));
    return EXIT_DONE;
}

int cmd_solve(int argc, char **argv) { return run_solve(argc, argv, false); }

int cmd_verify(int argc, char **argv) { return run_solve(argc, argv, true); }
