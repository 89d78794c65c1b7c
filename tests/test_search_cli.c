/*
 * test_search_cli.c - `renju opening search|status|report` end to end
 * against the built binary: a proof composed from jobs and re-verified,
 * determinism for a node budget, resume equivalence, kill -9 and SIGTERM in
 * the middle of a run, and bad input.  Small budgets (a few seconds each).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char g_dir[256];

/* Paths live in 8 rotating buffers: keep a copy of one that must outlive later calls (dbpath). */
static const char *path(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", g_dir, name);
    return buf[k];
}

static const char *dbpath(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", g_dir, name);
    return buf;
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* renju ARGS > out 2> err (paths given). */
#define RENJU(out, err, args, ...) sh("%s " args " >%s 2>%s", RJ_RENJU_BIN, __VA_ARGS__, out, err)

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static long json_int(const char *s, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *p = strstr(s, k);
    assert_non_null(p);
    return strtol(p + strlen(k), NULL, 10);
}

/* The JSON text up to the run's own counters (tree state only: comparable across runs). */
static char *tree_part(const char *p)
{
    char *s = slurp(p);
    char *cut = strstr(s, "\"jobs\":");
    assert_non_null(cut);
    *cut = 0;
    return s;
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/rj-search-XXXXXX");
    assert_non_null(mkdtemp(g_dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sh("rm -rf %s", g_dir);
    return 0;
}

/* A white-to-move position proven by composing the proofs of its jobs; db verify re-checks all. */
static void test_composed_proof_verifies(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "compose.lmdb");
    assert_int_equal(RENJU(path("c.json"), path("c.err"),
                           "opening search \"h8 h9 i9 e11 i11 k5 j8\" --job-nodes 50000 --db %s --json", db),
                     0);
    char *s = slurp(path("c.json"));
    assert_non_null(strstr(s, "\"result\":\"proven\""));
    assert_true(json_int(s, "composed") >= 1);
    assert_int_equal(json_int(s, "compose_failed"), 0);
    assert_true(json_int(s, "jobs") > 1); /* not one job: the tree did the work */
    free(s);
    assert_int_equal(RENJU(path("v.txt"), path("v.err"), "db verify --db %s", db), 0);
    s = slurp(path("v.txt"));
    assert_non_null(strstr(s, " 0 failures"));
    free(s);
    assert_int_equal(RENJU(path("q.json"), path("q.err"),
                           "query \"h8 h9 i9 e11 i11 k5 j8\" --attacker black --db %s --json", db),
                     0);
    s = slurp(path("q.json"));
    assert_non_null(strstr(s, "\"result\":\"proven\""));
    free(s);
    /* status reads the same tree without running a job */
    assert_int_equal(RENJU(path("s.json"), path("s.err"), "opening status \"h8 h9 i9 e11 i11 k5 j8\" --db %s --json",
                           db),
                     0);
    s = slurp(path("s.json"));
    assert_non_null(strstr(s, "\"result\":\"proven\""));
    assert_int_equal(json_int(s, "jobs"), 0);
    free(s);
}

/*
 * `renju solve --db` starts warm from the database's saved tree: an
 * opening search stopped before its root is proven leaves proven white
 * replies; the solve preloads them, takes their stored proofs into its own,
 * checks it, stores it, and needs less work than the same solve cold
 * (--no-warm, or another database).  db verify re-checks the stored proof.
 */
static void test_solve_warm_start(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "warm.lmdb");
    const char *pos = "\"h8 h9 i9 e11 i11 k5 j8\" --attacker black --nodes 2e6 --json";
    assert_int_equal(RENJU(path("w0.json"), path("w0.err"),
                           "opening search \"h8 h9 i9 e11 i11 k5 j8\" --job-nodes 2000 --max-jobs 20 --quiet --db %s "
                           "--json",
                           db),
                     0);
    char *s = slurp(path("w0.json"));
    assert_non_null(strstr(s, "\"result\":\"unknown\""));
    free(s);
    assert_int_equal(RENJU(path("w1.json"), path("w1.err"), "solve %s --no-warm --db %s", pos, db), 0);
    s = slurp(path("w1.json"));
    assert_non_null(strstr(s, "\"result\":\"proven\""));
    assert_null(strstr(s, "warm_proven"));
    long cold = json_int(s, "nodes");
    free(s);
    /* The cold solve stored its result: start again from the tree alone. */
    assert_int_equal(RENJU(path("w0.json"), path("w0.err"),
                           "opening search \"h8 h9 i9 e11 i11 k5 j8\" --job-nodes 2000 --max-jobs 20 --quiet --db %s "
                           "--json",
                           path("warm2.lmdb")),
                     0);
    assert_int_equal(RENJU(path("w2.json"), path("w2.err"), "solve %s --db %s", pos, path("warm2.lmdb")), 0);
    s = slurp(path("w2.json"));
    assert_non_null(strstr(s, "\"result\":\"proven\""));
    assert_true(json_int(s, "warm_proven") > 0);
    assert_true(json_int(s, "proof_spliced") > 0);
    assert_non_null(strstr(s, "\"stored\":"));
    assert_true(json_int(s, "nodes") < cold);
    free(s);
    s = slurp(path("w2.err"));
    assert_non_null(strstr(s, "solve: warm start: "));
    free(s);
    assert_int_equal(RENJU(path("w3.txt"), path("w3.err"), "db verify --db %s", path("warm2.lmdb")), 0);
    s = slurp(path("w3.txt"));
    assert_non_null(strstr(s, " 0 failures"));
    free(s);
    /* Answered from the database now, without a search. */
    assert_int_equal(RENJU(path("w4.json"), path("w4.err"), "solve %s --db %s", pos, path("warm2.lmdb")), 0);
    s = slurp(path("w4.json"));
    assert_non_null(strstr(s, "\"from_db\":true"));
    free(s);
    /* --warm-db: read only; a result stored there is copied with its proof into --db. */
    assert_int_equal(RENJU(path("w5.json"), path("w5.err"), "solve %s --db %s --warm-db %s", pos, path("copy.lmdb"),
                           path("warm2.lmdb")),
                     0);
    s = slurp(path("w5.json"));
    assert_non_null(strstr(s, "\"from_db\":true"));
    assert_non_null(strstr(s, "\"stored\":"));
    free(s);
    assert_int_equal(RENJU(path("w6.txt"), path("w6.err"), "db verify --db %s", path("copy.lmdb")), 0);
    s = slurp(path("w6.txt"));
    assert_non_null(strstr(s, "1 proofs checked, 0 failures"));
    free(s);
    assert_int_equal(RENJU(path("w7.json"), path("w7.err"), "solve %s --warm-db %s", pos, path("missing.lmdb")), 66);
}

/*
 * --focus SHARE (warm_focus.h): at a black-to-move position the tree
 * expanded, that share of the budget goes first to the tree's most-proving
 * move, then the position gets the rest in the same table, all within
 * --nodes; a proof found that way is extracted, stored and re-checked.
 */
static void test_solve_focus(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "focus.lmdb");
    const char *pos = "\"h8 h9 i10 g9 i9 g8\" --attacker black --threads 1 --json"; /* one thread: budgets exact */
    assert_int_equal(RENJU(path("f0.json"), path("f0.err"),
                           "opening search \"h8 h9 i10 g9 i9 g8\" --job-nodes 2000 --max-jobs 60 --threads 1 --quiet "
                           "--db %s --json",
                           db),
                     0);
    char *s = slurp(path("f0.json"));
    assert_non_null(strstr(s, "\"result\":\"unknown\""));
    free(s);
    assert_int_equal(RENJU(path("f1.json"), path("f1.err"), "solve %s --nodes 200000 --focus 0.5 --db %s", pos, db), 0);
    s = slurp(path("f1.json"));
    assert_non_null(strstr(s, "\"result\":\"unknown\""));
    assert_non_null(strstr(s, "\"focus\":\""));
    long focus = json_int(s, "focus_nodes");
    assert_in_range(focus, 90000, 100001);                        /* its share */
    assert_in_range(json_int(s, "nodes"), focus + 90000, 200000); /* and the position the rest */
    free(s);
    s = slurp(path("f1.err"));
    assert_non_null(strstr(s, "solve: focus: the saved tree's move "));
    free(s);
    /* Without --focus, or cold: the position alone. */
    const char *plain[] = {"", "--focus 0.5 --no-warm"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(
            RENJU(path("f2.json"), path("f2.err"), "solve %s --nodes 200000 %s --db %s", pos, plain[i], db), 0);
        s = slurp(path("f2.json"));
        assert_null(strstr(s, "\"focus\""));
        assert_in_range(json_int(s, "nodes"), 190000, 200001); /* its whole budget (a search can pass it by one node) */
        free(s);
    }
    assert_int_equal(RENJU(path("f4.json"), path("f4.err"), "solve %s --nodes 200000 --focus 2 --db %s", pos, db), 64);
    assert_int_equal(RENJU(path("f4.json"), path("f4.err"), "solve %s --nodes 200000 --focus 0.5", pos), 64);
    assert_int_equal(RENJU(path("f4.json"), path("f4.err"), "solve %s --focus 0.5 --db %s", pos, db), 64);
    /* Enough budget: proven through the focus's table, stored, re-checked. */
    assert_int_equal(RENJU(path("f3.json"), path("f3.err"), "solve %s --nodes 4e6 --focus 0.5 --db %s", pos, db), 0);
    s = slurp(path("f3.json"));
    assert_non_null(strstr(s, "\"result\":\"proven\""));
    assert_non_null(strstr(s, "\"focus\":\""));
    assert_non_null(strstr(s, "\"stored\":"));
    free(s);
    assert_int_equal(RENJU(path("f5.txt"), path("f5.err"), "db verify --db %s", db), 0);
    s = slurp(path("f5.txt"));
    assert_non_null(strstr(s, " 0 failures"));
    free(s);
}

/*
 * White's pass at a white-to-move root: while it is open, status gives its
 * numbers and the work its subtree has had (JSON pass_pn, pass_dn,
 * pass_work): the pass's proof proves the white moves it never meets.
 */
