/*
 * bench.h - `renju bench`: fixed workloads, 1 thread.  Each area adds a
 * section (bench_<area>.c) to the list in cli_bench.c.  A section prints its
 * figures (one line each, "name: value unit") and adds every deterministic
 * count (nodes, results) to the signature with bench_sig(); timings never go
 * into the signature.
 */
#ifndef RJ_BENCH_H
#define RJ_BENCH_H

#include <stdint.h>

typedef struct BenchCtx BenchCtx;

/* Add a deterministic value to the bench signature. */
void bench_sig(BenchCtx *ctx, uint64_t v);

/* Print one figure line: "  <name>: <value> <unit>". */
void bench_report(BenchCtx *ctx, const char *name, double value, const char *unit);

/* Sections. */
void bench_board(BenchCtx *ctx);
void bench_rules(BenchCtx *ctx);
void bench_threat(BenchCtx *ctx);
void bench_db(BenchCtx *ctx);
void bench_solver(BenchCtx *ctx);

#endif /* RJ_BENCH_H */
