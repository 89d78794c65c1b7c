/* cli_threat.c - `renju vcf`, `renju vct`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "cli.h"
#include "cli_run.h"
#include "clock.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "vcf.h"
#include "vct.h"

/* A threat search's outcome as this command reports it (not the solver's proven/disproven). */
static const char *outcome_name(Result r)
{
    return r == RESULT_PROVEN ? "win" : r == RESULT_DISPROVEN ? "none" : "unknown";
}

/* log2 of the VCF table entries for --tt-mb (8-byte entries), within 10..28. */
static int tt_log2(long mb)
{
    int k = 10;
    while (k < 28 && ((uint64_t)8 << (k + 1)) <= (uint64_t)mb << 20)
        k++;
    return k;
}

static void print_result(const CliArgs *a, const char *what, Result r, Color side, const Point *line, int len,
                         int att_moves, uint64_t nodes, double dt, uint64_t proof_nodes)
{
    char text[VCF_MAX_LINE * 6 + 8];
    notation_moves_str(line, len, text, sizeof text);
    if (a->json) {
        printf("{\"result\":\"%s\",\"side\":\"%s\",\"line\":", outcome_name(r), color_name(side));
        cli_json_str(stdout, text);
        printf(",\"attacker_moves\":%d,\"nodes\":%llu,\"time_s\":%.6f", att_moves, (unsigned long long)nodes, dt);
        if (proof_nodes)
            printf(",\"proof_nodes\":%llu,\"proof_checked\":true", (unsigned long long)proof_nodes);
        printf("}\n");
        return;
    }
    if (r == RESULT_PROVEN)
        printf("%s: win for %s in %d moves: %s\n", what, color_name(side), att_moves, text);
    else if (r == RESULT_DISPROVEN)
        printf("%s: none for %s\n", what, color_name(side));
    else
        printf("%s: unknown for %s (budget exhausted)\n", what, color_name(side));
    printf("nodes %llu, %.6f s\n", (unsigned long long)nodes, dt);
}

/* Exit code after a search: 75 when a signal stopped it before it was decided. */
static int interrupted(const char *what, Result r)
{
    if (r != RESULT_UNKNOWN || !atomic_load(cli_run_stop()))
        return EXIT_DONE;
    return cli_error(EXIT_TEMPFAIL, "%s: interrupted", what);
}

static int setup(int argc, char **argv, CliArgs *a, Board *b, ThreatOpts *o, const char *usage)
{
    int rc = cli_parse(argc, argv, a);
    if (rc)
        return rc;
    if (a->help) {
        printf("usage: renju %s\n", usage);
        return -1;
    }
    if ((rc = cli_position(a, 0, b)))
        return rc;
    memset(o, 0, sizeof *o);
    o->max_nodes = (uint64_t)a->nodes;
    o->max_time_s = a->time_s;
    o->shortest = a->shortest;
    o->stop = cli_run_stop();
    cli_run_signals();
    return 0;
}

int cmd_vcf(int argc, char **argv)
{
    CliArgs a;
    Board b;
    ThreatOpts o;
    int rc = setup(argc, argv, &a, &b, &o,
                   "vcf POSITION [--side S] [--nodes N] [--time S] [--shortest] [--json] [--rules R]");
    if (rc)
        return rc < 0 ? EXIT_DONE : rc;
    Color side = a.side ? a.side : b.to_move;
    VcfCtx *ctx = vcf_new(tt_log2(a.tt_mb));
    if (!ctx)
        return cli_error(EXIT_SOFTWARE, "out of memory");
    static VcfResult res;
    double t0 = clock_now();
    rc = vcf_search(ctx, &b, side, a.rules, &o, &res);
    double dt = clock_now() - t0;
    vcf_free(ctx);
    if (rc)
        return cli_error(cli_exit_code(rc), "vcf: cannot search this position");
    print_result(&a, "vcf", res.result, side, res.line, res.len, res.attacker_moves, res.nodes, dt, 0);
    return interrupted("vcf", res.result);
}

/*
 * Write the proof of the win just found and check it with the independent
 * checker: 0 with *nodes set, else the exit code after the message.
 */
static int check_vct_proof(VctCtx *ctx, Board *b, Color side, RuleSet rs, uint64_t *nodes)
{
    ProofWriter w = {0};
    pw_header(&w, rs, side);
    int rc = vct_write_proof(ctx, b, &w);
    if (rc || w.err) {
        free(w.data);
        return cli_error(EXIT_SOFTWARE, "vct: cannot write the proof (%s)", rj_strerror(rc ? rc : w.err));
    }
    ProofStats st;
    char why[256];
    rc = proof_check(b, w.data, w.len, &st, why, sizeof why);
    free(w.data);
    if (rc)
        return cli_error(EXIT_SOFTWARE, "vct: the proof fails the checker: %s", why);
    *nodes = st.nodes;
    return 0;
}

/*
 * Memory for the VCT's tables: --tt-mb when given; else what the budget can
 * use (the strict order's tree takes about 5 nodes of 20 bytes per node of
 * work, up to 6 on some positions, plus the hash tables: 192 bytes a node),
 * at least the 256 MiB default and at most half of the machine's memory.
 * The tree grows on demand, so a large cap costs nothing until the search
 * needs it.
 */
static size_t vct_memory(const CliArgs *a, uint64_t budget)
{
    size_t mem = (size_t)a->tt_mb << 20;
    if (a->tt_mb_set || budget == 0)
        return mem;
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    uint64_t half = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize / 2 : (uint64_t)mem;
    uint64_t want = budget > UINT64_MAX / 192 ? UINT64_MAX : budget * 192;
    if (want > half)
        want = half;
    return want > mem ? (size_t)want : mem;
}

int cmd_vct(int argc, char **argv)
{
    CliArgs a;
    Board b;
    ThreatOpts o;
    int rc = setup(argc, argv, &a, &b, &o,
                   "vct POSITION [--side S] [--order K] [--check] [--nodes N] [--time S] [--tt-mb MB] [--json] "
                   "[--rules R]");
    if (rc)
        return rc < 0 ? EXIT_DONE : rc;
    Color side = a.side ? a.side : b.to_move;
    o.order = a.order ? a.order : 1;
    int log2;
    uint32_t tree;
    vct_size_for(o.max_nodes, vct_memory(&a, o.max_nodes), &log2, &tree);
    VctCtx *ctx = vct_new(log2, tree);
    if (!ctx)
        return cli_error(EXIT_SOFTWARE, "out of memory");
    static VctResult res;
    double t0 = clock_now();
    rc = vct_search(ctx, &b, side, a.rules, &o, &res);
    double dt = clock_now() - t0;
    uint64_t proof_nodes = 0;
    if (!rc && a.check && res.result == RESULT_PROVEN && (rc = check_vct_proof(ctx, &b, side, a.rules, &proof_nodes))) {
        vct_free(ctx);
        return rc;
    }
    vct_free(ctx);
    if (rc)
        return cli_error(cli_exit_code(rc), "vct: cannot search this position");
    int att_moves = 0;
    for (int i = 0; i < res.len; i++)
        att_moves += (i % 2 == 0) == (b.to_move == side);
    print_result(&a, "vct", res.result, side, res.line, res.len, att_moves, res.nodes, dt, proof_nodes);
    if (proof_nodes && !a.json)
        printf("proof: %llu nodes, checked\n", (unsigned long long)proof_nodes);
    return interrupted("vct", res.result);
}