static void test_status_pass_numbers(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "passnum.lmdb");
    assert_int_equal(
        RENJU(path("pn.json"), path("pn.err"),
              "opening search \"h8 h9 i9 e5 k9\" --goal win --job-nodes 1000 --max-jobs 30 --quiet --db %s", db),
        0);
    assert_int_equal(RENJU(path("ps.json"), path("ps.err"), "opening status \"h8 h9 i9 e5 k9\" --json --db %s", db), 0);
    char *s = slurp(path("ps.json"));
    assert_non_null(strstr(s, "\"pass\":\"unknown\""));
    assert_true(json_int(s, "pass_work") >= 1000); /* the pass had the first job below the root */
    assert_true(json_int(s, "pass_pn") > 1);
    assert_true(json_int(s, "pass_dn") > 1);
    free(s);
    assert_int_equal(RENJU(path("ps.txt"), path("ps.err"), "opening status \"h8 h9 i9 e5 k9\" --db %s", db), 0);
    s = slurp(path("ps.txt"));
    assert_non_null(strstr(s, "white's pass: unknown (pn "));
    free(s);
}

/* One worker, a node budget: the same jobs in the same order, and a stopped run resumes to the same tree. */
static void test_deterministic_and_resume(void **state)
{
    (void)state;
    const char *args = "opening search \"I7 i8\" --goal w4 --job-nodes 20000 --quiet --json";
    assert_int_equal(RENJU(path("a.json"), path("a.err"), "%s --max-jobs 40 --db %s", args, path("a.lmdb")), 0);
    assert_int_equal(RENJU(path("b.json"), path("b.err"), "%s --max-jobs 40 --db %s", args, path("b.lmdb")), 0);
    char *a = tree_part(path("a.json")), *b = tree_part(path("b.json"));
    assert_string_equal(a, b);
    assert_true(strstr(a, "\"effort\":0") != NULL); /* 40 jobs did not reach every class */
    free(b);
    assert_int_equal(RENJU(path("c1.json"), path("c.err"), "%s --max-jobs 15 --db %s", args, path("c.lmdb")), 0);
    assert_int_equal(RENJU(path("c2.json"), path("c.err"), "%s --max-jobs 25 --db %s", args, path("c.lmdb")), 0);
    char *c = tree_part(path("c2.json"));
    assert_string_equal(a, c);
    free(a);
    free(c);
}

/* A status JSON without its "time_s" value (the rest is the tree's). */
static char *untimed(const char *p)
{
    char *s = slurp(p), *q = strstr(s, "\"time_s\":");
    if (q) {
        char *e = q + 9;
        while (*e && *e != ',' && *e != '}')
            e++;
        memmove(q, e, strlen(e) + 1);
    }
    return s;
}

/* Count the lines of a file. */
static long count_lines(const char *p)
{
    char *s = slurp(p);
    long n = 0;
    for (const char *q = s; *q; q++)
        n += *q == '\n';
    free(s);
    return n;
}

/*
 * The saved tree moves to another machine with `db export --states`: results and states
 * imported into a new database give the same tree, and its next jobs are the ones the
 * original database runs; the results alone give another search.
 */
static void test_states_move(void **state)
{
    (void)state;
    const char *args = "opening search \"I7 i8\" --goal w4 --job-nodes 20000 --quiet --json";
    const char *st = "opening status \"I7 i8\" --goal w4 --json";
    char mb[512], nb[512], ob[512];
    const char *m = dbpath(mb, sizeof mb, "m.lmdb"), *n = dbpath(nb, sizeof nb, "n.lmdb"),
               *o = dbpath(ob, sizeof ob, "o.lmdb");
    assert_int_equal(RENJU(path("m1.json"), path("m.err"), "%s --max-jobs 15 --db %s", args, m), 0);
    assert_int_equal(RENJU(path("m.jsonl"), path("m.err"), "db export --db %s", m), 0);
    assert_int_equal(RENJU(path("m.states"), path("m.err"), "db export --states --db %s", m), 0);
    char *e = slurp(path("m.err"));
    long nstates = count_lines(path("m.states"));
    assert_true(nstates >= 15); /* a state per node a job ran on, and the root's */
    char want[64];
    snprintf(want, sizeof want, "export: %ld search states", nstates);
    assert_non_null(strstr(e, want));
    free(e);
    char *t = slurp(path("m.states"));
    assert_true(!strncmp(t, "{\"work\":\"6a74313a", 17)); /* "jt1:" */
    free(t);
    assert_int_equal(sh("cat %s %s > %s", path("m.jsonl"), path("m.states"), path("all.jsonl")), 0);
    assert_int_equal(RENJU(path("i.json"), path("i.err"), "db import %s --db %s --json", path("all.jsonl"), n), 0);
    char *s = slurp(path("i.json"));
    assert_int_equal(json_int(s, "states"), nstates);
    assert_int_equal(json_int(s, "states_kept"), 0);
    assert_int_equal(json_int(s, "bad"), 0);
    free(s);
    assert_int_equal(RENJU(path("ds.json"), path("s.err"), "db stats --json --db %s", n), 0);
    s = slurp(path("ds.json"));
    assert_int_equal(json_int(s, "states"), nstates);
    free(s);
    assert_int_equal(RENJU(path("ms.json"), path("s.err"), "%s --db %s", st, m), 0);
    assert_int_equal(RENJU(path("ns.json"), path("s.err"), "%s --db %s", st, n), 0);
    char *a = untimed(path("ms.json")), *b = untimed(path("ns.json"));
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_int_equal(RENJU(path("n.states"), path("n.err"), "db export --states --db %s", n), 0);
    a = slurp(path("m.states"));
    b = slurp(path("n.states"));
    assert_string_equal(a, b); /* byte for byte */
    free(a);
    free(b);
    /* importing the states again keeps the stored ones (as much work), and the tree is the same */
    assert_int_equal(RENJU(path("i2.json"), path("i.err"), "db import %s --db %s --json", path("m.states"), n), 0);
    s = slurp(path("i2.json"));
    assert_int_equal(json_int(s, "states"), 0);
    assert_int_equal(json_int(s, "states_kept"), nstates);
    free(s);
    /* the next 25 jobs: the same from the imported tree, another search from the results alone */
    assert_int_equal(RENJU(path("o.json"), path("o.err"), "db import %s --db %s --quiet", path("m.jsonl"), o), 0);
    assert_int_equal(RENJU(path("m2.json"), path("m.err"), "%s --max-jobs 25 --db %s", args, m), 0);
    assert_int_equal(RENJU(path("n2.json"), path("n.err"), "%s --max-jobs 25 --db %s", args, n), 0);
    assert_int_equal(RENJU(path("o2.json"), path("o.err"), "%s --max-jobs 25 --db %s", args, o), 0);
    a = tree_part(path("m2.json"));
    b = tree_part(path("n2.json"));
    char *c = tree_part(path("o2.json"));
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    free(a);
    free(b);
    free(c);
}

/* The first line of `db export --states` after a search of `jobs` jobs under "I7 i8" in db (malloc'd). */
static char *first_state(const char *db, int jobs)
{
    assert_int_equal(RENJU(path("fs.json"), path("fs.err"),
                           "opening search \"I7 i8\" --goal w4 --job-nodes 20000 --max-jobs %d --quiet --db %s", jobs,
                           db),
                     0);
    assert_int_equal(RENJU(path("fs.states"), path("fs.err"), "db export --states --db %s", db), 0);
    char *line = slurp(path("fs.states"));
    char *nl = strchr(line, '\n');
    assert_non_null(nl);
    *nl = 0;
    return line;
}

/* Bad state lines: a clear message each, counted as bad (exit 65); --states only with export. */
static void test_states_bad(void **state)
{
    (void)state;
    char mb[512];
    snprintf(mb, sizeof mb, "%s", path("sb.lmdb"));
    char *good = first_state(mb, 2);
    const char *v = strstr(good, "\",\"value\":\"");
    assert_non_null(v);
    size_t klen = (size_t)(v - good) - 9; /* hex digits of the key */
    FILE *f = fopen(path("bad.states"), "w");
    assert_non_null(f);
    fprintf(f, "%s\n", good);                                                    /* 1: good */
    fprintf(f, "{\"work\":\"6a74313\",\"value\":\"00\"}\n");                     /* 2: odd hex */
    fprintf(f, "{\"work\":\"7a7a\",\"value\":\"00\"}\n");                        /* 3: a kind not known */
    fprintf(f, "{\"work\":\"%.*s\",\"value\":\"0000\"}\n", (int)klen, good + 9); /* 4: short value */
    fprintf(f, "{\"work\":\"%.*s00\",\"value\":\"00\"}\n", (int)klen, good + 9); /* 5: long key */
    fprintf(f, "{\"work\":\"%.*s\"}\n", (int)klen, good + 9);                    /* 6: no value */
    /* 7: rule byte 0xff: not a position's key */
    fprintf(f, "{\"work\":\"6a74313a01ff%.*s\",\"value\":\"%s\n", (int)klen - 12, good + 21, v + 11);
    /* 8, 9: one white stone on a1, then on o15 (black to move, attacker black): images of each
     * other under a half turn, so one key is the canonical one and the other is not */
    char rules[3] = {good[19], good[20], 0}, body[2][125];
    for (int i = 0; i < 2; i++) {
        memset(body[i], '0', 124);
        body[i][124] = 0;
        body[i][i ? 2 * 56 + 1 : 1] = '2';
    }
    for (int i = 0; i < 2; i++)
        fprintf(f, "{\"work\":\"6a74313a01%s%s01\",\"value\":\"%040dff00\"}\n", rules, body[i], 0);
    /* 10-12: the good line with flag 4 (a root repair level of 1: none is that small), with pn 2^31,
     * with work 2^51 */
    const int at[3] = {42, 24, 0};
    const char *put[3] = {"04", "00000080", "0000000000000800"};
    for (int i = 0; i < 3; i++) {
        char bad[4096];
        snprintf(bad, sizeof bad, "%s", good);
        char *bv = strstr(bad, "\"value\":\"") + 9;
        memcpy(bv + at[i], put[i], strlen(put[i]));
        fprintf(f, "%s\n", bad);
    }
    fclose(f);
    free(good);
    assert_int_equal(
        RENJU(path("bi.json"), path("bi.err"), "db import %s --db %s --json", path("bad.states"), path("bi.lmdb")), 65);
    char *s = slurp(path("bi.json")), *e = slurp(path("bi.err"));
    assert_int_equal(json_int(s, "states"), 2);
    assert_int_equal(json_int(s, "bad"), 10);
    assert_non_null(strstr(e, "line 2: work key hex has odd length"));
    assert_non_null(strstr(e, "line 3: a search state of a kind this version does not know"));
    assert_non_null(strstr(e, "line 4: the state has the wrong length"));
    assert_non_null(strstr(e, "line 5: a jt1: key has the wrong length"));
    assert_non_null(strstr(e, "line 6: missing key (a state line needs work and value)"));
    assert_non_null(strstr(e, "line 7: the key is not a position with attacker black"));
    assert_true((strstr(e, "line 8: the key is not canonical") != NULL) !=
                (strstr(e, "line 9: the key is not canonical") != NULL));
    for (int i = 10; i <= 12; i++) {
        char want[128];
        snprintf(want, sizeof want,
                 "line %d: the state's work, jobs, best move, flags or proof numbers are out of range", i);
        assert_non_null(strstr(e, want));
    }
    free(s);
    free(e);
    assert_int_equal(RENJU(path("x.out"), path("x.err"), "db stats --states --db %s", mb), 64);
}

