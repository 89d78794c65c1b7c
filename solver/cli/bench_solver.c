/*
 * bench_solver.c - the df-pn section of `renju bench`: a fixed suite solved
 * with 1 thread and a fixed 64 MiB TT.  Results and node counts go into the
 * signature; time per position and nodes/s are reported.  The "throughput"
 * position runs a fixed node budget without the leaf VCT (pure df-pn speed).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "board.h"
#include "dfpn.h"
#include "position.h"

typedef struct {
    const char *name, *pos;
    Color to_move;
    uint64_t max_nodes;
    bool no_vct;
} BenchPos;

static const BenchPos SUITE[] = {
    { "white_vct", "B:a1,a15,o1,o15 W:h8,i9,j8", WHITE, 200000, false },
    { "four_three", "B:c5,d5,e5,h10,h11,h12,f9,g9 W:b5,h13,a1,d1,g1,j1,m1,o4", EMPTY, 200000, false },
    { "d4_a", "h8 h9 i9 e11 i11 k5 j8 g10", EMPTY, 200000, false },
    { "d4_b", "h8 h9 i9 f8 k6 f6 k7 i8", EMPTY, 200000, false },
    { "i7_a", "h8 i9 i7 g11 k7 j10 k8 k5", EMPTY, 200000, false },
    { "throughput", "h8 h9 i9 i10 j8 g7 k7", EMPTY, 100000, true },
};

void bench_solver(BenchCtx *ctx)
{
    uint64_t total = 0;
    double total_t = 0;
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.tt_mb = 64;
    cfg.threads = 1;
    Dfpn *s = NULL;
    if (dfpn_create(&s, &cfg))
        return;
    for (size_t i = 0; i < sizeof SUITE / sizeof SUITE[0]; i++) {
        const BenchPos *bp = &SUITE[i];
        Board b;
        char err[128];
        if (position_parse(bp->pos, RULE_RENJU, bp->to_move, &b, err, sizeof err))
            continue;
        dfpn_free(s);
        cfg.max_nodes = bp->max_nodes;
        cfg.no_vct = bp->no_vct;
        if (dfpn_create(&s, &cfg))
            return;
        DfpnResult r;
        double t0 = bench_now();
        if (dfpn_solve(s, &b, &r))
            continue;
        double t = bench_now() - t0;
        bench_sig(ctx, r.result);
        bench_sig(ctx, r.nodes);
        total += r.nodes;
        total_t += t;
        char name[64];
        snprintf(name, sizeof name, "%s_time (%s)", bp->name,
                 r.result == RESULT_PROVEN ? "proven" : r.result == RESULT_DISPROVEN ? "disproven" : "unknown");
        bench_report(ctx, name, t, "s");
        snprintf(name, sizeof name, "%s_nodes", bp->name);
        bench_report(ctx, name, (double)r.nodes, "nodes");
        if (bp->no_vct) {
            snprintf(name, sizeof name, "%s_nps", bp->name);
            bench_report(ctx, name, t > 0 ? (double)r.nodes / t : 0, "nodes/s");
        }
    }
    dfpn_free(s);
    bench_report(ctx, "dfpn_total_nodes", (double)total, "nodes");
    bench_report(ctx, "dfpn_nps", total_t > 0 ? (double)total / total_t : 0, "nodes/s");
}
