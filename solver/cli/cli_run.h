/*
 * cli_run.h - what the long-running commands share: the one stop flag and
 * its signal handlers (every long command - solve, verify, vcf, vct, fifth,
 * fair-n, batch run, opening search, db verify|merge|export|import, the MPI
 * launcher - stops cleanly on SIGINT, SIGTERM and SIGUSR1, commits what it
 * has and exits 75), extra options taken out of argv before cli_parse, the
 * results store that also reports effort records, and per-position budgets.
 */
#ifndef RJ_CLI_RUN_H
#define RJ_CLI_RUN_H

#include <stdatomic.h>

#include "cli.h"
#include "dfpn.h"
#include "resultstore.h"

/* The process-wide stop flag, set by SIGINT, SIGTERM and SIGUSR1 once cli_run_signals() ran. */
atomic_bool *cli_run_stop(void);

/*
 * Install the handlers that set cli_run_stop() for SIGINT, SIGTERM and
 * SIGUSR1 (Slurm's warning before the time limit).  Without SA_RESTART, so a
 * blocking read returns EINTR and the command sees the flag.
 */
void cli_run_signals(void);

/*
 * Remove every "--name", "--name=V" or "--name V" from argv (*argc updated;
 * argv[0] is kept).  With has_value, *value gets V of the last occurrence.
 * Returns 1 when found, 0 when not, or EXIT_USAGE (message printed) when a
 * value is missing or given to a flag.
 */
int cli_take_opt(int *argc, char **argv, const char *name, bool has_value, const char **value);

/*
 * A ResultStore over db whose lookup also reports unknown "effort" records
 * (RESULT_UNKNOWN with the nodes spent; see opening.h), store = db_result_store's.
 * db must outlive rs.
 */
void cli_run_store(Db *db, ResultStore *rs);

/*
 * Per-position budget from the options: --nodes/--time apply to each position
 * when per_position, else they are split over npos positions (at least one
 * node / 1 ms each).  Neither given: default_nodes per position.  Fills the
 * budget fields, threads, rules, attacker (black) and tt_mb of cfg: --tt-mb
 * when tt_given, else a size that fits the node budget (2..256 MB; 64 MB
 * for a time-only budget).
 */
void cli_run_budget(const CliArgs *a, bool per_position, long npos, uint64_t default_nodes, bool tt_given,
                    DfpnConfig *cfg);

/* True when argv holds the option "--name" or "--name=..." (argv[0] skipped). */
bool cli_has_opt(int argc, char **argv, const char *name);

/*
 * Open the results DB for a run: --db PATH (created when missing), else the
 * default path only when the file exists (else *db = NULL: no DB), never with
 * no_db.  Prints the error; 0 or an exit code.
 */
int cli_run_open_db(const CliArgs *a, bool no_db, Db **db);

#endif /* RJ_CLI_RUN_H */
