/*
 * cli_renlib.c - `renju db export|import --format renlib`: stored proofs as
 * RenLib `.lib` trees, and RenLib trees checked as proofs (db/renlib.h,
 * db/renlib_proof.h say what is written and what an import concludes).
 *
 * Exit codes: 64 usage; 65 a malformed `.lib` file, a stored proof that does
 * not frame, or an imported proof that contradicts a stored disproof; 66 a
 * missing file or database, or no stored proof to export; 70 out of memory;
 * 74 I/O or database errors; 75 interrupted import (what was proven so far
 * is committed).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "cli.h"
#include "cli_run.h"
#include "db.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "position.h"
#include "renlib_proof.h"
#include "version.h"

static const char USAGE[] = "usage: renju db export --format renlib POSITION --out FILE.lib [--attacker S] "
                            "[--max-depth D] [--max-nodes N] [--db PATH] | "
                            "renju db import --format renlib FILE.lib [--attacker S] [--db PATH]";

/* ---- export ---- */

static int parse_limit(const char *opt, const char *s, uint64_t hi, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || *s == '-' || v < 1 || v > hi)
        return cli_error(EXIT_USAGE, "bad value '%s' for --%s (1..%llu)", s, opt, (unsigned long long)hi);
    *out = v;
    return 0;
}

/* Write len bytes to path ("-": stdout).  0 or an exit code (message printed). */
static int write_file(const char *path, const uint8_t *data, size_t len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    if (!f)
        return cli_error(EXIT_IOERR, "export: %s: %s", path, strerror(errno));
    bool ok = fwrite(data, 1, len, f) == len;
    ok &= fflush(f) == 0;
    if (f != stdout)
        ok &= fclose(f) == 0;
    return ok ? 0 : cli_error(EXIT_IOERR, "export: %s: write error", path);
}

