/* cli_common.c - see cli.h. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "error.h"
#include "names.h"
#include "position.h"
#include "progress.h"
#include "sgf.h"

int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("renju: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

int cli_exit_code(int err)
{
    switch (err) {
    case RJ_OK: return EXIT_DONE;
    case RJ_EBADPOS:
    case RJ_EBADDATA:
    case RJ_ECONFLICT: return EXIT_DATAERR;
    case RJ_EBADARG: return EXIT_USAGE;
    case RJ_ENODB:
    case RJ_ENOTFOUND: return EXIT_NOINPUT;
    case RJ_EINTR: return EXIT_TEMPFAIL;
    case RJ_EINTERNAL:
    case RJ_ENOMEM: return EXIT_SOFTWARE;
    default: return EXIT_IOERR;
    }
}

const char *cli_db_path(const CliArgs *a)
{
    if (a->db)
        return a->db;
    const char *env = getenv("RENJU_DB");
    return env && *env ? env : "./renju.lmdb";
}

void cli_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* A colour option: its name in any case, or its initial ("b", "W"). */
static int parse_color(const char *s, Color *c)
{
    if (!color_parse(s, true, c))
        return 0;
    if (!strcasecmp(s, "b"))
        *c = BLACK;
    else if (!strcasecmp(s, "w"))
        *c = WHITE;
    else
        return -1;
    return 0;
}

static int parse_num(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < lo || v > hi)
        return cli_error(EXIT_USAGE, "bad value '%s' for %s", s, opt);
    *out = v;
    return 0;
}

