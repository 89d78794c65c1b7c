/* bench_board.c - bench section: make/undo speed of the board. */
#include "bench.h"
#include "board.h"
#include "clock.h"

void bench_board(BenchCtx *ctx)
{
    Board b;
    board_init(&b);
    uint64_t s = UINT64_C(0x9e3779b97f4a7c15);
    Point seq[64];
    for (int i = 0; i < 64; i++) {
        Point p;
        do {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            p = (Point)(s % BOARD_POINTS);
        } while (board_at(&b, p) != EMPTY);
        board_play(&b, p);
        seq[i] = p;
    }
    while (b.ply)
        board_undo(&b);
    const long reps = 400000;
    Key acc = 0;
    double t0 = clock_now();
    for (long r = 0; r < reps; r++) {
        for (int i = 0; i < 64; i++)
            board_play(&b, seq[i]);
        acc ^= b.key;
        for (int i = 0; i < 64; i++)
            board_undo(&b);
    }
    double dt = clock_now() - t0;
    bench_report(ctx, "make_undo_pairs_per_s", (double)reps * 64 / dt, "pairs/s");
    bench_sig(ctx, acc);
}
