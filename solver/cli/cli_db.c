/*
 * cli_db.c - `renju query` and `renju db stats|verify|merge|export|import`.
 *
 * Exit codes (docs/cli.md): 66 when the database file is missing; 74 for a
 * foreign, truncated or corrupt file, a newer schema, or a file-system error
 * (read-only directory, ...); 65 when verify finds a bad proof or record, when
 * merge/import meet a proven/disproven contradiction or a bad import line;
 * 75 when SIGINT, SIGTERM or SIGUSR1 stops verify, merge, export or import
 * (merge and import commit what they read first; the counts printed are
 * those so far).  The export/import format is documented in db/exchange.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board.h"
#include "cli.h"
#include "cli_run.h"
#include "cli_sgf.h"
#include "clock.h"
#include "db.h"
#include "error.h"
#include "exchange.h"
#include "names.h"
#include "notation.h"
#include "proof.h"
#include "rules.h"
#include "search_db.h"
#include "sym.h"

/* True once a signal asked the command to stop; db_foreach callbacks then return RJ_EINTR. */
static bool stop_requested(void) { return atomic_load(cli_run_stop()); }

int cli_db_open(const char *path, unsigned flags, Db **db)
{
    char why[512];
    DbOptions o = { flags, 0, 0 };
    int rc = db_open(path, &o, db, why, sizeof why);
    if (rc == 0)
        return 0;
    int code = cli_exit_code(rc);
    if (code != EXIT_NOINPUT && code != EXIT_SOFTWARE)
        code = EXIT_IOERR;
    return cli_error(code, "%s", why[0] ? why : rj_strerror(rc));
}

/* "B:h8,i9 W:h9" of a canonical key (for messages). */
static const char *key_str(const DbKey *k, char *buf, size_t len)
{
    Board b;
    if (db_key_decode(k, &b, NULL, NULL)) {
        snprintf(buf, len, "(malformed key)");
        return buf;
    }
    size_t n = (size_t)snprintf(buf, len, "B:");
    for (Color c = BLACK; c <= WHITE; c++) {
        bool first = true;
        if (c == WHITE && n < len)
            n += (size_t)snprintf(buf + n, len - n, " W:");
        for (int p = 0; p < BOARD_POINTS && n < len; p++)
            if (board_at(&b, (Point)p) == c) {
                char s[8];
                n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ",", notation_point_str((Point)p, s));
                first = false;
            }
    }
    return buf;
}

static void json_point(Point p)
{
    char s[8];
    if (p == POINT_NONE)
        fputs("null", stdout);
    else
        printf("\"%s\"", notation_point_str(p, s));
}

/* ---- query ---- */

static void print_record_json(const DbRecord *r, int rc, Color attacker)
{
    printf("\"found\":%s,\"result\":\"%s\",\"attacker\":\"%s\",\"best\":", rc == 0 ? "true" : "false",
           result_name(rc == 0 ? r->result : RESULT_UNKNOWN), color_name(attacker));
    json_point(rc == 0 ? r->best : POINT_NONE);
    if (rc == 0) {
        printf(",\"proof_nodes\":%llu,\"proof_depth\":%u,\"nodes\":%llu,\"solver_version\":",
               (unsigned long long)r->proof_nodes, r->proof_depth, (unsigned long long)r->nodes);
        cli_json_str(stdout, r->version);
        printf(",\"time\":%llu", (unsigned long long)r->time);
    } else {
        printf(",\"proof_nodes\":0,\"solver_version\":null");
    }
}