static int renlib_export(const CliArgs *a, const char *out, uint64_t max_depth, uint64_t max_nodes)
{
    if (!out)
        return cli_error(EXIT_USAGE, "export --format renlib needs --out FILE.lib ('-' for stdout)");
    Board b;
    int rc = cli_position(a, 1, &b);
    if (rc)
        return rc;
    char pos[POSITION_STR_LEN];
    position_str(&b, pos, sizeof pos);
    Color att = a->side ? a->side : b.to_move;
    Db *db;
    if ((rc = cli_db_open(cli_db_path(a), DB_RDONLY, &db)))
        return rc;
    DbRecord r;
    uint8_t *proof = NULL;
    size_t len = 0;
    rc = db_get(db, &b, a->rules, att, &r);
    bool have_result = rc == 0;
    if (rc == 0 && r.result == RESULT_PROVEN)
        rc = db_get_proof(db, &b, a->rules, att, &proof, &len);
    db_close(db);
    if (rc == RJ_ENOTFOUND)
        return cli_error(EXIT_NOINPUT, "export: %s for %s (attacker %s) in %s",
                         have_result ? "the stored result has no proof" : "no stored result", pos, color_name(att),
                         cli_db_path(a));
    if (rc)
        return cli_error(cli_exit_code(rc) == EXIT_SOFTWARE ? EXIT_SOFTWARE : EXIT_IOERR, "export: %s: %s",
                         cli_db_path(a), rj_strerror(rc));
    if (r.result != RESULT_PROVEN)
        return cli_error(EXIT_NOINPUT, "export: the stored result for %s (attacker %s) is %s: no proof to export", pos,
                         color_name(att), result_name(r.result));
    Point line[MAX_PLY];
    int n;
    if (renlib_proof_line(&b, a->rules, line, &n)) {
        free(proof);
        return cli_error(EXIT_DATAERR, "export: no legal move order reaches the stone set %s: give it as moves", pos);
    }
    RenlibLimits lim = {(uint32_t)max_depth, max_nodes};
    RenlibTree t;
    RenlibExport x;
    rc = renlib_proof_export(a->rules, line, n, proof, len, &lim, &t, &x);
    free(proof);
    if (rc) {
        renlib_free(&t);
        if (rc == RJ_ENOMEM)
            return cli_error(EXIT_SOFTWARE, "export: out of memory");
        return cli_error(EXIT_DATAERR, "export: the stored proof for %s does not fit a RenLib tree (%s)", pos,
                         rj_strerror(rc));
    }
    /* Comments: the root says everything (RenLib shows it first), the position's node where the proof starts. */
    char cmt[2048];
    int k = snprintf(cmt, sizeof cmt,
                     "renju proof: %s wins\bposition: %s (%s to move), rules %s\r\n"
                     "result: proven for %s; proof %llu nodes, depth %u plies, %llu moves; "
                     "solved by %s, exported by %s\r\n"
                     "labels: W = the move wins for the side that plays it, L = the move loses\r\n"
                     "defender moves not shown lose at once: the attacker then makes five, "
                     "or a stone with two winning points",
                     color_name(att), pos, color_name(b.to_move), ruleset_name(a->rules), color_name(att),
                     (unsigned long long)r.proof_nodes, r.proof_depth, (unsigned long long)x.proof_moves, r.version,
                     rj_version());
    if (x.truncated && k > 0 && (size_t)k < sizeof cmt)
        snprintf(cmt + k, sizeof cmt - (size_t)k,
                 "\r\nTRUNCATED: %llu of %llu proof moves (limits: depth %llu, moves %llu); not a complete proof, "
                 "'cut' comments mark where it goes on",
                 (unsigned long long)x.moves, (unsigned long long)x.proof_moves, (unsigned long long)max_depth,
                 (unsigned long long)max_nodes);
    char here[128];
    snprintf(here, sizeof here, "%s to move, %s wins: the proof starts here", color_name(b.to_move), color_name(att));
    if ((rc = renlib_set_comment(&t, RENLIB_ROOT, cmt)) == 0 && x.position != RENLIB_ROOT)
        rc = renlib_set_comment(&t, x.position, here);
    t.node[x.position].flags |= RENLIB_MARK;
    uint8_t *data = NULL;
    size_t dlen = 0;
    if (!rc)
        rc = renlib_write(&t, &data, &dlen);
    renlib_free(&t);
    if (rc)
        return cli_error(EXIT_SOFTWARE, "export: %s", rj_strerror(rc));
    rc = write_file(out, data, dlen);
    free(data);
    if (rc)
        return rc;
    if (a->json) {
        printf("{\"file\":");
        cli_json_str(stdout, out);
        printf(",\"position\":");
        cli_json_str(stdout, pos);
        printf(",\"attacker\":\"%s\",\"result\":\"proven\",\"proof_nodes\":%llu,\"proof_moves\":%llu,"
               "\"moves_written\":%llu,\"line_moves\":%d,\"depth\":%u,\"truncated\":%s,\"bytes\":%zu}\n",
               color_name(att), (unsigned long long)r.proof_nodes, (unsigned long long)x.proof_moves,
               (unsigned long long)x.moves, n, x.depth, x.truncated ? "true" : "false", dlen);
    } else if (strcmp(out, "-")) {
        printf("wrote %s: %d moves to %s, then %llu of the proof's %llu moves (depth %u%s), %zu bytes\n", out, n, pos,
               (unsigned long long)x.moves, (unsigned long long)x.proof_moves, x.depth,
               x.truncated ? ", TRUNCATED: not a complete proof" : ", complete", dlen);
    }
    return EXIT_DONE;
}

/* ---- import ---- */

typedef struct {
    const CliArgs *a;
    Db *db;
    uint64_t stored, not_stored, conflicts, shown_rejected;
    int err;
} ImportCtx;

static void print_position(const Board *b, char *buf, size_t len)
{
    position_str(b, buf, len);
    if (!buf[0])
        snprintf(buf, len, "(empty board)");
}

