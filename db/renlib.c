/* renlib.c - see renlib.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "notation.h"
#include "renlib.h"

static const uint8_t MAGIC[8] = {0xFF, 'R', 'e', 'n', 'L', 'i', 'b', 0xFF};

/* ---- the tree ---- */

int renlib_init(RenlibTree *t)
{
    memset(t, 0, sizeof *t);
    t->cap = 64;
    t->node = malloc((size_t)t->cap * sizeof *t->node);
    t->text_cap = 256;
    t->text = malloc(t->text_cap);
    if (!t->node || !t->text) {
        renlib_free(t);
        return t->err = RJ_ENOMEM;
    }
    t->text[0] = 0;
    t->text_len = 1;
    t->n = 1;
    t->node[RENLIB_ROOT] = (RenlibNode){
        .move = POINT_NONE, .parent = RENLIB_NONE, .child = RENLIB_NONE, .last = RENLIB_NONE, .sibling = RENLIB_NONE};
    return 0;
}

void renlib_free(RenlibTree *t)
{
    free(t->node);
    free(t->text);
    t->node = NULL;
    t->text = NULL;
    t->n = t->cap = 0;
    t->text_len = t->text_cap = 0;
}

int renlib_add(RenlibTree *t, int32_t parent, Point m, int32_t *idx)
{
    if (parent < 0 || parent >= t->n || (m >= BOARD_POINTS && m != POINT_PASS))
        return RJ_EBADARG;
    if (t->node[parent].depth >= RENLIB_MAX_DEPTH)
        return RJ_EBADARG;
    if (t->n == t->cap) {
        if (t->cap > INT32_MAX / 2)
            return t->err = RJ_ENOMEM;
        RenlibNode *nn = realloc(t->node, (size_t)t->cap * 2 * sizeof *nn);
        if (!nn)
            return t->err = RJ_ENOMEM;
        t->node = nn;
        t->cap *= 2;
    }
    int32_t i = t->n++;
    RenlibNode *p = &t->node[parent];
    t->node[i] = (RenlibNode){.move = m,
                              .depth = (uint16_t)(p->depth + 1),
                              .parent = parent,
                              .child = RENLIB_NONE,
                              .last = RENLIB_NONE,
                              .sibling = RENLIB_NONE};
    if (p->last == RENLIB_NONE)
        p->child = i;
    else
        t->node[p->last].sibling = i;
    p->last = i;
    if (idx)
        *idx = i;
    return 0;
}

int32_t renlib_find(const RenlibTree *t, int32_t parent, Point m)
{
    for (int32_t c = t->node[parent].child; c != RENLIB_NONE; c = t->node[c].sibling)
        if (t->node[c].move == m)
            return c;
    return RENLIB_NONE;
}

/* Append n bytes of s plus a NUL to the text pool; *off gets its offset (0 for empty text). */
static int pool_add(RenlibTree *t, const char *s, size_t n, uint32_t *off)
{
    if (n == 0) {
        *off = 0;
        return 0;
    }
    if (n > RENLIB_MAX_TEXT)
        return RJ_EBADARG;
    if (t->text_len + n + 1 > UINT32_MAX)
        return t->err = RJ_ENOMEM;
    if (t->text_len + n + 1 > t->text_cap) {
        size_t cap = t->text_cap * 2;
        while (cap < t->text_len + n + 1)
            cap *= 2;
        char *nt = realloc(t->text, cap);
        if (!nt)
            return t->err = RJ_ENOMEM;
        t->text = nt;
        t->text_cap = cap;
    }
    memcpy(t->text + t->text_len, s, n);
    t->text[t->text_len + n] = 0;
    *off = (uint32_t)t->text_len;
    t->text_len += n + 1;
    return 0;
}

int renlib_set_comment(RenlibTree *t, int32_t i, const char *s)
{
    return pool_add(t, s, strlen(s), &t->node[i].comment);
}

int renlib_set_label(RenlibTree *t, int32_t i, const char *s) { return pool_add(t, s, strlen(s), &t->node[i].label); }

/* ---- reader ---- */

typedef struct {
    const uint8_t *buf;
    size_t len, pos;
    RenlibTree *t;
    char *why;
    size_t whylen;
} Reader;

static int bad(Reader *r, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(Reader *r, size_t at, const char *fmt, ...)
{
    if (r->why && r->whylen) {
        int k = snprintf(r->why, r->whylen, "byte %zu: ", at);
        size_t n = k > 0 ? (size_t)k : 0;
        if (n < r->whylen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->why + n, r->whylen - n, fmt, ap);
            va_end(ap);
        }
    }
    return RJ_EBADDATA;
}

