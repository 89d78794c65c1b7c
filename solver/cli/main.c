/* main.c - the `renju` command: dispatch to subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "man.h"
#include "rules.h"
#include "version.h"

typedef struct {
    const char *name;
    int (*fn)(int, char **);
    const char *usage;
} Command;

/* The usage column is aligned by hand. */
/* clang-format off */
static const Command COMMANDS[] = {
    {"openings", cmd_openings, "openings [--json]                      list the 26 openings"},
    {"show", cmd_show, "show POSITION [--json]                 draw the board, forbidden points marked"},
    {"forbidden", cmd_forbidden, "forbidden POSITION [--json]            black's forbidden points and why"},
    {"vcf", cmd_vcf, "vcf POSITION [--side S] [budget]       victory by continuous fours"},
    {"vct", cmd_vct, "vct POSITION [--side S] [--order K] [--check] [budget]  victory by continuous threats"},
    {"solve", cmd_solve,
     "solve POSITION [--attacker S] [budget] [--threads N] [--db PATH] [--sgf FILE]  df-pn proof search"},
    {"verify", cmd_verify, "verify POSITION [budget]               solve, then check the proof independently"},
    {"repair", cmd_repair, "repair POSITION --from SOURCE [budget] [--db PATH]  prove by mending SOURCE's stored proof"},
    {"fifth", cmd_fifth, "fifth POSITION4 [budget] [--per-class] [--db PATH|--no-db]  5th-move classes and W bounds"},
    {"fair-n", cmd_fair_n, "fair-n OPENING [budget] [--per-class] [--fourth MOVES] [--db PATH|--no-db]  fair-N bounds"},
    {"query", cmd_query, "query POSITION [--db PATH] [--children] [--sgf FILE]  stored result of a position"},
    {"db", cmd_db,
     "db stats|verify|merge OUT IN...|export [FILE]|import FILE [--db PATH] [--format jsonl|renlib]  database "
     "maintenance"},
    {"opening", cmd_opening,
     "opening search|status POSITION [--goal win|w4|fair-n] [--job-nodes N] [--time S] [--workers W]  opening-level "
     "search"},
    {"batch", cmd_batch, "batch plan POSITION [--depth D] [--out PLAN] | run PLAN [--shard I/N] [--db PATH] [budget]"},
    {"pbrain", cmd_pbrain, "pbrain [--db PATH|--no-db] [--time S]   Gomocup/Piskvork engine on stdin/stdout"},
    {"bench", cmd_bench, "bench                                  fixed benchmark, prints Bench: <signature>"},
};
/* clang-format on */
enum { NUM_COMMANDS = sizeof COMMANDS / sizeof COMMANDS[0] };

static void usage(FILE *f)
{
    fprintf(f, "usage: renju COMMAND [ARGS] [--json] [--quiet] [--rules renju|freestyle|standard]\n\n");
    fprintf(f, "commands:\n");
    for (int i = 0; i < NUM_COMMANDS; i++)
        fprintf(f, "  %s\n", COMMANDS[i].usage);
    fprintf(f, "\nbudget: --nodes N, --time SECONDS, --tt-mb MB\n");
    fprintf(
        f,
        "POSITION: moves \"h8 h9 i10\" / \"h8h9i10\" / \"H8,H9,I10\" (pass allowed),\n"
        "  an opening \"D4\" / \"kagetsu\" / \"花月\" / \"Flower Moon\" plus moves (\"D4 j10\";\n"
        "  lower-case \"d4 e5 f6\" is a move list when it plays as one), or stones \"B:e13,c12 W:o15\" [--to-move S],\n"
        "  or an SGF record \"game.sgf\" / \"sgf:FILE\" (its main line)\n");
    fprintf(f, "progress (stderr): --progress auto|live|plain|json|none, --progress-interval S, --quiet\n");
    fprintf(f, "`renju help COMMAND` (or `renju COMMAND --help`) prints the manual page of a command.\n");
    fprintf(f, "exit codes: 0 done, 64 usage, 65 bad position/data, 66 missing input/DB,\n"
               "  70 internal error, 74 I/O or DB error, 75 interrupted (resumable)\n");
}

/* The manual page of command i, else its usage line. */
static int help(int i)
{
    const char *page = man_page(COMMANDS[i].name);
    if (page)
        fputs(page, stdout);
    else
        printf("usage: renju %s\n", COMMANDS[i].usage);
    return EXIT_DONE;
}

/* Run as "pbrain-..." (the name Gomocup managers look for): the engine protocol, options from argv[1]. */
static bool called_as_pbrain(const char *argv0)
{
    const char *base = strrchr(argv0, '/');
    base = base ? base + 1 : argv0;
    return !strncmp(base, "pbrain-", 7);
}

int main(int argc, char **argv)
{
    rules_init();
    if (argc >= 1 && called_as_pbrain(argv[0]))
        return cmd_pbrain(argc, argv);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        if (argc > 2) {
            for (int i = 0; i < NUM_COMMANDS; i++)
                if (!strcmp(argv[2], COMMANDS[i].name))
                    return help(i);
            if (man_page(argv[2])) {
                fputs(man_page(argv[2]), stdout);
                return EXIT_DONE;
            }
            fprintf(stderr, "renju: no command '%s' (try 'renju --help')\n", argv[2]);
            return EXIT_USAGE;
        }
        usage(stdout);
        return EXIT_DONE;
    }
    if (!strcmp(name, "--version")) {
        printf("%s\n", rj_version());
        return EXIT_DONE;
    }
    for (int i = 0; i < NUM_COMMANDS; i++) {
        if (strcmp(name, COMMANDS[i].name))
            continue;
        for (int j = 2; j < argc; j++)
            if (!strcmp(argv[j], "--help") || !strcmp(argv[j], "-h"))
                return help(i);
        return COMMANDS[i].fn(argc - 1, argv + 1);
    }
    fprintf(stderr, "renju: unknown command '%s' (try 'renju --help')\n", name);
    return EXIT_USAGE;
}
