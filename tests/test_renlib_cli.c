/* test_renlib_cli.c - end to end: `renju db export|import --format renlib`.
 * A solved position exported as a .lib tree and imported into a fresh
 * database gives the same proof (same bytes, result and node count; db
 * verify accepts it); a cut export is not a proof of the position; malformed,
 * truncated and hostile files give exit 65 with one line on stderr. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"

static char g_dir[256];

static const char *path(const char *name) { return scratch_path(g_dir, name); }

static const char *POS = "h8 h9 i9 h5 j7 g6";

static void write_bytes(const char *p, const void *data, size_t n)
{
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static size_t read_bytes(const char *p, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* The value of "key": in the first JSON line of s holding it (copied to out). */
static const char *json_val(const char *s, const char *key, char *out, size_t len)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(s, pat);
    assert_non_null(p);
    p += strlen(pat);
    size_t n = strcspn(p, ",}\n");
    if (n >= len)
        n = len - 1;
    memcpy(out, p, n);
    out[n] = 0;
    return out;
}

static void one_error_line(const Run *r)
{
    assert_int_equal(strncmp(r->err, "renju: ", 7), 0);
    const char *nl = strchr(r->err, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[1], 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/rj_test_renlib_cli.XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    Run r;
    run(&r, "solve", POS, "--db", path("a.lmdb"), "--tt-mb", "8", "--quiet", NULL);
    return r.code;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd);
}

static void test_round_trip(void **state)
{
    (void)state;
    Run r;
    run(&r, "db", "export", "--format", "renlib", POS, "--db", path("a.lmdb"), "--out", path("a.lib"), "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"truncated\":false"));
    char nodes[32], v[32];
    json_val(r.out, "proof_nodes", nodes, sizeof nodes);

    /* header bytes, the root record with its comment */
    static uint8_t buf[1 << 16];
    size_t n = read_bytes(path("a.lib"), buf, sizeof buf);
    static const uint8_t hdr[] = {0xFF, 'R', 'e', 'n', 'L', 'i', 'b', 0xFF, 3, 4, 0xFF, 0xFF};
    assert_true(n > 40);
    assert_memory_equal(buf, hdr, sizeof hdr);
    assert_int_equal(buf[20], 0x00); /* the root: no move */
    assert_int_equal(buf[21], 0x08); /* with a comment, and children */
    assert_memory_equal(buf + 22, "renju proof: black wins", 23);
    assert_non_null(memmem(buf, n, "solved by renju", 15));
    assert_null(memmem(buf, n, "TRUNCATED", 9));

    /* import into a fresh database: the position is proven, checked, stored */
    run(&r, "db", "import", "--format", "renlib", path("a.lib"), "--db", path("b.lmdb"), NULL);
    assert_int_equal(r.code, 0);
    char want[128];
    snprintf(want, sizeof want, "proven: black wins %s (black to move): proof %s nodes", POS, nodes);
    if (!strstr(r.out, want))
        fail_msg("missing '%s' in %s", want, r.out);
    assert_non_null(strstr(r.out, "checked by the independent checker: 1 position, covering"));
    assert_non_null(strstr(r.out, ": 2 positions (with the positions after the first moves)"));
    assert_non_null(strstr(r.out, "not proofs: 0 lines"));

    /* the same stored result and the same proof bytes */
    run(&r, "query", POS, "--db", path("b.lmdb"), "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_string_equal(json_val(r.out, "result", v, sizeof v), "\"proven\"");
    assert_string_equal(json_val(r.out, "proof_nodes", v, sizeof v), nodes);
    static Run ra, rb;
    run(&ra, "db", "export", "--db", path("a.lmdb"), "--quiet", NULL);
    run(&rb, "db", "export", "--db", path("b.lmdb"), "--quiet", NULL);
    assert_int_equal(ra.code, 0);
    assert_int_equal(rb.code, 0);
    /* a.lmdb holds the one entry; b.lmdb holds it (same line: position, proof) and the position after j10 */
    const char *pa = strstr(ra.out, "\"proof\":\"");
    assert_non_null(pa);
    char *line = strndup(ra.out, strcspn(ra.out, "\n"));
    char *t = strstr(line, "\"nodes\":"); /* search nodes and time differ: compare the rest */
    assert_non_null(t);
    *t = 0;
    assert_non_null(strstr(rb.out, line));
    char *proof = strndup(pa, strcspn(pa + 9, "\"") + 10);
    assert_non_null(strstr(rb.out, proof));
    free(line);
    free(proof);
    run(&r, "db", "verify", "--db", path("b.lmdb"), NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "2 proofs checked, 0 failures"));

    /* importing again changes nothing */
    run(&r, "db", "import", "--format", "renlib", path("a.lib"), "--db", path("b.lmdb"), "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"proven\":1,\"stored\":2"));
}

