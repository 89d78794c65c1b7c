/* cli_bench.c - `renju bench`: run every section, print totals and the signature. */
#include <stdio.h>
#include <string.h>
#include <xxhash.h>

#include "bench.h"
#include "cli.h"
#include "clock.h"

struct BenchCtx {
    XXH64_state_t *sig;
    bool json;
    bool first;
};

typedef struct {
    const char *name;
    void (*run)(BenchCtx *);
} BenchSection;

static const BenchSection SECTIONS[] = {
    { "board", bench_board },
    { "rules", bench_rules },
    { "threat", bench_threat },
    { "db", bench_db },
    { "solver", bench_solver },
};

void bench_sig(BenchCtx *ctx, uint64_t v) { XXH64_update(ctx->sig, &v, sizeof v); }

void bench_report(BenchCtx *ctx, const char *name, double value, const char *unit)
{
    if (ctx->json) {
        printf("%s\"%s\":%.6g", ctx->first ? "" : ",", name, value);
        ctx->first = false;
    } else {
        printf("  %-32s %14.6g %s\n", name, value, unit);
    }
}

int cmd_bench(int argc, char **argv)
{
    CliArgs a;
    int rc = cli_parse(argc, argv, &a);
    if (rc)
        return rc;
    BenchCtx ctx = { XXH64_createState(), a.json, true };
    if (!ctx.sig)
        return cli_error(EXIT_SOFTWARE, "out of memory");
    XXH64_reset(ctx.sig, 0);
    double t0 = clock_now();
    if (a.json)
        printf("{");
    for (size_t i = 0; i < sizeof SECTIONS / sizeof SECTIONS[0]; i++) {
        if (!a.json)
            printf("%s\n", SECTIONS[i].name);
        SECTIONS[i].run(&ctx);
    }
    unsigned long long sig = XXH64_digest(ctx.sig);
    XXH64_freeState(ctx.sig);
    if (a.json)
        printf("%s\"time_s\":%.3f,\"signature\":\"%016llx\"}\n", ctx.first ? "" : ",", clock_now() - t0, sig);
    else
        printf("Total time: %.3f s\nBench: %016llx\n", clock_now() - t0, sig);
    return EXIT_DONE;
}