/* Two states of one key: the one further along stays, in either order, in one file or two. */
static void test_states_more_work(void **state)
{
    (void)state;
    char mb[512];
    snprintf(mb, sizeof mb, "%s", path("mw.lmdb"));
    char *line = first_state(mb, 1);
    char *v = strstr(line, "\"value\":\"");
    assert_non_null(v);
    v += 9;
    /*
     * The state further along stays: (0) more work (the value's first 8
     * bytes, little-endian), (1) as much work and more jobs (the next 4),
     * (2) as much of both and expanded (bit 0 of byte 21) where the other
     * is not, (3) the same and probed (bit 1), (4) expanded against more
     * work and jobs on a node that is not (a search's root that is another
     * search's probed leaf).
     */
    for (int c = 0; c < 5; c++) {
        char hi[4096], lo[4096];
        memcpy(v, c == 0 ? "40420f0000000000" : "0500000000000000", 16);
        memcpy(v + 16, c == 1 ? "02000000" : "01000000", 8);
        memcpy(v + 42, c == 2 || c == 4 ? "01" : c == 3 ? "02" : "00", 2);
        snprintf(hi, sizeof hi, "%s", line);
        memcpy(v, c == 4 ? "40420f0000000000" : "0500000000000000", 16);
        memcpy(v + 16, c == 4 ? "03000000" : "01000000", 8);
        memcpy(v + 42, c == 4 ? "02" : "00", 2);
        snprintf(lo, sizeof lo, "%s", line);
        const char *order[2][2] = {{hi, lo}, {lo, hi}};
        for (int i = 0; i < 2; i++) {
            char db[64], f[64];
            snprintf(db, sizeof db, "mw%d%d.lmdb", c, i);
            snprintf(f, sizeof f, "mw%d%d.states", c, i);
            FILE *fp = fopen(path(f), "w");
            assert_non_null(fp);
            fprintf(fp, "%s\n%s\n", order[i][0], order[i][1]); /* one file, one batch */
            fclose(fp);
            assert_int_equal(RENJU(path("mwi.json"), path("mwi.err"), "db import %s --db %s --json", path(f), path(db)),
                             0);
            char *s = slurp(path("mwi.json"));
            assert_int_equal(json_int(s, "states"), i == 0 ? 1 : 2); /* the lesser one second: kept out */
            assert_int_equal(json_int(s, "states_kept"), i == 0 ? 1 : 0);
            free(s);
            assert_int_equal(RENJU(path("mwo.states"), path("mwi.err"), "db export --states --db %s", path(db)), 0);
            s = slurp(path("mwo.states"));
            *strchr(s, '\n') = 0;
            assert_string_equal(s, hi);
            free(s);
            /* a second file with the lesser state changes nothing */
            fp = fopen(path(f), "w");
            assert_non_null(fp);
            fprintf(fp, "%s\n", lo);
            fclose(fp);
            assert_int_equal(RENJU(path("mwi.json"), path("mwi.err"), "db import %s --db %s --json", path(f), path(db)),
                             0);
            s = slurp(path("mwi.json"));
            assert_int_equal(json_int(s, "states"), 0);
            assert_int_equal(json_int(s, "states_kept"), 1);
            free(s);
        }
    }
    free(line);
}

/* The sum of every "effort" of a status JSON: the work the saved tree records. */
static long long effort_sum(const char *p)
{
    char *s = slurp(p);
    long long sum = 0;
    for (const char *q = strstr(s, "\"effort\":"); q; q = strstr(q + 1, "\"effort\":"))
        sum += strtoll(q + 9, NULL, 10);
    free(s);
    return sum;
}

/* --fresh-tree forgets the saved tree (the next run starts from the root's job again), never the results. */
static void test_fresh_tree(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "f.lmdb");
    const char *args = "opening search \"I7 i8\" --goal w4 --job-nodes 20000 --json";
    assert_int_equal(RENJU(path("f1.json"), path("f1.err"), "%s --max-jobs 15 --quiet --db %s", args, db), 0);
    assert_int_equal(RENJU(path("fs1.json"), path("fs.err"), "opening status \"I7 i8\" --goal w4 --json --db %s", db),
                     0);
    long long before = effort_sum(path("fs1.json"));
    assert_true(before >= 15 * 20000LL);
    char *line = slurp(path("fs1.json")); /* the open tree's most-proving line starts with one of black's 5th moves */
    const char *l = strstr(line, "\"line\":[{\"move\":\"");
    assert_non_null(l);
    char m5[4] = {0};
    assert_int_equal(sscanf(l + 17, "%3[a-o0-9]", m5), 1);
    assert_true(m5[0] >= 'a' && m5[0] <= 'o' && atoi(m5 + 1) >= 1 && atoi(m5 + 1) <= 15);
    assert_true(strcmp(m5, "h8") && strcmp(m5, "i9") && strcmp(m5, "i7") && strcmp(m5, "i8"));
    free(line);
    /* --sgf: the position and that line as a game record; an unwritable file is an I/O error */
    assert_int_equal(RENJU(path("fs1.out"), path("fs.err"), "opening status \"I7 i8\" --goal w4 --db %s --sgf %s", db,
                           path("line.sgf")),
                     0);
    char *sgf = slurp(path("line.sgf"));
    char want[16];
    snprintf(want, sizeof want, ";B[%c%c]", m5[0], 'a' + 15 - atoi(m5 + 1)); /* SGF rows count from the top */
    assert_non_null(strstr(sgf, "most-proving line"));
    assert_non_null(strstr(sgf, want)); /* black's 5th move as the line's first */
    free(sgf);
    assert_int_equal(RENJU(path("fs1.out"), path("fs.err"), "opening status \"I7 i8\" --goal w4 --db %s --sgf %s", db,
                           path("no-such-dir/line.sgf")),
                     74);
    assert_int_equal(RENJU(path("f2.json"), path("f2.err"), "%s --max-jobs 1 --fresh-tree --db %s", args, db), 0);
    char *s = slurp(path("f2.err"));
    assert_non_null(strstr(s, "forgot the saved state of 16 positions")); /* the root and its 15 jobs' nodes */
    free(s);
    s = slurp(path("f2.json"));
    assert_int_equal(json_int(s, "jobs"), 1);
    assert_int_equal(json_int(s, "tree_nodes"), 222); /* the root's job ran again and expanded it */
    free(s);
    assert_int_equal(RENJU(path("fs2.json"), path("fs.err"), "opening status \"I7 i8\" --goal w4 --json --db %s", db),
                     0);
    long long after = effort_sum(path("fs2.json"));
    assert_true(after >= 20000 && after < 2 * 20000 + 100);
    assert_int_equal(RENJU(path("f3.json"), path("f3.err"), "opening status \"I7 i8\" --fresh-tree --db %s", db), 64);
    /* a position the tree proved: after --fresh-tree it is still proven, from the stored result, with no job */
    db = dbpath(dbbuf, sizeof dbbuf, "fp.lmdb");
    const char *pos = "opening search \"h8 h9 i9 e11 i11 k5 j8\" --job-nodes 50000 --json";
    assert_int_equal(RENJU(path("fp1.json"), path("fp.err"), "%s --db %s", pos, db), 0);
    s = slurp(path("fp1.json"));
    assert_non_null(strstr(s, "\"result\":\"proven\""));
    assert_true(json_int(s, "jobs") > 1);
    free(s);
    assert_int_equal(RENJU(path("fp2.json"), path("fp.err"), "%s --fresh-tree --db %s", pos, db), 0);
    s = slurp(path("fp2.json"));
    assert_non_null(strstr(s, "\"result\":\"proven\""));
    assert_int_equal(json_int(s, "jobs"), 0);
    free(s);
}

/* --nodes: a total work budget; no job starts once the finished ones spent it (1 worker: exact). */
static void test_total_nodes(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "n.lmdb");
    assert_int_equal(RENJU(path("n.json"), path("n.err"),
                           "opening search \"I7 i8\" --goal w4 --job-nodes 2e4 --nodes 1e5 --quiet --json --db %s", db),
                     0);
    char *s = slurp(path("n.json"));
    long jobs = json_int(s, "jobs"), nodes = json_int(s, "nodes");
    free(s);
    assert_true(nodes >= 100000 && nodes < 100000 + 20100); /* the cap, and at most one more job */
    assert_int_equal(jobs, 5);                              /* these jobs all spend their 20,000 (unknown) */
}

/* Start a long run in the background; wait (polling, no fixed sleep) until it reported a job. */
static pid_t start_long_run(const char *db, const char *err)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *o = freopen("/dev/null", "w", stdout);
        FILE *e = freopen(err, "w", stderr);
        (void)o;
        (void)e;
        execl(RJ_RENJU_BIN, RJ_RENJU_BIN, "opening", "search", "I7 i8", "--goal", "w4", "--job-nodes", "100000",
              "--db", db, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 3000; i++) { /* up to 60 s */
        FILE *f = fopen(err, "r");
        if (f) {
            char line[512];
            bool seen = false;
            while (fgets(line, sizeof line, f))
                seen |= strncmp(line, "search: ", 8) == 0;
            fclose(f);
            if (seen)
                return pid;
        }
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    fail_msg("the search reported no progress in 60 s");
    return -1;
}