static int on_proven(void *ctx, const RenlibProven *p)
{
    ImportCtx *c = ctx;
    const CliArgs *a = c->a;
    char pos[POSITION_STR_LEN];
    print_position(p->board, pos, sizeof pos);
    const char *status = "stored";
    DbRecord old;
    if (db_get(c->db, p->board, a->rules, p->attacker, &old) == 0 && old.result == RESULT_DISPROVEN) {
        c->conflicts++;
        status = "contradicts the stored disproof, not stored";
    } else {
        DbRecord r;
        memset(&r, 0, sizeof r);
        r.result = RESULT_PROVEN;
        r.attacker = p->attacker;
        r.best = p->board->to_move == p->attacker ? p->proof[PROOF_HEADER_LEN] : POINT_NONE;
        r.proof_nodes = p->stats.nodes;
        r.proof_depth = p->stats.depth;
        r.time = (uint64_t)time(NULL);
        snprintf(r.version, sizeof r.version, "%s", rj_version());
        int rc = db_queue(c->db, p->board, a->rules, &r, p->proof, p->len);
        if (rc == RJ_EBADARG) {
            c->not_stored++;
            status = "not stored (a position right after a pass)";
        } else if (rc && rc != RJ_ECONFLICT) {
            c->err = rc;
            return 1;
        } else {
            c->stored++;
        }
    }
    if (a->json) {
        printf("{\"position\":");
        cli_json_str(stdout, pos);
        printf(",\"to_move\":\"%s\",\"attacker\":\"%s\",\"result\":\"proven\",\"proof_nodes\":%llu,"
               "\"proof_depth\":%u,\"after_move\":%s,\"stored\":%s}\n",
               color_name(p->board->to_move), color_name(p->attacker), (unsigned long long)p->stats.nodes,
               p->stats.depth, p->after_move ? "true" : "false", !strcmp(status, "stored") ? "true" : "false");
    } else {
        printf("proven: %s wins %s (%s to move): proof %llu nodes, depth %u, %s; %s\n", color_name(p->attacker), pos,
               color_name(p->board->to_move), (unsigned long long)p->stats.nodes, p->stats.depth,
               p->after_move ? "the rest of the proof above" : "checked", status);
    }
    return 0;
}

static int on_rejected(void *ctx, const RenlibRejected *r)
{
    ImportCtx *c = ctx;
    if (++c->shown_rejected > 20)
        return 0;
    char pos[POSITION_STR_LEN];
    print_position(r->board, pos, sizeof pos);
    if (c->a->json) {
        printf("{\"position\":");
        cli_json_str(stdout, pos);
        printf(",\"to_move\":\"%s\",\"attacker\":\"%s\",\"result\":\"unknown\",\"reason\":",
               color_name(r->board->to_move), color_name(r->attacker));
        cli_json_str(stdout, r->why);
        printf("}\n");
    } else {
        printf("not a proof: %s for %s: %s\n", pos, color_name(r->attacker), r->why);
    }
    return 0;
}

/* Read the whole file.  0 or an exit code (message printed). */
static int read_file(const char *path, uint8_t **data, size_t *len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f)
        return cli_error(errno == ENOENT ? EXIT_NOINPUT : EXIT_IOERR, "import: %s: %s", path, strerror(errno));
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    int code = 0;
    for (;;) {
        if (n == cap) {
            if (cap > RENLIB_MAX_FILE) {
                code = cli_error(EXIT_DATAERR, "import: %s: larger than %d bytes", path, RENLIB_MAX_FILE);
                break;
            }
            cap = cap ? 2 * cap : 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                code = cli_error(EXIT_SOFTWARE, "import: out of memory");
                break;
            }
            buf = nb;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) {
            if (ferror(f))
                code = cli_error(EXIT_IOERR, "import: %s: read error", path);
            break;
        }
    }
    if (f != stdin)
        fclose(f);
    if (code) {
        free(buf);
        return code;
    }
    *data = buf;
    *len = n;
    return 0;
}

