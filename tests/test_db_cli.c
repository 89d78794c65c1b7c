/* test_db_cli.c - end to end against the built `renju` binary: query, db stats /
 * verify / merge / export / import (import stopped by SIGTERM), exit codes for missing, foreign, truncated,
 * corrupt, newer-schema and read-only databases, a CLI reader while another
 * process writes, and kill -9 of a writing process at random moments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "db.h"
#include "error.h"
#include "notation.h"
#include "position.h"
#include "proof.h"
#include "rules.h"
#include "sym.h"

static char g_dir[256];

static const char *path(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", g_dir, name);
    return buf[k];
}

static Point P(const char *s)
{
    Point p;
    int used;
    assert_int_equal(notation_parse_point(s, &p, &used), 0);
    return p;
}

/* Run the renju binary with shell-quoted args; stdout to `out` (may be NULL), stderr to `err`. Returns the exit code.
 */
static int run(const char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run(const char *out, const char *fmt, ...)
{
    char args[4096], cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s", RJ_RENJU_BIN, args, out ? out : "/dev/null", path("stderr.txt"));
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void rm_db(const char *p)
{
    char lock[1024];
    snprintf(lock, sizeof lock, "%s-lock", p);
    unlink(p);
    unlink(lock);
}

static void write_text(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Stone-set text of b. */
static void stone_text(const Board *b, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "B:");
    for (Color c = BLACK; c <= WHITE; c++) {
        if (c == WHITE)
            n += (size_t)snprintf(buf + n, len - n, " W:");
        bool first = true;
        for (int p = 0; p < BOARD_POINTS; p++)
            if (board_at(b, (Point)p) == c) {
                char s[8];
                n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ",", notation_point_str((Point)p, s));
                first = false;
            }
    }
}

static const char *POS = "B:c5,d5,e5,h10,h11,h12,f9,g9 W:b5,h13,a1,d1,g1,j1,m1,o4";
/* The proof "f5 #1 g5 h9 #1 h8 i9 #0" for black, and a wrong one that omits
 * white's only block g5 ("f5 #0"), as hex; filled by build_hex(). */
static const char *PROOF_HEX, *BAD_PROOF_HEX;
/* A longer wrong proof, "f5 #1 g5 a15 #0": a15 is no threat, and it lists no reply to it. */
static const char *LONG_BAD_PROOF_HEX;

static void build_hex(void)
{
    /* Compute the hex above from the point numbers, so it cannot drift. */
    static char good[64], bad[64], long_bad[64];
    const Point mv[] = {P("f5"), P("g5"), P("h9"), P("h8"), P("i9")};
    snprintf(good, sizeof good, "524a504601000100%02x0100%02x%02x0100%02x%02x0000", mv[0], mv[1], mv[2], mv[3], mv[4]);
    snprintf(bad, sizeof bad, "524a504601000100%02x0000", mv[0]);
    snprintf(long_bad, sizeof long_bad, "524a504601000100%02x0100%02x%02x0000", mv[0], mv[1], P("a15"));
    PROOF_HEX = good;
    BAD_PROOF_HEX = bad;
    LONG_BAD_PROOF_HEX = long_bad;
}

static void test_missing_and_damaged(void **state)
{
    (void)state;
    rm_db(path("missing.lmdb"));
    assert_int_equal(run(NULL, "query h8 --db %s", path("missing.lmdb")), 66);
    assert_int_equal(run(NULL, "db stats --db %s", path("missing.lmdb")), 66);
    assert_int_equal(run(NULL, "db verify --db %s", path("missing.lmdb")), 66);
    assert_int_equal(run(NULL, "db export --db %s", path("missing.lmdb")), 66);
    /* $RENJU_DB is the default path. */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "RENJU_DB=%s %s query h8 >/dev/null 2>&1", path("missing.lmdb"), RJ_RENJU_BIN);
    int st = system(cmd);
    assert_int_equal(WEXITSTATUS(st), 66);
    /* Foreign file. */
    write_text(path("foreign.lmdb"), "this is a text file, not a database\n");
    assert_int_equal(run(NULL, "query h8 --db %s", path("foreign.lmdb")), 74);
    char *err = slurp(path("stderr.txt"));
    assert_non_null(strstr(err, "renju: "));
    assert_null(strchr(err, '\n') == err + strlen(err) - 1 ? NULL : "more than one line");
    assert_int_equal(run(NULL, "db stats --db %s", path("foreign.lmdb")), 74);
    assert_int_equal(run(NULL, "db import /dev/null --db %s", path("foreign.lmdb")), 74);
    /* Truncated database. */
    Db *db;
    rm_db(path("trunc.lmdb"));
    assert_int_equal(db_open(path("trunc.lmdb"), NULL, &db, NULL, 0), 0);
    for (uint32_t i = 0; i < 2000; i++) {
        Board b;
        board_init(&b);
        for (int k = 0; k < 16; k++)
            if (i >> k & 1)
                board_setup_stone(&b, (Point)(k * 3 + 1), BLACK);
        board_setup_stone(&b, 200, WHITE);
        DbRecord r = {.result = RESULT_PROVEN, .attacker = BLACK, .best = POINT_NONE, .nodes = i};
        strcpy(r.version, "renju test");
        assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    }
    db_close(db);
    struct stat sb;
    assert_int_equal(stat(path("trunc.lmdb"), &sb), 0);
    assert_int_equal(truncate(path("trunc.lmdb"), sb.st_size / 3), 0);
    assert_int_equal(run(NULL, "db stats --db %s", path("trunc.lmdb")), 74);
    assert_int_equal(run(NULL, "db verify --db %s", path("trunc.lmdb")), 74);
    assert_int_equal(run(NULL, "query h8 --db %s", path("trunc.lmdb")), 74);
    /* Newer schema. */
    rm_db(path("newer.lmdb"));
    assert_int_equal(db_open(path("newer.lmdb"), NULL, &db, NULL, 0), 0);
    db_close(db);
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    assert_int_equal(mdb_env_create(&env), 0);
    mdb_env_set_maxdbs(env, 8);
    assert_int_equal(mdb_env_open(env, path("newer.lmdb"), MDB_NOSUBDIR, 0644), 0);
    assert_int_equal(mdb_txn_begin(env, NULL, 0, &txn), 0);
    assert_int_equal(mdb_dbi_open(txn, "meta", 0, &dbi), 0);
    MDB_val k = {6, "schema"}, v = {2, "17"};
    assert_int_equal(mdb_put(txn, dbi, &k, &v, 0), 0);
    assert_int_equal(mdb_txn_commit(txn), 0);
    mdb_env_close(env);
    assert_int_equal(run(NULL, "query h8 --db %s", path("newer.lmdb")), 74);
    assert_non_null(strstr(slurp(path("stderr.txt")), "schema version 17"));
    assert_int_equal(run(NULL, "db import /dev/null --db %s", path("newer.lmdb")), 74);
    /* A corrupt record: one byte of the stored solver version made non-printable. */
    rm_db(path("corrupt.lmdb"));
    write_text(path("one.jsonl"), "{\"position\":\"B:h8 W:h9\",\"attacker\":\"black\",\"result\":\"proven\","
                                  "\"best\":\"i10\",\"solver_version\":\"zqzqzq-marker\"}\n");
    assert_int_equal(run(NULL, "db import %s --db %s", path("one.jsonl"), path("corrupt.lmdb")), 0);
    assert_int_equal(run(NULL, "query 'B:h8 W:h9' --db %s", path("corrupt.lmdb")), 0);
    int fd = open(path("corrupt.lmdb"), O_RDWR);
    assert_true(fd >= 0);
    assert_int_equal(fstat(fd, &sb), 0);
    char *data = malloc((size_t)sb.st_size);
    assert_int_equal(pread(fd, data, (size_t)sb.st_size, 0), sb.st_size);
    char *hit = memmem(data, (size_t)sb.st_size, "zqzqzq-marker", 13);
    assert_non_null(hit);
    assert_int_equal(pwrite(fd, "\x01", 1, hit - data), 1);
    close(fd);
    free(data);
    assert_int_equal(run(NULL, "query 'B:h8 W:h9' --db %s", path("corrupt.lmdb")), 74);
    assert_int_equal(run(path("out.txt"), "db verify --db %s", path("corrupt.lmdb")), 65);
    assert_non_null(strstr(slurp(path("out.txt")), "does not decode"));
}