int cmd_query(int argc, char **argv)
{
    CliArgs a;
    int rc = cli_parse(argc, argv, &a);
    if (rc)
        return rc;
    Board b;
    if ((rc = cli_position(&a, 0, &b)))
        return rc;
    Color att = a.side ? a.side : b.to_move;
    Db *db;
    if ((rc = cli_db_open(cli_db_path(&a), DB_RDONLY, &db)))
        return rc;
    DbRecord r;
    int grc = db_get(db, &b, a.rules, att, &r);
    /*
     * After a pass, the side to move's result is that of the stone set (a
     * pass of its own would only draw): the opening search stores white's
     * pass so.  Not for the other side, who could pass back to a draw.
     */
    Board sb;
    const Board *kb = &b;
    bool stone_set = false;
    if (grc == RJ_ENOTFOUND && board_last_move(&b) == POINT_PASS && att == b.to_move) {
        board_setup_copy(&b, &sb);
        if ((grc = db_get(db, &sb, a.rules, att, &r)) == 0) {
            kb = &sb;
            stone_set = true;
        }
    }
    if (grc && grc != RJ_ENOTFOUND) {
        db_close(db);
        return cli_error(EXIT_IOERR, "%s: %s (stored record unreadable)", cli_db_path(&a), rj_strerror(grc));
    }
    if (a.json) {
        printf("{");
        print_record_json(&r, grc, att);
        if (stone_set)
            printf(",\"stone_set\":true");
    } else if (grc == 0) {
        char s[8];
        printf("found: %s for %s, best %s, proof %llu nodes depth %u, %llu search nodes, solver %s%s\n",
               result_name(r.result), color_name(att), r.best == POINT_NONE ? "-" : notation_point_str(r.best, s),
               (unsigned long long)r.proof_nodes, r.proof_depth, (unsigned long long)r.nodes, r.version,
               stone_set ? " (stored as the stones after the pass)" : "");
    } else {
        printf("not found (attacker %s)\n", color_name(att));
    }
    if (a.children) {
        int found = 0, total = 0;
        if (a.json)
            printf(",\"children\":[");
        for (int p = 0; p < BOARD_POINTS; p++) {
            if (board_at(&b, (Point)p) != EMPTY || !rules_is_legal(&b, (Point)p, a.rules))
                continue;
            board_play(&b, (Point)p);
            DbRecord cr;
            int crc = db_get(db, &b, a.rules, att, &cr);
            board_undo(&b);
            char s[8];
            if (a.json) {
                printf("%s{\"move\":\"%s\",", total ? "," : "", notation_point_str((Point)p, s));
                print_record_json(&cr, crc, att);
                printf("}");
            } else if (crc == 0) {
                char s2[8];
                printf("  %-4s %s, best %s, proof %llu nodes\n", notation_point_str((Point)p, s),
                       result_name(cr.result), cr.best == POINT_NONE ? "-" : notation_point_str(cr.best, s2),
                       (unsigned long long)cr.proof_nodes);
            }
            found += crc == 0;
            total++;
        }
        if (a.json)
            printf("]");
        else
            printf("children: %d of %d legal moves stored\n", found, total);
    }
    if (a.json)
        printf("}\n");
    rc = EXIT_DONE;
    if (a.sgf) {
        uint8_t *proof = NULL;
        size_t plen = 0;
        Point line[MAX_PLY];
        int n = 0;
        if (grc == 0 && db_get_proof(db, kb, a.rules, att, &proof, &plen) == 0)
            n = proof_main_line(kb, proof, plen, line, MAX_PLY - 1 - b.ply);
        free(proof);
        if (n < 0)
            n = 0;
        rc = cli_sgf_export(a.sgf, &b, a.rules, att, grc == 0 ? r.result : RESULT_UNKNOWN,
                            grc == 0 ? r.best : POINT_NONE, grc == 0 ? r.proof_nodes : 0, line, n,
                            n > 0 ? "the stored proof's main line" : "no stored line");
    }
    db_close(db);
    return rc;
}

/* ---- db stats ---- */

static int count_state_cb(void *ctx, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen)
{
    (void)key, (void)klen, (void)val, (void)vlen;
    ++*(uint64_t *)ctx;
    return 0;
}

