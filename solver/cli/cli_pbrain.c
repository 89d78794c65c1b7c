/*
 * cli_pbrain.c - `renju pbrain` (also run as `pbrain-renju`): the Gomocup /
 * Piskvork engine protocol on stdin and stdout (docs/cli.md "renju pbrain").
 *
 * One command per line in, one reply line per command that has one out,
 * flushed at once; notes for people go to stderr, problems the manager should
 * see to `ERROR` / `MESSAGE` lines.  Coordinates are converted at this
 * boundary only (notation.h: x = column from the left, y = row from the top).
 * The engine (engine.h) tracks the game and chooses the moves.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "board.h"
#include "cli.h"
#include "cli_run.h"
#include "clock.h"
#include "db.h"
#include "engine.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "version.h"

enum { MAX_BOARD_LINES = BOARD_POINTS };

typedef struct {
    Engine *e;
    bool started; /* START 15 seen */
    bool quiet;
} Session;

/* One protocol line to stdout, flushed. */
static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* Cut trailing white space (the "\r\n" of Windows managers included). */
static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
}

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* A decimal integer at *s (spaces around allowed); advances *s.  0 or -1. */
static int parse_int(const char **s, long *v)
{
    const char *p = skip_ws(*s);
    char *end;
    errno = 0;
    *v = strtol(p, &end, 10);
    if (end == p || errno)
        return -1;
    *s = skip_ws(end);
    return 0;
}

/*
 * "x,y" or, with field not NULL, "x,y,field": integers separated by commas,
 * nothing after.  Returns 0 or -1.
 */
static int parse_xy(const char *s, long *x, long *y, long *field)
{
    if (parse_int(&s, x) || *s++ != ',' || parse_int(&s, y))
        return -1;
    if (field && (*s++ != ',' || parse_int(&s, field)))
        return -1;
    return *s ? -1 : 0;
}

/* The point of Gomocup coordinates text "x,y" (see parse_xy); -1 with a reason on a bad one. */
static int parse_point(const char *s, Point *p, char *why, size_t whylen)
{
    long x, y;
    if (parse_xy(s, &x, &y, NULL)) {
        snprintf(why, whylen, "bad coordinates '%s' (expected x,y)", s);
        return -1;
    }
    if (x < 0 || y < 0 || x >= BOARD_SIZE || y >= BOARD_SIZE || notation_from_gomocup((int)x, (int)y, p)) {
        snprintf(why, whylen, "coordinates %ld,%ld are off the 15x15 board", x, y);
        return -1;
    }
    return 0;
}

/* Choose a move, play it and print it (or an ERROR line). */
static void think(Session *S, double arrival)
{
    char why[256];
    EngineMove m;
    if (engine_choose(S->e, arrival, &m, why, sizeof why)) {
        reply("ERROR %s", why);
        return;
    }
    if (engine_play(S->e, m.move, why, sizeof why)) {
        reply("ERROR internal: %s", why);
        return;
    }
    int x, y;
    notation_to_gomocup(m.move, &x, &y);
    reply("%d,%d", x, y);
    if (!S->quiet) {
        char pt[8];
        fprintf(stderr, "renju pbrain: %s (%d,%d) %s%s, %llu nodes, %.0f ms\n", notation_point_str(m.move, pt), x, y,
                engine_source_name(m.source), m.win ? " win" : "", (unsigned long long)m.nodes, m.time_s * 1000);
    }
}

/* The rule set of an INFO rule mask (FORMATS.md); -1 with a reason when it is not supported. */
static int rule_of_mask(long v, RuleSet *rs, char *why, size_t whylen)
{
    if (v < 0 || v > 15) {
        snprintf(why, whylen, "unknown rule %ld", v);
        return -1;
    }
    if (v & 8) {
        snprintf(why, whylen, "rule %ld (caro) is not supported", v);
        return -1;
    }
    if (v & 4) {
        *rs = RULE_RENJU;
        return 0;
    }
    if (v == 2) { /* some managers send 2 for renju; the continuous game is not supported anyway */
        *rs = RULE_RENJU;
        return 0;
    }
    if (v & 2) {
        snprintf(why, whylen, "rule %ld (continuous game) is not supported", v);
        return -1;
    }
    *rs = v & 1 ? RULE_STANDARD : RULE_FREESTYLE;
    return 0;
}

