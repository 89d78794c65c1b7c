/*
 * mpi_batch.c - `renju-mpi`: run a batch plan over MPI ranks, or the
 * opening-level search with a master and workers (mpi_search.c).
 *
 *   mpirun -np K renju-mpi opening search POSITION [opening search options]
 *   mpirun -np K renju-mpi PLAN --out MERGED.lmdb [--dir DIR] [batch run options]
 *
 * Rank r of K runs `renju batch run PLAN --shard r/K --db DIR/shard-r.lmdb
 * [options]` (DIR defaults to the directory of MERGED; on a cluster give a
 * node-local directory only when every rank can reach it for the merge, else
 * a shared one) and, when every rank finished with exit 0, rank 0 runs
 * `renju db merge MERGED DIR/shard-*.lmdb`.  The exit code is the largest
 * over the ranks (75 when any rank was interrupted: run again to resume;
 * the shard DBs keep what was solved).  Progress is printed by rank 0 only.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"
#include "cli_search.h"
#include "rules.h"

enum { MAX_ARGS = 256 };

static void shard_path(char *buf, size_t len, const char *dir, int r)
{
    snprintf(buf, len, "%s/shard-%d.lmdb", dir, r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rules_init();
    if (argc >= 2 && !strcmp(argv[1], "opening")) {
        int rc = mpi_opening_main(argc - 1, argv + 1, rank, size);
        int worst = 0;
        MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Finalize();
        return worst;
    }
    const char *out = NULL, *dir = NULL;
    int code = 0;
    if (cli_take_opt(&argc, argv, "out", true, &out) > 1 || cli_take_opt(&argc, argv, "dir", true, &dir) > 1)
        code = EXIT_USAGE;
    else if (!out || argc < 2 || argc > MAX_ARGS - 8) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np K renju-mpi PLAN --out MERGED.lmdb [--dir DIR] [batch run options]\n");
        code = EXIT_USAGE;
    }
    char dirbuf[1024], shard[1100], spec[64];
    if (code == 0) {
        if (!dir) {
            snprintf(dirbuf, sizeof dirbuf, "%s", out);
            char *slash = strrchr(dirbuf, '/');
            if (slash)
                *slash = 0;
            else
                strcpy(dirbuf, ".");
            dir = dirbuf;
        }
        shard_path(shard, sizeof shard, dir, rank);
        snprintf(spec, sizeof spec, "%d/%d", rank, size);
        char *av[MAX_ARGS];
        int n = 0;
        av[n++] = "batch";
        av[n++] = "run";
        for (int i = 1; i < argc; i++)
            av[n++] = argv[i];
        av[n++] = "--shard";
        av[n++] = spec;
        av[n++] = "--db";
        av[n++] = shard;
        if (rank != 0)
            av[n++] = "--quiet";
        av[n] = NULL;
        code = cmd_batch(n, av);
    }
    int worst = 0;
    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst == 0 && rank == 0) {
        char *av[MAX_ARGS];
        static char paths[MAX_ARGS][1100];
        int n = 0;
        av[n++] = "db";
        av[n++] = "merge";
        av[n++] = (char *)out;
        for (int r = 0; r < size && n < MAX_ARGS - 1; r++) {
            shard_path(paths[r], sizeof paths[r], dir, r);
            av[n++] = paths[r];
        }
        av[n] = NULL;
        worst = n - 3 < size ? EXIT_USAGE : cmd_db(n, av);
        if (n - 3 < size)
            fprintf(stderr, "renju-mpi: too many ranks to merge in one call (%d)\n", size);
    } else if (worst && rank == 0) {
        fprintf(stderr, "renju-mpi: a rank ended with exit %d; not merging (shards kept in %s)\n", worst, dir ? dir : ".");
    }
    MPI_Bcast(&worst, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
