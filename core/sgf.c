/* sgf.c - see sgf.h. */
#include "sgf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "position.h"

void sgf_init(SgfGame *g)
{
    memset(g, 0, sizeof *g);
    g->first = EMPTY;
}

int sgf_add_move(SgfGame *g, Point p, Color c)
{
    if (g->nmoves >= MAX_PLY - 1)
        return RJ_EBADARG;
    g->moves[g->nmoves] = p;
    g->color[g->nmoves] = c;
    g->nmoves++;
    return 0;
}

/* ---- reading ---- */

enum { VALUE_MAX = SGF_MAX_TEXT };

typedef struct {
    const char *s;
    size_t len, pos;
    int line;
    char *err;
    size_t errlen;
    SgfGame *g;
    int main_nodes; /* main-line nodes read so far (1 = the root) */
    /* Per nesting level: on the main line, has a node, has a child variation. */
    bool main[SGF_MAX_DEPTH + 1], has_node[SGF_MAX_DEPTH + 1], has_child[SGF_MAX_DEPTH + 1];
} Parser;

static int fail(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(Parser *p, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *q = msg; *q; q++) /* values quoted in the message stay on one line */
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            *q = '?';
    if (p->err && p->errlen)
        snprintf(p->err, p->errlen, "line %d: %s", p->line, msg);
    return RJ_EBADDATA;
}

static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

static void skip_ws(Parser *p)
{
    while (p->pos < p->len && is_ws(p->s[p->pos])) {
        p->line += p->s[p->pos] == '\n';
        p->pos++;
    }
}

/* A character for a message: printable ASCII as is, else '?'. */
static char shown(char c) { return c > 0x20 && c < 0x7f ? c : '?'; }

/*
 * Read one "[...]" value at p->pos (which holds '[') into out (outlen bytes,
 * NUL-terminated, cut to fit; *cut set when it was), undoing the escapes:
 * "\x" is x, a backslash before a line break removes it.
 */
static int read_value(Parser *p, char *out, size_t outlen, bool *cut)
{
    size_t n = 0;
    *cut = false;
    p->pos++; /* '[' */
    int start = p->line;
    while (p->pos < p->len) {
        char c = p->s[p->pos++];
        if (c == ']') {
            out[n] = 0;
            return 0;
        }
        if (c == '\\') {
            if (p->pos >= p->len)
                break;
            c = p->s[p->pos++];
            if (c == '\n' || c == '\r') { /* soft line break */
                p->line += c == '\n';
                if (p->pos < p->len && (p->s[p->pos] == '\n' || p->s[p->pos] == '\r') && p->s[p->pos] != c) {
                    p->line += p->s[p->pos] == '\n';
                    p->pos++;
                }
                continue;
            }
        }
        p->line += c == '\n';
        if (n + 1 < outlen)
            out[n++] = c;
        else
            *cut = true;
    }
    p->line = start;
    return fail(p, "unterminated property value (a '[' without its ']')");
}

/* The point of an SGF value: "" or "tt" a pass, two letters a..o a point.  Returns false when neither. */
static bool sgf_point(const char *v, bool pass_ok, Point *pt)
{
    if (pass_ok && (!v[0] || !strcmp(v, "tt"))) {
        *pt = POINT_PASS;
        return true;
    }
    if (strlen(v) != 2 || v[0] < 'a' || v[0] >= 'a' + BOARD_SIZE || v[1] < 'a' || v[1] >= 'a' + BOARD_SIZE)
        return false;
    *pt = point_make(v[0] - 'a', BOARD_SIZE - 1 - (v[1] - 'a'));
    return true;
}

/* The setup list of colour index c: add pt unless it is there already. */
static void setup_add(SgfGame *g, int c, Point pt)
{
    for (int i = 0; i < g->nsetup[c]; i++)
        if (g->setup[c][i] == pt)
            return;
    g->setup[c][g->nsetup[c]++] = pt;
}

static void setup_remove(SgfGame *g, Point pt)
{
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < g->nsetup[c]; i++)
            if (g->setup[c][i] == pt) {
                g->setup[c][i] = g->setup[c][--g->nsetup[c]];
                break;
            }
}