/*
 * A text after a node: NUL-terminated (new style) or ended by a byte with
 * the top bit set (old style), in 2-byte units.  Stored (the old style with
 * its top bit cleared) in the pool; a second text for one node (a merged
 * duplicate) keeps the first.
 */
static int read_text(Reader *r, bool old, uint32_t *off, const char *what)
{
    size_t start = r->pos, n = 0;
    bool done = false;
    while (!done) {
        if (r->pos + 2 > r->len)
            return bad(r, start, "%s not terminated before the end of the file", what);
        for (int k = 0; k < 2 && !done; k++) {
            uint8_t c = r->buf[r->pos + (size_t)k];
            done = old ? (c & 0x80) != 0 : c == 0;
            if (!done || old)
                n++;
        }
        r->pos += 2;
        if (n > RENLIB_MAX_TEXT)
            return bad(r, start, "%s longer than %d bytes", what, RENLIB_MAX_TEXT);
    }
    if (*off)
        return 0;
    int rc = pool_add(r->t, (const char *)r->buf + start, n, off);
    if (rc == 0 && old) /* the old style marks its last byte with the top bit: plain 7-bit text */
        for (char *c = r->t->text + *off; *c; c++)
            *c = (char)(*c & 0x7f);
    return rc == RJ_EBADARG ? bad(r, start, "%s too long", what) : rc;
}

int renlib_read(const uint8_t *buf, size_t len, RenlibTree *t, char *why, size_t whylen)
{
    Reader r = {buf, len, 0, t, why, whylen};
    if (why && whylen)
        why[0] = 0;
    int rc = renlib_init(t);
    if (rc)
        return rc;
    if (len > RENLIB_MAX_FILE)
        return bad(&r, 0, "file larger than %d bytes", RENLIB_MAX_FILE);
    if (len >= 8 && !memcmp(buf, MAGIC, 8)) {
        if (len < RENLIB_HEADER_LEN)
            return bad(&r, len, "header truncated");
        t->major = buf[8];
        t->minor = buf[9];
        if (t->major != RENLIB_MAJOR || t->minor > RENLIB_MINOR)
            return bad(&r, 8, "RenLib file version %u.%u not supported (3.0 to 3.4)", t->major, t->minor);
        r.pos = RENLIB_HEADER_LEN;
    } else if (len == 0 || buf[0] != 0x78) {
        return bad(&r, 0, "not a RenLib file (no 'RenLib' header)");
    }

    /* RenLib's own reading: `cur` is the node the next record hangs under;
     * a SIBLING record pushes its parent, a LEAF record pops it back. */
    int32_t stack[RENLIB_MAX_DEPTH + 2];
    int32_t path[RENLIB_MAX_DEPTH + 1]; /* path[d]: the node at depth d on the current line */
    bool occ[BOARD_POINTS];             /* points taken on the current line */
    int sp = 0;
    int32_t cur = RENLIB_ROOT;
    bool first = true, done = false, root_record = false;
    memset(occ, 0, sizeof occ);
    path[0] = RENLIB_ROOT;
    while (r.pos < len) {
        size_t at = r.pos;
        if (done)
            return bad(&r, at, "data after the end of the tree");
        if (r.pos + 2 > len)
            return bad(&r, at, "node truncated");
        uint8_t pb = buf[r.pos], flags = buf[r.pos + 1];
        r.pos += 2;
        uint8_t info1 = 0;
        if (flags & RENLIB_EXTENSION) {
            if (r.pos + 2 > len)
                return bad(&r, at, "node extension truncated");
            info1 = buf[r.pos + 1];
            r.pos += 2;
        }
        t->records++;
        int32_t node;
        if (first && pb == 0) {
            node = RENLIB_ROOT; /* the root record: the empty board */
            root_record = true;
        } else {
            Point m = POINT_PASS;
            if (pb && notation_from_renlib(pb, &m))
                return bad(&r, at, "point byte 0x%02x is off the board", pb);
            if (t->node[cur].depth >= RENLIB_MAX_DEPTH)
                return bad(&r, at, "tree deeper than %d moves", RENLIB_MAX_DEPTH);
            int d = t->node[cur].depth;
            if (m != POINT_PASS && occ[m]) {
                char s[8];
                return bad(&r, at, "point %s played twice in one line", notation_point_str(m, s));
            }
            node = renlib_find(t, cur, m);
            if (node != RENLIB_NONE) {
                t->merged++;
            } else if ((rc = renlib_add(t, cur, m, &node))) {
                return rc;
            }
            path[d + 1] = node;
            if (m != POINT_PASS)
                occ[m] = true;
        }
        first = false;
        t->node[node].flags |= flags & (RENLIB_MARK | RENLIB_START | RENLIB_NO_MOVE);
        if (flags & (RENLIB_COMMENT | RENLIB_OLD_COMMENT)) {
            bool old = (flags & RENLIB_OLD_COMMENT) != 0; /* RenLib reads the old style when both are set */
            if ((rc = read_text(&r, old, &t->node[node].comment, "comment")))
                return rc;
        }
        if (info1 & RENLIB_EXT_BOARD_TEXT) {
            if ((rc = read_text(&r, false, &t->node[node].label, "board text")))
                return rc;
        }
        cur = node;
        if (flags & RENLIB_SIBLING) {
            if (node == RENLIB_ROOT)
                return bad(&r, at, "the root has a sibling");
            if (sp >= (int)(sizeof stack / sizeof stack[0]))
                return bad(&r, at, "too many open branches");
            stack[sp++] = t->node[node].parent;
        }
        if (flags & RENLIB_LEAF) {
            int32_t to = sp ? stack[--sp] : RENLIB_NONE;
            if (to == RENLIB_NONE) {
                done = true; /* the last line of the tree */
                continue;
            }
            /* Back up the line to `to`, freeing the points below it. */
            for (int d = t->node[cur].depth; d > t->node[to].depth; d--) {
                Point m = t->node[path[d]].move;
                if (m < BOARD_POINTS)
                    occ[m] = false;
            }
            cur = to;
        }
    }
    if (sp)
        return bad(&r, len, "file ends with %d sibling%s still expected", sp, sp > 1 ? "s" : "");
    /* Complete: the last line ended with an empty stack, or an empty library (no node, or the root alone). */
    if (!done && !(t->records == 0 || (t->records == 1 && root_record)))
        return bad(&r, len, "file ends where a move was expected");
    return 0;
}

