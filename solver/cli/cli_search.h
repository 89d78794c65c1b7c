/*
 * cli_search.h - what `renju opening search` and the MPI master
 * (`renju-mpi opening search`) share: the options, the per-job solver
 * configuration, the progress lines and the final report.
 */
#ifndef RJ_CLI_SEARCH_H
#define RJ_CLI_SEARCH_H

#include "board.h"
#include "cli.h"
#include "progress.h"
#include "dfpn.h"
#include "jobrun.h"
#include "jobtree.h"
#include "search_db.h"

/* The parsed options of `opening search|status`. */
typedef struct {
    CliArgs a;
    JtConfig jc;
    uint64_t max_jobs;      /* 0: no limit */
    int workers;            /* local worker threads */
    bool tt_given;          /* --tt-mb given */
    bool fresh_tree;        /* --fresh-tree: forget the saved tree first (search_db_forget_tree) */
    int early_permille;     /* JobRunner.early_permille (RENJU_JT_EARLY) */
    ProofNum early_dn;      /* JobRunner.early_dn (RENJU_JT_EARLY_DN) */
    ProofNum early_dn_root; /* JobRunner.early_dn_root (RENJU_JT_EARLY_DN_ROOT) */
    const char *job_log;    /* --job-log FILE: one JSON line per finished job, appended (NULL: none) */
    double class_time;      /* --class-time S: each open root move searched on its own, S seconds (0: off) */
    JtConfig class_jc;      /* --class-time: the config of each move's own tree (jc with a larger first search) */
    Board root;
} SearchOpts;

/*
 * The tree's configuration of `opening search` before its options: goal
 * win, the default job size, and every tuning knob (RENJU_JT_*, docs/cli.md)
 * read from the environment.
 */
void search_tree_defaults(JtConfig *jc, RuleSet rs);

/*
 * Parse argv (argv[0] = "search" or "status") into *o and check the root
 * position against the goal.  Prints one line on error; returns 0 or the
 * exit code.
 */
int search_opts(int argc, char **argv, bool run, SearchOpts *o);

/* --fresh-tree: forget the saved tree of db (search_db_forget_tree) and say so; 0 or an exit code (printed). */
int search_fresh_tree(const SearchOpts *o, Db *db);

/* A worker's job runner over solver s and results store rs, as the options say. */
JobRunner search_runner(const SearchOpts *o, Dfpn *s, const ResultStore *rs);

/* The df-pn configuration of one worker's solver (budget, threads, TT size, the stop flag). */
void search_dfpn_config(const SearchOpts *o, DfpnConfig *cfg);

/* Progress state for search_progress (progress.h: a live line, plain lines, or --json / --progress=json lines). */
typedef struct {
    const CliArgs *a;
    Board root;
    uint64_t done;
    Progress pr;
    FILE *log; /* --job-log (NULL: none), owned */
} SearchProgress;

/*
 * Start the progress reports of a search from root (copied), and open the
 * job log o->job_log for appending when one is named.  Prints the error and
 * returns 0 or the exit code (74: the log cannot be opened).
 */
int search_progress_init(SearchProgress *p, const SearchOpts *o);

/* Progress callback (jobpool.h signature): ctx is a SearchProgress. */
void search_progress(void *ctx, JobTree *t, const JtJob *job, const JtOutcome *o);

/*
 * The search ended: a last report (plain, json) or the live line erased,
 * before the final report; the job log is closed.
 */
void search_progress_end(SearchProgress *p, JobTree *t);

/*
 * The final report on stdout (text or --json): where the root stands, and what
 * this run did; with --sgf FILE the position and its most-proving line are
 * written there as SGF.  Returns 0 or the exit code of a failed --sgf write.
 */
int search_report(const CliArgs *a, JobTree *t, const Board *root, JtGoal goal, double time_s, bool interrupted,
                  const SearchDb *sd);

/*
 * --class-time: the open moves of an opening, the least searched first (by
 * the work their subtrees' saved jobs took, in bands of a factor of 4),
 * then the farthest from the stones.  A move an earlier search already
 * spent much on comes after the moves it barely tried: session 39's sweeps
 * proved 15 of the 31 moves searched for under 1e7 work before, 8 of the 46
 * others (D5 and I3; results/solver-bench.md).
 */
typedef struct {
    int n;
    Point move[BOARD_POINTS];
    int dist[BOARD_POINTS]; /* board_stone_dist from the root's stones */
    int band[BOARD_POINTS]; /* class_effort_band of its saved effort */
} ClassList;

/* floor(log4(effort)) (0 below 4): the band --class-time orders by. */
int class_effort_band(uint64_t effort);

/* A root not expanded yet gets this many of its own jobs, one at a time, before --class-time gives up on it. */
enum { CLASS_ROOT_TRIES = 16 };

/* The open moves of root tree t (none when it is decided), in ClassList's order, ties in class order; 0 or RJ_ENOMEM.
 */
int search_class_list(const SearchOpts *o, JobTree *t, ClassList *cl);

/*
 * One class's stderr line (unless --quiet): move k of cl, its round and
 * time, what its search found and the classes proven so far.
 */
void search_class_line(const SearchOpts *o, const ClassList *cl, int k, int round, double secs, Result r, uint64_t work,
                       double time_s, uint64_t proven);

/*
 * After class runs: root tree *t built again over what they stored (its
 * counters so far kept in sd->first_tree for the report); nothing when no
 * class ran.  A stop request meanwhile sets *interrupted.  0 or an exit code
 * (printed).
 */
int search_class_rebuild(const SearchOpts *o, JobTree **t, SearchDb *sd, JtSource *src, bool *interrupted);

/*
 * `renju-mpi opening search ...` on an MPI rank (mpi_search.c; MPI_Init done
 * by the caller): rank 0 the master, the others workers.  Returns the exit code.
 */
int mpi_opening_main(int argc, char **argv, int rank, int size);

#endif /* RJ_CLI_SEARCH_H */