/* One value of AB / AW / AE: a point or a rectangle "aa:cc". */
static int setup_value(Parser *p, const char *id, const char *v)
{
    Point a, b;
    char v1[VALUE_MAX];
    const char *colon = strchr(v, ':');
    if (colon) {
        size_t k = (size_t)(colon - v);
        memcpy(v1, v, k);
        v1[k] = 0;
        if (!sgf_point(v1, false, &a) || !sgf_point(colon + 1, false, &b))
            return fail(p, "bad point list '%.20s' in %s", v, id);
    } else if (!sgf_point(v, false, &a)) {
        return fail(p, "bad point '%.20s' in %s", v, id);
    } else {
        b = a;
    }
    /* FF[4] puts the top-left corner first; any two opposite corners are read the same. */
    int c0 = point_col(a), c1 = point_col(b), r0 = point_row(a), r1 = point_row(b);
    if (c0 > c1) {
        int t = c0;
        c0 = c1;
        c1 = t;
    }
    if (r0 < r1) {
        int t = r0;
        r0 = r1;
        r1 = t;
    }
    for (int r = r1; r <= r0; r++)
        for (int c = c0; c <= c1; c++) {
            Point pt = point_make(c, r);
            if (id[1] == 'E')
                setup_remove(p->g, pt);
            else
                setup_add(p->g, id[1] == 'B' ? 0 : 1, pt);
        }
    return 0;
}

/* A property of a main-line node: id with its values (nv of them, the first in v). */
static int property(Parser *p, const char *id, const char *v, int nv, bool cut, bool *moved)
{
    SgfGame *g = p->g;
    if (!strcmp(id, "B") || !strcmp(id, "W")) {
        Point pt;
        if (*moved)
            return fail(p, "two moves in one node");
        if (nv != 1)
            return fail(p, "%s with %d values (a move has one)", id, nv);
        if (!sgf_point(v, true, &pt))
            return fail(p, "bad move %s[%.20s] (expected two letters a..o, or [] for a pass)", id, v);
        if (sgf_add_move(g, pt, id[0] == 'B' ? BLACK : WHITE))
            return fail(p, "more than %d moves", MAX_PLY - 1);
        *moved = true;
        return 0;
    }
    if (!strcmp(id, "PL")) {
        if (!strcmp(v, "B") || !strcmp(v, "b") || !strcmp(v, "1"))
            g->first = BLACK;
        else if (!strcmp(v, "W") || !strcmp(v, "w") || !strcmp(v, "2"))
            g->first = WHITE;
        else
            return fail(p, "bad PL[%.20s] (B or W)", v);
        if (g->nmoves > 0)
            return fail(p, "PL after move %d is not supported", g->nmoves);
        return 0;
    }
    if (!strcmp(id, "GM")) {
        if (strcmp(v, "4"))
            return fail(p, "GM[%.20s] is not a gomoku/renju record (GM[4])", v);
        return 0;
    }
    if (!strcmp(id, "SZ")) {
        if (strcmp(v, "15") && strcmp(v, "15:15"))
            return fail(p, "board size SZ[%.20s] is not 15", v);
        return 0;
    }
    if (!strcmp(id, "C")) {
        if (p->main_nodes == 1)
            snprintf(g->comment, sizeof g->comment, "%s", v);
        return 0;
    }
    if (!strcmp(id, "RE")) {
        snprintf(g->result, sizeof g->result, "%.63s", v);
        return 0;
    }
    (void)cut;
    return 0;
}