/* kill -9 in the middle of a run: the database opens, every stored proof verifies, a rerun continues. */
static void test_kill9_resumes(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "k.lmdb");
    pid_t pid = start_long_run(db, path("k.err"));
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(RENJU(path("kv.txt"), path("kv.err"), "db verify --db %s", db), 0);
    assert_int_equal(RENJU(path("ks.json"), path("ks.err"), "opening status \"I7 i8\" --goal w4 --db %s --json", db),
                     0);
    char *s = slurp(path("ks.json"));
    /* the saved state outlived the kill: some class has effort */
    assert_non_null(strstr(s, "\"effort\":100"));
    free(s);
    assert_int_equal(RENJU(path("k2.json"), path("k2.err"),
                           "opening search \"I7 i8\" --goal w4 --job-nodes 100000 --max-jobs 3 --db %s --json", db),
                     0);
    s = slurp(path("k2.json"));
    assert_int_equal(json_int(s, "jobs"), 3);
    free(s);
}

/* SIGTERM: the bounds reached are printed, exit 75; nothing proven is lost. */
static void test_sigterm(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "t.lmdb");
    pid_t pid = start_long_run(db, path("t.err"));
    kill(pid, SIGTERM);
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 75);
    char *e = slurp(path("t.err"));
    assert_non_null(strstr(e, "interrupted"));
    free(e);
    assert_int_equal(RENJU(path("tv.txt"), path("tv.err"), "db verify --db %s", db), 0);
}

/* Bad input: one clear line and the documented exit code. */
static void test_bad_input(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "bad.lmdb");
    const char *o = path("bad.out"), *e = path("bad.err");
    assert_int_equal(RENJU(o, e, "opening search Z9 --db %s", db), 65);
    assert_int_equal(RENJU(o, e, "opening search \"I7 z99\" --goal w4 --db %s", db), 65);
    char *s = slurp(e);
    assert_non_null(strstr(s, "z99"));
    free(s);
    assert_int_equal(RENJU(o, e, "opening search I7 --goal bogus --db %s", db), 64);
    assert_int_equal(RENJU(o, e, "opening search I7 --job-nodes 0 --db %s", db), 64);
    assert_int_equal(RENJU(o, e, "opening search I7 --job-nodes 1.5 --db %s", db), 64);
    assert_int_equal(RENJU(o, e, "opening search I7 --max-jobs 1e30 --db %s", db), 64);
    assert_int_equal(RENJU(o, e, "opening search I7 --goal w4 --db %s", db), 65);
    assert_int_equal(RENJU(o, e, "opening search \"I7 i8\" --goal fair-n --db %s", db), 65);
    assert_int_equal(RENJU(o, e, "opening frobnicate I7 --db %s", db), 64);
    assert_int_equal(RENJU(o, e, "opening status I7 --db %s", path("missing.lmdb")), 66);
    assert_int_equal(RENJU(o, e, "opening report X1 --db %s", db), 65);
    /* a foreign file: refused, and left as it was */
    FILE *f = fopen(path("foreign.lmdb"), "wb");
    assert_non_null(f);
    for (int i = 0; i < 8192; i++)
        fputc("not a database"[i % 14], f);
    fclose(f);
    assert_int_equal(RENJU(o, e, "opening search I7 --max-jobs 1 --db %s", path("foreign.lmdb")), 74);
    s = slurp(e);
    assert_non_null(strstr(s, "renju: "));
    assert_null(strchr(strchr(s, '\n') + 1, '\n')); /* one line */
    free(s);
    assert_int_equal(sh("cp %s %s.orig", path("foreign.lmdb"), path("foreign.lmdb")), 0);
    assert_int_equal(RENJU(o, e, "opening status I7 --db %s", path("foreign.lmdb")), 74);
    assert_int_equal(sh("cmp -s %s %s.orig", path("foreign.lmdb"), path("foreign.lmdb")), 0);
}

/* report: one JSON object per opening with the fair-n keys. */
static void test_report(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "r.lmdb");
    /* jobs: the root (goal win), white's pass (Borrowing, jobtree.h), then two 4th moves */
    assert_int_equal(
        RENJU(path("r0.json"), path("r0.err"), "opening search I7 --max-jobs 4 --job-nodes 20000 --db %s", db), 0);
    assert_int_equal(RENJU(path("r.json"), path("r.err"), "opening report I7 D1 --db %s --json", db), 0);
    char *s = slurp(path("r.json"));
    assert_non_null(strstr(s, "\"code\":\"I7\""));
    assert_non_null(strstr(s, "\"code\":\"D1\""));
    assert_non_null(strstr(s, "\"fourth\":[{\"move\":"));
    assert_true(json_int(s, "n_fair_min") >= 1);
    assert_true(json_int(s, "fourth_searched") >= 2);
    assert_non_null(strstr(s, "\"rule\":\"rif\""));
    free(s);
}

/* The statuses of the root's children in a search report, in order (malloc'd "pppu..."). */
static char *child_statuses(const char *json)
{
    char *out = malloc(strlen(json) + 1);
    assert_non_null(out);
    size_t n = 0;
    const char *p = json;
    while ((p = strstr(p, "\"status\":\"")) != NULL) {
        p += 10;
        out[n++] = *p;
    }
    out[n] = 0;
    return out;
}

#ifdef RJ_RENJU_MPI_BIN
#define MPIRUN "env ASAN_OPTIONS=detect_leaks=0 mpirun --allow-run-as-root --oversubscribe -np 3 " RJ_RENJU_MPI_BIN

static bool have_mpirun(void)
{
    return sh("command -v mpirun >/dev/null 2>&1") == 0;
}

/* Start `mpirun -np 3 renju-mpi opening search ARGS` in the background; wait for its first progress line. */
static pid_t start_mpi(const char *args, const char *err)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0); /* its own process group: the test signals only its own ranks */
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "exec %s opening search %s >/dev/null 2>%s", MPIRUN, args, err);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 3000; i++) {
        bool seen = false;
        if (access(err, R_OK) == 0) {
            char *e = slurp(err);
            seen = strstr(e, "search: ") != NULL && strstr(e, "pid ") != NULL;
            free(e);
        }
        if (seen)
            return pid;
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    fail_msg("renju-mpi reported no progress in 60 s");
    return -1;
}

/* The master's pid from its first line, and one worker's (another renju-mpi process of group pgid). */
static void mpi_pids(const char *err, pid_t pgid, long *master, long *worker)
{
    char *e = slurp(err);
    const char *p = strstr(e, "pid ");
    assert_non_null(p);
    *master = strtol(p + 4, NULL, 10);
    free(e);
    *worker = 0;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "pgrep -g %ld -f 'renju-mpi opening search'", (long)pgid);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    long pid;
    while (fscanf(f, "%ld", &pid) == 1)
        if (pid != *master && *worker == 0)
            *worker = pid;
    pclose(f);
    assert_true(*master > 0 && *worker > 0);
}
#endif

/* mpirun -np 3: the same proven set as the local search of the same workload. */
static void test_mpi_same_as_local(void **state)
{
    (void)state;
#ifdef RJ_RENJU_MPI_BIN
    if (!have_mpirun()) {
        print_message("mpirun not found: MPI search test skipped\n");
        skip();
    }
    char dba[512], dbb[512];
    dbpath(dba, sizeof dba, "ml.lmdb");
    dbpath(dbb, sizeof dbb, "mm.lmdb");
    const char *pos = "\"h8 h9 i9 e11 i11 k5 j8\" --job-nodes 50000 --json";
    assert_int_equal(RENJU(path("ml.json"), path("ml.err"), "opening search %s --db %s", pos, dba), 0);
    assert_int_equal(sh("%s opening search %s --db %s >%s 2>%s", MPIRUN, pos, dbb, path("mm.json"), path("mm.err")),
                     0);
    char *l = slurp(path("ml.json")), *m = slurp(path("mm.json"));
    assert_non_null(strstr(m, "\"result\":\"proven\""));
    char *sl = child_statuses(l), *sm = child_statuses(m);
    assert_true(strlen(sl) > 200);
    assert_string_equal(sl, sm);
    free(sl);
    free(sm);
    free(l);
    free(m);
    assert_int_equal(RENJU(path("mv.txt"), path("mv.err"), "db verify --db %s", dbb), 0);
    char *e = slurp(path("mm.err"));
    assert_non_null(strstr(e, "re-checked by the master"));
    assert_non_null(strstr(e, ", 0 refused"));
    free(e);
#else
    print_message("renju-mpi not built (CMake found no MPI): MPI search test skipped\n");
    skip();
#endif
}

