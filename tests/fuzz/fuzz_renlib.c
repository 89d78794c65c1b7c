/*
 * fuzz_renlib.c - libFuzzer target for the RenLib reader and the import
 * checker (db/renlib.h, db/renlib_proof.h).
 *
 * The input is a .lib file image.  Checks beyond "no crash": renlib_read
 * returns 0 or RJ_EBADDATA (with a one-line reason) or RJ_ENOMEM; a tree it
 * accepts is well formed (parents before children, depths one more than the
 * parent's, no point twice on a line, no deeper than RENLIB_MAX_DEPTH);
 * writing it and reading it back gives the same tree; the import of the
 * tree returns 0 with consistent counts, and every proof it reports passes
 * the checker again.  Violations abort().
 * Built as a fuzzer with -DRJ_FUZZ=ON (clang); fuzz_replay.c runs it over the
 * seed corpus tests/data/fuzz_renlib/ as an ordinary test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "renlib.h"
#include "renlib_proof.h"
#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_renlib: %s\n", what);
        abort();
    }
}

/* The tree's structure is sound. */
static void check_tree(const RenlibTree *t)
{
    check(t->n >= 1 && t->node[RENLIB_ROOT].parent == RENLIB_NONE && t->node[RENLIB_ROOT].depth == 0, "bad root");
    for (int32_t i = 1; i < t->n; i++) {
        const RenlibNode *nd = &t->node[i];
        check(nd->parent >= 0 && nd->parent < i, "parent not before its child");
        check(nd->depth == t->node[nd->parent].depth + 1 && nd->depth <= RENLIB_MAX_DEPTH, "bad depth");
        check(nd->move < BOARD_POINTS || nd->move == POINT_PASS, "bad move");
        check(nd->comment < t->text_len && nd->label < t->text_len, "text offset out of range");
        check(strlen(t->text + nd->comment) <= RENLIB_MAX_TEXT, "text too long");
        /* no point twice on the line to this node, no two siblings alike */
        if (nd->move != POINT_PASS)
            for (int32_t a = nd->parent; a != RENLIB_ROOT; a = t->node[a].parent)
                check(t->node[a].move != nd->move, "a point twice on one line");
        for (int32_t s = nd->sibling; s != RENLIB_NONE; s = t->node[s].sibling)
            check(t->node[s].move != nd->move && t->node[s].parent == nd->parent, "bad siblings");
    }
}

/* a and b are the same tree (same shape, moves and texts in the same order). */
static void check_same(const RenlibTree *a, const RenlibTree *b)
{
    check(a->n == b->n, "rewritten tree has another size");
    int32_t i = RENLIB_ROOT, j = RENLIB_ROOT;
    /* both trees in pre-order, walked side by side */
    for (;;) {
        check(a->node[i].move == b->node[j].move, "rewritten tree differs (move)");
        check(!strcmp(renlib_comment(a, i), renlib_comment(b, j)), "rewritten tree differs (comment)");
        check(!strcmp(renlib_label(a, i), renlib_label(b, j)), "rewritten tree differs (label)");
        check((a->node[i].child == RENLIB_NONE) == (b->node[j].child == RENLIB_NONE), "rewritten tree differs");
        if (a->node[i].child != RENLIB_NONE) {
            i = a->node[i].child;
            j = b->node[j].child;
            continue;
        }
        while (i != RENLIB_ROOT && a->node[i].sibling == RENLIB_NONE) {
            check(b->node[j].sibling == RENLIB_NONE, "rewritten tree differs (siblings)");
            i = a->node[i].parent;
            j = b->node[j].parent;
        }
        if (i == RENLIB_ROOT)
            break;
        i = a->node[i].sibling;
        j = b->node[j].sibling;
        check(j != RENLIB_NONE, "rewritten tree differs (siblings)");
    }
}

static int recheck(void *ctx, const RenlibProven *p)
{
    (void)ctx;
    check(proof_check(p->board, p->proof, p->len, NULL, NULL, 0) == 0, "a reported proof fails the checker");
    check(p->attacker == BLACK || p->attacker == WHITE, "bad attacker");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool init;
    if (!init) {
        rules_init();
        init = true;
    }
    RenlibTree t, u;
    char why[256];
    int rc = renlib_read(data, size, &t, why, sizeof why);
    check(rc == 0 || rc == RJ_EBADDATA || rc == RJ_ENOMEM, "read: unexpected return code");
    if (rc == RJ_EBADDATA)
        check(why[0] != 0 && strchr(why, '\n') == NULL, "bad one-line reason");
    if (rc) {
        renlib_free(&t);
        return 0;
    }
    check_tree(&t);
    uint8_t *out = NULL;
    size_t len = 0;
    if (renlib_write(&t, &out, &len) == 0) {
        rc = renlib_read(out, len, &u, why, sizeof why);
        check(rc == 0 || rc == RJ_ENOMEM, "the writer's output does not read back");
        if (rc == 0)
            check_same(&t, &u);
        renlib_free(&u);
        free(out);
    }
    if (t.n <= 128) { /* the checker's work grows with the tree: keep runs fast */
        RenlibImport st;
        rc = renlib_proof_import(&t, RULE_RENJU, EMPTY, recheck, NULL, NULL, NULL, &st);
        check(rc == 0 || rc == RJ_ENOMEM, "import: unexpected return code");
        if (rc == 0) {
            check(st.proven_lines + st.illegal_lines <= st.lines, "import: line counts do not add up");
            check(st.proven + st.rejected == st.claimed, "import: claim counts do not add up");
            check(st.positions <= (uint64_t)t.n, "import: more positions than nodes");
        }
    }
    renlib_free(&t);
    return 0;
}