static void cmd_info(Session *S, const char *args)
{
    char key[64];
    const char *p = skip_ws(args);
    size_t n = strcspn(p, " \t");
    if (n == 0 || n >= sizeof key) {
        reply("ERROR bad INFO line");
        return;
    }
    memcpy(key, p, n);
    key[n] = 0;
    const char *val = skip_ws(p + n);
    EngineLimits l = *engine_limits(S->e);
    bool timed = !strcasecmp(key, "timeout_turn") || !strcasecmp(key, "timeout_match") ||
                 !strcasecmp(key, "time_left") || !strcasecmp(key, "max_memory");
    if (!timed && strcasecmp(key, "rule"))
        return; /* game_type, folder, evaluate, ...: nothing to do; unknown keys are ignored */
    long v;
    const char *q = val;
    if (parse_int(&q, &v) || *q || v < 0) {
        reply("ERROR bad value '%s' for INFO %s", val, key);
        return;
    }
    if (!strcasecmp(key, "timeout_turn"))
        l.turn_s = (double)v / 1000;
    else if (!strcasecmp(key, "timeout_match"))
        l.match_s = (double)v / 1000;
    else if (!strcasecmp(key, "time_left"))
        l.left_s = (double)v / 1000;
    else if (!strcasecmp(key, "max_memory"))
        l.mem_bytes = (size_t)v;
    else {
        char why[128];
        RuleSet rs;
        if (rule_of_mask(v, &rs, why, sizeof why)) {
            reply("ERROR %s; playing %s", why, ruleset_name(l.rules));
            return;
        }
        if (v == 2)
            reply("MESSAGE rule 2 read as renju (the continuous game is not supported)");
        l.rules = rs;
    }
    engine_set_limits(S->e, &l);
}

/* BOARD: read "x,y,field" lines up to DONE, set the position and move.  false at end of input. */
static bool cmd_board(Session *S, double arrival, char **line, size_t *cap)
{
    Point pts[MAX_BOARD_LINES];
    bool own[MAX_BOARD_LINES];
    int n = 0;
    char why[512] = "";
    for (;;) {
        if (getline(line, cap, stdin) < 0)
            return false;
        chomp(*line);
        const char *s = skip_ws(*line);
        if (!strcasecmp(s, "DONE"))
            break;
        if (!*s || why[0])
            continue; /* after the first bad line, read on to DONE */
        long x, y, f;
        Point p;
        if (parse_xy(s, &x, &y, &f) || f < 1 || f > 3)
            snprintf(why, sizeof why, "bad BOARD line '%.64s' (expected x,y,field with field 1, 2 or 3)", s);
        else if (x < 0 || y < 0 || x >= BOARD_SIZE || y >= BOARD_SIZE || notation_from_gomocup((int)x, (int)y, &p))
            snprintf(why, sizeof why, "BOARD line '%.64s' is off the 15x15 board", s);
        else if (f == 3)
            continue; /* a winning line the continuous game removed: an empty point */
        else if (n >= MAX_BOARD_LINES)
            snprintf(why, sizeof why, "more BOARD lines than points");
        else {
            pts[n] = p;
            own[n++] = f == 1;
        }
    }
    if (!S->started)
        reply("ERROR BOARD before START");
    else if (why[0])
        reply("ERROR %s", why);
    else if (engine_set_stones(S->e, pts, own, n, why, sizeof why))
        reply("ERROR %s", why);
    else
        think(S, arrival);
    return true;
}

static void cmd_about(void)
{
    const char *v = rj_version();
    const char *sp = strrchr(v, ' ');
    reply("name=\"renju\", version=\"%s\", author=\"The renju opening solver authors\", country=\"\", www=\"\"",
          sp ? sp + 1 : v);
}

/* Is the n-byte command word s the protocol word w (any case)? */
static bool is_word(const char *s, size_t n, const char *w) { return n == strlen(w) && !strncasecmp(s, w, n); }