/* A worker, then the master, killed with SIGKILL mid-run: the run ends, nothing stored is lost, the same command finishes it. */
static void test_mpi_kill_and_resume(void **state)
{
    (void)state;
#ifdef RJ_RENJU_MPI_BIN
    if (!have_mpirun()) {
        print_message("mpirun not found: MPI search test skipped\n");
        skip();
    }
    char db[512], args[1024];
    dbpath(db, sizeof db, "mk.lmdb");
    /* progress at once: a resumed run can finish within the plain mode's first second */
    snprintf(args, sizeof args, "\"h8 h9 i9 e11 i11 k5 j8\" --job-nodes 3000 --progress-interval 0.05 --db %s", db);
    long master, worker;
    for (int round = 0; round < 2; round++) {
        const char *err = round == 0 ? path("mk0.err") : path("mk1.err");
        char errbuf[512];
        snprintf(errbuf, sizeof errbuf, "%s", err);
        pid_t pid = start_mpi(args, errbuf);
        mpi_pids(errbuf, pid, &master, &worker);
        kill((pid_t)(round == 0 ? worker : master), SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        assert_false(WIFEXITED(st) && WEXITSTATUS(st) == 0); /* the MPI job ended with the rank */
        kill(-pid, SIGKILL); /* whatever of this run's group is left */
        assert_int_equal(RENJU(path("mkv.txt"), path("mkv.err"), "db verify --db %s", db), 0);
    }
    /* the same command resumes and finishes with the local search's result */
    assert_int_equal(sh("%s opening search %s --json >%s 2>%s", MPIRUN, args, path("mk.json"), path("mk2.err")), 0);
    char *m = slurp(path("mk.json"));
    assert_non_null(strstr(m, "\"result\":\"proven\""));
    free(m);
    assert_int_equal(RENJU(path("mkv.txt"), path("mkv.err"), "db verify --db %s", db), 0);
#else
    print_message("renju-mpi not built (CMake found no MPI): MPI search test skipped\n");
    skip();
#endif
}

/*
 * The early look of white-to-move jobs (RENJU_JT_EARLY, RENJU_JT_EARLY_DN;
 * on by default, off in the other tests here, which count whole jobs): with a
 * threshold no unknown job reaches, each such job ends after a fifth of its
 * budget.
 */
static void test_early_look(void **state)
{
    (void)state;
    long jobs[2], nodes[2];
    for (int k = 0; k < 2; k++) { /* k = 0: the early look with a threshold no job reaches; k = 1: off */
        char dbbuf[512], name[32];
        snprintf(name, sizeof name, "e%d.lmdb", k);
        const char *db = dbpath(dbbuf, sizeof dbbuf, name);
        assert_int_equal(setenv("RENJU_JT_EARLY", k == 0 ? "200" : "0", 1), 0);
        assert_int_equal(setenv("RENJU_JT_EARLY_DN", "2000000000", 1), 0);
        int rc = RENJU(path("e.json"), path("e.err"),
                       "opening search \"I7 i8\" --goal w4 --job-nodes 20000 --max-jobs 6 --quiet --json --db %s", db);
        assert_int_equal(setenv("RENJU_JT_EARLY", "0", 1), 0);
        assert_int_equal(unsetenv("RENJU_JT_EARLY_DN"), 0);
        assert_int_equal(rc, 0);
        char *s = slurp(path("e.json"));
        jobs[k] = json_int(s, "jobs"), nodes[k] = json_int(s, "nodes");
        free(s);
        assert_int_equal(
            RENJU(path("es.json"), path("es.err"), "opening status \"I7 i8\" --goal w4 --json --db %s", db), 0);
        assert_int_equal(effort_sum(path("es.json")), nodes[k]); /* the saved efforts: every job's work */
    }
    assert_int_equal(jobs[0], 6);
    assert_int_equal(jobs[1], 6);
    /* w4 gives the root no job: six 5th moves, each left unknown after 4,000 instead of 20,000 */
    assert_true(nodes[0] >= 4000 && nodes[0] <= 6 * 4010);
    assert_true(nodes[1] >= nodes[0] + 16000);
}

/* Whether line l holds every one of the tab-separated substrings of want (in any order). */
static bool has_all(const char *l, const char *want)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", want);
    for (char *w = buf, *tab; w; w = tab ? tab + 1 : NULL) {
        tab = strchr(w, '\t');
        if (tab)
            *tab = 0;
        if (!strstr(l, w))
            return false;
    }
    return true;
}

/*
 * Sum of the values of key over the lines of a JSON Lines file; *lines counts
 * the lines, *with those holding want (has_all: tab-separated substrings).
 */
static long jsonl_sum(const char *p, const char *key, int *lines, const char *want, int *with)
{
    char *s = slurp(p);
    long sum = 0;
    *lines = *with = 0;
    for (char *l = s; *l;) {
        char *nl = strchr(l, '\n');
        assert_non_null(nl); /* every line ends */
        *nl = 0;
        assert_true(l[0] == '{' && nl[-1] == '}');
        sum += json_int(l, key);
        *with += has_all(l, want);
        (*lines)++;
        l = nl + 1;
    }
    free(s);
    return sum;
}

/*
 * --job-log: one JSON line per finished job, appended; its work adds up to
 * the run's, and its early flags to jobs_early of the report.  A log that
 * cannot be opened is a one-line error (74) before any job runs.
 */
/*
 * Probes (RENJU_JT_PROBE): black's 5th moves get a probe of 40/1000 of their
 * budget first (at least 1,000 nodes); the job log marks them, their work is
 * the run's, and a second run gives the most promising one its whole job.
 */
static void test_probes(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "probe.lmdb");
    const char *log = path("probes.jsonl");
    assert_int_equal(setenv("RENJU_JT_PROBE", "40", 1), 0);
    int rc = RENJU(path("p.json"), path("p.err"),
                   "opening search \"I7 i8\" --goal w4 --job-nodes 100000 --max-jobs 6 --quiet --json --db %s "
                   "--job-log %s",
                   db, log);
    assert_int_equal(rc, 0);
    char *s = slurp(path("p.json"));
    long nodes = json_int(s, "nodes");
    free(s);
    int lines, nprobe;
    assert_int_equal(jsonl_sum(log, "work", &lines, "\"probe\":true", &nprobe), nodes);
    assert_int_equal(lines, 6);
    assert_int_equal(nprobe, 6); /* six 5th moves, each probed */
    assert_true(jsonl_sum(log, "budget", &lines, "\"budget\":4000,", &nprobe) == 6 * 4000);
    /*
     * The next run (the root had no job, so its children start from the same
     * small estimates): the other 215 probes, then whole jobs, by the
     * probes' numbers; no move is probed twice.
     */
    rc = RENJU(path("p.json"), path("p.err"),
               "opening search \"I7 i8\" --goal w4 --job-nodes 100000 --max-jobs 220 --quiet --json --db %s "
               "--job-log %s",
               db, log);
    assert_int_equal(setenv("RENJU_JT_PROBE", "0", 1), 0);
    assert_int_equal(rc, 0);
    int whole;
    jsonl_sum(log, "work", &lines, "\"budget\":100000,", &whole);
    assert_int_equal(lines, 226);
    assert_true(whole >= 1);
    s = slurp(log);
    int positions = 0, repeated = 0;
    char *pos[226];
    for (char *l = s; *l && positions < 226;) {
        char *nl = strchr(l, '\n');
        *nl = 0;
        if (strstr(l, "\"probe\":true")) {
            char *p = strstr(l, "\"position\":");
            for (int i = 0; i < positions; i++)
                repeated += strncmp(pos[i], p, 60) == 0;
            pos[positions++] = p;
        }
        l = nl + 1;
    }
    assert_int_equal(repeated, 0);
    free(s);
}

/*
 * Probes of white's moves (RENJU_JT_PROBE_BLACK, default 40): below the
 * white-to-move root "h8 i9 i7 i8 g9" every black-to-move position's first
 * job is a probe of 40/1000 of its budget; with the knob at 0, a whole job.
 */
static void test_probes_black(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        char dbbuf[512];
        const char *db = dbpath(dbbuf, sizeof dbbuf, k == 0 ? "pblack0.lmdb" : "pblack1.lmdb");
        const char *log = path(k == 0 ? "pblack0.jsonl" : "pblack1.jsonl");
        if (k == 1)
            assert_int_equal(setenv("RENJU_JT_PROBE_BLACK", "0", 1), 0);
        int rc = RENJU(path("pb.json"), path("pb.err"),
                       "opening search \"h8 i9 i7 i8 g9\" --goal win --job-nodes 100000 --max-jobs 6 --quiet "
                       "--json --db %s --job-log %s",
                       db, log);
        assert_int_equal(unsetenv("RENJU_JT_PROBE_BLACK"), 0);
        assert_int_equal(rc, 0);
        char *s = slurp(log);
        int first = 0, again = 0;
        char *pos[8];
        for (char *l = s; *l;) {
            char *nl = strchr(l, '\n');
            assert_non_null(nl);
            *nl = 0;
            if (strstr(l, "\"to_move\":\"black\"")) {
                char *p = strstr(l, "\"position\":");
                char *e = strchr(p + 12, '"');
                *e = 0; /* the position's text */
                bool seen = false;
                for (int i = 0; i < first; i++)
                    seen = seen || strcmp(pos[i], p) == 0;
                bool probe = strstr(e + 1, "\"probe\":true") != NULL;
                bool small = strstr(e + 1, "\"budget\":4000,") != NULL;
                /* a position's first job is its probe, a second one its whole job; with the knob at 0, no probes */
                assert_int_equal(probe, k == 0 && !seen);
                assert_int_equal(small, k == 0 && !seen);
                if (!seen && first < 8)
                    pos[first++] = p;
                again += seen;
            }
            l = nl + 1;
        }
        assert_true(first >= 2); /* white's pass and 6th moves */
        if (k == 0)
            assert_true(again >= 1); /* a probe that left a small pn: the whole job came next */
        free(s);
    }
}

/*
 * Search "h8 h9 i9 e5 k9 e11" (goal win, 1000-node jobs, at most max_jobs)
 * into a new database NAME with the knob VAR set to VALUE; check that
 * db verify accepts every stored proof.  Returns the --json report
 * (malloc'd).
 */
static char *knob_search(const char *name, const char *var, const char *value, int max_jobs)
{
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, name);
    assert_int_equal(setenv(var, value, 1), 0);
    int rc = RENJU(path("k.json"), path("k.err"),
                   "opening search \"h8 h9 i9 e5 k9 e11\" --goal win --job-nodes 1000 --max-jobs %d --quiet "
                   "--json --db %s",
                   max_jobs, db);
    assert_int_equal(unsetenv(var), 0);
    assert_int_equal(rc, 0);
    char *v = NULL;
    assert_int_equal(RENJU(path("kv.txt"), path("kv.err"), "db verify --db %s", db), 0);
    v = slurp(path("kv.txt"));
    assert_non_null(strstr(v, " 0 failures"));
    free(v);
    return slurp(path("k.json"));
}

/*
 * Borrowing white's pass (RENJU_JT_BORROW, on by default) through the real
 * database: positions proven by the pass's proof are stored with that proof,
 * and db verify's independent check accepts every one; with it off, none.
 */
static void test_borrow(void **state)
{
    (void)state;
    long borrowed[2];
    for (int k = 0; k < 2; k++) {
        char *s = knob_search(k == 0 ? "borrow0.lmdb" : "borrow1.lmdb", "RENJU_JT_BORROW", k == 0 ? "1" : "0", 60);
        borrowed[k] = json_int(s, "borrowed");
        free(s);
    }
    assert_true(borrowed[0] >= 100);
    assert_int_equal(borrowed[1], 0);
}

/*
 * Proof repair in the tree (RENJU_JT_REPAIR) through the real database: a
 * white move neither the pass's proof nor a sibling's holds for gets the
 * pass's proof mended before its job; some are proven so, each stored with
 * a proof db verify accepts (knob_search); off, no repair is tried.
 */
static void test_repair_in_tree(void **state)
{
    (void)state;
    long tries[2], repaired[2], nodes[2];
    for (int k = 0; k < 2; k++) {
        char *s = knob_search(k == 0 ? "repair1.lmdb" : "repair0.lmdb", "RENJU_JT_REPAIR", k == 0 ? "1000" : "0", 60);
        tries[k] = json_int(s, "repair_tries");
        repaired[k] = json_int(s, "repaired");
        nodes[k] = json_int(s, "repair_nodes");
        free(s);
    }
    assert_true(repaired[0] >= 5);
    assert_true(tries[0] > repaired[0]);
    assert_true(nodes[0] > 0);
    assert_int_equal(tries[1], 0);
    assert_int_equal(nodes[1], 0);
}

