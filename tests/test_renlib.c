/* test_renlib.c - RenLib .lib trees (db/renlib.h): exact bytes of the writer,
 * the reader on hand-built, malformed, truncated and hostile files; and the
 * proof mapping (db/renlib_proof.h): export of a hand-built proof, import of
 * hand-built trees, the round trip to the same proof bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "notation.h"
#include "proof.h"
#include "renlib.h"
#include "renlib_proof.h"
#include "rules.h"

static Point P(const char *s)
{
    Point p;
    int used;
    assert_int_equal(notation_parse_point(s, &p, &used), 0);
    return p;
}

static const uint8_t HDR[RENLIB_HEADER_LEN] = {0xFF, 'R',  'e',  'n',  'L',  'i',  'b',  0xFF, 3,    4,
                                               0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

/* A file image: the header (unless no_header) then body bytes. */
typedef struct {
    uint8_t b[1 << 18];
    size_t n;
} Img;

static void img_init(Img *m, bool header)
{
    m->n = 0;
    if (header) {
        memcpy(m->b, HDR, sizeof HDR);
        m->n = sizeof HDR;
    }
}

static void img_add(Img *m, const uint8_t *p, size_t n)
{
    assert_true(m->n + n <= sizeof m->b);
    memcpy(m->b + m->n, p, n);
    m->n += n;
}

/* Read must fail with RJ_EBADDATA and a one-line reason containing needle. */
static void expect_bad(const Img *m, const char *needle)
{
    RenlibTree t;
    char why[256];
    int rc = renlib_read(m->b, m->n, &t, why, sizeof why);
    renlib_free(&t);
    if (rc != RJ_EBADDATA || !strstr(why, needle))
        print_error("expected '%s', got %d '%s'\n", needle, rc, rc ? why : "");
    assert_int_equal(rc, RJ_EBADDATA);
    assert_non_null(strstr(why, needle));
    assert_null(strchr(why, '\n'));
}

/* ---- the writer, byte by byte ---- */

static void test_write_bytes(void **state)
{
    (void)state;
    RenlibTree t;
    assert_int_equal(renlib_init(&t), 0);
    int32_t h8, h9, i9;
    assert_int_equal(renlib_add(&t, RENLIB_ROOT, P("h8"), &h8), 0);
    assert_int_equal(renlib_add(&t, h8, P("h9"), &h9), 0);
    assert_int_equal(renlib_add(&t, h8, P("i9"), &i9), 0);
    assert_int_equal(renlib_set_comment(&t, RENLIB_ROOT, "hi"), 0);
    assert_int_equal(renlib_set_label(&t, h8, "W"), 0);
    assert_int_equal(renlib_set_comment(&t, i9, "x"), 0);
    uint8_t *out;
    size_t len;
    assert_int_equal(renlib_write(&t, &out, &len), 0);
    static const uint8_t body[] = {
        0x00, 0x08, 'h',  'i',  0, 0, /* root: comment "hi" + NUL + pad */
        0x78, 0x01, 0x00, 0x01,       /* h8: extension, board text follows */
        'W',  0,                      /* its label (odd length: one NUL) */
        0x68, 0xC0,                   /* h9: a sibling follows, no child */
        0x69, 0x48, 'x',  0,          /* i9: no child, comment "x" */
    };
    assert_int_equal(len, RENLIB_HEADER_LEN + sizeof body);
    assert_memory_equal(out, HDR, RENLIB_HEADER_LEN);
    assert_memory_equal(out + RENLIB_HEADER_LEN, body, sizeof body);

    /* and it reads back to the same tree */
    RenlibTree u;
    char why[256];
    assert_int_equal(renlib_read(out, len, &u, why, sizeof why), 0);
    assert_int_equal(u.n, 4);
    assert_int_equal(u.records, 4);
    assert_int_equal(u.major, 3);
    assert_int_equal(u.minor, 4);
    assert_string_equal(renlib_comment(&u, RENLIB_ROOT), "hi");
    int32_t a = u.node[RENLIB_ROOT].child;
    assert_int_equal(u.node[a].move, P("h8"));
    assert_string_equal(renlib_label(&u, a), "W");
    int32_t b = u.node[a].child, c = u.node[b].sibling;
    assert_int_equal(u.node[b].move, P("h9"));
    assert_int_equal(u.node[c].move, P("i9"));
    assert_int_equal(u.node[c].sibling, RENLIB_NONE);
    assert_string_equal(renlib_comment(&u, c), "x");
    assert_int_equal(u.node[c].depth, 2);
    free(out);
    renlib_free(&t);
    renlib_free(&u);
}