static int db_stats_cmd(const CliArgs *a)
{
    Db *db;
    int rc = cli_db_open(cli_db_path(a), DB_RDONLY, &db);
    if (rc)
        return rc;
    DbStats st;
    uint64_t states = 0;
    rc = db_stats(db, &st);
    if (!rc)
        rc = search_db_foreach_state(db, count_state_cb, &states);
    db_close(db);
    if (rc)
        return cli_error(EXIT_IOERR, "%s: %s", cli_db_path(a), rj_strerror(rc));
    if (a->json) {
        printf("{\"path\":");
        cli_json_str(stdout, cli_db_path(a));
        printf(",\"entries\":%llu,\"proven\":%llu,\"disproven\":%llu,\"unknown\":%llu,\"proofs\":%llu,"
               "\"bad_records\":%llu,\"proof_bytes\":%llu,\"file_bytes\":%llu,\"map_bytes\":%llu,\"schema\":%u,"
               "\"rules\":[",
               (unsigned long long)st.entries, (unsigned long long)st.proven, (unsigned long long)st.disproven,
               (unsigned long long)st.unknown, (unsigned long long)st.proofs, (unsigned long long)st.bad_records,
               (unsigned long long)st.proof_bytes, (unsigned long long)st.file_bytes,
               (unsigned long long)st.map_bytes, st.schema);
        int k = 0;
        for (int i = 0; i < 3; i++)
            if (st.rules_mask >> i & 1)
                printf("%s\"%s\"", k++ ? "," : "", ruleset_name((RuleSet)i));
        printf("],\"creator\":");
        cli_json_str(stdout, st.creator);
        printf(",\"created\":%llu,\"states\":%llu}\n", (unsigned long long)st.created, (unsigned long long)states);
    } else {
        printf("database:     %s (schema %u, created by %s)\n", cli_db_path(a), st.schema, st.creator);
        printf("entries:      %llu (proven %llu, disproven %llu, unknown %llu, malformed %llu)\n",
               (unsigned long long)st.entries, (unsigned long long)st.proven, (unsigned long long)st.disproven,
               (unsigned long long)st.unknown, (unsigned long long)st.bad_records);
        printf("proofs:       %llu (%llu bytes)\n", (unsigned long long)st.proofs, (unsigned long long)st.proof_bytes);
        printf("file:         %llu bytes (map %llu bytes)\n", (unsigned long long)st.file_bytes,
               (unsigned long long)st.map_bytes);
        printf("states:       %llu (the opening search's saved tree: db export --states)\n",
               (unsigned long long)states);
        printf("rule sets:   ");
        for (int i = 0; i < 3; i++)
            if (st.rules_mask >> i & 1)
                printf(" %s", ruleset_name((RuleSet)i));
        printf("\n");
    }
    return EXIT_DONE;
}

/* ---- db verify ---- */

/*
 * Each entry is judged by verify_entry(), a pure function of the entry: with
 * --threads T > 1 the entries are read in batches (proofs copied out of the
 * read transaction), judged in parallel, and reported in key order, so the
 * output is the same for any T.  A batch ends at VERIFY_BATCH entries (the
 * tuning knob RENJU_VERIFY_BATCH) or once its proofs reach VERIFY_BYTES,
 * whichever comes first; its longest proofs are judged first, so that the
 * threads finish a batch together instead of waiting on one long proof
 * started last.
 */
enum { VERIFY_BATCH = 4096, VERIFY_BATCH_MAX = 65536 };
#define VERIFY_BYTES ((size_t)64 << 20)

typedef struct {
    DbEntry e;
    uint8_t *proof; /* owned copy of e.proof (threads > 1) */
    bool checked;   /* a proof was run through the checker */
    bool unchecked; /* a result without a proof */
    bool judged;    /* verify_entry ran (threads > 1: a stop can leave it false) */
    char why[512];  /* the failure, or "" */
} VerifyItem;

/* A batch index and its proof's length, sorted longest first, ties by key order. */
typedef struct {
    size_t len;
    int i;
} VerifyOrder;

typedef struct {
    const CliArgs *a;
    uint64_t entries, checked, failures, unchecked;
    double next_progress;
    VerifyItem *batch;  /* threads > 1 */
    VerifyOrder *order; /* the batch's indices, longest proof first */
    int n, cap;         /* entries in the batch, and at most */
    size_t bytes;       /* of proofs copied into the batch */
    bool stopped;
} VerifyCtx;

/* Judge one entry: item->why empty when it passes. */
static void verify_entry(VerifyItem *it)
{
    const DbEntry *e = &it->e;
    Board b;
    RuleSet rs;
    Color att;
    it->why[0] = 0;
    it->checked = it->unchecked = false;
#define VFAIL(msg)                                                                                                     \
    do {                                                                                                               \
        snprintf(it->why, sizeof it->why, "%s", msg);                                                                  \
        return;                                                                                                        \
    } while (0)
    if (e->status)
        VFAIL("record does not decode");
    if (db_key_decode(&e->key, &b, &rs, &att))
        VFAIL("malformed key");
    DbKey canon;
    db_key(&b, rs, att, &canon, NULL);
    if (memcmp(canon.b, e->key.b, DB_KEY_LEN))
        VFAIL("key is not in canonical form");
    if (e->rec.attacker != att)
        VFAIL("record attacker differs from the key");
    if (e->rec.best < BOARD_POINTS && board_at(&b, e->rec.best) != EMPTY)
        VFAIL("best move is on an occupied point");
    if (!e->proof) {
        if (e->rec.flags & RECORD_HAS_PROOF)
            VFAIL("record says a proof is stored, none found");
        it->unchecked = true;
        return;
    }
    if (e->rec.result != RESULT_PROVEN)
        VFAIL("a proof is stored for a result that is not proven");
    if (e->proof_len < PROOF_HEADER_LEN || e->proof[5] != rs || e->proof[6] != att)
        VFAIL("proof header does not match the entry (rule set or attacker)");
#undef VFAIL
    ProofStats st;
    it->checked = true;
    if (proof_check(&b, e->proof, e->proof_len, &st, it->why, sizeof it->why)) {
        if (!it->why[0])
            snprintf(it->why, sizeof it->why, "the proof does not check");
        return;
    }
    if (b.to_move == att && e->rec.best != POINT_NONE && e->proof[PROOF_HEADER_LEN] != e->rec.best)
        snprintf(it->why, sizeof it->why, "best move differs from the proof's first move");
}

