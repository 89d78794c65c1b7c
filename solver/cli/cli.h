/*
 * cli.h - the `renju` command line: shared option parsing, output helpers and
 * the subcommand entry points.  Only this layer prints and chooses exit codes.
 */
#ifndef RJ_CLI_H
#define RJ_CLI_H

#include <stdio.h>

#include "types.h"

/* Exit codes (docs/cli.md "Exit codes"; sysexits values). */
enum {
    EXIT_DONE = 0,
    EXIT_USAGE = 64,
    EXIT_DATAERR = 65,
    EXIT_NOINPUT = 66,
    EXIT_SOFTWARE = 70,
    EXIT_IOERR = 74,
    EXIT_TEMPFAIL = 75
};

enum { CLI_MAX_POS = 64 };

/* Options common to the subcommands; each command reads the ones it needs. */
typedef struct {
    bool json;          /* --json */
    bool quiet;         /* --quiet */
    bool help;          /* --help / -h */
    RuleSet rules;      /* --rules renju|freestyle|standard */
    Color to_move;      /* --to-move black|white (EMPTY: infer) */
    Color side;         /* --side / --attacker (EMPTY: side to move) */
    long long nodes;    /* --nodes N (0: unlimited) */
    double time_s;      /* --time SECONDS (0: unlimited) */
    long tt_mb;         /* --tt-mb MB */
    bool tt_mb_set;     /* --tt-mb was given (else tt_mb is the default) */
    int threads;        /* --threads N */
    const char *db;     /* --db PATH (NULL: $RENJU_DB or ./renju.lmdb) */
    bool shortest;      /* --shortest */
    bool children;      /* --children */
    const char *sgf;    /* --sgf FILE: write the position and its line as SGF (solve, query) */
    int progress;       /* --progress auto|live|plain|json|none (progress.h ProgressMode; --quiet: none) */
    double progress_interval; /* --progress-interval SECONDS (0: the mode's default) */
    int order;                /* --order K (vct threat order, 1..4; 0: not given) */
    bool check;               /* --check (vct: write the proof of a win and check it) */
    bool no_warm;             /* --no-warm (solve, verify: no warm start from the --db tree, warm_db.h) */
    const char *warm_db;      /* --warm-db PATH (solve, verify: warm start from PATH, read only, not --db) */
    double focus; /* --focus SHARE (solve, verify: that share of the budget on the saved tree's move first; 0: off) */
    int npos;           /* positional arguments */
    char *pos[CLI_MAX_POS];
} CliArgs;

/*
 * Parse argv (argv[0] is the subcommand name) into a.  Unknown options and
 * bad values print one line and return EXIT_USAGE; success returns 0.
 */
int cli_parse(int argc, char **argv, CliArgs *a);

/* Print "renju: <message>" to stderr and return code (for `return cli_error(...)`). */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Exit code for a library error code (error.h). */
int cli_exit_code(int err);

/* Database path: a->db, else $RENJU_DB, else "./renju.lmdb". */
const char *cli_db_path(const CliArgs *a);

/*
 * Open the results database at path (db.h; flags DB_RDONLY or DB_CREATE).
 * On failure prints one "renju: ..." line and returns the exit code (66
 * missing, 74 foreign/corrupt/newer schema/file-system error); 0 on success,
 * *db then owned by the caller (db_flush + db_close it).  For `solve --db`:
 *   Db *db; if ((rc = cli_db_open(cli_db_path(&a), DB_CREATE, &db))) return rc;
 *   ResultStore rs; db_result_store(db, &rs);  ... search with &rs ...
 *   db_flush(db); db_close(db);
 */
typedef struct Db Db;
int cli_db_open(const char *path, unsigned flags, Db **db);

/* Write s as a JSON string literal (with quotes) to f. */
void cli_json_str(FILE *f, const char *s);

/*
 * Parse the POSITION argument(s) joined by spaces into b.  An argument that
 * ends in ".sgf" (any case) or starts with "sgf:" is an SGF file instead
 * (core/sgf.h: the main line of its first game; 66 when missing, 65 when
 * malformed or illegal).  Prints the error; returns 0 or the exit code.
 */
int cli_position(const CliArgs *a, int first, Board *b);

/* Is arg an SGF file name for cli_position ("x.sgf", "sgf:x")? */
bool cli_is_sgf(const char *arg);

/*
 * Read the whole file path (at most max bytes) into *data (malloc'd, NUL
 * appended; the caller frees it) and *len.  Prints the error; returns 0, or
 * 66 missing, 74 unreadable, 65 larger than max, 70 out of memory.
 */
int cli_read_file(const char *path, size_t max, char **data, size_t *len);

/* `renju db export|import --format renlib ...` (cli_renlib.c; argv without --format).  Returns the exit code. */
int cli_db_renlib(int argc, char **argv);

/* Subcommands: argc/argv start at the subcommand name.  Return the exit code. */
int cmd_openings(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_forbidden(int argc, char **argv);
int cmd_vcf(int argc, char **argv);
int cmd_vct(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_repair(int argc, char **argv);
int cmd_fifth(int argc, char **argv);
int cmd_fair_n(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_opening(int argc, char **argv);
int cmd_pbrain(int argc, char **argv);

#endif /* RJ_CLI_H */