/* ---- the reader on good files ---- */

static void test_read_variants(void **state)
{
    (void)state;
    RenlibTree t;
    char why[256];
    Img m;

    /* no header: very old files start with h8 */
    img_init(&m, false);
    img_add(&m, (const uint8_t[]){0x78, 0x40}, 2);
    assert_int_equal(renlib_read(m.b, m.n, &t, why, sizeof why), 0);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.major, 0);
    renlib_free(&t);

    /* empty libraries: the header alone, or the root alone */
    img_init(&m, true);
    assert_int_equal(renlib_read(m.b, m.n, &t, why, sizeof why), 0);
    assert_int_equal(t.n, 1);
    renlib_free(&t);
    img_add(&m, (const uint8_t[]){0x00, 0x00}, 2);
    assert_int_equal(renlib_read(m.b, m.n, &t, why, sizeof why), 0);
    assert_int_equal(t.n, 1);
    renlib_free(&t);

    /* a pass (byte 0 after the root), an old-style comment, a mark; a duplicate sibling merged */
    img_init(&m, true);
    static const uint8_t body[] = {
        0x00, 0x00,        /* root */
        0x78, 0x00,        /* h8 */
        0x00, 0x80 | 0x20, /* pass, sibling follows, old-style comment: */
        'o',  'k' | 0x80,  /*   "ok" (top bit ends it) */
        0x68, 0x40,        /* h9 below the pass, no child: back to h8 */
        0x00, 0x40 | 0x10, /* pass again (merged), marked, no child */
    };
    img_add(&m, body, sizeof body);
    assert_int_equal(renlib_read(m.b, m.n, &t, why, sizeof why), 0);
    assert_int_equal(t.n, 4);
    assert_int_equal(t.records, 5);
    assert_int_equal(t.merged, 1);
    int32_t h8 = t.node[RENLIB_ROOT].child, ps = t.node[h8].child;
    assert_int_equal(t.node[ps].move, POINT_PASS);
    assert_int_equal(t.node[ps].sibling, RENLIB_NONE);
    assert_string_equal(renlib_comment(&t, ps), "ok");
    assert_true(t.node[ps].flags & RENLIB_MARK);
    assert_int_equal(t.node[t.node[ps].child].move, P("h9"));
    renlib_free(&t);
}

/* ---- the reader on bad files ---- */

