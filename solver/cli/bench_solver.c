/*
 * bench_solver.c - the df-pn section of `renju bench`: a fixed suite solved
 * with 1 thread and a fixed 64 MiB TT.  Results and node counts go into the
 * signature; time per position and nodes/s are reported.  "nodes" counts
 * df-pn nodes plus the leaf VCF/VCT nodes (the work budget); "dfpn_nodes"
 * the df-pn nodes alone.  The "white_vct" position runs with a 1000-node
 * leaf VCT (off by default); the "throughput" position runs a fixed budget.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "board.h"
#include "clock.h"
#include "dfpn.h"
#include "names.h"
#include "position.h"

typedef struct {
    const char *name, *pos;
    Color to_move, attacker;
    uint64_t max_nodes;
    uint64_t vct_budget;
} BenchPos;

// clang-format off
static const BenchPos SUITE[] = {
    { "white_vct", "B:a1,a15,o1,o15 W:h8,i9,j8", WHITE, EMPTY, 5000000, 1000 },
    { "d4_c", "h8 h9 i9 h5 j7 g6", EMPTY, EMPTY, 5000000, 0 },
    { "d4_d", "h8 h9 i9 k8 g8 i11", EMPTY, EMPTY, 5000000, 0 },
    { "i7_b", "h8 i9 i7 i8 g7 f8", EMPTY, EMPTY, 5000000, 0 },
    { "four_three", "B:c5,d5,e5,h10,h11,h12,f9,g9 W:b5,h13,a1,d1,g1,j1,m1,o4", EMPTY, EMPTY, 5000000, 0 },
    { "d4_a", "h8 h9 i9 e11 i11 k5 j8 g10", EMPTY, EMPTY, 5000000, 0 },
    { "d4_b", "h8 h9 i9 f8 k6 f6 k7 i8", EMPTY, EMPTY, 5000000, 0 },
    { "i7_a", "h8 i9 i7 g11 k7 j10 k8 k5", EMPTY, EMPTY, 5000000, 0 },
    { "d4_e", "h8 h9 i9 e9 f8 f7 g9 g6 f6", EMPTY, BLACK, 5000000, 0 },
    { "i7_c", "h8 i9 i7 i8 g7 f11", EMPTY, BLACK, 20000000, 0 },
    /* Simulation's position (dfpn_sim.c): proven in 2.06e6 work with it, unknown at 5e6 without (7.65e6). */
    { "d4_sim", "h8 h9 i9 h10 j10 k11 i7", EMPTY, BLACK, 5000000, 0 },
    { "throughput", "h8 h9 i9 i10 j8 g7 k7", EMPTY, EMPTY, 300000, 0 },
};
// clang-format on

void bench_solver(BenchCtx *ctx)
{
    uint64_t total = 0;
    double total_t = 0;
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.tt_mb = 64;
    cfg.threads = 1;
    Dfpn *s = NULL; /* one solver (and TT) for the suite, cleared between positions */
    for (size_t i = 0; i < sizeof SUITE / sizeof SUITE[0]; i++) {
        const BenchPos *bp = &SUITE[i];
        Board b;
        char err[128];
        if (position_parse(bp->pos, RULE_RENJU, bp->to_move, &b, err, sizeof err))
            continue;
        cfg.max_nodes = bp->max_nodes;
        cfg.vct_budget = bp->vct_budget;
        if (!s && dfpn_create(&s, &cfg))
            return;
        cfg.attacker = bp->attacker;
        dfpn_set_config(s, &cfg);
        dfpn_clear(s);
        DfpnResult r;
        double t0 = clock_now();
        if (dfpn_solve(s, &b, &r))
            continue;
        double t = clock_now() - t0;
        bench_sig(ctx, r.result);
        bench_sig(ctx, r.nodes);
        bench_sig(ctx, r.dfpn_nodes);
        total += r.nodes;
        total_t += t;
        char name[64];
        snprintf(name, sizeof name, "%s_time (%s)", bp->name, result_name(r.result));
        bench_report(ctx, name, t, "s");
        snprintf(name, sizeof name, "%s_nodes", bp->name);
        bench_report(ctx, name, (double)r.nodes, "nodes");
        snprintf(name, sizeof name, "%s_dfpn_nodes", bp->name);
        bench_report(ctx, name, (double)r.dfpn_nodes, "nodes");
        if (strcmp(bp->name, "throughput") == 0) {
            snprintf(name, sizeof name, "%s_nps", bp->name);
            bench_report(ctx, name, t > 0 ? (double)r.nodes / t : 0, "nodes/s");
            snprintf(name, sizeof name, "%s_dfpn_nps", bp->name);
            bench_report(ctx, name, t > 0 ? (double)r.dfpn_nodes / t : 0, "nodes/s");
        }
    }
    dfpn_free(s);
    bench_report(ctx, "dfpn_total_nodes", (double)total, "nodes");
    bench_report(ctx, "dfpn_nps", total_t > 0 ? (double)total / total_t : 0, "nodes/s");
}