/* A position with the defender to move: the import proves the position before it (one move
 * there) and stores the exported position too, with the same proof. */
static void test_defender_root(void **state)
{
    (void)state;
    const char *pos = "h8 h9 i9 h5 j7 g6 j10";
    Run r;
    run(&r, "solve", pos, "--attacker", "black", "--db", path("e.lmdb"), "--tt-mb", "8", "--quiet", NULL);
    assert_int_equal(r.code, 0);
    run(&r, "query", pos, "--attacker", "black", "--db", path("e.lmdb"), "--json", NULL);
    char nodes[32], v[32];
    json_val(r.out, "proof_nodes", nodes, sizeof nodes);
    run(&r, "db", "export", "--format", "renlib", pos, "--attacker", "black", "--db", path("e.lmdb"), "--out",
        path("e.lib"), NULL);
    assert_int_equal(r.code, 0);
    run(&r, "db", "import", "--format", "renlib", path("e.lib"), "--db", path("f.lmdb"), NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "proven: black wins h8 h9 i9 h5 j7 g6 (black to move)"));
    run(&r, "query", pos, "--attacker", "black", "--db", path("f.lmdb"), "--json", NULL);
    assert_string_equal(json_val(r.out, "result", v, sizeof v), "\"proven\"");
    assert_string_equal(json_val(r.out, "proof_nodes", v, sizeof v), nodes);
    run(&r, "db", "verify", "--db", path("f.lmdb"), NULL);
    assert_int_equal(r.code, 0);
}

static void test_cut_export(void **state)
{
    (void)state;
    Run r;
    run(&r, "db", "export", "--format", "renlib", POS, "--db", path("a.lmdb"), "--out", path("cut.lib"), "--max-depth",
        "4", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "TRUNCATED"));
    static uint8_t buf[1 << 16];
    size_t n = read_bytes(path("cut.lib"), buf, sizeof buf);
    assert_non_null(memmem(buf, n, "TRUNCATED", 9));
    assert_non_null(memmem(buf, n, "cut: the full proof goes on here", 32));
    /* four plies do not prove the position: nothing proven, the lines are counted as not proofs */
    run(&r, "db", "import", "--format", "renlib", path("cut.lib"), "--db", path("c.lmdb"), "--json", NULL);
    assert_int_equal(r.code, 0);
    char v[32];
    assert_string_equal(json_val(r.out, "proven", v, sizeof v), "0");
    assert_string_equal(json_val(r.out, "proven_lines", v, sizeof v), "0");
    assert_string_not_equal(json_val(r.out, "lines_not_proofs", v, sizeof v), "0");
    run(&r, "query", POS, "--db", path("c.lmdb"), "--json", NULL);
    assert_non_null(strstr(r.out, "\"found\":false"));

    /* a node budget cuts too */
    run(&r, "db", "export", "--format", "renlib", POS, "--db", path("a.lmdb"), "--out", path("cut2.lib"), "--max-nodes",
        "10", "--json", NULL);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"moves_written\":10,"));
    assert_non_null(strstr(r.out, "\"truncated\":true"));
}