/* ---- writer ---- */

typedef struct {
    uint8_t *data;
    size_t len, cap;
    int err;
} Out;

static void put(Out *o, const void *p, size_t n)
{
    if (o->err)
        return;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + n)
            cap *= 2;
        uint8_t *nd = realloc(o->data, cap);
        if (!nd) {
            o->err = RJ_ENOMEM;
            return;
        }
        o->data = nd;
        o->cap = cap;
    }
    memcpy(o->data + o->len, p, n);
    o->len += n;
}

/* A text and its NUL, padded with a second NUL to an even length. */
static void put_text(Out *o, const char *s)
{
    size_t n = strlen(s);
    static const uint8_t zero[2] = {0, 0};
    put(o, s, n);
    put(o, zero, n % 2 ? 1 : 2);
}

static void put_node(Out *o, const RenlibTree *t, int32_t i)
{
    const RenlibNode *nd = &t->node[i];
    uint8_t pb = nd->move < BOARD_POINTS ? notation_to_renlib(nd->move) : 0;
    uint8_t flags = nd->flags & (RENLIB_MARK | RENLIB_START | RENLIB_NO_MOVE);
    if (i != RENLIB_ROOT && nd->sibling != RENLIB_NONE)
        flags |= RENLIB_SIBLING;
    if (nd->child == RENLIB_NONE)
        flags |= RENLIB_LEAF;
    if (nd->comment)
        flags |= RENLIB_COMMENT;
    if (nd->label)
        flags |= RENLIB_EXTENSION;
    uint8_t rec[4] = {pb, flags, 0, RENLIB_EXT_BOARD_TEXT};
    put(o, rec, nd->label ? 4 : 2);
    if (nd->comment)
        put_text(o, t->text + nd->comment);
    if (nd->label)
        put_text(o, t->text + nd->label);
}

int renlib_write(const RenlibTree *t, uint8_t **out, size_t *len)
{
    Out o = {0};
    uint8_t hdr[RENLIB_HEADER_LEN];
    memset(hdr, 0xFF, sizeof hdr);
    memcpy(hdr, MAGIC, sizeof MAGIC);
    hdr[8] = RENLIB_MAJOR;
    hdr[9] = RENLIB_MINOR;
    put(&o, hdr, sizeof hdr);
    /* Pre-order without recursion: after a node, its first child; after a
     * leaf, the next sibling of the nearest ancestor-or-self that has one. */
    int32_t i = RENLIB_ROOT;
    while (i != RENLIB_NONE && !o.err) {
        put_node(&o, t, i);
        if (t->node[i].child != RENLIB_NONE) {
            i = t->node[i].child;
            continue;
        }
        while (i != RENLIB_NONE && (i == RENLIB_ROOT || t->node[i].sibling == RENLIB_NONE))
            i = i == RENLIB_ROOT ? RENLIB_NONE : t->node[i].parent;
        if (i != RENLIB_NONE)
            i = t->node[i].sibling;
    }
    if (o.err) {
        free(o.data);
        return o.err;
    }
    *out = o.data;
    *len = o.len;
    return 0;
}