static int renlib_import(const CliArgs *a)
{
    if (a->npos != 2)
        return cli_error(EXIT_USAGE, "%s", USAGE);
    const char *path = a->pos[1];
    uint8_t *data = NULL;
    size_t len = 0;
    int rc = read_file(path, &data, &len);
    if (rc)
        return rc;
    RenlibTree t;
    char why[256];
    rc = renlib_read(data, len, &t, why, sizeof why);
    free(data);
    if (rc) {
        renlib_free(&t);
        if (rc == RJ_ENOMEM)
            return cli_error(EXIT_SOFTWARE, "import: out of memory");
        return cli_error(EXIT_DATAERR, "import: %s: %s", path, why);
    }
    Db *db;
    if ((rc = cli_db_open(cli_db_path(a), DB_CREATE, &db))) {
        renlib_free(&t);
        return rc;
    }
    ImportCtx c = {.a = a, .db = db};
    RenlibImport st;
    rc = renlib_proof_import(&t, a->rules, a->side, on_proven, on_rejected, &c, cli_run_stop(), &st);
    int frc = db_flush(db);
    db_close(db);
    uint64_t records = t.records;
    renlib_free(&t);
    if (rc == 1 && c.err)
        rc = c.err;
    if (rc && rc != RJ_EINTR)
        return cli_error(cli_exit_code(rc) == EXIT_SOFTWARE ? EXIT_SOFTWARE : EXIT_IOERR, "import: %s",
                         rc > 0 ? strerror(rc) : rj_strerror(rc));
    if (frc && frc != RJ_ECONFLICT)
        return cli_error(EXIT_IOERR, "import: %s", frc > 0 ? strerror(frc) : rj_strerror(frc));
    uint64_t not_proofs = st.lines - st.proven_lines - st.illegal_lines;
    if (a->json) {
        printf("{\"file\":");
        cli_json_str(stdout, path);
        printf(",\"records\":%llu,\"positions\":%llu,\"lines\":%llu,\"proven\":%llu,\"stored\":%llu,"
               "\"proven_lines\":%llu,\"lines_not_proofs\":%llu,\"illegal_lines\":%llu,\"rejected\":%llu,"
               "\"conflicts\":%llu,\"interrupted\":%s}\n",
               (unsigned long long)records, (unsigned long long)st.positions, (unsigned long long)st.lines,
               (unsigned long long)st.proven, (unsigned long long)c.stored, (unsigned long long)st.proven_lines,
               (unsigned long long)not_proofs, (unsigned long long)st.illegal_lines, (unsigned long long)st.rejected,
               (unsigned long long)c.conflicts, rc == RJ_EINTR ? "true" : "false");
    } else if (rc == RJ_EINTR) {
        printf("read %s: %llu nodes; stopped before the check ended: %llu positions proven so far (%llu stored)\n",
               path, (unsigned long long)records, (unsigned long long)st.proven, (unsigned long long)c.stored);
    } else {
        if (c.shown_rejected > 20)
            printf("(%llu more claims the checker rejected not shown)\n", (unsigned long long)(c.shown_rejected - 20));
        printf("read %s: %llu nodes, %llu lines\n", path, (unsigned long long)records, (unsigned long long)st.lines);
        printf("proven, checked by the independent checker: %llu position%s, covering %llu lines\n",
               (unsigned long long)st.proven, st.proven == 1 ? "" : "s", (unsigned long long)st.proven_lines);
        printf("stored in %s: %llu positions (with the positions after the first moves)\n", cli_db_path(a),
               (unsigned long long)c.stored);
        if (st.rejected)
            printf("claims the checker rejected: %llu\n", (unsigned long long)st.rejected);
        printf("not proofs: %llu lines (%llu play an illegal move or go on after the game ended); "
               "nothing is concluded about them\n",
               (unsigned long long)not_proofs, (unsigned long long)st.illegal_lines);
    }
    if (rc == RJ_EINTR)
        return cli_error(EXIT_TEMPFAIL, "import: interrupted (the positions proven so far are committed)");
    if (c.conflicts)
        return cli_error(EXIT_DATAERR, "import: %llu proofs contradict stored disproofs",
                         (unsigned long long)c.conflicts);
    return EXIT_DONE;
}

int cli_db_renlib(int argc, char **argv)
{
    const char *out = NULL, *depth_s = NULL, *nodes_s = NULL;
    int rc;
    if ((rc = cli_take_opt(&argc, argv, "out", true, &out)) > 1 ||
        (rc = cli_take_opt(&argc, argv, "max-depth", true, &depth_s)) > 1 ||
        (rc = cli_take_opt(&argc, argv, "max-nodes", true, &nodes_s)) > 1)
        return rc;
    CliArgs a;
    if ((rc = cli_parse(argc, argv, &a)))
        return rc;
    uint64_t max_depth = 0, max_nodes = 0;
    if ((depth_s && parse_limit("max-depth", depth_s, RENLIB_MAX_DEPTH, &max_depth)) ||
        (nodes_s && parse_limit("max-nodes", nodes_s, UINT64_MAX / 2, &max_nodes)))
        return EXIT_USAGE;
    if (a.npos < 1)
        return cli_error(EXIT_USAGE, "%s", USAGE);
    if (!strcmp(a.pos[0], "export"))
        return renlib_export(&a, out, max_depth, max_nodes);
    if (out || depth_s || nodes_s)
        return cli_error(EXIT_USAGE, "--out, --max-depth and --max-nodes are options of export");
    if (!strcmp(a.pos[0], "import")) {
        cli_run_signals();
        return renlib_import(&a);
    }
    return cli_error(EXIT_USAGE, "--format renlib applies to db export and db import");
}