static void test_export_errors(void **state)
{
    (void)state;
    Run r;
    run(&r, "db", "export", "--format", "renlib", "h8 h9 i10", "--db", path("a.lmdb"), "--out", path("x.lib"), NULL);
    assert_int_equal(r.code, 66);
    one_error_line(&r);
    run(&r, "db", "export", "--format", "renlib", POS, "--db", path("missing.lmdb"), "--out", path("x.lib"), NULL);
    assert_int_equal(r.code, 66);
    run(&r, "db", "export", "--format", "renlib", POS, "--db", path("a.lmdb"), NULL);
    assert_int_equal(r.code, 64);
    run(&r, "db", "export", "--format", "renlib", POS, "--db", path("a.lmdb"), "--out", path("x.lib"), "--max-depth",
        "0", NULL);
    assert_int_equal(r.code, 64);
    run(&r, "db", "export", "--format", "sgf", POS, NULL);
    assert_int_equal(r.code, 64);
    run(&r, "db", "import", "--format", "renlib", path("nothing.lib"), "--db", path("d.lmdb"), NULL);
    assert_int_equal(r.code, 66);
    one_error_line(&r);
}

static void test_bad_files(void **state)
{
    (void)state;
    static const uint8_t H[] = {0xFF, 'R',  'e',  'n',  'L',  'i',  'b',  0xFF, 3,    4,
                                0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    static uint8_t buf[1 << 18];
    struct {
        const char *name;
        uint8_t body[8];
        size_t n;
        bool header;
    } cases[] = {
        {"notlib", {'h', 'e', 'l', 'l', 'o'}, 5, false},
        {"offboard", {0x78, 0x00, 0xF3, 0x40}, 4, true},
        {"dup", {0x78, 0x00, 0x68, 0x00, 0x78, 0x40}, 6, true},
        {"truncated", {0x78, 0x80, 0x68}, 3, true},
        {"nochild", {0x78, 0x00}, 2, true},
        {"trailing", {0x78, 0x40, 0x00, 0x00}, 4, true},
        {"comment", {0x78, 0x48, 'a', 'b'}, 4, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = 0;
        if (cases[i].header) {
            memcpy(buf, H, sizeof H);
            n = sizeof H;
        }
        memcpy(buf + n, cases[i].body, cases[i].n);
        write_bytes(path(cases[i].name), buf, n + cases[i].n);
        Run r;
        run(&r, "db", "import", "--format", "renlib", path(cases[i].name), "--db", path("bad.lmdb"), NULL);
        if (r.code != 65)
            fail_msg("%s: exit %d, stderr %s", cases[i].name, r.code, r.err);
        one_error_line(&r);
    }
    /* hostile: a huge comment, deep nesting, the same record over and over */
    size_t n = sizeof H;
    memcpy(buf, H, n);
    buf[n++] = 0x78;
    buf[n++] = 0x48;
    memset(buf + n, 'A', 100000);
    n += 100000;
    buf[n++] = 0;
    buf[n++] = 0;
    write_bytes(path("huge"), buf, n);
    n = sizeof H;
    for (int i = 0; i < 2000; i++) {
        buf[n++] = 0x00; /* passes, each opening a branch */
        buf[n++] = 0x80;
    }
    write_bytes(path("deep"), buf, n);
    n = sizeof H;
    for (int i = 0; i < 20000; i++) {
        buf[n++] = 0x78;
        buf[n++] = 0xC0;
    }
    write_bytes(path("cycle"), buf, n);
    const char *names[] = {"huge", "deep", "cycle"};
    for (int i = 0; i < 3; i++) {
        Run r;
        run(&r, "db", "import", "--format", "renlib", path(names[i]), "--db", path("bad.lmdb"), NULL);
        if (r.code != 65)
            fail_msg("%s: exit %d, stderr %s", names[i], r.code, r.err);
        one_error_line(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),    cmocka_unit_test(test_defender_root), cmocka_unit_test(test_cut_export),
        cmocka_unit_test(test_export_errors), cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