/*
 * The repairs report their progress on stderr like the search (plain lines
 * "repair: ..." or JSON lines {"progress":"repair",...}): those at the root
 * (RENJU_JT_BORROW_REPAIR) run before any job, where the search's own lines
 * say nothing.
 */
static void test_repair_progress(void **state)
{
    (void)state;
    const char *modes[] = {"plain", "json"};
    const char *want[] = {"repair: ", "{\"progress\":\"repair\""};
    for (int k = 0; k < 2; k++) {
        char dbbuf[512];
        const char *db = dbpath(dbbuf, sizeof dbbuf, k ? "rprog1.lmdb" : "rprog0.lmdb");
        assert_int_equal(setenv("RENJU_JT_REPAIR", "1000", 1), 0);
        int rc = RENJU(path("rp.txt"), path("rp.err"),
                       "opening search \"h8 h9 i9 e5 k9 e11\" --goal win --job-nodes 1000 --max-jobs 60 "
                       "--progress %s --progress-interval 0.001 --db %s",
                       modes[k], db);
        assert_int_equal(unsetenv("RENJU_JT_REPAIR"), 0);
        assert_int_equal(rc, 0);
        char *e = slurp(path("rp.err"));
        if (!strstr(e, want[k]))
            fail_msg("no repair progress line (%s) in: %.300s", modes[k], e);
        if (k == 0)
            assert_non_null(strstr(e, "proof repairs tried"));
        free(e);
    }
}

/* Proven entries of the root's children ("fourth") in a search's JSON report. */
/* The search knobs earlier tests leave set for later ones: unset (their defaults), the old values kept in saved. */
static const char *const knobs[] = {"RENJU_JT_EARLY", "RENJU_JT_PROBE", "RENJU_JT_ROOT_RERUN"};
enum { NKNOBS = 3 };

static void knobs_default(char *saved[NKNOBS])
{
    for (int k = 0; k < NKNOBS; k++) {
        const char *v = getenv(knobs[k]);
        saved[k] = v ? strdup(v) : NULL;
        assert_int_equal(unsetenv(knobs[k]), 0);
    }
}

/* Put back what knobs_default saved. */
static void knobs_restore(char *saved[NKNOBS])
{
    for (int k = 0; k < NKNOBS; k++) {
        if (saved[k])
            assert_int_equal(setenv(knobs[k], saved[k], 1), 0);
        free(saved[k]);
    }
}

static int proven_children(const char *s)
{
    const char *f = strstr(s, "\"fourth\":[");
    const char *e = f ? strstr(f, "],\"line\"") : NULL;
    int n = 0;
    for (const char *q = f; q && e && (q = strstr(q, "\"status\":\"proven\"")) && q < e; q++)
        n++;
    return n;
}

/* floor(log4(e)), 0 below 4: --class-time's effort band, from its definition. */
static int effort_band(unsigned long long e)
{
    int b = 0;
    while (e >= 4)
        e /= 4, b++;
    return b;
}

/*
 * The "class X (distance D; ...)" lines of stderr file err, against status
 * (an `opening status --json` taken before that run): in order of the
 * effort band of X there, ties farthest first.  Returns the lines; *bands:
 * how many different bands they had; *not_far: the order is not the one
 * farthest first alone gives (by distance, ties in the status's class
 * order).
 */
static int check_class_order(const char *status, const char *err, int *bands, bool *not_far)
{
    char *e = slurp(err), *save = NULL;
    int lines = 0, last_band = -1, last_dist = 99, dist[256];
    long at[256]; /* where each line's move is in status: the class order */
    bool seen[64] = {false};
    *bands = 0;
    for (char *q = strtok_r(e, "\n", &save); q; q = strtok_r(NULL, "\n", &save)) {
        if (strncmp(q, "class ", 6))
            continue;
        char mv[8], key[32];
        assert_int_equal(sscanf(q + 6, "%7s", mv), 1);
        const char *d = strstr(q, "(distance ");
        assert_non_null(d);
        snprintf(key, sizeof key, "{\"move\":\"%s\",", mv);
        const char *ent = strstr(status, key);
        if (!ent)
            fail_msg("class %s is not among the status's moves", mv);
        const char *eff = strstr(ent, "\"effort\":");
        assert_non_null(eff);
        int band = effort_band(strtoull(eff + 9, NULL, 10)), dd = atoi(d + 10);
        assert_true(band < 64 && lines < 256);
        if (band < last_band || (band == last_band && dd > last_dist))
            fail_msg("class %s (band %d, distance %d) after band %d, distance %d", mv, band, dd, last_band, last_dist);
        *bands += !seen[band];
        seen[band] = true;
        last_band = band, last_dist = dd;
        dist[lines] = dd, at[lines] = ent - status;
        lines++;
    }
    free(e);
    /* Farthest first alone: every line before line k is farther, or as far and earlier in class order. */
    *not_far = false;
    for (int k = 1; k < lines; k++)
        *not_far |= dist[k] > dist[k - 1] || (dist[k] == dist[k - 1] && at[k] < at[k - 1]);
    return lines;
}

/*
 * `opening status --json` of "h8 i9 i7 i8 g9" (to TAG.status), then a
 * --class-time search of it with --max-jobs max_jobs (JSON to TAG.json,
 * stderr to TAG.err): its class lines, one per run, in the order
 * check_class_order wants against that status.  Returns the search's JSON
 * (malloc'd).
 */
static char *class_time_ordered(const char *db, int max_jobs, const char *tag, int *bands, bool *not_far)
{
    char st[512], js[512], err[512], name[64];
    snprintf(name, sizeof name, "%s.status", tag);
    snprintf(st, sizeof st, "%s", path(name));
    snprintf(name, sizeof name, "%s.json", tag);
    snprintf(js, sizeof js, "%s", path(name));
    snprintf(name, sizeof name, "%s.err", tag);
    snprintf(err, sizeof err, "%s", path(name));
    assert_int_equal(RENJU(st, path("ct.err"), "opening status \"h8 i9 i7 i8 g9\" --goal win --json --db %s", db), 0);
    assert_int_equal(RENJU(js, err,
                           "opening search \"h8 i9 i7 i8 g9\" --goal win --job-nodes 20000 --class-time 1000 "
                           "--max-jobs %d --json --progress none --db %s",
                           max_jobs, db),
                     0);
    char *status = slurp(st), *s = slurp(js);
    assert_int_equal(check_class_order(status, err, bands, not_far), (int)json_int(s, "class_runs"));
    free(status);
    return s;
}

/*
 * --class-time: the open white moves of the root searched one by one as
 * their own goal-win searches (here 30 jobs each: --max-jobs bounds each
 * run, and without --time there is one round), the least searched first
 * (by the effort band of their saved jobs' work), then the farthest from
 * the stones; what they prove is the root's.  Usage: seconds > 0, --goal win,
 * white to move, and opening search only.
 */
static void test_class_time(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "ctime.lmdb");
    /* The defaults here: knobs earlier tests leave set for the later ones are put back at the end. */
    char *saved[NKNOBS];
    knobs_default(saved);
    /* The root's own jobs first: white's pass, and the moves its proof holds for. */
    assert_int_equal(RENJU(path("ct0.json"), path("ct.err"),
                           "opening search \"h8 i9 i7 i8 g9\" --goal win --job-nodes 20000 --max-jobs 3 --quiet "
                           "--json --db %s",
                           db),
                     0);
    char *s0 = slurp(path("ct0.json"));
    int before = proven_children(s0);
    assert_int_equal(json_int(s0, "class_runs"), 0);
    free(s0);
    assert_true(before > 100);
    /* One line per run, the least searched first, then the farthest. */
    int bands;
    bool not_far1, not_far5;
    char *s1 = class_time_ordered(db, 30, "ct1", &bands, &not_far1);
    int after = proven_children(s1);
    long runs = json_int(s1, "class_runs"), proven = json_int(s1, "class_proven");
    assert_true(json_int(s1, "class_jobs") >= runs);
    assert_true(json_int(s1, "class_nodes") > 0);
    free(s1);
    assert_true(runs >= 2);
    assert_true(proven >= 1);
    assert_int_equal(after, before + (int)proven);
    /* One round. */
    char *e = slurp(path("ct1.err"));
    assert_null(strstr(e, "; round 2, "));
    free(e);
    /* A new search: the position's own jobs first, until it is expanded, then its moves. */
    char nbuf[512];
    const char *ndb = dbpath(nbuf, sizeof nbuf, "ctime2.lmdb");
    assert_int_equal(RENJU(path("ct2.json"), path("ct2.err"),
                           "opening search \"h8 i9 i7 i8 g9\" --goal win --job-nodes 20000 --class-time 1000 "
                           "--max-jobs 5 --json --progress none --db %s",
                           ndb),
                     0);
    char *s2 = slurp(path("ct2.json"));
    if (json_int(s2, "jobs") < 1) /* the first tree's jobs are counted */
        fail_msg("no jobs counted: %.400s", strstr(s2, "\"finished\""));
    assert_true(json_int(s2, "class_runs") >= 1);
    assert_true(proven_children(s2) > 100);
    free(s2);
    /* With --time, a move whose search --max-jobs stopped before its time is not searched again. */
    assert_int_equal(RENJU(path("ct4.json"), path("ct4.err"),
                           "opening search \"h8 i9 i7 i8 g9\" --goal win --job-nodes 20000 --class-time 1000 --time 60 "
                           "--max-jobs 2 --json --progress none --db %s",
                           db),
                     0);
    char *s4 = slurp(path("ct4.json")), *e4 = slurp(path("ct4.err"));
    assert_true(json_int(s4, "class_runs") >= 1);
    assert_null(strstr(e4, "; round 2, "));
    free(s4);
    free(e4);
    /* Without --job-nodes the jobs are of 1e5 work nodes (x4 per rerun; a probe 4% of that), not 1e6: the job log's
     * budgets. */
    assert_int_equal(RENJU(path("ct3.json"), path("ct3.err"),
                           "opening search \"h8 i9 i7 i8 g9\" --goal win --class-time 1000 --max-jobs 2 --json "
                           "--progress none --job-log %s --db %s",
                           path("ct3.log"), db),
                     0);
    char *jl = slurp(path("ct3.log"));
    if (!strstr(jl, "\"budget\":100000,") && !strstr(jl, "\"budget\":4000,"))
        fail_msg("no job of 1e5 or its probe: %.600s", jl);
    assert_null(strstr(jl, "\"budget\":1000000,"));
    assert_null(strstr(jl, "\"budget\":40000,"));
    free(jl);
    /* Each move's own tree's root goes on in its job's table up to 3 times (4x each; the position's own root: 2),
     * RENJU_JT_CLASS_ROOT_RERUN=K up to K.  Tiny jobs: some move's root is open after 4 x 4 x 500 work nodes. */
    for (int k = 0; k < 2; k++) {
        char cbuf[512], lname[32];
        snprintf(lname, sizeof lname, "ct6-%d.log", k);
        const char *cdb = dbpath(cbuf, sizeof cbuf, k ? "ctime6b.lmdb" : "ctime6a.lmdb");
        if (k)
            assert_int_equal(setenv("RENJU_JT_CLASS_ROOT_RERUN", "2", 1), 0);
        int rc = RENJU(path("ct6.json"), path("ct6.err"),
                       "opening search \"h8 i9 i7 i8 g9\" --goal win --job-nodes 500 --class-time 1000 --max-jobs 1 "
                       "--json --progress none --job-log %s --db %s",
                       path(lname), cdb);
        assert_int_equal(unsetenv("RENJU_JT_CLASS_ROOT_RERUN"), 0);
        assert_int_equal(rc, 0);
        char *l6 = slurp(path(lname));
        if (k == 0 && !strstr(l6, "\"extended\":3,"))
            fail_msg("no move's root went on 3 times: %.600s", l6);
        if (k == 1 && (strstr(l6, "\"extended\":3,") || !strstr(l6, "\"extended\":2,")))
            fail_msg("RENJU_JT_CLASS_ROOT_RERUN=2: %.600s", l6);
        assert_null(strstr(l6, "\"extended\":4,"));
        free(l6);
    }
    /* Again, now that those searches left the open moves with more and less work: still that order, over more than
     * one band; and in one of the two runs not in the order farthest first alone gives. */
    free(class_time_ordered(db, 1, "ct5", &bands, &not_far5));
    assert_true(bands >= 2);
    assert_true(not_far1 || not_far5);
    /* Usage errors: 64; a black-to-move root: 65. */
    const char *bad[] = {"--class-time 0", "--class-time x", "--class-time 5 --goal fair-n"};
    for (int k = 0; k < 3; k++)
        assert_int_equal(RENJU(path("ct.out"), path("ct.err"), "opening search I7 %s --db %s", bad[k], db), 64);
    assert_int_equal(RENJU(path("ct.out"), path("ct.err"), "opening status I7 --class-time 5 --db %s", db), 64);
    assert_int_equal(RENJU(path("ct.out"), path("ct.err"), "opening search \"I7 i8\" --class-time 5 --db %s", db), 65);
    e = slurp(path("ct.err"));
    assert_non_null(strstr(e, "--class-time"));
    free(e);
    knobs_restore(saved);
}