/* Count and print one judged entry (in key order). */
static void verify_report(VerifyCtx *v, const VerifyItem *it)
{
    v->entries++;
    v->checked += it->checked;
    v->unchecked += it->unchecked;
    if (!v->a->quiet && clock_now() > v->next_progress) {
        fprintf(stderr, "verify: %llu entries, %llu proofs checked, %llu failures\n", (unsigned long long)v->entries,
                (unsigned long long)v->checked, (unsigned long long)v->failures);
        v->next_progress = clock_now() + 1.0;
    }
    if (!it->why[0])
        return;
    char pos[1024];
    v->failures++;
    key_str(&it->e.key, pos, sizeof pos);
    Color att = it->e.key.b[SYMKEY_LEN];
    if (v->a->json) {
        printf("{\"position\":");
        cli_json_str(stdout, pos);
        printf(",\"attacker\":\"%s\",\"ok\":false,\"reason\":", color_name(att));
        cli_json_str(stdout, it->why);
        printf("}\n");
    } else {
        printf("FAIL %s attacker %s: %s\n", pos, color_name(att), it->why);
    }
}

/* Longest proof first; ties by key order. */
static int verify_order_cmp(const void *x, const void *y)
{
    const VerifyOrder *a = x, *b = y;
    if (a->len != b->len)
        return a->len > b->len ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Judge the batch on the threads, then report it in order; a stop leaves the rest unjudged and unreported. */
static void verify_flush(VerifyCtx *v)
{
    int n = v->n, nthreads = v->a->threads;
    VerifyItem *batch = v->batch;
    VerifyOrder *order = v->order;
    for (int i = 0; i < n; i++) {
        order[i] = (VerifyOrder){.len = batch[i].proof ? batch[i].e.proof_len : 0, .i = i};
        batch[i].judged = false;
    }
    qsort(order, (size_t)n, sizeof *order, verify_order_cmp);
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
    for (int k = 0; k < n; k++)
        if (!stop_requested()) {
            verify_entry(&batch[order[k].i]);
            batch[order[k].i].judged = true;
        }
    for (int i = 0; i < n; i++) {
        if (!batch[i].judged)
            v->stopped = true;
        if (!v->stopped)
            verify_report(v, &batch[i]);
        free(batch[i].proof);
    }
    v->n = 0;
    v->bytes = 0;
}

static int verify_cb(void *ctx, const DbEntry *e)
{
    VerifyCtx *v = ctx;
    if (stop_requested())
        return RJ_EINTR;
    if (!v->batch) {
        VerifyItem it = {.e = *e};
        verify_entry(&it);
        verify_report(v, &it);
        return 0;
    }
    VerifyItem *it = &v->batch[v->n];
    it->e = *e;
    it->proof = NULL;
    if (e->proof) {
        it->proof = malloc(e->proof_len ? e->proof_len : 1);
        if (!it->proof)
            return RJ_ENOMEM;
        memcpy(it->proof, e->proof, e->proof_len);
        it->e.proof = it->proof;
        v->bytes += e->proof_len;
    }
    if (++v->n == v->cap || v->bytes >= VERIFY_BYTES) {
        verify_flush(v);
        if (v->stopped)
            return RJ_EINTR;
    }
    return 0;
}

static int db_verify_cmd(const CliArgs *a)
{
    Db *db;
    int rc = cli_db_open(cli_db_path(a), DB_RDONLY, &db);
    if (rc)
        return rc;
    VerifyCtx v = {.a = a, .next_progress = clock_now() + 1.0, .cap = VERIFY_BATCH};
    const char *vb = getenv("RENJU_VERIFY_BATCH"); /* tuning knob: entries per batch (docs/cli.md) */
    if (vb) {
        /* 1..VERIFY_BATCH_MAX; anything else leaves the default */
        char *end;
        long k = strtol(vb, &end, 10);
        if (end != vb && !*end && k > 0)
            v.cap = k < VERIFY_BATCH_MAX ? (int)k : VERIFY_BATCH_MAX;
    }
    if (a->threads > 1) {
        v.batch = calloc((size_t)v.cap, sizeof *v.batch);
        v.order = malloc((size_t)v.cap * sizeof *v.order);
        if (!v.batch || !v.order) {
            free(v.batch);
            free(v.order);
            db_close(db);
            return cli_error(EXIT_SOFTWARE, "verify: out of memory");
        }
    }
    rc = db_foreach(db, verify_cb, &v);
    if (v.batch && v.n) {
        if (rc == 0)
            verify_flush(&v);
        for (int i = 0; i < v.n; i++)
            free(v.batch[i].proof);
        if (rc == 0 && v.stopped)
            rc = RJ_EINTR;
    }
    free(v.batch);
    free(v.order);
    db_close(db);
    if (rc == RJ_ENOMEM)
        return cli_error(EXIT_SOFTWARE, "verify: out of memory");
    if (rc && rc != RJ_EINTR)
        return cli_error(EXIT_IOERR, "%s: %s", cli_db_path(a), rj_strerror(rc));
    if (a->json)
        printf("{\"entries\":%llu,\"checked\":%llu,\"failures\":%llu,\"unchecked\":%llu}\n",
               (unsigned long long)v.entries, (unsigned long long)v.checked, (unsigned long long)v.failures,
               (unsigned long long)v.unchecked);
    else
        printf("verified %llu entries: %llu proofs checked, %llu failures, %llu results without a proof\n",
               (unsigned long long)v.entries, (unsigned long long)v.checked, (unsigned long long)v.failures,
               (unsigned long long)v.unchecked);
    if (rc == RJ_EINTR)
        return cli_error(EXIT_TEMPFAIL, "verify: interrupted after %llu entries", (unsigned long long)v.entries);
    return v.failures ? EXIT_DATAERR : EXIT_DONE;
}

/* ---- db merge ---- */

typedef struct {
    Db *out;
    const char *in_path;
    uint64_t read, conflicts, bad;
    int err;
} MergeCtx;

static int merge_cb(void *ctx, const DbEntry *e)
{
    MergeCtx *m = ctx;
    char pos[1024];
    if (stop_requested())
        return RJ_EINTR;
    m->read++;
    if (e->status) {
        m->bad++;
        cli_error(EXIT_DATAERR, "merge: %s: malformed record for %s", m->in_path, key_str(&e->key, pos, sizeof pos));
        return 0;
    }
    DbRecord old;
    if (db_get_key(m->out, &e->key, &old) == 0 && old.result != RESULT_UNKNOWN && e->rec.result != RESULT_UNKNOWN &&
        old.result != e->rec.result) {
        m->conflicts++;
        cli_error(EXIT_DATAERR, "merge: contradiction for %s attacker %s: %s says %s, already merged %s",
                  key_str(&e->key, pos, sizeof pos), color_name(e->rec.attacker), m->in_path,
                  result_name(e->rec.result), result_name(old.result));
        return 0;
    }
    int rc = db_queue_key(m->out, &e->key, &e->rec, e->proof, e->proof_len);
    if (rc == RJ_EBADDATA) {
        m->bad++;
        cli_error(EXIT_DATAERR, "merge: %s: malformed proof for %s", m->in_path, key_str(&e->key, pos, sizeof pos));
        return 0;
    }
    if (rc && rc != RJ_ECONFLICT) {
        m->err = rc;
        return 1;
    }
    return 0;
}

static int db_merge_cmd(const CliArgs *a)
{
    if (a->npos < 3)
        return cli_error(EXIT_USAGE, "usage: renju db merge OUT IN...");
    const char *outp = a->pos[1];
    struct stat so, si;
    bool out_exists = stat(outp, &so) == 0;
    for (int i = 2; i < a->npos; i++)
        if (out_exists && stat(a->pos[i], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
            return cli_error(EXIT_USAGE, "merge: input '%s' is the output", a->pos[i]);
    Db *out;
    int rc = cli_db_open(outp, DB_CREATE, &out);
    if (rc)
        return rc;
    MergeCtx m = { .out = out };
    int code = EXIT_DONE;
    for (int i = 2; i < a->npos && code == EXIT_DONE; i++) {
        Db *in;
        if ((rc = cli_db_open(a->pos[i], DB_RDONLY, &in))) {
            code = rc;
            break;
        }
        m.in_path = a->pos[i];
        uint64_t before = m.read;
        rc = db_foreach(in, merge_cb, &m);
        db_close(in);
        if (rc && rc != RJ_EINTR && !m.err)
            m.err = rc;
        int frc = db_flush(out);
        if (frc == RJ_ECONFLICT)
            m.conflicts++;
        else if (frc && !m.err)
            m.err = frc;
        if (m.err) {
            code = cli_error(cli_exit_code(m.err) == EXIT_SOFTWARE ? EXIT_SOFTWARE : EXIT_IOERR, "merge: %s: %s",
                             a->pos[i], m.err > 0 ? strerror(m.err) : rj_strerror(m.err));
            break;
        }
        if (!a->quiet)
            fprintf(stderr, "merge: %s: %llu entries\n", a->pos[i], (unsigned long long)(m.read - before));
        if (stop_requested())
            break;
    }
    db_close(out);
    if (code)
        return code;
    if (a->json)
        printf("{\"read\":%llu,\"conflicts\":%llu,\"bad\":%llu}\n", (unsigned long long)m.read,
               (unsigned long long)m.conflicts, (unsigned long long)m.bad);
    else
        printf("merged %llu entries into %s: %llu contradictions, %llu malformed\n", (unsigned long long)m.read, outp,
               (unsigned long long)m.conflicts, (unsigned long long)m.bad);
    if (stop_requested())
        return cli_error(EXIT_TEMPFAIL, "merge: interrupted (the entries read so far are committed)");
    if (m.conflicts || m.bad)
        return cli_error(EXIT_DATAERR, "merge: failed (%llu contradictions, %llu malformed entries)",
                         (unsigned long long)m.conflicts, (unsigned long long)m.bad);
    return EXIT_DONE;
}

/* ---- db export / import ---- */

typedef struct {
    FILE *f;
    uint64_t lines, bad;
} ExportCtx;

static int export_cb(void *ctx, const DbEntry *e)
{
    ExportCtx *x = ctx;
    char *line;
    if (stop_requested())
        return RJ_EINTR;
    if (dbx_format(e, &line)) {
        char pos[1024];
        x->bad++;
        cli_error(EXIT_DATAERR, "export: skipping a malformed entry (%s)", key_str(&e->key, pos, sizeof pos));
        return 0;
    }
    fputs(line, x->f);
    fputc('\n', x->f);
    free(line);
    x->lines++;
    return 0;
}

static int export_state_cb(void *ctx, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen)
{
    ExportCtx *x = ctx;
    char *line;
    if (stop_requested())
        return RJ_EINTR;
    if (dbx_format_work(key, klen, val, vlen, &line))
        return RJ_ENOMEM;
    fputs(line, x->f);
    fputc('\n', x->f);
    free(line);
    x->lines++;
    return 0;
}

static int db_export_cmd(const CliArgs *a, bool states)
{
    Db *db;
    int rc = cli_db_open(cli_db_path(a), DB_RDONLY, &db);
    if (rc)
        return rc;
    ExportCtx x = { stdout, 0, 0 };
    if (a->npos > 1 && strcmp(a->pos[1], "-")) {
        x.f = fopen(a->pos[1], "w");
        if (!x.f) {
            db_close(db);
            return cli_error(EXIT_IOERR, "export: %s: %s", a->pos[1], strerror(errno));
        }
    }
    rc = states ? search_db_foreach_state(db, export_state_cb, &x) : db_foreach(db, export_cb, &x);
    db_close(db);
    bool stopped = rc == RJ_EINTR;
    if (stopped)
        rc = 0;
    int werr = ferror(x.f);
    if (x.f != stdout)
        werr |= fclose(x.f);
    if (rc)
        return cli_error(rc == RJ_ENOMEM ? EXIT_SOFTWARE : EXIT_IOERR, "export: %s", rj_strerror(rc));
    if (werr)
        return cli_error(EXIT_IOERR, "export: write error");
    const char *what = states ? "search states" : "entries";
    if (!a->quiet)
        fprintf(stderr, "export: %llu %s\n", (unsigned long long)x.lines, what);
    if (stopped)
        return cli_error(EXIT_TEMPFAIL, "export: interrupted after %llu %s", (unsigned long long)x.lines, what);
    return x.bad ? EXIT_DATAERR : EXIT_DONE;
}

/* Resume states read by import, written STATE_BATCH at a time (one transaction each). */
enum { STATE_BATCH = 4096 };

typedef struct {
    DbWorkItem item[STATE_BATCH];
    uint8_t *key[STATE_BATCH], *val[STATE_BATCH];
    size_t n;
    uint64_t imported, kept;
} StateBatch;

/* A stored state at least as far along as the imported one stays (search_db_state_ahead). */
static bool keep_more_work(void *ctx, const uint8_t *old, size_t olen, const DbWorkItem *item)
{
    (void)ctx;
    return search_db_state_ahead(old, olen, item->val, item->vlen);
}

/* Write the batch (db NULL: drop it) and free its buffers. */
static int state_flush(Db *db, StateBatch *sb)
{
    uint64_t kept = 0;
    int rc = db ? db_work_put_many(db, sb->item, sb->n, keep_more_work, NULL, &kept) : 0;
    if (!rc && db) {
        sb->imported += sb->n - kept;
        sb->kept += kept;
    }
    for (size_t i = 0; i < sb->n; i++)
        free(sb->key[i]), free(sb->val[i]);
    sb->n = 0;
    return rc;
}

/*
 * One state line: RJ_EBADDATA (why filled) when it is malformed or not a
 * state this version knows.  The line's buffers pass to sb; a state stored
 * at least as far along (search_db_state_ahead; by an earlier line too) is
 * kept when the batch is written (sb->kept).
 */
static int import_state(Db *db, const char *line, StateBatch *sb, char *why, size_t whylen)
{
    uint8_t *key, *val;
    size_t klen, vlen;
    int rc = dbx_parse_work(line, &key, &klen, &val, &vlen, why, whylen);
    if (rc)
        return rc;
    rc = search_db_check_state(key, klen, val, vlen, why, whylen);
    if (rc == RJ_ENOTFOUND) {
        snprintf(why, whylen, "a search state of a kind this version does not know");
        rc = RJ_EBADDATA;
    }
    if (rc) {
        free(key), free(val);
        return rc;
    }
    sb->key[sb->n] = key, sb->val[sb->n] = val;
    sb->item[sb->n] = (DbWorkItem){key, klen, val, vlen};
    return ++sb->n == STATE_BATCH ? state_flush(db, sb) : 0;
}

static int db_import_cmd(const CliArgs *a)
{
    if (a->npos < 2)
        return cli_error(EXIT_USAGE, "usage: renju db import FILE [--db PATH]   (FILE '-' reads stdin)");
    FILE *f = stdin;
    if (strcmp(a->pos[1], "-")) {
        f = fopen(a->pos[1], "r");
        if (!f)
            return cli_error(errno == ENOENT ? EXIT_NOINPUT : EXIT_IOERR, "import: %s: %s", a->pos[1], strerror(errno));
    }
    Db *db;
    int rc = cli_db_open(cli_db_path(a), DB_CREATE, &db);
    if (rc) {
        if (f != stdin)
            fclose(f);
        return rc;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint64_t lineno = 0, ok = 0, bad = 0, conflicts = 0;
    int err = 0;
    StateBatch *sb = calloc(1, sizeof *sb);
    if (!sb) {
        db_close(db);
        if (f != stdin)
            fclose(f);
        return cli_error(EXIT_SOFTWARE, "import: out of memory");
    }
    double next = clock_now() + 1.0;
    while (!stop_requested() && (n = getline(&line, &cap, f)) >= 0) { /* a signal ends a blocked getline */
        lineno++;
        if (strspn(line, " \t\r\n") == (size_t)n)
            continue;
        Board b;
        RuleSet rs;
        DbRecord r;
        uint8_t *proof;
        size_t plen;
        char why[256];
        bool state = dbx_is_work(line);
        rc = state ? import_state(db, line, sb, why, sizeof why)
                   : dbx_parse(line, &b, &rs, &r, &proof, &plen, why, sizeof why);
        if (rc == 0 && !state) {
            DbRecord old;
            if (db_get(db, &b, rs, r.attacker, &old) == 0 && old.result != RESULT_UNKNOWN &&
                r.result != RESULT_UNKNOWN && old.result != r.result) {
                conflicts++;
                cli_error(EXIT_DATAERR, "import: line %llu: contradicts the stored result (%s)",
                          (unsigned long long)lineno, result_name(old.result));
                free(proof);
                continue;
            }
            rc = db_queue(db, &b, rs, &r, proof, plen);
            free(proof);
            if (rc == RJ_EBADDATA)
                snprintf(why, sizeof why, "proof does not fit the position");
            else if (rc == RJ_EBADARG)
                snprintf(why, sizeof why, "bad record fields");
        }
        if (rc == RJ_ECONFLICT) {
            conflicts++;
        } else if (rc == RJ_EBADDATA || rc == RJ_EBADARG) {
            bad++;
            if (bad <= 20)
                cli_error(EXIT_DATAERR, "import: line %llu: %s", (unsigned long long)lineno, why);
        } else if (rc) {
            err = rc;
            break;
        } else if (!state) {
            ok++;
        }
        if (!a->quiet && clock_now() > next) {
            fprintf(stderr, "import: %llu lines\n", (unsigned long long)lineno);
            next = clock_now() + 1.0;
        }
    }
    free(line);
    if (f != stdin)
        fclose(f);
    rc = state_flush(err ? NULL : db, sb);
    if (!err)
        err = rc;
    uint64_t states = sb->imported, kept = sb->kept;
    free(sb);
    if (!err) {
        rc = db_flush(db);
        if (rc == RJ_ECONFLICT)
            conflicts++;
        else
            err = rc;
    }
    db_close(db);
    if (err)
        return cli_error(cli_exit_code(err) == EXIT_SOFTWARE ? EXIT_SOFTWARE : EXIT_IOERR, "import: %s",
                         err > 0 ? strerror(err) : rj_strerror(err));
    if (a->json)
        printf("{\"lines\":%llu,\"imported\":%llu,\"bad\":%llu,\"conflicts\":%llu,\"states\":%llu,"
               "\"states_kept\":%llu}\n",
               (unsigned long long)lineno, (unsigned long long)ok, (unsigned long long)bad,
               (unsigned long long)conflicts, (unsigned long long)states, (unsigned long long)kept);
    else if (states || kept)
        printf("imported %llu entries and %llu search states (%llu bad lines, %llu contradictions; %llu states "
               "kept: the database's were as far along)\n",
               (unsigned long long)ok, (unsigned long long)states, (unsigned long long)bad,
               (unsigned long long)conflicts, (unsigned long long)kept);
    else
        printf("imported %llu entries (%llu bad lines, %llu contradictions)\n", (unsigned long long)ok,
               (unsigned long long)bad, (unsigned long long)conflicts);
    if (stop_requested())
        return cli_error(EXIT_TEMPFAIL, "import: interrupted after line %llu (the lines before are committed)",
                         (unsigned long long)lineno);
    return bad || conflicts ? EXIT_DATAERR : EXIT_DONE;
}

int cmd_db(int argc, char **argv)
{
    const char *format = NULL;
    int rc = cli_take_opt(&argc, argv, "format", true, &format);
    if (rc > 1)
        return rc;
    if (format && strcmp(format, "jsonl")) {
        if (strcmp(format, "renlib"))
            return cli_error(EXIT_USAGE, "unknown --format '%s' (jsonl, renlib)", format);
        return cli_db_renlib(argc, argv); /* cli_renlib.c */
    }
    int states = cli_take_opt(&argc, argv, "states", false, NULL);
    if (states > 1)
        return states;
    CliArgs a;
    if ((rc = cli_parse(argc, argv, &a)))
        return rc;
    if (a.npos < 1)
        return cli_error(EXIT_USAGE,
                         "usage: renju db stats|verify|merge OUT IN...|export [FILE] [--states]|import FILE "
                         "[--db PATH]");
    if (states == 1 && strcmp(a.pos[0], "export"))
        return cli_error(EXIT_USAGE, "--states goes with db export only");
    const char *sub = a.pos[0];
    if (strcmp(sub, "stats"))
        cli_run_signals(); /* the long subcommands stop cleanly: 75 */
    if (!strcmp(sub, "stats"))
        return db_stats_cmd(&a);
    if (!strcmp(sub, "verify"))
        return db_verify_cmd(&a);
    if (!strcmp(sub, "merge"))
        return db_merge_cmd(&a);
    if (!strcmp(sub, "export"))
        return db_export_cmd(&a, states == 1);
    if (!strcmp(sub, "import"))
        return db_import_cmd(&a);
    return cli_error(EXIT_USAGE, "unknown db subcommand '%s' (stats, verify, merge, export, import)", sub);
}
