/* cli_run.c - see cli_run.h. */
#include "cli_run.h"

#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"
#include "error.h"

/* Set by the signal handlers; read by the searches through DfpnConfig.stop. */
static atomic_bool g_stop;

atomic_bool *cli_run_stop(void) { return &g_stop; }

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&g_stop, true);
}

void cli_run_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
}

int cli_take_opt(int *argc, char **argv, const char *name, bool has_value, const char **value)
{
    size_t len = strlen(name);
    int found = 0, out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--")) { /* keep the rest as is */
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strncmp(s, "--", 2) || strncmp(s + 2, name, len) || (s[2 + len] && s[2 + len] != '=')) {
            argv[out++] = argv[i];
            continue;
        }
        found = 1;
        if (!has_value) {
            if (s[2 + len] == '=')
                return cli_error(EXIT_USAGE, "option '--%s' takes no value", name);
            continue;
        }
        if (s[2 + len] == '=') {
            *value = s + 3 + len;
        } else {
            if (i + 1 >= *argc)
                return cli_error(EXIT_USAGE, "option '--%s' needs a value", name);
            *value = argv[++i];
        }
    }
    *argc = out;
    argv[out] = NULL;
    return found;
}

bool cli_has_opt(int argc, char **argv, const char *name)
{
    size_t len = strlen(name);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, len) &&
            (argv[i][2 + len] == 0 || argv[i][2 + len] == '='))
            return true;
    }
    return false;
}

/* ---- store ---- */

static int effort_lookup(void *ctx, const Board *b, Color attacker, RuleSet rs, StoredResult *out)
{
    DbRecord r;
    int rc = db_get(ctx, b, rs, attacker, &r);
    if (rc == RJ_EBADDATA)
        return RJ_ENOTFOUND; /* a malformed record is searched again (and replaced) */
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    out->result = r.result;
    out->attacker = r.attacker;
    out->best = r.best;
    out->proof_nodes = r.proof_nodes;
    out->proof_depth = r.proof_depth;
    out->nodes = r.nodes;
    return 0;
}

void cli_run_store(Db *db, ResultStore *rs)
{
    db_result_store(db, rs);
    rs->lookup = effort_lookup;
}

/* ---- budget ---- */

void cli_run_budget(const CliArgs *a, bool per_position, long npos, uint64_t default_nodes, bool tt_given,
                    DfpnConfig *cfg)
{
    dfpn_config_default(cfg);
    cfg->attacker = BLACK;
    cfg->rules = a->rules;
    cfg->threads = a->threads;
    if (npos < 1)
        npos = 1;
    if (a->nodes > 0) {
        uint64_t n = (uint64_t)a->nodes;
        cfg->max_nodes = per_position ? n : n / (uint64_t)npos;
        if (cfg->max_nodes < 1)
            cfg->max_nodes = 1;
    }
    if (a->time_s > 0) {
        cfg->max_time = per_position ? a->time_s : a->time_s / (double)npos;
        if (cfg->max_time < 0.001)
            cfg->max_time = 0.001;
    }
    if (a->nodes <= 0 && a->time_s <= 0)
        cfg->max_nodes = default_nodes;
    if (tt_given) {
        cfg->tt_mb = (size_t)a->tt_mb;
    } else if (cfg->max_nodes) {
        /* About two 16-byte entries per node, cleared before each position: keep it small. */
        uint64_t mb = (cfg->max_nodes * 32 + (1u << 20) - 1) >> 20;
        cfg->tt_mb = mb < 2 ? 2 : mb > 256 ? 256 : (size_t)mb;
    } else {
        cfg->tt_mb = 64;
    }
}

int cli_run_open_db(const CliArgs *a, bool no_db, Db **db)
{
    *db = NULL;
    if (no_db)
        return 0;
    const char *path = cli_db_path(a);
    struct stat st;
    if (!a->db && stat(path, &st) != 0)
        return 0;
    return cli_db_open(path, DB_CREATE, db);
}