/* One command line; false when the session ends (END). */
static bool command(Session *S, char *line, double arrival, char **buf, size_t *cap, bool *eof)
{
    const char *s = skip_ws(line);
    size_t n = strcspn(s, " \t");
    const char *args = skip_ws(s + n);
    char why[256];
    Point p;
    if (n == 0)
        return true;
    if (is_word(s, n, "END"))
        return false;
    if (is_word(s, n, "ABOUT")) {
        cmd_about();
    } else if (is_word(s, n, "START")) {
        long size;
        const char *q = args;
        if (parse_int(&q, &size) || *q)
            reply("ERROR bad START argument '%s'", args);
        else if (size != BOARD_SIZE)
            reply("ERROR unsupported board size %ld (only 15)", size);
        else {
            engine_new_game(S->e);
            S->started = true;
            reply("OK");
        }
    } else if (is_word(s, n, "RESTART")) {
        engine_new_game(S->e);
        reply("OK");
    } else if (is_word(s, n, "INFO")) {
        cmd_info(S, args);
    } else if (is_word(s, n, "BEGIN")) {
        if (!S->started)
            reply("ERROR BEGIN before START");
        else if (board_stone_count(engine_board(S->e)) != 0)
            reply("ERROR BEGIN on a board that has stones (RESTART first)");
        else
            think(S, arrival);
    } else if (is_word(s, n, "TURN")) {
        if (!S->started)
            reply("ERROR TURN before START");
        else if (parse_point(args, &p, why, sizeof why))
            reply("ERROR %s", why);
        else if (engine_play(S->e, p, why, sizeof why))
            reply("ERROR opponent's move %s: %s", args, why);
        else
            think(S, arrival);
    } else if (is_word(s, n, "BOARD")) {
        if (!cmd_board(S, arrival, buf, cap))
            *eof = true;
    } else if (is_word(s, n, "TAKEBACK")) {
        if (parse_point(args, &p, why, sizeof why))
            reply("ERROR %s", why);
        else if (engine_undo(S->e, p, why, sizeof why))
            reply("ERROR %s", why);
        else
            reply("OK");
    } else {
        reply("UNKNOWN command '%.*s'", (int)(n < 64 ? n : 64), s);
    }
    return !*eof;
}

/* The results database: --db PATH must open; the default one is used when it is there. */
static int open_db(const CliArgs *a, bool no_db, Db **db)
{
    *db = NULL;
    if (no_db)
        return 0;
    if (a->db)
        return cli_db_open(a->db, DB_RDONLY, db);
    const char *path = cli_db_path(a);
    struct stat st;
    if (stat(path, &st)) {
        if (!a->quiet)
            fprintf(stderr, "renju pbrain: no database at %s (playing without one)\n", path);
        return 0;
    }
    if (cli_db_open(path, DB_RDONLY, db)) {
        fprintf(stderr, "renju pbrain: playing without the database\n");
        *db = NULL;
    }
    return 0;
}

int cmd_pbrain(int argc, char **argv)
{
    int no_db = cli_take_opt(&argc, argv, "no-db", false, NULL);
    if (no_db == EXIT_USAGE)
        return EXIT_USAGE;
    CliArgs a;
    int rc = cli_parse(argc, argv, &a);
    if (rc)
        return rc;
    if (a.help) { /* pbrain-renju --help (renju pbrain --help is answered by main) */
        printf("usage: pbrain-renju [--db PATH|--no-db] [--rules R] [--time S] [--threads N] [--quiet]\n"
               "  the Gomocup/Piskvork engine protocol on stdin/stdout (docs/cli.md \"renju pbrain\")\n");
        return EXIT_DONE;
    }
    if (a.npos > 0)
        return cli_error(EXIT_USAGE, "pbrain takes no arguments (it reads the protocol on stdin)");
    Db *db = NULL;
    if ((rc = open_db(&a, no_db, &db)))
        return rc;
    ResultStore store;
    if (db)
        db_result_store(db, &store);
    Session S = {NULL, false, a.quiet};
    if ((rc = engine_new(&S.e, db ? &store : NULL))) {
        db_close(db);
        return cli_error(cli_exit_code(rc), "cannot create the engine: %s", rj_strerror(rc));
    }
    EngineLimits l = *engine_limits(S.e);
    l.rules = a.rules;
    l.threads = a.threads;
    if (a.time_s > 0)
        l.turn_s = a.time_s;
    engine_set_limits(S.e, &l);
    char *line = NULL;
    size_t cap = 0;
    bool eof = false;
    while (!eof && getline(&line, &cap, stdin) >= 0) {
        double arrival = clock_now();
        chomp(line);
        if (!command(&S, line, arrival, &line, &cap, &eof))
            break;
    }
    free(line);
    engine_free(S.e);
    db_close(db);
    return EXIT_DONE;
}
