/*
 * bench_threat.c - bench section: VCF and VCT on a fixed puzzle set.
 * Each puzzle is solved from a cleared table; node counts, results and line
 * lengths go into the signature, times only into the report.
 */
#include <stdio.h>

#include "bench.h"
#include "board.h"
#include "clock.h"
#include "position.h"
#include "vcf.h"
#include "vct.h"

typedef struct {
    const char *name;
    const char *pos;
    Color attacker;
    bool shortest;
} Puzzle;

/*
 * Random tactical positions found by a generator (moves from the empty board,
 * or stone sets: a move list starting with a point such as "i12" would be read
 * as an opening code).
 */
static const Puzzle VCF_PUZZLES[] = {
    {"vcf_black_12",
     "o9 a9 j1 n13 n9 n12 i3 m8 e2 n10 a12 n2 d8 a11 m10 m12 e4 l2 l9 n8 o12 m13 l6 h14 i2 n15 "
     "f8 c9 m7 l10 e1 n6 g9 l14 f5 m14 f9 n14",
     BLACK, false},
    {"vcf_black_12_shortest",
     "o9 a9 j1 n13 n9 n12 i3 m8 e2 n10 a12 n2 d8 a11 m10 m12 e4 l2 l9 n8 o12 m13 l6 h14 "
     "i2 n15 f8 c9 m7 l10 e1 n6 g9 l14 f5 m14 f9 n14",
     BLACK, true},
    {"vcf_black_9",
     "n10 d14 o10 m13 n3 m10 n2 h7 o4 e14 m11 g5 n7 b15 o12 n9 k14 f5 e2 c14 l7 i6 o8 d13 o5 h9 n8 "
     "j7 m2 i4",
     BLACK, false},
    {"vcf_white_5_forbidden_block",
     "B:i12,i11,h13,f13,k6,g11,f14,k12,d7,i10,i14,g4,k9,m10,f4,l4 "
     "W:c8,b10,j13,a11,a8,m12,h10,h14,n6,d8,f9,i13,h12,g10,f5",
     WHITE, true},
    {"vcf_white_7",
     "h13 b13 j13 a14 h15 f14 a2 a13 f8 l13 j12 g14 i15 d9 d8 m1 h14 c15 h3 c13 i10 d13 h8 a6 "
     "b1 g1 g13 f7 f15 e14 j14 b5 e13 k1 n14 k15 g7",
     WHITE, false},
    {"vcf_black_dense",
     "h13 i7 f14 e9 j13 c7 n15 o4 i11 b6 b13 c9 h14 c8 f13 f3 c12 e7 k6 m2 g9 f4 b14 b8 d12 "
     "f9 d14 k4 c1 i9 h12 n3 b11 k2 c11 i5 a3 h8 i4 g6 g7 j11 h9 g15 b3 h7 d13 j7 h4 b7 e11 "
     "g12 f5 n2 f2 o1 e4 m3 f10 i13 e12 l1",
     BLACK, false},
    {"vcf_black_28_line",
     "B:a1,a2,f2,b3,c3,b4,h4,j4,l4,d5,j5,n5,a6,l6,a7,f7,m8,o8,b9,i9,n9,a10,h10,b11,l11,a12,"
     "d12,i12,i13,c14,g15,j15,l15 W:b1,k2,o2,l3,d4,o4,c5,e5,i8,b10,d10,g10,j10,g13,a14,b14,"
     "e14,h14",
     BLACK, false},
    {"vcf_none_D4", "D4 i10 h10", BLACK, false},
    {"vcf_none_I7", "I7 j7 g9", WHITE, false},
};

static const Puzzle VCT_PUZZLES[] = {
    {"vct_white_a", "k7 f3 h5 e2 j10 f5 l9 m11 i7 n10 d12 o9 k6 j12 m10 l13 f12", WHITE, false},
    {"vct_white_b",
     "B:i2,g2,c11,f2,i3,k2,h1,e1,i5,j2,d11 W:d13,f8,h5,d14,f3,d9,f13,f"
     "5,k6,g3",
     WHITE, false},
    {"vct_black_a", "j11 i12 k9 j4 k7 i11 j7 j3 j6 k14 j5 h13 i9 i2 g8 k5 h6 j10 i4 j9 j13 i7", BLACK, false},
};

static VcfResult vres;
static VctResult tres;

void bench_threat(BenchCtx *ctx)
{
    VcfCtx *vcf = vcf_new(14); /* small: it is cleared before every timed solve */
    VctCtx *vct = vct_new(20, 1u << 20);
    if (!vcf || !vct)
        goto done;
    char name[96], err[256];
    for (size_t i = 0; i < sizeof VCF_PUZZLES / sizeof VCF_PUZZLES[0]; i++) {
        const Puzzle *pz = &VCF_PUZZLES[i];
        Board b;
        /* Stone sets give the attacker the move (their stone counts need not be a game's). */
        Color tm = pz->pos[0] == 'B' && pz->pos[1] == ':' ? pz->attacker : EMPTY;
        if (position_parse(pz->pos, RULE_RENJU, tm, &b, err, sizeof err)) {
            bench_sig(ctx, 0xbad);
            continue;
        }
        ThreatOpts o = {.shortest = pz->shortest};
        /* Repeat a cheap puzzle to time it; every repetition starts from a cleared table. */
        int reps = 0;
        double t0 = clock_now(), dt;
        do {
            vcf_clear(vcf);
            vcf_search(vcf, &b, pz->attacker, RULE_RENJU, &o, &vres);
            reps++;
            dt = clock_now() - t0;
        } while (dt < 0.05 && reps < 2000);
        snprintf(name, sizeof name, "%s_ms", pz->name);
        bench_report(ctx, name, dt / reps * 1e3, vres.result == RESULT_PROVEN ? "ms (win)" : "ms (none)");
        snprintf(name, sizeof name, "%s_nodes", pz->name);
        bench_report(ctx, name, (double)vres.nodes, "nodes");
        if (vres.result == RESULT_PROVEN) {
            snprintf(name, sizeof name, "%s_moves", pz->name);
            bench_report(ctx, name, vres.attacker_moves, "attacker moves in the line");
        }
        bench_sig(ctx, vres.nodes);
        bench_sig(ctx, (uint64_t)vres.result);
        bench_sig(ctx, (uint64_t)vres.attacker_moves);
    }
    for (size_t i = 0; i < sizeof VCT_PUZZLES / sizeof VCT_PUZZLES[0]; i++) {
        const Puzzle *pz = &VCT_PUZZLES[i];
        Board b;
        Color tm = pz->pos[0] == 'B' && pz->pos[1] == ':' ? pz->attacker : EMPTY;
        if (position_parse(pz->pos, RULE_RENJU, tm, &b, err, sizeof err)) {
            bench_sig(ctx, 0xbad);
            continue;
        }
        ThreatOpts o = {.max_nodes = 2000000};
        double t0 = clock_now();
        vct_search(vct, &b, pz->attacker, RULE_RENJU, &o, &tres);
        double dt = clock_now() - t0;
        snprintf(name, sizeof name, "%s_s", pz->name);
        bench_report(ctx, name, dt, tres.result == RESULT_PROVEN ? "s (win)" : "s (not proven)");
        snprintf(name, sizeof name, "%s_nodes", pz->name);
        bench_report(ctx, name, (double)tres.nodes, "nodes");
        bench_sig(ctx, tres.nodes);
        bench_sig(ctx, (uint64_t)tres.result);
    }
done:
    vcf_free(vcf);
    vct_free(vct);
}