#ifdef RJ_RENJU_MPI_BIN
/* The moves of the "class X (...)" lines of a stderr file, sorted, space-separated (malloc'd); *rounds1: all in
 * round 1. */
static char *class_moves(const char *err, bool *rounds1)
{
    char *e = slurp(err), *save = NULL;
    char mv[256][8];
    int n = 0;
    *rounds1 = true;
    for (char *q = strtok_r(e, "\n", &save); q && n < 256; q = strtok_r(NULL, "\n", &save)) {
        if (strncmp(q, "class ", 6))
            continue;
        assert_int_equal(sscanf(q + 6, "%7s", mv[n]), 1);
        *rounds1 &= strstr(q, "; round 1, ") != NULL;
        n++;
    }
    free(e);
    qsort(mv, (size_t)n, sizeof mv[0], (int (*)(const void *, const void *))strcmp);
    char *out = calloc((size_t)n * 8 + 1, 1);
    assert_non_null(out);
    for (int i = 0; i < n; i++) {
        strcat(out, i ? " " : "");
        strcat(out, mv[i]);
    }
    return out;
}
#endif

/*
 * --class-time through MPI (mpirun -np 3: two workers, so two classes can
 * run at once): from two copies of one database, the same classes searched
 * as by the local search, once each in one round, what they prove the
 * root's, the stored proofs accepted by `db verify`.
 */
static void test_mpi_class_time(void **state)
{
    (void)state;
#ifdef RJ_RENJU_MPI_BIN
    if (!have_mpirun()) {
        print_message("mpirun not found: MPI search test skipped\n");
        skip();
    }
    char *saved[NKNOBS];
    knobs_default(saved);
    char dba[512], dbb[512];
    dbpath(dba, sizeof dba, "mcl.lmdb");
    dbpath(dbb, sizeof dbb, "mcm.lmdb");
    const char *pos = "\"h8 i9 i7 i8 g9\" --goal win --job-nodes 20000";
    assert_int_equal(
        RENJU(path("mc0.json"), path("mc0.err"), "opening search %s --max-jobs 3 --json --db %s", pos, dba), 0);
    char *s0 = slurp(path("mc0.json"));
    int before = proven_children(s0);
    free(s0);
    assert_int_equal(sh("cp %s %s", dba, dbb), 0);
    const char *ct = "--class-time 1000 --max-jobs 30 --json --progress none";
    assert_int_equal(RENJU(path("mcl.json"), path("mcl.err"), "opening search %s %s --db %s", pos, ct, dba), 0);
    assert_int_equal(
        sh("%s opening search %s %s --db %s >%s 2>%s", MPIRUN, pos, ct, dbb, path("mcm.json"), path("mcm.err")), 0);
    char *l = slurp(path("mcl.json")), *m = slurp(path("mcm.json"));
    long runs = json_int(m, "class_runs"), proven = json_int(m, "class_proven");
    assert_true(runs >= 2);
    assert_true(proven >= 1);
    assert_int_equal(runs, json_int(l, "class_runs"));
    assert_int_equal(proven_children(m), before + (int)proven);
    assert_true(json_int(m, "class_jobs") >= runs);
    free(l);
    free(m);
    bool r1l, r1m;
    char *cl = class_moves(path("mcl.err"), &r1l), *cm = class_moves(path("mcm.err"), &r1m);
    assert_true(strlen(cm) >= 5);
    assert_string_equal(cl, cm);
    assert_true(r1l && r1m);
    free(cl);
    free(cm);
    /* With --time, a class whose search --max-jobs stopped is not searched again (no round 2). */
    assert_int_equal(sh("%s opening search %s --class-time 1000 --time 60 --max-jobs 2 --json --progress none --db %s "
                        ">%s 2>%s",
                        MPIRUN, pos, dbb, path("mct.json"), path("mct.err")),
                     0);
    char *et = slurp(path("mct.err"));
    assert_non_null(strstr(et, "; round 1, "));
    assert_null(strstr(et, "; round 2, "));
    free(et);
    assert_int_equal(RENJU(path("mcv.txt"), path("mcv.err"), "db verify --db %s", dbb), 0);
    char *e = slurp(path("mcm.err"));
    assert_non_null(strstr(e, ", 0 refused"));
    free(e);
    knobs_restore(saved);
#else
    print_message("renju-mpi not built (CMake found no MPI): MPI search test skipped\n");
    skip();
#endif
}

/*
 * The root's repairs of white's pass's proof (RENJU_JT_BORROW_REPAIR) over
 * a resumed search: a root move whose repair failed is not repaired again at
 * the same budget, and is at a larger one (RENJU_JT_REPAIR_CALLS), once
 * (from each of its donors: since session 35 a proven move whose proof
 * begins otherwise than the pass's is one).
 */
static void test_repair_resume(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "rres.lmdb");
    const char *calls[] = {"16", "16", "100", "100"};
    long tries[4];
    for (int k = 0; k < 4; k++) {
        assert_int_equal(setenv("RENJU_JT_BORROW_REPAIR", "100", 1), 0);
        assert_int_equal(setenv("RENJU_JT_REPAIR_CALLS", calls[k], 1), 0);
        int rc = RENJU(path("rr.json"), path("rr.err"),
                       "opening search \"h8 h9 i9 e5 j10\" --goal win --job-nodes 1000 --max-jobs %d --quiet "
                       "--json --db %s",
                       k ? 1 : 3, db);
        assert_int_equal(unsetenv("RENJU_JT_BORROW_REPAIR"), 0);
        assert_int_equal(unsetenv("RENJU_JT_REPAIR_CALLS"), 0);
        assert_int_equal(rc, 0);
        char *s = slurp(path("rr.json"));
        tries[k] = json_int(s, "repair_tries");
        assert_non_null(strstr(s, "\"pass\":\"proven\""));
        free(s);
    }
    assert_true(tries[0] >= 2); /* white's blocks of black's three (g7, k11), and what jobs prove later */
    assert_int_equal(tries[1], 0);
    /* each failed move once more, from each of its donors (at most 4: JT_MAX_REPAIR_DONORS) */
    if (!(tries[2] >= 2 && tries[2] <= 4 * tries[0]))
        fail_msg("repair tries %ld %ld %ld %ld", tries[0], tries[1], tries[2], tries[3]);
    assert_int_equal(tries[3], 0);
    /* The levels go along with the states: exported, imported into a new database without complaint. */
    assert_int_equal(RENJU(path("rr.states"), path("rr.err"), "db export --states --db %s", db), 0);
    char *t = slurp(path("rr.states"));
    int levels = 0;
    for (const char *v = strstr(t, "\"value\":\""); v; v = strstr(v + 1, "\"value\":\"")) {
        unsigned flags = 0;
        assert_int_equal(sscanf(v + 9 + 42, "%2x", &flags), 1);
        levels += (flags >> 2) >= 10; /* JT_MIN_REPAIR_LEVEL */
    }
    free(t);
    assert_true(levels >= 2);
    char nbuf[512];
    const char *ndb = dbpath(nbuf, sizeof nbuf, "rres2.lmdb");
    assert_int_equal(RENJU(path("rr.json"), path("rr.err"), "db import %s --db %s --json", path("rr.states"), ndb), 0);
    char *s = slurp(path("rr.json"));
    assert_int_equal(json_int(s, "bad"), 0);
    assert_true(json_int(s, "states") >= levels);
    free(s);
}