/* A node ";" with its properties; applied to g when on the main line. */
static int node(Parser *p, bool on_main)
{
    p->pos++; /* ';' */
    if (on_main)
        p->main_nodes++;
    bool moved = false;
    for (;;) {
        skip_ws(p);
        if (p->pos >= p->len || !(is_upper(p->s[p->pos]) || is_lower(p->s[p->pos])))
            return 0;
        /* Property identifier: upper-case letters; FF[3] lower-case letters ("AddBlack") are dropped. */
        char id[8];
        size_t n = 0;
        bool long_id = false;
        while (p->pos < p->len && (is_upper(p->s[p->pos]) || is_lower(p->s[p->pos]))) {
            char c = p->s[p->pos++];
            if (!is_upper(c))
                continue;
            if (n + 1 < sizeof id)
                id[n++] = c;
            else
                long_id = true;
        }
        id[n] = 0;
        if (n == 0)
            return fail(p, "property name without capital letters");
        bool setup = !long_id && (!strcmp(id, "AB") || !strcmp(id, "AW") || !strcmp(id, "AE"));
        if (on_main && setup && p->g->nmoves > 0)
            return fail(p, "setup stones (%s) after move %d are not supported", id, p->g->nmoves);
        skip_ws(p);
        if (p->pos >= p->len || p->s[p->pos] != '[')
            return fail(p, "property %s without a value", id);
        char first[VALUE_MAX], v[VALUE_MAX];
        bool cut = false, cut2;
        int nv = 0;
        while (p->pos < p->len && p->s[p->pos] == '[') {
            int rc = read_value(p, nv == 0 ? first : v, VALUE_MAX, nv == 0 ? &cut : &cut2);
            if (rc)
                return rc;
            if (on_main && setup && (rc = setup_value(p, id, nv == 0 ? first : v)))
                return rc;
            nv++;
            skip_ws(p);
        }
        if (on_main && !long_id) {
            int rc = property(p, id, first, nv, cut, &moved);
            if (rc)
                return rc;
        }
    }
}

int sgf_parse(const char *data, size_t len, SgfGame *g, char *err, size_t errlen)
{
    static const char BOM[] = "\xef\xbb\xbf";
    sgf_init(g);
    if (err && errlen)
        err[0] = 0;
    Parser *p = &(Parser){.s = data, .len = len, .line = 1, .err = err, .errlen = errlen, .g = g};
    if (len >= 3 && !memcmp(data, BOM, 3))
        p->pos = 3;
    skip_ws(p);
    if (p->pos >= len || data[p->pos] != '(')
        return fail(p, "not an SGF file (it does not start with '(')");
    int depth = 0;
    for (;;) {
        skip_ws(p);
        if (p->pos >= len)
            return fail(p, "unexpected end of file (%d unclosed '(')", depth);
        char c = data[p->pos];
        if (depth < 0 || (depth == 0 && c != '('))
            return fail(p, "internal: bad nesting"); /* cannot happen: the loop starts at '(' and ends at 0 */
        if (c == '(') {
            if (depth >= SGF_MAX_DEPTH)
                return fail(p, "variations nested deeper than %d", SGF_MAX_DEPTH);
            if (depth > 0 && !p->has_node[depth])
                return fail(p, "a variation before any node ('((')");
            bool on_main = depth == 0 || (p->main[depth] && !p->has_child[depth]);
            if (depth > 0)
                p->has_child[depth] = true;
            depth++;
            p->main[depth] = on_main;
            p->has_node[depth] = p->has_child[depth] = false;
            p->pos++;
        } else if (c == ')') {
            if (!p->has_node[depth])
                return fail(p, "a variation without nodes ('()')");
            p->pos++;
            if (--depth == 0)
                break; /* the first game tree is read; the rest of the collection is ignored */
        } else if (c == ';') {
            if (p->has_child[depth])
                return fail(p, "a node after a variation");
            p->has_node[depth] = true;
            int rc = node(p, p->main[depth]);
            if (rc)
                return rc;
        } else {
            return fail(p, "unexpected '%c' (expected '(', ';', ')' or a property)", shown(c));
        }
    }
    return 0;
}

/* ---- writing ---- */

typedef struct {
    char *buf;
    size_t len, n;
} Out;

static void put(Out *o, const char *s, size_t k)
{
    if (o->n + k < o->len)
        memcpy(o->buf + o->n, s, k);
    o->n += k;
}

static void puts_(Out *o, const char *s) { put(o, s, strlen(s)); }