static void test_read_only_dir(void **state)
{
    (void)state;
    char ro[600];
    snprintf(ro, sizeof ro, "%s/ro", g_dir);
    assert_int_equal(mkdir(ro, 0755), 0);
    write_text(path("ro.jsonl"), "{\"position\":\"B:h8 W:h9\",\"attacker\":\"black\",\"result\":\"proven\"}\n");
    chmod(path("ro.jsonl"), 0644);
    assert_int_equal(chmod(ro, 0555), 0);
    assert_int_equal(chmod(g_dir, 0755), 0);
    /* root ignores permissions: run as nobody then (when nobody can run the binary at all). */
    const char *as = geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s%s --version >/dev/null 2>&1", as, RJ_RENJU_BIN);
    if (*as && system(cmd) != 0) {
        chmod(ro, 0755);
        print_message("cannot run the binary as nobody (setpriv or permissions): read-only test skipped\n");
        skip();
    }
    snprintf(cmd, sizeof cmd, "%s%s db import %s --db %s/x.lmdb >/dev/null 2>%s", as, RJ_RENJU_BIN, path("ro.jsonl"),
             ro, path("stderr.txt"));
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 74);
    char *err = slurp(path("stderr.txt"));
    assert_non_null(strstr(err, "renju: "));
    snprintf(cmd, sizeof cmd, "%s%s query h8 --db %s/x.lmdb >/dev/null 2>/dev/null", as, RJ_RENJU_BIN, ro);
    st = system(cmd);
    assert_int_equal(WEXITSTATUS(st), 66);
    chmod(ro, 0755);
    /* A database shipped in a read-only directory without its lock file is still readable. */
    snprintf(cmd, sizeof cmd, "%s db import %s --db %s/y.lmdb >/dev/null 2>&1", RJ_RENJU_BIN, path("ro.jsonl"), ro);
    assert_int_equal(WEXITSTATUS(system(cmd)), 0);
    snprintf(cmd, sizeof cmd, "%s/y.lmdb-lock", ro);
    assert_int_equal(unlink(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/y.lmdb", ro);
    chmod(cmd, 0644);
    assert_int_equal(chmod(ro, 0555), 0);
    snprintf(cmd, sizeof cmd, "%s%s query 'B:h8 W:h9' --attacker black --db %s/y.lmdb >%s 2>&1", as, RJ_RENJU_BIN, ro,
             path("out.txt"));
    st = system(cmd);
    assert_int_equal(WEXITSTATUS(st), 0);
    assert_non_null(strstr(slurp(path("out.txt")), "found: proven"));
    /* Writing there still fails cleanly. */
    snprintf(cmd, sizeof cmd, "%s%s db import %s --db %s/y.lmdb >/dev/null 2>%s", as, RJ_RENJU_BIN, path("ro.jsonl"),
             ro, path("stderr.txt"));
    st = system(cmd);
    assert_int_equal(WEXITSTATUS(st), 74);
    chmod(ro, 0755);
}

/* Find "key":<value> in a JSON line; returns a pointer to the value. */
static const char *json_val(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    return p ? p + strlen(pat) : NULL;
}

static void test_query_images_and_children(void **state)
{
    (void)state;
    rm_db(path("q.lmdb"));
    char line[1024];
    snprintf(line, sizeof line,
             "{\"position\":\"%s\",\"attacker\":\"black\",\"result\":\"proven\",\"best\":\"f5\",\"proof_nodes\":6,"
             "\"proof_depth\":5,\"nodes\":100,\"solver_version\":\"renju test\",\"time\":1,\"proof\":\"%s\"}\n"
             "{\"position\":\"B:h8,i10 W:h9\",\"attacker\":\"black\",\"result\":\"disproven\",\"nodes\":7}\n"
             "{\"position\":\"B:h8,j10 W:h9\",\"attacker\":\"black\",\"result\":\"proven\",\"best\":\"j9\"}\n",
             POS, PROOF_HEX);
    write_text(path("q.jsonl"), line);
    assert_int_equal(run(NULL, "db import %s --db %s --quiet", path("q.jsonl"), path("q.lmdb")), 0);
    Board b0;
    char err[128];
    assert_int_equal(position_parse(POS, RULE_RENJU, EMPTY, &b0, err, sizeof err), 0);
    for (int t = 0; t < NUM_SYMS; t++) {
        Board bt;
        board_init(&bt);
        for (int p = 0; p < BOARD_POINTS; p++)
            if (board_at(&b0, (Point)p))
                board_setup_stone(&bt, sym_apply(t, (Point)p), board_at(&b0, (Point)p));
        char text[512], want[16], s[8];
        stone_text(&bt, text, sizeof text);
        assert_int_equal(run(path("out.txt"), "query '%s' --json --db %s", text, path("q.lmdb")), 0);
        char *out = slurp(path("out.txt"));
        assert_non_null(strstr(out, "\"found\":true"));
        assert_non_null(strstr(out, "\"result\":\"proven\""));
        assert_non_null(strstr(out, "\"attacker\":\"black\""));
        assert_non_null(strstr(out, "\"proof_nodes\":6"));
        assert_non_null(strstr(out, "\"solver_version\":\"renju test\""));
        snprintf(want, sizeof want, "\"%s\"", notation_point_str(sym_apply(t, P("f5")), s));
        const char *best = json_val(out, "best");
        assert_non_null(best);
        assert_memory_equal(best, want, strlen(want));
    }
    /* Children of h8 h9 (black to move) for attacker black; the second child is stored in a mirrored frame. */
    assert_int_equal(run(path("out.txt"), "query 'h8 h9' --children --json --db %s", path("q.lmdb")), 0);
    char *out = slurp(path("out.txt"));
    assert_non_null(strstr(out, "\"found\":false"));
    assert_non_null(strstr(out, "{\"move\":\"i10\",\"found\":true,\"result\":\"disproven\""));
    assert_non_null(strstr(out, "{\"move\":\"g10\",\"found\":true,\"result\":\"disproven\""));
    assert_non_null(
        strstr(out, "{\"move\":\"j10\",\"found\":true,\"result\":\"proven\",\"attacker\":\"black\",\"best\":\"j9\""));
    assert_non_null(
        strstr(out, "{\"move\":\"f10\",\"found\":true,\"result\":\"proven\",\"attacker\":\"black\",\"best\":\"f9\""));
    assert_non_null(strstr(out, "{\"move\":\"a1\",\"found\":false"));
    /* Text mode too. */
    assert_int_equal(run(path("out.txt"), "query 'h8 h9 j10' --attacker black --db %s", path("q.lmdb")), 0);
    assert_non_null(strstr(slurp(path("out.txt")), "found: proven for black, best j9"));
    assert_int_equal(run(path("out.txt"), "query 'h8 h9 a1' --db %s", path("q.lmdb")), 0);
    assert_non_null(strstr(slurp(path("out.txt")), "not found"));
    assert_int_equal(run(NULL, "query 'h8 h8' --db %s", path("q.lmdb")), 65);
    /* Stats. */
    assert_int_equal(run(path("out.txt"), "db stats --json --db %s", path("q.lmdb")), 0);
    out = slurp(path("out.txt"));
    assert_non_null(strstr(out, "\"entries\":3,\"proven\":2,\"disproven\":1"));
    assert_non_null(strstr(out, "\"schema\":1"));
    assert_non_null(strstr(out, "\"rules\":[\"renju\"]"));
    /* Verify: the proof is good; a wrong one fails. */
    assert_int_equal(run(NULL, "db verify --db %s", path("q.lmdb")), 0);
    snprintf(line, sizeof line,
             "{\"position\":\"%s\",\"attacker\":\"black\",\"result\":\"proven\",\"best\":\"f5\",\"proof\":\"%s\"}\n",
             POS, BAD_PROOF_HEX);
    write_text(path("bad.jsonl"), line);
    rm_db(path("bad.lmdb"));
    assert_int_equal(run(NULL, "db import %s --db %s", path("bad.jsonl"), path("bad.lmdb")), 0);
    assert_int_equal(run(path("out.txt"), "db verify --db %s", path("bad.lmdb")), 65);
    assert_non_null(strstr(slurp(path("out.txt")), "is neither listed nor a short loss"));
}

/*
 * verify --threads: entries judged in parallel batches are reported in key
 * order, so the output and exit code are those of one thread.  446
 * entries: two good proofs and two bad ones among results without a proof,
 * in one batch and (RENJU_VERIFY_BATCH) in many.
 */
static void test_verify_threads(void **state)
{
    (void)state;
    rm_db(path("vt.lmdb"));
    FILE *f = fopen(path("vt.jsonl"), "w");
    assert_non_null(f);
    for (int p = 0; p < BOARD_POINTS; p++) {
        char s[8];
        notation_point_str((Point)p, s);
        if (!strcmp(s, "a1") || !strcmp(s, "c2") || !strcmp(s, "o14") || !strcmp(s, "o15"))
            continue;
        fprintf(f, "{\"position\":\"B:a1,c2,%s W:o14,o15\",\"attacker\":\"black\",\"result\":\"proven\"}\n", s);
        fprintf(f, "{\"position\":\"B:a1,c2 W:o15,%s\",\"attacker\":\"black\",\"result\":\"proven\"}\n", s);
    }
    fprintf(f, "{\"position\":\"%s\",\"attacker\":\"black\",\"result\":\"proven\",\"best\":\"f5\",\"proof\":\"%s\"}\n",
            POS, PROOF_HEX);
    /* POS with a far stone of each colour: the same proofs hold and fail there. */
    const char *pos2 = "B:c5,d5,e5,h10,h11,h12,f9,g9,a15 W:b5,h13,a1,d1,g1,j1,m1,o4,o14";
    const char *pos3 = "B:c5,d5,e5,h10,h11,h12,f9,g9,a14 W:b5,h13,a1,d1,g1,j1,m1,o4,o15";
    const char *pos4 = "B:c5,d5,e5,h10,h11,h12,f9,g9,a13 W:b5,h13,a1,d1,g1,j1,m1,o4,o15";
    fprintf(f, "{\"position\":\"%s\",\"attacker\":\"black\",\"result\":\"proven\",\"best\":\"f5\",\"proof\":\"%s\"}\n",
            pos2, PROOF_HEX);
    fprintf(f, "{\"position\":\"%s\",\"attacker\":\"black\",\"result\":\"proven\",\"best\":\"f5\",\"proof\":\"%s\"}\n",
            pos3, LONG_BAD_PROOF_HEX);
    fprintf(f, "{\"position\":\"%s\",\"attacker\":\"black\",\"result\":\"proven\",\"best\":\"f5\",\"proof\":\"%s\"}\n",
            pos4, BAD_PROOF_HEX);
    fclose(f);
    assert_int_equal(run(NULL, "db import %s --db %s --quiet", path("vt.jsonl"), path("vt.lmdb")), 0);
    assert_int_equal(run(path("out.txt"), "db verify --quiet --db %s", path("vt.lmdb")), 65);
    char *one = strdup(slurp(path("out.txt")));
    assert_non_null(one);
    /* Two FAIL lines (the bad proofs' positions, in key order), and the counts. */
    assert_non_null(strstr(one, "is neither listed nor a short loss"));
    const char *f1 = strstr(one, "FAIL");
    assert_non_null(f1);
    const char *f2 = strstr(f1 + 4, "FAIL");
    assert_non_null(f2);
    assert_null(strstr(f2 + 4, "FAIL"));
    /*
     * pos4's key comes first, and its proof is the shorter one: so a batch
     * that judges its longest proofs first (verify_flush) must not report in
     * that order.  The paths of the failures show which is which.
     */
    assert_non_null(strstr(f1, "at [f11]: "));
    assert_true(strstr(f1, "at [f11]: ") < f2);
    assert_null(strstr(f2, "at [f11]: "));
    unsigned long long entries = 0;
    const char *v = strstr(one, "verified ");
    assert_non_null(v);
    assert_int_equal(sscanf(v, "verified %llu entries", &entries), 1);
    assert_true(entries > 400);
    assert_non_null(strstr(one, " 4 proofs checked, 2 failures, "));
    assert_int_equal(run(path("out.txt"), "db verify --quiet --json --db %s", path("vt.lmdb")), 65);
    char *one_json = strdup(slurp(path("out.txt")));
    assert_non_null(one_json);
    assert_non_null(strstr(one_json, "\"checked\":4,\"failures\":2,"));
    /*
     * The same on 2 and 3 threads: in one batch (the default holds 4096
     * entries), and in batches of 7, 3 and 1, where each batch judges its
     * proofs first and must still report in key order.
     */
    const char *batches[] = {NULL, "7", "3", "1"};
    for (int b = 0; b < 4; b++) {
        if (batches[b])
            setenv("RENJU_VERIFY_BATCH", batches[b], 1);
        for (int t = 2; t <= 3; t++) {
            assert_int_equal(run(path("out.txt"), "db verify --quiet --threads %d --db %s", t, path("vt.lmdb")), 65);
            assert_string_equal(slurp(path("out.txt")), one);
            assert_int_equal(run(path("out.txt"), "db verify --quiet --json --threads %d --db %s", t, path("vt.lmdb")),
                             65);
            assert_string_equal(slurp(path("out.txt")), one_json);
        }
        unsetenv("RENJU_VERIFY_BATCH");
    }
    free(one);
    free(one_json);
}

static void test_export_import_merge(void **state)
{
    (void)state;
    rm_db(path("a.lmdb"));
    rm_db(path("b.lmdb"));
    rm_db(path("c.lmdb"));
    char text[2048];
    snprintf(text, sizeof text,
             "{\"position\":\"%s\",\"attacker\":\"black\",\"result\":\"proven\",\"best\":\"f5\",\"proof\":\"%s\"}\n"
             "{\"position\":\"B:h8,i10 W:h9\",\"attacker\":\"black\",\"result\":\"disproven\",\"nodes\":7}\n"
             "{\"position\":\"B:h8 "
             "W:\",\"to_move\":\"white\",\"rules\":\"freestyle\",\"attacker\":\"white\",\"result\":\"unknown\","
             "\"nodes\":9}\n",
             POS, PROOF_HEX);
    write_text(path("a.jsonl"), text);
    assert_int_equal(run(NULL, "db import %s --db %s", path("a.jsonl"), path("a.lmdb")), 0);
    /* export -> import -> export is identical. */
    assert_int_equal(run(path("a.out"), "db export --db %s", path("a.lmdb")), 0);
    assert_int_equal(run(NULL, "db import %s --db %s", path("a.out"), path("b.lmdb")), 0);
    assert_int_equal(run(NULL, "db export %s --db %s", path("b.out"), path("b.lmdb")), 0);
    char a_out[8192];
    snprintf(a_out, sizeof a_out, "%s", slurp(path("a.out")));
    assert_string_equal(a_out, slurp(path("b.out")));
    int lines = 0;
    for (char *p = a_out; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 3);
    /* Merge: C says the second position is proven for black: contradiction, exit 65. */
    write_text(path("c.jsonl"),
               "{\"position\":\"B:h8,g10 W:h9\",\"attacker\":\"black\",\"result\":\"proven\"}\n"
               "{\"position\":\"B:h8,h10 W:h9\",\"attacker\":\"black\",\"result\":\"proven\"}\n"
               "{\"position\":\"B:h8 "
               "W:\",\"to_move\":\"white\",\"rules\":\"freestyle\",\"attacker\":\"white\",\"result\":\"disproven\"}\n");
    assert_int_equal(run(NULL, "db import %s --db %s", path("c.jsonl"), path("c.lmdb")), 0);
    rm_db(path("m.lmdb"));
    assert_int_equal(run(NULL, "db merge %s %s %s", path("m.lmdb"), path("a.lmdb"), path("c.lmdb")), 65);
    assert_non_null(strstr(slurp(path("stderr.txt")), "contradiction"));
    /* Without the contradiction: the union, proven/disproven beating unknown. */
    write_text(path("d.jsonl"),
               "{\"position\":\"B:h8,h10 W:h9\",\"attacker\":\"black\",\"result\":\"proven\"}\n"
               "{\"position\":\"B:h8 "
               "W:\",\"to_move\":\"white\",\"rules\":\"freestyle\",\"attacker\":\"white\",\"result\":\"disproven\"}\n");
    rm_db(path("d.lmdb"));
    assert_int_equal(run(NULL, "db import %s --db %s", path("d.jsonl"), path("d.lmdb")), 0);
    rm_db(path("m.lmdb"));
    assert_int_equal(run(NULL, "db merge %s %s %s", path("m.lmdb"), path("a.lmdb"), path("d.lmdb")), 0);
    assert_int_equal(run(path("out.txt"), "db stats --json --db %s", path("m.lmdb")), 0);
    char *out = slurp(path("out.txt"));
    assert_non_null(strstr(out, "\"entries\":4,\"proven\":2,\"disproven\":2,\"unknown\":0,\"proofs\":1"));
    assert_non_null(strstr(out, "\"rules\":[\"renju\",\"freestyle\"]"));
    assert_int_equal(run(NULL, "db verify --db %s", path("m.lmdb")), 0);
    assert_int_equal(run(NULL, "db merge %s %s", path("m.lmdb"), path("m.lmdb")), 64);
    /* Import of a bad line reports the line and fails. */
    write_text(path("e.jsonl"),
               "{\"position\":\"B:h8 W:h9\",\"attacker\":\"black\",\"result\":\"proven\"}\nnot json\n");
    rm_db(path("e.lmdb"));
    assert_int_equal(run(NULL, "db import %s --db %s", path("e.jsonl"), path("e.lmdb")), 65);
    assert_non_null(strstr(slurp(path("stderr.txt")), "line 2"));
}

/* The state letter of process pid in /proc (R running, S sleeping, ...), or 0. */
static char proc_state(pid_t pid)
{
    char p[64], buf[512];
    snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(p, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *rp = strrchr(buf, ')'); /* "pid (comm) S ..." */
    return rp && rp[1] == ' ' ? rp[2] : 0;
}

/* SIGTERM while `db import -` waits for more input: the lines read are committed, exit 75. */
static void test_import_interrupted(void **state)
{
    (void)state;
    const char *db = path("intr.lmdb");
    rm_db(db);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[0], 0);
        close(fds[0]);
        close(fds[1]);
        if (!freopen("/dev/null", "w", stdout) || !freopen(path("intr.err"), "w", stderr))
            _exit(126);
        execl(RJ_RENJU_BIN, "renju", "db", "import", "-", "--db", db, (char *)NULL);
        _exit(127);
    }
    close(fds[0]);
    const char *lines = "{\"position\":\"B:h8,i10 W:h9\",\"attacker\":\"black\",\"result\":\"disproven\"}\n"
                        "{\"position\":\"B:h8,h10 W:h9\",\"attacker\":\"black\",\"result\":\"proven\"}\n";
    assert_int_equal(write(fds[1], lines, strlen(lines)), (ssize_t)strlen(lines));
    /* Synchronise without sleeping on a guess: the pipe is drained and the importer sleeps (in
     * read: the only place it blocks once its input is taken), so both lines are queued. */
    bool waiting = false;
    for (int i = 0; i < 3000 && !waiting; i++) {
        int unread = -1;
        assert_int_equal(ioctl(fds[1], FIONREAD, &unread), 0);
        waiting = unread == 0 && proc_state(pid) == 'S';
        if (!waiting) {
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    assert_true(waiting);
    kill(pid, SIGTERM);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    close(fds[1]);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 75);
    assert_non_null(strstr(slurp(path("intr.err")), "interrupted"));
    assert_int_equal(run(path("intr.txt"), "db stats --json --db %s", db), 0);
    assert_non_null(strstr(slurp(path("intr.txt")), "\"entries\":2,\"proven\":1,\"disproven\":1"));
}

/* ---- a writing child process ---- */

/* Entry i: a distinct position (the bits of i as black stones on rows 1-2, an anchor near the centre). */
static void entry_board(uint32_t i, Board *b)
{
    board_init(b);
    board_setup_stone(b, point_make(7, 7), BLACK);
    board_setup_stone(b, point_make(8, 9), WHITE);
    /* Isolated stones (even columns of rows 1, 3, 5): never a five. */
    for (int k = 0; k < 20; k++)
        if (i >> k & 1)
            board_setup_stone(b, point_make((k % 8) * 2, (k / 8) * 2), WHITE);
    board_set_to_move(b, BLACK);
}

/* Child: commit entries from `start` in batches of 50, reporting each committed count on fd. */
static void writer_child(const char *p, uint32_t start, int fd, bool with_proofs)
{
    Db *db;
    DbOptions o = {DB_CREATE, 1 << 20, 1000000};
    if (db_open(p, &o, &db, NULL, 0))
        _exit(3);
    for (uint32_t i = start;; i++) {
        Board b;
        entry_board(i, &b);
        DbRecord r = {.result = RESULT_PROVEN, .attacker = BLACK, .best = POINT_NONE, .nodes = i};
        strcpy(r.version, "renju crash test");
        uint8_t proof[16];
        size_t plen = 0;
        if (with_proofs && i % 3 == 0) {
            /* Black c12 d12 e12 f12 -> g12 wins: a real proof. */
            const char *four[] = {"c12", "d12", "e12", "f12"};
            for (int k = 0; k < 4; k++)
                board_setup_stone(&b, P(four[k]), BLACK);
            board_setup_stone(&b, point_make(14, 14), WHITE);
            board_setup_stone(&b, point_make(14, 12), WHITE);
            const uint8_t hdr[8] = {'R', 'J', 'P', 'F', PROOF_VERSION, RULE_RENJU, BLACK, 0};
            memcpy(proof, hdr, 8);
            proof[8] = P("g12");
            plen = 9;
            r.best = P("g12");
            r.proof_nodes = 1;
        }
        if (db_queue(db, &b, RULE_RENJU, &r, plen ? proof : NULL, plen))
            _exit(4);
        if (i % 50 == 49) {
            if (db_flush(db))
                _exit(5);
            uint32_t n = i + 1;
            if (write(fd, &n, sizeof n) != sizeof n)
                _exit(6);
        }
    }
}

static uint32_t drain(int fd, uint32_t last)
{
    uint32_t n;
    while (read(fd, &n, sizeof n) == sizeof n)
        last = n;
    return last;
}

static void check_committed(const char *p, uint32_t n, bool with_proofs)
{
    Db *db;
    DbOptions ro = {DB_RDONLY, 0, 0};
    char why[256];
    if (db_open(p, &ro, &db, why, sizeof why))
        fail_msg("reopen: %s", why);
    for (uint32_t i = 0; i < n; i++) {
        Board b;
        entry_board(i, &b);
        if (with_proofs && i % 3 == 0) {
            const char *four[] = {"c12", "d12", "e12", "f12"};
            for (int k = 0; k < 4; k++)
                board_setup_stone(&b, P(four[k]), BLACK);
            board_setup_stone(&b, point_make(14, 14), WHITE);
            board_setup_stone(&b, point_make(14, 12), WHITE);
        }
        DbRecord r;
        int rc = db_get(db, &b, RULE_RENJU, BLACK, &r);
        if (rc || r.nodes != i)
            fail_msg("entry %u of %u committed is missing (rc %d)", i, n, rc);
    }
    db_close(db);
}

static void test_kill_writer(void **state)
{
    (void)state;
    char p[600];
    snprintf(p, sizeof p, "%s", path("crash.lmdb"));
    rm_db(p);
    Db *db;
    assert_int_equal(db_open(p, NULL, &db, NULL, 0), 0);
    db_close(db);
    uint32_t committed = 0;
    srand((unsigned)time(NULL));
    for (int round = 0; round < 24; round++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            writer_child(p, committed, fds[1], true);
        }
        close(fds[1]);
        fcntl(fds[0], F_SETFL, O_NONBLOCK);
        if (round % 2) { /* every other round waits for a first commit (a loaded machine starts children late) */
            struct pollfd pf = {fds[0], POLLIN, 0};
            poll(&pf, 1, 10000);
        }
        struct timespec ts = {0, (long)(2 + rand() % 60) * 1000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        assert_true(WIFSIGNALED(st));
        committed = drain(fds[0], committed);
        close(fds[0]);
        check_committed(p, committed, true);
        if (round % 4 == 0 || round == 23) {
            assert_int_equal(run(NULL, "db verify --quiet --db %s", p), 0);
            assert_int_equal(run(NULL, "db stats --db %s", p), 0);
        }
    }
    print_message("kill -9: 24 rounds, %u entries committed and found\n", committed);
    assert_true(committed > 0);
}

static void test_cli_reader_while_writing(void **state)
{
    (void)state;
    char p[600];
    snprintf(p, sizeof p, "%s", path("rw.lmdb"));
    rm_db(p);
    Db *db;
    assert_int_equal(db_open(p, NULL, &db, NULL, 0), 0);
    db_close(db);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        writer_child(p, 0, fds[1], false);
    }
    close(fds[1]);
    uint32_t committed = 0;
    int queries = 0;
    while (queries < 12) {
        uint32_t n;
        if (read(fds[0], &n, sizeof n) != sizeof n)
            break;
        committed = n;
        if (committed % 500 != 0)
            continue;
        Board b;
        entry_board(committed - 1 - (uint32_t)queries * 7, &b);
        char text[512];
        stone_text(&b, text, sizeof text);
        int rc = run(path("rw.txt"), "query '%s' --to-move black --attacker black --json --db %s", text, p);
        if (rc)
            fail_msg("query '%s' exit %d: %s", text, rc, slurp(path("stderr.txt")));
        char *out = slurp(path("rw.txt"));
        if (!strstr(out, "\"found\":true"))
            fail_msg("committed entry not found by a concurrent reader: %s", out);
        queries++;
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(fds[0]);
    assert_int_equal(queries, 12);
}

/* mdb_reader_list callback: count the lines naming pid (*ctx on entry). */
static int count_pid(const char *msg, void *ctx)
{
    int *c = ctx;
    if (atoi(msg) == c[0])
        c[1]++;
    return 0;
}

/* Reader slots of pid in the lock table, counted in a child process (an
 * environment must not be opened twice in one process). */
static int count_readers(const char *p, int pid)
{
    pid_t k = fork();
    if (k == 0) {
        MDB_env *env;
        int c[2] = {pid, 0};
        if (mdb_env_create(&env) || mdb_env_set_maxdbs(env, 8) || mdb_env_open(env, p, MDB_NOSUBDIR | MDB_RDONLY, 0644))
            _exit(100);
        mdb_reader_list(env, count_pid, c);
        _exit(c[1]);
    }
    int st;
    waitpid(k, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* db_foreach callback that signals and then never returns (killed inside a read transaction). */
static int hang_cb(void *ctx, const DbEntry *e)
{
    (void)e;
    int fd = *(int *)ctx;
    char x = 1;
    if (write(fd, &x, 1) != 1)
        _exit(7);
    for (;;)
        pause();
}

/* Fork a child that opens p read-only and signals on a pipe, from inside a read transaction when in_txn; it then waits
 * to be killed. */
static pid_t spawn_holder(const char *p, bool in_txn)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        Db *rd;
        DbOptions ro = {DB_RDONLY, 0, 0};
        if (db_open(p, &ro, &rd, NULL, 0))
            _exit(3);
        if (in_txn)
            db_foreach(rd, hang_cb, &fds[1]);
        char x = 1;
        if (write(fds[1], &x, 1) != 1)
            _exit(7);
        for (;;)
            pause();
    }
    close(fds[1]);
    char x;
    assert_int_equal(read(fds[0], &x, 1), 1);
    close(fds[0]);
    return pid;
}

/* A reader killed inside its read transaction leaves a reader slot while other
 * processes keep the database open; the next open clears it.  A long-lived
 * read-only handle follows a map that another process grew. */
static void test_stale_reader_and_map_growth(void **state)
{
    (void)state;
    char p[600];
    snprintf(p, sizeof p, "%s", path("stale.lmdb"));
    rm_db(p);
    Db *db;
    DbOptions small = {DB_CREATE, 64 * 1024, 0};
    assert_int_equal(db_open(p, &small, &db, NULL, 0), 0);
    Board b;
    entry_board(0, &b);
    DbRecord r = {.result = RESULT_PROVEN, .attacker = BLACK, .best = POINT_NONE, .nodes = 0};
    assert_int_equal(db_queue(db, &b, RULE_RENJU, &r, NULL, 0), 0);
    db_close(db);
    pid_t holder = spawn_holder(p, false);
    pid_t reader = spawn_holder(p, true);
    kill(reader, SIGKILL);
    waitpid(reader, NULL, 0);
    assert_int_equal(count_readers(p, reader), 1);
    Db *rd;
    DbOptions ro = {DB_RDONLY, 64 * 1024, 0};
    assert_int_equal(db_open(p, &ro, &rd, NULL, 0), 0);
    assert_int_equal(count_readers(p, reader), 0);
    /* Another process writes enough to grow the map many times over. */
    pid_t w = fork();
    if (w == 0) {
        Db *wd;
        if (db_open(p, &small, &wd, NULL, 0))
            _exit(3);
        for (uint32_t i = 1; i < 20000; i++) {
            Board bb;
            entry_board(i, &bb);
            DbRecord rr = {.result = RESULT_PROVEN, .attacker = BLACK, .best = POINT_NONE, .nodes = i};
            if (db_queue(wd, &bb, RULE_RENJU, &rr, NULL, 0))
                _exit(4);
        }
        _exit(db_flush(wd) ? 5 : 0);
    }
    int st;
    waitpid(w, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    DbStats ds;
    assert_int_equal(db_stats(rd, &ds), 0);
    assert_int_equal(ds.entries, 20000);
    assert_true(ds.map_bytes > 64 * 1024);
    entry_board(19999, &b);
    DbRecord got;
    assert_int_equal(db_get(rd, &b, RULE_RENJU, BLACK, &got), 0);
    assert_int_equal(got.nodes, 19999);
    db_close(rd);
    kill(holder, SIGKILL);
    waitpid(holder, NULL, 0);
}

static int setup_dir(void **state)
{
    (void)state;
    build_hex();
    snprintf(g_dir, sizeof g_dir, "/tmp/rj_test_db_cli.XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    return chmod(g_dir, 0755);
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", g_dir, g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_and_damaged),         cmocka_unit_test(test_read_only_dir),
        cmocka_unit_test(test_query_images_and_children),   cmocka_unit_test(test_verify_threads),
        cmocka_unit_test(test_export_import_merge),         cmocka_unit_test(test_import_interrupted),
        cmocka_unit_test(test_cli_reader_while_writing),    cmocka_unit_test(test_kill_writer),
        cmocka_unit_test(test_stale_reader_and_map_growth),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