/*
 * Simulation (RENJU_JT_SIM): siblings' proofs tried on a white move's
 * position before its job.  Proven to the end with it (the composed proofs
 * above the simulated positions need theirs stored); every stored proof
 * verifies.
 */
static void test_sim(void **state)
{
    (void)state;
    char *s = knob_search("sim0.lmdb", "RENJU_JT_SIM", "16", 2000);
    long simulated = json_int(s, "simulated");
    assert_non_null(strstr(s, "\"result\":\"proven\""));
    assert_true(json_int(s, "composed") >= 1);
    assert_int_equal(json_int(s, "compose_failed"), 0);
    free(s);
    assert_true(simulated >= 20);
    s = knob_search("sim1.lmdb", "RENJU_JT_SIM", "0", 60);
    assert_int_equal(json_int(s, "simulated"), 0);
    free(s);
}

/*
 * The goal-win root's early look has its own threshold (RENJU_JT_EARLY_DN_ROOT)
 * through the CLI's runner: a white-to-move root with every plain look
 * stopping (RENJU_JT_EARLY_DN huge) runs its whole job at a root threshold of
 * 0, and stops at the look when the root threshold is huge too.
 */
static void test_root_look(void **state)
{
    (void)state;
    int early[2];
    for (int k = 0; k < 2; k++) {
        char dbbuf[512], name[32], logname[32];
        snprintf(name, sizeof name, "rlook%d.lmdb", k);
        snprintf(logname, sizeof logname, "rlook%d.jsonl", k);
        const char *db = dbpath(dbbuf, sizeof dbbuf, name);
        const char *log = path(logname);
        assert_int_equal(setenv("RENJU_JT_EARLY", "200", 1), 0);
        assert_int_equal(setenv("RENJU_JT_EARLY_DN", "2000000000", 1), 0);
        assert_int_equal(setenv("RENJU_JT_EARLY_DN_ROOT", k == 0 ? "0" : "2000000000", 1), 0);
        assert_int_equal(setenv("RENJU_JT_ROOT_RERUN", "1", 1), 0);
        int rc = RENJU(path("r.json"), path("r.err"),
                       "opening search \"h8 i9 i7 i8 g7\" --goal win --job-nodes 20000 --max-jobs 1 --quiet --json "
                       "--db %s --job-log %s",
                       db, log);
        assert_int_equal(setenv("RENJU_JT_EARLY", "0", 1), 0);
        assert_int_equal(setenv("RENJU_JT_ROOT_RERUN", "0", 1), 0);
        assert_int_equal(unsetenv("RENJU_JT_EARLY_DN"), 0);
        assert_int_equal(unsetenv("RENJU_JT_EARLY_DN_ROOT"), 0);
        assert_int_equal(rc, 0);
        int lines, nwhite;
        jsonl_sum(log, "work", &lines, "\"early\":true", &early[k]);
        jsonl_sum(log, "work", &lines, "\"to_move\":\"white\"", &nwhite);
        assert_int_equal(lines, 1);
        assert_int_equal(nwhite, 1); /* the root, white to move */
    }
    assert_int_equal(early[0], 0);
    assert_int_equal(early[1], 1);
}

/*
 * The early look through MPI: the master sends each job's look (JtJob.look)
 * to the worker.  With the look's threshold out of reach every unknown whole
 * job of a worker stops at it, and with probes on no probe does (JT_LOOK_NONE).
 */
static void test_mpi_look(void **state)
{
    (void)state;
#ifdef RJ_RENJU_MPI_BIN
    if (!have_mpirun()) {
        print_message("mpirun not found: MPI search test skipped\n");
        skip();
    }
    for (int k = 0; k < 2; k++) { /* k = 0: whole jobs only; k = 1: probes first */
        char dbbuf[512], name[32], logname[32];
        snprintf(name, sizeof name, "mlook%d.lmdb", k);
        snprintf(logname, sizeof logname, "mlook%d.jsonl", k);
        const char *db = dbpath(dbbuf, sizeof dbbuf, name);
        const char *log = path(logname);
        assert_int_equal(sh("RENJU_JT_EARLY=200 RENJU_JT_EARLY_DN=2000000000 RENJU_JT_PROBE=%d RENJU_JT_PROBE_BLACK=%d "
                            "%s opening search "
                            "\"I7 i8\" --goal w4 --job-nodes 20000 --max-jobs 6 --quiet --json --db %s --job-log %s "
                            ">%s 2>%s",
                            k == 0 ? 0 : 40, k == 0 ? 0 : 40, MPIRUN, db, log, path("ml.json"), path("ml.err")),
                         0);
        char *s = slurp(path("ml.json"));
        long early = json_int(s, "jobs_early");
        free(s);
        int lines, nearly, probes, early_probes;
        jsonl_sum(log, "work", &lines, "\"early\":true", &nearly);
        jsonl_sum(log, "work", &lines, "\"probe\":true", &probes);
        jsonl_sum(log, "work", &lines, "\"early\":true\t\"probe\":true", &early_probes); /* both, any order */
        assert_int_equal(lines, 6);
        assert_int_equal(nearly, early);
        assert_int_equal(early_probes, 0);
        if (k == 0) {
            assert_int_equal(probes, 0);
            assert_int_equal(early, 6); /* six unknown 5th moves, each stopped at the look */
        } else {
            assert_true(probes >= 1);
        }
    }
#else
    print_message("renju-mpi not built (CMake found no MPI): MPI search test skipped\n");
    skip();
#endif
}

static void test_job_log(void **state)
{
    (void)state;
    char dbbuf[512];
    const char *db = dbpath(dbbuf, sizeof dbbuf, "log.lmdb");
    const char *log = path("jobs.jsonl");
    assert_int_equal(setenv("RENJU_JT_EARLY", "200", 1), 0);
    assert_int_equal(setenv("RENJU_JT_EARLY_DN", "2000000000", 1), 0); /* every unknown 5th move stops at the look */
    int rc = RENJU(path("l.json"), path("l.err"),
                   "opening search \"I7 i8\" --goal w4 --job-nodes 20000 --max-jobs 6 --quiet --json --db %s "
                   "--job-log %s",
                   db, log);
    assert_int_equal(setenv("RENJU_JT_EARLY", "0", 1), 0);
    assert_int_equal(unsetenv("RENJU_JT_EARLY_DN"), 0);
    assert_int_equal(rc, 0);
    char *s = slurp(path("l.json"));
    long nodes = json_int(s, "nodes"), early = json_int(s, "jobs_early"), unknown = json_int(s, "jobs_unknown");
    free(s);
    int lines, nearly, nwhite;
    assert_int_equal(jsonl_sum(log, "work", &lines, "\"early\":true", &nearly), nodes);
    assert_int_equal(lines, 6);
    assert_int_equal(nearly, early);
    assert_true(early >= 1 && early <= unknown);
    jsonl_sum(log, "budget", &lines, "\"to_move\":\"white\"", &nwhite);
    assert_int_equal(nwhite, 6); /* w4 gives the 4-stone root no job: six 5th moves */
    /* a second run appends; then a log that cannot be opened: nothing runs, the database is as it was */
    rc = RENJU(path("l.json"), path("l.err"),
               "opening search \"I7 i8\" --goal w4 --job-nodes 20000 --max-jobs 2 --quiet --json --db %s --job-log %s",
               db, log);
    assert_int_equal(rc, 0);
    jsonl_sum(log, "work", &lines, "\"job\":1,", &nearly);
    assert_int_equal(lines, 8);
    assert_int_equal(nearly, 2); /* each run counts its jobs from 1 (the second without the look) */
    assert_int_equal(sh("cp %s %s.orig", db, db), 0);
    rc = RENJU(path("l.json"), path("l.err"), "opening search \"I7 i8\" --goal w4 --max-jobs 1 --db %s --job-log %s",
               db, path("no-such-dir/jobs.jsonl"));
    assert_int_equal(rc, 74);
    s = slurp(path("l.err"));
    assert_non_null(strstr(s, "--job-log"));
    assert_null(strchr(strchr(s, '\n') + 1, '\n')); /* one line */
    free(s);
    assert_int_equal(sh("cmp -s %s %s.orig", db, db), 0);
    assert_int_equal(RENJU(path("l.json"), path("l.err"), "opening status \"I7 i8\" --goal w4 --db %s --job-log x", db),
                     64);
}

int main(void)
{
    /* Jobs spend their whole budget here (job and effort counts): no early look but in test_early_look. */
    if (setenv("RENJU_JT_EARLY", "0", 1))
        return 1;
    /* A white-to-move root is expanded at once here (composition, W counts): no root reruns (test_jobtree has them). */
    if (setenv("RENJU_JT_ROOT_RERUN", "0", 1))
        return 1;
    /*
     * The tests here count whole jobs: no probes of black's moves but in
     * test_probes (test_jobtree has them too).  White's moves keep theirs
     * (RENJU_JT_PROBE_BLACK, test_probes_black): no count here depends on them.
     */
    if (setenv("RENJU_JT_PROBE", "0", 1))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_early_look),
        cmocka_unit_test(test_job_log),
        cmocka_unit_test(test_probes),
        cmocka_unit_test(test_probes_black),
        cmocka_unit_test(test_borrow),
        cmocka_unit_test(test_sim),
        cmocka_unit_test(test_repair_in_tree),
        cmocka_unit_test(test_repair_progress),
        cmocka_unit_test(test_repair_resume),
        cmocka_unit_test(test_class_time),
        cmocka_unit_test(test_mpi_class_time),
        cmocka_unit_test(test_status_pass_numbers),
        cmocka_unit_test(test_root_look),
        cmocka_unit_test(test_composed_proof_verifies),
        cmocka_unit_test(test_solve_warm_start),
        cmocka_unit_test(test_solve_focus),
        cmocka_unit_test(test_deterministic_and_resume),
        cmocka_unit_test(test_kill9_resumes),
        cmocka_unit_test(test_sigterm),
        cmocka_unit_test(test_fresh_tree),
        cmocka_unit_test(test_states_move),
        cmocka_unit_test(test_states_bad),
        cmocka_unit_test(test_states_more_work),
        cmocka_unit_test(test_total_nodes),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_mpi_same_as_local),
        cmocka_unit_test(test_mpi_kill_and_resume),
        cmocka_unit_test(test_mpi_look),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
