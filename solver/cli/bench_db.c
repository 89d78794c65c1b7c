/*
 * bench_db.c - `renju bench` section "db": the results database in process.
 *
 * Builds a fresh database in a temporary directory, inserts N results in
 * batches (db_queue from positions, so canonicalisation is included, and
 * db_queue_key with keys computed beforehand, the storage alone), then times
 * single lookups of random stored positions (db_get, canonicalisation
 * included) and reports their median and 99th percentile.  Counts go into
 * the signature; timings only into the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "board.h"
#include "clock.h"
#include "db.h"

enum { BENCH_N = 200000, BENCH_Q = 100000 };

/* Position number i: isolated stones coding i, plus an asymmetric anchor. */
static void bench_board_n(uint32_t i, Board *b)
{
    board_init(b);
    board_setup_stone(b, point_make(7, 7), BLACK);
    board_setup_stone(b, point_make(8, 9), WHITE);
    for (int k = 0; k < 24; k++)
        if (i >> k & 1)
            board_setup_stone(b, point_make((k % 8) * 2, (k / 8) * 2), k % 3 ? WHITE : BLACK);
    board_set_to_move(b, BLACK);
}

/* Process CPU seconds: rates that other processes on a shared machine do not skew. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void rm_db(const char *path)
{
    char lock[600];
    snprintf(lock, sizeof lock, "%s-lock", path);
    unlink(path);
    unlink(lock);
}

void bench_db(BenchCtx *ctx)
{
    char dir[] = "/tmp/renju_bench_db.XXXXXX", path[256], path2[256];
    if (!mkdtemp(dir)) {
        bench_report(ctx, "db_error", 1, "(no temporary directory)");
        return;
    }
    snprintf(path, sizeof path, "%s/a.lmdb", dir);
    snprintf(path2, sizeof path2, "%s/b.lmdb", dir);
    Db *db = NULL, *db2 = NULL;
    DbOptions o = { DB_CREATE, 0, 8192 };
    DbKey *keys = malloc(BENCH_N * sizeof *keys);
    double *lat = malloc(BENCH_Q * sizeof *lat);
    if (!keys || !lat || db_open(path, &o, &db, NULL, 0) || db_open(path2, &o, &db2, NULL, 0)) {
        bench_report(ctx, "db_error", 1, "(cannot create the database)");
        goto done;
    }
    DbRecord r;
    memset(&r, 0, sizeof r);
    r.result = RESULT_PROVEN;
    r.attacker = BLACK;
    r.best = POINT_NONE;
    strcpy(r.version, "renju bench");

    double t0 = clock_now(), c0 = cpu_now();
    for (uint32_t i = 0; i < BENCH_N; i++) {
        Board b;
        bench_board_n(i, &b);
        r.nodes = i;
        db_queue(db, &b, RULE_RENJU, &r, NULL, 0);
    }
    db_flush(db);
    double t_pos = clock_now() - t0, c_pos = cpu_now() - c0;

    for (uint32_t i = 0; i < BENCH_N; i++) {
        Board b;
        bench_board_n(i, &b);
        db_key(&b, RULE_RENJU, BLACK, &keys[i], NULL);
    }
    t0 = clock_now();
    c0 = cpu_now();
    for (uint32_t i = 0; i < BENCH_N; i++) {
        r.nodes = i;
        db_queue_key(db2, &keys[i], &r, NULL, 0);
    }
    db_flush(db2);
    double t_key = clock_now() - t0, c_key = cpu_now() - c0;

    uint64_t found = 0, x = 12345;
    for (int q = 0; q < BENCH_Q; q++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t i = (uint32_t)((x >> 33) % BENCH_N);
        Board b;
        bench_board_n(i, &b);
        DbRecord got;
        double s = clock_now();
        int rc = db_get(db, &b, RULE_RENJU, BLACK, &got);
        lat[q] = clock_now() - s;
        found += rc == 0 && got.nodes == i;
    }
    qsort(lat, BENCH_Q, sizeof *lat, cmp_double);
    DbStats st;
    db_stats(db, &st);
    bench_sig(ctx, st.entries);
    bench_sig(ctx, found);
    bench_report(ctx, "db_entries", (double)st.entries, "");
    bench_report(ctx, "db_insert_rate_positions", BENCH_N / t_pos, "inserts/s (canonicalised, batches of 8192)");
    bench_report(ctx, "db_insert_rate_keys", BENCH_N / t_key, "inserts/s (keys given, batches of 8192)");
    bench_report(ctx, "db_insert_rate_positions_cpu", BENCH_N / c_pos, "inserts per CPU second");
    bench_report(ctx, "db_insert_rate_keys_cpu", BENCH_N / c_key, "inserts per CPU second");
    bench_report(ctx, "db_query_median", lat[BENCH_Q / 2] * 1e3, "ms");
    bench_report(ctx, "db_query_p99", lat[BENCH_Q * 99 / 100] * 1e3, "ms");
    bench_report(ctx, "db_query_found", (double)found, "of 100000");
    bench_report(ctx, "db_file_bytes", (double)st.file_bytes, "bytes");
done:
    db_close(db);
    db_close(db2);
    free(keys);
    free(lat);
    rm_db(path);
    rm_db(path2);
    rmdir(dir);
}
