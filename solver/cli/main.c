/* main.c - the `renju` command: dispatch to subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "rules.h"
#include "version.h"

typedef struct {
    const char *name;
    int (*fn)(int, char **);
    const char *usage;
} Command;

static const char VCT_HELP[] = "\nA VCT is a win by continuous threats: every attacker move is a four or a\n"
                               "threat, and the defender's every answer loses.  --side S: the attacker\n"
                               "(default: the side to move).  --order K chooses what counts as a threat:\n"
                               "  1  strict (the default): a four, or a move leaving a straight four (a\n"
                               "     double-win move; for black a real three, RIF 9.3).  The defender's\n"
                               "     answers are every move that is not an immediate loss.\n"
                               "  K  wide (2..4): also any move after which, if the defender passed, the\n"
                               "     attacker would have a VCF of at most K fours before the five (a\n"
                               "     four-three set up in two moves, a white four whose block is forbidden\n"
                               "     for black, ...).  The defender's answers are exactly the moves after\n"
                               "     which no such VCF is left (each other one is confirmed by replaying or\n"
                               "     re-searching the VCF): blocks, counter-fours, moves that change\n"
                               "     black's forbidden points.  Finds wins the strict order cannot see, at\n"
                               "     a higher cost per node.\n"
                               "Results: win (with a principal line), none (no VCT of this order within\n"
                               "40 attacker moves: not a proof that the attacker cannot win), unknown\n"
                               "(budget).  --nodes N bounds the work; the tables grow with N (about 192\n"
                               "bytes a node, at least 256 MiB; --tt-mb MB caps them).  Every win is\n"
                               "sound: its proof tree passes the independent checker (--check writes\n"
                               "and checks it).\n";

static const Command COMMANDS[] = {
    {"openings", cmd_openings, "openings [--json]                      list the 26 openings"},
    {"show", cmd_show, "show POSITION [--json]                 draw the board, forbidden points marked"},
    {"forbidden", cmd_forbidden, "forbidden POSITION [--json]            black's forbidden points and why"},
    {"vcf", cmd_vcf, "vcf POSITION [--side S] [budget]       victory by continuous fours"},
    {"vct", cmd_vct, "vct POSITION [--side S] [--order K] [--check] [budget]  victory by continuous threats"},
    {"solve", cmd_solve, "solve POSITION [--attacker S] [budget] [--threads N] [--db PATH]  df-pn proof search"},
    {"verify", cmd_verify, "verify POSITION [budget]               solve, then check the proof independently"},
    {"fifth", cmd_fifth, "fifth POSITION4 [budget] [--per-class] [--db PATH|--no-db]  5th-move classes and W bounds"},
    {"fair-n", cmd_fair_n, "fair-n OPENING [budget] [--per-class] [--fourth MOVES] [--db PATH|--no-db]  fair-N bounds"},
    {"query", cmd_query, "query POSITION [--db PATH] [--children] stored result of a position"},
    {"db", cmd_db, "db stats|verify|merge OUT IN...|export [FILE]|import FILE [--db PATH]  database maintenance"},
    {"opening", cmd_opening,
     "opening search|status POSITION [--goal win|w4|fair-n] [--job-nodes N] [--time S] [--workers W]  opening-level "
     "search"},
    {"batch", cmd_batch, "batch plan POSITION [--depth D] [--out PLAN] | run PLAN [--shard I/N] [--db PATH] [budget]"},
    {"bench", cmd_bench, "bench                                  fixed benchmark, prints Bench: <signature>"},
};
enum { NUM_COMMANDS = sizeof COMMANDS / sizeof COMMANDS[0] };

static void usage(FILE *f)
{
    fprintf(f, "usage: renju COMMAND [ARGS] [--json] [--quiet] [--rules renju|freestyle|standard]\n\n");
    fprintf(f, "commands:\n");
    for (int i = 0; i < NUM_COMMANDS; i++)
        fprintf(f, "  %s\n", COMMANDS[i].usage);
    fprintf(f, "\nbudget: --nodes N, --time SECONDS, --tt-mb MB\n");
    fprintf(f, "POSITION: moves \"h8 h9 i10\" / \"h8h9i10\" / \"H8,H9,I10\" (pass allowed),\n"
               "  an opening \"D4\" / \"kagetsu\" / \"花月\" / \"Flower Moon\" plus moves (\"D4 j10\";\n"
               "  lower-case \"d4 e5 f6\" is a move list when it plays as one), or stones \"B:e13,c12 W:o15\" [--to-move S]\n");
    fprintf(f, "exit codes: 0 done, 64 usage, 65 bad position/data, 66 missing input/DB,\n"
               "  70 internal error, 74 I/O or DB error, 75 interrupted (resumable)\n");
}

/* `renju CMD --help`: the usage line and the command's extra lines. */
static int command_help(const Command *c)
{
    printf("usage: renju %s\n", c->usage);
    if (!strcmp(c->name, "vct"))
        fputs(VCT_HELP, stdout);
    return EXIT_DONE;
}

int main(int argc, char **argv)
{
    rules_init();
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        if (argc > 2) {
            for (int i = 0; i < NUM_COMMANDS; i++)
                if (!strcmp(argv[2], COMMANDS[i].name))
                    return command_help(&COMMANDS[i]);
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
                return command_help(&COMMANDS[i]);
        return COMMANDS[i].fn(argc - 1, argv + 1);
    }
    fprintf(stderr, "renju: unknown command '%s' (try 'renju --help')\n", name);
    return EXIT_USAGE;
}