/* A text value with ']' and '\' escaped. */
static void put_text(Out *o, const char *id, const char *s)
{
    puts_(o, id);
    puts_(o, "[");
    for (; *s; s++) {
        if (*s == ']' || *s == '\\')
            put(o, "\\", 1);
        put(o, s, 1);
    }
    puts_(o, "]");
}

static void put_point(Out *o, Point p)
{
    char v[3] = {0};
    if (p != POINT_PASS) {
        v[0] = (char)('a' + point_col(p));
        v[1] = (char)('a' + BOARD_SIZE - 1 - point_row(p));
    }
    puts_(o, "[");
    puts_(o, v);
    puts_(o, "]");
}

int sgf_write(const SgfGame *g, char *buf, size_t len, size_t *outlen)
{
    Out o = {buf, len, 0};
    puts_(&o, "(;GM[4]FF[4]CA[UTF-8]SZ[15]");
    if (g->application)
        put_text(&o, "AP", g->application);
    if (g->rules)
        put_text(&o, "RU", g->rules);
    if (g->result[0])
        put_text(&o, "RE", g->result);
    char comment[2 * SGF_MAX_TEXT + 2];
    snprintf(comment, sizeof comment, "%s%s%s", g->comment, g->comment[0] && g->note[0] && g->note_at == 0 ? "\n" : "",
             g->note[0] && g->note_at == 0 ? g->note : "");
    if (comment[0])
        put_text(&o, "C", comment);
    for (int c = 0; c < 2; c++) {
        if (!g->nsetup[c])
            continue;
        puts_(&o, c == 0 ? "AB" : "AW");
        for (int i = 0; i < g->nsetup[c]; i++)
            put_point(&o, g->setup[c][i]);
    }
    if (g->first != EMPTY && (g->nsetup[0] || g->nsetup[1] || g->first == WHITE))
        puts_(&o, g->first == BLACK ? "PL[B]" : "PL[W]");
    for (int i = 0; i < g->nmoves; i++) {
        puts_(&o, i % 10 == 0 ? "\n;" : ";");
        puts_(&o, g->color[i] == BLACK ? "B" : "W");
        put_point(&o, g->moves[i]);
        if (g->note[0] && g->note_at == i + 1)
            put_text(&o, "C", g->note);
    }
    puts_(&o, ")\n");
    *outlen = o.n;
    if (o.n >= len) {
        if (len)
            buf[0] = 0;
        return RJ_ENOMEM;
    }
    buf[o.n] = 0;
    return 0;
}

/* ---- boards ---- */

int sgf_board(const SgfGame *g, RuleSet rs, Color to_move, Board *b, char *err, size_t errlen)
{
    char local[8], pt[8];
    if (!err) {
        err = local;
        errlen = sizeof local;
    }
    Color first = g->first != EMPTY ? g->first : g->nmoves > 0 ? g->color[0] : EMPTY;
    Color side = first;
    for (int i = 0; i < g->nmoves; i++) {
        if (g->color[i] != side) {
            snprintf(err, errlen, "move %d %s[%s] is out of turn (%s is to move)", i + 1,
                     g->color[i] == BLACK ? "B" : "W", notation_point_str(g->moves[i], pt), color_name(side));
            board_init(b);
            return RJ_EBADPOS;
        }
        side = color_other(side);
    }
    return position_from_record(g->setup[0], g->nsetup[0], g->setup[1], g->nsetup[1], first, g->moves, g->nmoves, rs,
                                to_move, b, err, errlen);
}

void sgf_from_board(const Board *b, SgfGame *g)
{
    sgf_init(g);
    Board t = *b;
    while (t.ply > t.base_ply)
        board_undo(&t);
    for (int p = 0; p < BOARD_POINTS; p++) {
        Color c = board_at(&t, (Point)p);
        if (c != EMPTY)
            g->setup[c - 1][g->nsetup[c - 1]++] = (Point)p;
    }
    g->first = t.to_move;
    Color side = t.to_move;
    for (int i = t.base_ply; i < b->ply; i++) {
        sgf_add_move(g, b->hist[i], side);
        side = color_other(side);
    }
}