static void test_read_malformed(void **state)
{
    (void)state;
    Img m;
    img_init(&m, false);
    img_add(&m, (const uint8_t *)"hello", 5);
    expect_bad(&m, "not a RenLib file");
    img_init(&m, false);
    expect_bad(&m, "not a RenLib file");
    img_init(&m, false);
    img_add(&m, HDR, 12);
    expect_bad(&m, "header truncated");
    img_init(&m, true);
    m.b[8] = 4;
    expect_bad(&m, "version 4.4");

    static const struct {
        uint8_t body[8];
        size_t n;
        const char *why;
    } cases[] = {
        {{0x10, 0x40}, 2, "off the board"},             /* column 0 */
        {{0xF5, 0x40}, 2, "off the board"},             /* row 16 */
        {{0x78}, 1, "node truncated"},                  /* odd length */
        {{0x78, 0x41, 0x00}, 3, "extension truncated"}, /* 4-byte node cut */
        {{0x78, 0x48, 'a', 'b'}, 4, "not terminated"},  /* comment without its NUL */
        {{0x78, 0x41, 0x00, 0x01, 'a', 'b'}, 6, "board text not terminated"},
        {{0x78, 0x00, 0x78, 0x40}, 4, "h8 played twice"}, /* duplicate move in one line */
        {{0x78, 0x40, 0x68, 0x40}, 4, "after the end"},   /* more after the last line */
        {{0x78, 0x80}, 2, "sibling still expected"},      /* truncated */
        {{0x78, 0x00}, 2, "move was expected"},           /* truncated */
        {{0x78, 0xC0}, 2, "move was expected"},           /* promised sibling missing */
        {{0x00, 0x80}, 2, "root has a sibling"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        img_init(&m, true);
        img_add(&m, cases[i].body, cases[i].n);
        expect_bad(&m, cases[i].why);
    }
}

static void test_read_hostile(void **state)
{
    (void)state;
    static Img m;
    /* a huge comment */
    img_init(&m, true);
    img_add(&m, (const uint8_t[]){0x78, 0x48}, 2);
    for (int i = 0; i < RENLIB_MAX_TEXT + 10; i++)
        img_add(&m, (const uint8_t *)"A", 1);
    img_add(&m, (const uint8_t[]){0, 0}, 2);
    expect_bad(&m, "longer than");

    /* deep nesting: a line of passes, with and without open branches */
    for (int sib = 0; sib < 2; sib++) {
        img_init(&m, true);
        img_add(&m, (const uint8_t[]){0x00, 0x00}, 2);
        for (int i = 0; i < RENLIB_MAX_DEPTH + 50; i++)
            img_add(&m, (const uint8_t[]){0x00, sib ? 0x80 : 0x00}, 2);
        expect_bad(&m, "deeper than");
    }

    /* a cycle of flags: the same record again and again (each pushes and pops) */
    img_init(&m, true);
    for (int i = 0; i < 10000; i++)
        img_add(&m, (const uint8_t[]){0x78, 0xC0}, 2);
    expect_bad(&m, "move was expected");

    /* every byte value as a flag, every point byte: no crash, 0 or RJ_EBADDATA */
    for (int pb = 0; pb < 256; pb++)
        for (int fl = 0; fl < 256; fl += 3) {
            img_init(&m, true);
            img_add(&m, (const uint8_t[]){(uint8_t)pb, (uint8_t)fl, 0x78, (uint8_t)(fl ^ 0xFF), 0, 0}, 6);
            RenlibTree t;
            int rc = renlib_read(m.b, m.n, &t, NULL, 0);
            renlib_free(&t);
            assert_true(rc == 0 || rc == RJ_EBADDATA);
        }
}

/* ---- proofs ---- */

/* Black h8 i8 j8 with white on the a file: black to move wins with k8 (open four). */
static const char *LINE[] = {"h8", "a1", "i8", "a2", "j8", "a3"};
enum { NLINE = 6 };

static size_t small_proof(uint8_t *buf)
{
    const uint8_t p[] = {'R', 'J', 'P', 'F', PROOF_VERSION, RULE_RENJU, BLACK, 0, P("k8"), 1, 0, P("a4"), P("l8")};
    memcpy(buf, p, sizeof p);
    return sizeof p;
}

typedef struct {
    int proven, after;
    int32_t node;
    uint8_t proof[64];
    size_t len;
    uint64_t nodes;
    Color att;
} Seen;

static int seen_proven(void *ctx, const RenlibProven *p)
{
    Seen *s = ctx;
    if (p->after_move) { /* the defender node after the first move: the rest of the proof */
        s->after++;
        assert_int_equal(p->len, s->len - 1);
        assert_memory_equal(p->proof, s->proof, PROOF_HEADER_LEN);
        assert_memory_equal(p->proof + PROOF_HEADER_LEN, s->proof + PROOF_HEADER_LEN + 1, p->len - PROOF_HEADER_LEN);
        assert_int_equal(p->board->to_move, color_other(p->attacker));
        return 0;
    }
    s->proven++;
    s->node = p->node;
    s->att = p->attacker;
    s->nodes = p->stats.nodes;
    s->len = p->len < sizeof s->proof ? p->len : sizeof s->proof;
    memcpy(s->proof, p->proof, s->len);
    return 0;
}

static void test_export_import(void **state)
{
    (void)state;
    Point line[NLINE];
    for (int i = 0; i < NLINE; i++)
        line[i] = P(LINE[i]);
    uint8_t proof[64];
    size_t plen = small_proof(proof);

    RenlibTree t;
    RenlibExport x;
    assert_int_equal(renlib_proof_export(RULE_RENJU, line, NLINE, proof, plen, NULL, &t, &x), 0);
    assert_int_equal(x.moves, 3);
    assert_int_equal(x.proof_moves, 3);
    assert_false(x.truncated);
    assert_int_equal(t.node[x.position].depth, NLINE);
    int32_t k8 = t.node[x.position].child;
    int32_t a4 = t.node[k8].child, l8 = t.node[a4].child;
    assert_int_equal(t.node[k8].move, P("k8"));
    assert_string_equal(renlib_label(&t, k8), RENLIB_WIN_LABEL);
    assert_string_equal(renlib_label(&t, a4), RENLIB_LOSS_LABEL);
    assert_string_equal(renlib_label(&t, l8), RENLIB_WIN_LABEL);
    assert_int_equal(t.node[l8].child, RENLIB_NONE);

    /* through the file format and back: the same proof */
    uint8_t *out;
    size_t len;
    assert_int_equal(renlib_write(&t, &out, &len), 0);
    RenlibTree u;
    assert_int_equal(renlib_read(out, len, &u, NULL, 0), 0);
    free(out);
    Seen s = {0};
    RenlibImport st;
    assert_int_equal(renlib_proof_import(&u, RULE_RENJU, EMPTY, seen_proven, NULL, &s, NULL, &st), 0);
    assert_int_equal(s.proven, 1);
    assert_int_equal(s.after, 1); /* and the position after k8 */
    assert_int_equal(s.att, BLACK);
    assert_int_equal(u.node[s.node].depth, NLINE);
    assert_int_equal(s.len, plen);
    assert_memory_equal(s.proof, proof, plen);
    assert_int_equal(s.nodes, 3);
    assert_int_equal(st.lines, 1);
    assert_int_equal(st.proven_lines, 1);
    assert_int_equal(st.rejected, 0);
    assert_int_equal(st.positions, NLINE + 3); /* the root and every move but the five */

    /* the other attacker finds nothing */
    memset(&s, 0, sizeof s);
    assert_int_equal(renlib_proof_import(&u, RULE_RENJU, WHITE, seen_proven, NULL, &s, NULL, &st), 0);
    assert_int_equal(s.proven, 0);
    assert_int_equal(st.proven_lines, 0);
    renlib_free(&u);

    /* cut to one ply: k8 alone, with the cut comment */
    renlib_free(&t);
    RenlibLimits lim = {1, 0};
    assert_int_equal(renlib_proof_export(RULE_RENJU, line, NLINE, proof, plen, &lim, &t, &x), 0);
    assert_true(x.truncated);
    assert_int_equal(x.moves, 1);
    k8 = t.node[x.position].child;
    assert_int_equal(t.node[k8].child, RENLIB_NONE);
    assert_string_equal(renlib_comment(&t, k8), RENLIB_CUT_COMMENT);
    renlib_free(&t);

    /* a move budget of 2 keeps k8 and a4 */
    lim = (RenlibLimits){0, 2};
    assert_int_equal(renlib_proof_export(RULE_RENJU, line, NLINE, proof, plen, &lim, &t, &x), 0);
    assert_true(x.truncated);
    assert_int_equal(x.moves, 2);
    renlib_free(&t);

    /* a proof for another position does not frame */
    assert_int_equal(renlib_proof_export(RULE_RENJU, line, NLINE - 1, proof, plen, NULL, &t, &x), RJ_EBADDATA);
    renlib_free(&t);
}

/* A tree: the winning line, a line past the five, a black move on a forbidden point. */
static void test_import_lines(void **state)
{
    (void)state;
    RenlibTree t;
    assert_int_equal(renlib_init(&t), 0);
    int32_t at = RENLIB_ROOT;
    for (int i = 0; i < NLINE; i++)
        assert_int_equal(renlib_add(&t, at, P(LINE[i]), &at), 0);
    int32_t k8, a4, l8, g8, a5;
    assert_int_equal(renlib_add(&t, at, P("k8"), &k8), 0);
    assert_int_equal(renlib_add(&t, k8, P("a4"), &a4), 0);
    assert_int_equal(renlib_add(&t, a4, P("l8"), &l8), 0); /* five */
    assert_int_equal(renlib_add(&t, a4, P("g8"), &g8), 0); /* five too */
    assert_int_equal(renlib_add(&t, g8, P("a5"), &a5), 0); /* past the end */
    /* under the root, a line where black's last move j8 is a double three (forbidden) */
    const char *dt[] = {"h8", "a15", "i8", "b15", "j9", "c15", "j10", "d15", "j8"};
    int32_t d = RENLIB_ROOT;
    for (int i = 0; i < 9; i++)
        assert_int_equal(renlib_add(&t, d, P(dt[i]), &d), 0);
    Seen s = {0};
    RenlibImport st;
    assert_int_equal(renlib_proof_import(&t, RULE_RENJU, BLACK, seen_proven, NULL, &s, NULL, &st), 0);
    assert_int_equal(s.proven, 1);
    assert_int_equal(st.lines, 3);
    assert_int_equal(st.proven_lines, 1);  /* the l8 line */
    assert_int_equal(st.illegal_lines, 2); /* a5 after a five, and the forbidden j8 */
    /* under freestyle j8 is a legal move (and the win the same) */
    assert_int_equal(renlib_proof_import(&t, RULE_FREESTYLE, BLACK, NULL, NULL, NULL, NULL, &st), 0);
    assert_int_equal(st.illegal_lines, 1);
    assert_int_equal(st.proven, 1);
    renlib_free(&t);
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_bytes),    cmocka_unit_test(test_read_variants),
        cmocka_unit_test(test_read_malformed), cmocka_unit_test(test_read_hostile),
        cmocka_unit_test(test_export_import),  cmocka_unit_test(test_import_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