int cli_parse(int argc, char **argv, CliArgs *a)
{
    enum {
        O_JSON = 256,
        O_QUIET,
        O_RULES,
        O_TOMOVE,
        O_SIDE,
        O_NODES,
        O_TIME,
        O_TTMB,
        O_THREADS,
        O_DB,
        O_SHORTEST,
        O_CHILDREN,
        O_SGF,
        O_PROGRESS,
        O_PROGRESS_INTERVAL,
        O_ORDER,
        O_CHECK,
        O_NO_WARM,
        O_WARM_DB,
        O_FOCUS
    };
    static const struct option opts[] = {
        {"json", no_argument, NULL, O_JSON},
        {"quiet", no_argument, NULL, O_QUIET},
        {"rules", required_argument, NULL, O_RULES},
        {"to-move", required_argument, NULL, O_TOMOVE},
        {"side", required_argument, NULL, O_SIDE},
        {"attacker", required_argument, NULL, O_SIDE},
        {"nodes", required_argument, NULL, O_NODES},
        {"time", required_argument, NULL, O_TIME},
        {"tt-mb", required_argument, NULL, O_TTMB},
        {"threads", required_argument, NULL, O_THREADS},
        {"db", required_argument, NULL, O_DB},
        {"shortest", no_argument, NULL, O_SHORTEST},
        {"children", no_argument, NULL, O_CHILDREN},
        {"sgf", required_argument, NULL, O_SGF},
        {"progress", required_argument, NULL, O_PROGRESS},
        {"progress-interval", required_argument, NULL, O_PROGRESS_INTERVAL},
        {"order", required_argument, NULL, O_ORDER},
        {"check", no_argument, NULL, O_CHECK},
        {"no-warm", no_argument, NULL, O_NO_WARM},
        {"warm-db", required_argument, NULL, O_WARM_DB},
        {"focus", required_argument, NULL, O_FOCUS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(a, 0, sizeof *a);
    a->rules = RULE_RENJU;
    a->tt_mb = 256;
    a->threads = 1;
    optind = 0; /* glibc: 0 re-initialises fully, so cli_parse can run more than once */
    optopt = 0;
    opterr = 0;
    int c;
    double v;
    /* "+" would stop at the first positional; we allow options anywhere. */
    while ((c = getopt_long(argc, argv, "-:h", opts, NULL)) != -1) {
        switch (c) {
        case 1:
            if (a->npos >= CLI_MAX_POS)
                return cli_error(EXIT_USAGE, "too many arguments");
            a->pos[a->npos++] = optarg;
            break;
        case O_JSON: a->json = true; break;
        case O_QUIET: a->quiet = true; break;
        case 'h': a->help = true; break;
        case O_RULES:
            if (ruleset_parse(optarg, true, &a->rules))
                return cli_error(EXIT_USAGE, "unknown rule set '%s' (renju, freestyle, standard)", optarg);
            break;
        case O_TOMOVE:
            if (parse_color(optarg, &a->to_move))
                return cli_error(EXIT_USAGE, "bad --to-move '%s' (black or white)", optarg);
            break;
        case O_SIDE:
            if (parse_color(optarg, &a->side))
                return cli_error(EXIT_USAGE, "bad side '%s' (black or white)", optarg);
            break;
        case O_NODES:
            if (parse_num("--nodes", optarg, 1, 1e18, &v))
                return EXIT_USAGE;
            a->nodes = (long long)v;
            break;
        case O_TIME:
            if (parse_num("--time", optarg, 0.001, 1e9, &v))
                return EXIT_USAGE;
            a->time_s = v;
            break;
        case O_TTMB:
            if (parse_num("--tt-mb", optarg, 1, 1 << 20, &v))
                return EXIT_USAGE;
            a->tt_mb = (long)v;
            a->tt_mb_set = true;
            break;
        case O_THREADS:
            if (parse_num("--threads", optarg, 1, 1024, &v))
                return EXIT_USAGE;
            a->threads = (int)v;
            break;
        case O_DB: a->db = optarg; break;
        case O_SHORTEST: a->shortest = true; break;
        case O_CHILDREN: a->children = true; break;
        case O_NO_WARM:
            a->no_warm = true;
            break;
        case O_WARM_DB:
            a->warm_db = optarg;
            break;
        case O_FOCUS:
            if (parse_num("--focus", optarg, 0.01, 1, &v))
                return EXIT_USAGE;
            a->focus = v;
            break;
        case O_SGF:
            a->sgf = optarg;
            break;
        case O_PROGRESS:
            if (progress_mode_parse(optarg, &a->progress))
                return cli_error(EXIT_USAGE, "bad --progress '%s' (auto, live, plain, json or none)", optarg);
            break;
        case O_PROGRESS_INTERVAL:
            if (parse_num("--progress-interval", optarg, 0.001, 1e6, &v))
                return EXIT_USAGE;
            a->progress_interval = v;
            break;
        case O_CHECK:
            a->check = true;
            break;
        case O_ORDER:
            if (parse_num("--order", optarg, 1, 4, &v))
                return EXIT_USAGE;
            if (v != (int)v)
                return cli_error(EXIT_USAGE, "bad value '%s' for --order", optarg);
            a->order = (int)v;
            break;
        case ':':
        case '?':
        default: {
            /* getopt leaves the offending argument at argv[optind - 1] (or, for a
             * short option inside a cluster such as "-hx", optopt names it). */
            const char *bad = optind >= 1 && optind <= argc ? argv[optind - 1] : "?";
            if (optopt > 0 && optopt < 128 && optopt != 'h')
                return cli_error(EXIT_USAGE, "unknown option '-%c'", optopt);
            if (optopt >= O_JSON && strchr(bad, '='))
                return cli_error(EXIT_USAGE, "option '%s' takes no value", bad);
            if (optopt >= O_JSON)
                return cli_error(EXIT_USAGE, "option '%s' needs a value", bad);
            return cli_error(EXIT_USAGE, "unknown option '%s'", bad);
        }
        }
    }
    return 0;
}

bool cli_is_sgf(const char *arg)
{
    size_t n = strlen(arg);
    return !strncmp(arg, "sgf:", 4) || (n > 4 && !strcasecmp(arg + n - 4, ".sgf"));
}

int cli_read_file(const char *path, size_t max, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cli_error(errno == ENOENT ? EXIT_NOINPUT : EXIT_IOERR, "cannot read '%s': %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            if (cap > max)
                break;
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf)
        return cli_error(EXIT_SOFTWARE, "out of memory reading '%s'", path);
    if (bad) {
        free(buf);
        return cli_error(EXIT_IOERR, "cannot read '%s': read error", path);
    }
    if (n > max) {
        free(buf);
        return cli_error(EXIT_DATAERR, "%s: larger than %zu bytes", path, max);
    }
    buf[n] = 0;
    *data = buf;
    *len = n;
    return 0;
}

/* POSITION from an SGF file (the main line of its first game). */
static int sgf_position(const CliArgs *a, const char *arg, Board *b)
{
    const char *path = strncmp(arg, "sgf:", 4) ? arg : arg + 4;
    char *data;
    size_t len;
    int rc = cli_read_file(path, SGF_MAX_BYTES, &data, &len);
    if (rc)
        return rc;
    SgfGame *g = malloc(sizeof *g);
    if (!g) {
        free(data);
        return cli_error(EXIT_SOFTWARE, "out of memory");
    }
    char err[256];
    rc = sgf_parse(data, len, g, err, sizeof err);
    if (!rc)
        rc = sgf_board(g, a->rules, a->to_move, b, err, sizeof err);
    free(data);
    free(g);
    return rc ? cli_error(EXIT_DATAERR, "%s: %s", path, err) : 0;
}

int cli_position(const CliArgs *a, int first, Board *b)
{
    char text[4096];
    size_t len = 0;
    text[0] = 0;
    if (first >= a->npos)
        return cli_error(EXIT_USAGE, "missing POSITION argument");
    if (cli_is_sgf(a->pos[first])) {
        if (first + 1 < a->npos)
            return cli_error(EXIT_USAGE, "unexpected argument '%s' after the SGF file", a->pos[first + 1]);
        return sgf_position(a, a->pos[first], b);
    }
    for (int i = first; i < a->npos; i++) {
        int n = snprintf(text + len, sizeof text - len, "%s%s", i > first ? " " : "", a->pos[i]);
        if (n < 0 || (size_t)n >= sizeof text - len)
            return cli_error(EXIT_DATAERR, "position text too long");
        len += (size_t)n;
    }
    char err[256];
    int rc = position_parse(text, a->rules, a->to_move, b, err, sizeof err);
    if (rc)
        return cli_error(EXIT_DATAERR, "%s", err);
    return 0;
}
