/*
 * bench_rules.c - bench section: renju rules speed.
 *
 * A fixed set of positions (clustered tactical stone sets and short random
 * games around the centre, from a fixed seed).  Figures: the forbidden status
 * of every empty point (points/s), exact checks of the hard points (points
 * where the table screen leaves a double-three candidate that needs the
 * recursive RIF 9.3 check; points/s), and the threat queries the VCF/VCT
 * search uses (five points and four points, points/s).  The counts of each
 * verdict go into the signature.
 */
#include <stdlib.h>

#include "bench.h"
#include "board.h"
#include "clock.h"
#include "rules.h"

enum { NPOS = 256, MAX_HARD = 1 << 16 };

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static int rng_int(uint64_t *s, int n) { return (int)((rng(s) >> 11) % (uint64_t)n); }

/* Stones clustered around a random point, many of them on a few lines. */
static void clustered(Board *b, uint64_t *s)
{
    board_init(b);
    int c0 = rng_int(s, BOARD_SIZE), r0 = rng_int(s, BOARD_SIZE);
    int nb = 4 + rng_int(s, 22), nw = rng_int(s, nb + 1), nl = 1 + rng_int(s, 4);
    int lc[4], lr[4], ld[4];
    for (int i = 0; i < nl; i++)
        lc[i] = c0 + rng_int(s, 5) - 2, lr[i] = r0 + rng_int(s, 5) - 2, ld[i] = rng_int(s, NUM_DIRS);
    for (int placed = 0, tries = 0; placed < nb + nw && tries < 2000; tries++) {
        int c, r;
        if (rng_int(s, 3) < 2) {
            int i = rng_int(s, nl), k = rng_int(s, 11) - 5;
            c = lc[i] + k * DIR_DC[ld[i]], r = lr[i] + k * DIR_DR[ld[i]];
        } else {
            c = c0 + rng_int(s, 5) + rng_int(s, 5) - 4, r = r0 + rng_int(s, 5) + rng_int(s, 5) - 4;
        }
        if (!point_on_board(c, r) || board_at(b, point_make(c, r)) != EMPTY)
            continue;
        board_setup_stone(b, point_make(c, r), placed < nb ? BLACK : WHITE);
        placed++;
    }
}

/* A short legal renju game: moves near the centre / the stones, until a win. */
static void random_game(Board *b, uint64_t *s)
{
    board_init(b);
    int moves = 10 + rng_int(s, 40);
    for (int m = 0; m < moves; m++) {
        Point p;
        int tries = 0;
        do {
            p = point_make(7 + rng_int(s, 7) - 3 + rng_int(s, 7) - 3, 7 + rng_int(s, 7) - 3 + rng_int(s, 7) - 3);
        } while (++tries < 100 && !rules_is_legal(b, p, RULE_RENJU));
        if (tries >= 100)
            break;
        board_play(b, p);
        Color w;
        if (rules_game_over(b, RULE_RENJU, &w)) {
            board_undo(b);
            break;
        }
    }
}

/* The workloads: each returns a deterministic checksum of its verdicts. */
typedef struct {
    Board *pos;
    const uint32_t *hard;
    int nhard;
} Work;

static uint64_t work_per_point(const Work *w)
{
    uint64_t acc = 0;
    for (int i = 0; i < NPOS; i++)
        for (int p = 0; p < BOARD_POINTS; p++)
            if (w->pos[i].cell[p] == EMPTY)
                acc += rules_forbidden(&w->pos[i], (Point)p);
    return acc;
}

static uint64_t work_bulk(const Work *w)
{
    Point out[BOARD_POINTS];
    ForbidKind kind[BOARD_POINTS];
    uint64_t acc = 0;
    for (int i = 0; i < NPOS; i++) {
        int n = rules_forbidden_points(&w->pos[i], out, kind);
        for (int k = 0; k < n; k++)
            acc += (uint64_t)kind[k] * out[k];
    }
    return acc;
}

static uint64_t work_hard(const Work *w)
{
    uint64_t acc = 0;
    for (int h = 0; h < w->nhard; h++)
        acc += rules_forbidden(&w->pos[w->hard[h] >> 8], (Point)(w->hard[h] & 0xff));
    return acc;
}

static uint64_t work_threats(const Work *w)
{
    Point out[BOARD_POINTS];
    uint64_t acc = 0;
    for (int i = 0; i < NPOS; i++) {
        Board *b = &w->pos[i];
        acc += (uint64_t)rules_five_points(b, BLACK, RULE_RENJU, out);
        acc += (uint64_t)rules_five_points(b, WHITE, RULE_RENJU, out) << 16;
        for (int p = 0; p < BOARD_POINTS; p++)
            if (b->cell[p] == EMPTY)
                acc += (uint64_t)rules_four_points_after(b, (Point)p, b->to_move, RULE_RENJU, out) << 32;
    }
    return acc;
}

/*
 * Run a workload reps times per round, 5 rounds; report items*reps per second
 * of the fastest round (the machine is shared: the best round is the least
 * disturbed) and add the checksum of one run to the signature.
 */
static void timed(BenchCtx *ctx, const char *name, uint64_t (*fn)(const Work *), const Work *w, int reps,
                  double items)
{
    uint64_t sum = fn(w);
    double best = 1e30;
    for (int round = 0; round < 5; round++) {
        double t0 = clock_now();
        for (int r = 0; r < reps; r++)
            if (fn(w) != sum)
                sum = 0; /* never: the verdicts are deterministic */
        double dt = clock_now() - t0;
        if (dt < best)
            best = dt;
    }
    bench_report(ctx, name, best > 0 ? items * reps / best : 0, "points/s");
    bench_sig(ctx, sum);
}

void bench_rules(BenchCtx *ctx)
{
    Board *pos = malloc(sizeof(Board) * NPOS);
    uint32_t *hard = malloc(sizeof(uint32_t) * MAX_HARD);
    if (!pos || !hard) {
        free(pos);
        free(hard);
        return;
    }
    uint64_t s = UINT64_C(0x2545f4914f6cdd1d);
    for (int i = 0; i < NPOS; i++) {
        if (i % 2)
            clustered(&pos[i], &s);
        else
            random_game(&pos[i], &s);
    }
    uint64_t kinds[4] = { 0 }, points = 0;
    int nhard = 0;
    for (int i = 0; i < NPOS; i++)
        for (int p = 0; p < BOARD_POINTS; p++)
            if (board_at(&pos[i], (Point)p) == EMPTY) {
                kinds[rules_forbidden(&pos[i], (Point)p)]++;
                points++;
                if (rules_double_three_candidate(&pos[i], (Point)p) && nhard < MAX_HARD)
                    hard[nhard++] = (uint32_t)(i << 8 | p);
            }
    for (int k = 0; k < 4; k++)
        bench_sig(ctx, kinds[k]);
    bench_sig(ctx, (uint64_t)nhard);
    bench_report(ctx, "empty_points", (double)points, "points");
    bench_report(ctx, "forbidden_points", (double)(kinds[1] + kinds[2] + kinds[3]), "points");
    bench_report(ctx, "hard_points", (double)nhard, "points");
    Work w = { pos, hard, nhard };
    timed(ctx, "forbidden_all_points_per_s", work_bulk, &w, 40, (double)points);
    timed(ctx, "forbidden_per_point_calls_per_s", work_per_point, &w, 4, (double)points);
    if (nhard)
        timed(ctx, "hard_points_per_s", work_hard, &w, 100, (double)nhard);
    timed(ctx, "five_and_four_points_per_s", work_threats, &w, 1, (double)points);
    free(pos);
    free(hard);
}
