/*
 * proof.c - framing utilities of the proof format (proof.h): statistics and
 * symmetry transforms.  The game-logic check lives in checker.c and shares
 * nothing with this file.
 */
#include <string.h>

#include "board.h"
#include "error.h"
#include "proof.h"
#include "rules.h"
#include "sym.h"

typedef struct {
    uint8_t *buf;      /* bytes to rewrite when t >= 0, else NULL */
    const uint8_t *in; /* bytes read */
    size_t len, pos;
    RuleSet rs;
    Color att;
    int t;   /* transform to apply to every move byte, or -1 */
    Board b; /* working copy of the root, in the proof's frame */
    ProofStats st;
    ProofWriter *out;     /* proof_drop_moves: the rewritten proof, else NULL */
    const uint64_t *drop; /* proof_drop_moves: the points whose defender entries are left out */
    uint64_t dropped;     /* proof_drop_moves: entries left out */
} Walk;

static int walk_d(Walk *w, uint32_t *depth);

/* Read one move byte, check it can be played, optionally rewrite it. */
static int walk_move(Walk *w, Point *m)
{
    if (w->pos >= w->len)
        return RJ_EBADDATA;
    Point p = w->in[w->pos];
    if (p != POINT_PASS && (p >= BOARD_POINTS || board_at(&w->b, p) != EMPTY))
        return RJ_EBADDATA;
    if (w->b.ply >= MAX_PLY - 1)
        return RJ_EBADDATA;
    if (w->buf)
        w->buf[w->pos] = sym_apply(w->t, p);
    w->pos++;
    *m = p;
    return 0;
}

/* A-node: the attacker's move, then (unless it wins at once) a D-node. */
static int walk_a(Walk *w, uint32_t *depth)
{
    Point m;
    int rc = walk_move(w, &m);
    if (rc)
        return rc;
    w->st.nodes++;
    if (m != POINT_PASS && rules_makes_five(&w->b, m, w->att, w->rs)) {
        w->st.leaves++;
        *depth = 1;
        return 0;
    }
    uint32_t d = 0;
    board_play(&w->b, m);
    rc = walk_d(w, &d);
    board_undo(&w->b);
    *depth = d + 1;
    return rc;
}

/* A D-node's u16 count of listed defender moves.  0 or RJ_EBADDATA. */
static int walk_count(Walk *w, unsigned *n)
{
    if (w->pos + 2 > w->len)
        return RJ_EBADDATA;
    *n = (unsigned)w->in[w->pos] | (unsigned)w->in[w->pos + 1] << 8;
    w->pos += 2;
    return *n > BOARD_POINTS + 1 ? RJ_EBADDATA : 0;
}

/* D-node: a u16 count, then each defender move with its A-node. */
static int walk_d(Walk *w, uint32_t *depth)
{
    unsigned n;
    if (walk_count(w, &n))
        return RJ_EBADDATA;
    w->st.nodes++;
    uint32_t best = 0;
    for (unsigned i = 0; i < n; i++) {
        Point m;
        int rc = walk_move(w, &m);
        if (rc)
            return rc;
        uint32_t d = 0;
        board_play(&w->b, m);
        rc = walk_a(w, &d);
        board_undo(&w->b);
        if (rc)
            return rc;
        if (d + 1 > best)
            best = d + 1;
    }
    *depth = best;
    return 0;
}

/* Check the header and walk the whole tree; the buffer must end with it. */
static int walk(Walk *w, const Board *b)
{
    if (w->len < PROOF_HEADER_LEN || memcmp(w->in, "RJPF", 4) || w->in[4] != PROOF_VERSION ||
        w->in[5] > RULE_STANDARD || (w->in[6] != BLACK && w->in[6] != WHITE) || w->in[7] != 0)
        return RJ_EBADDATA;
    w->rs = (RuleSet)w->in[5];
    w->att = (Color)w->in[6];
    w->pos = PROOF_HEADER_LEN;
    w->b = *b;
    memset(&w->st, 0, sizeof w->st);
    uint32_t depth = 0;
    int rc = b->to_move == w->att ? walk_a(w, &depth) : walk_d(w, &depth);
    if (rc)
        return rc;
    if (w->pos != w->len)
        return RJ_EBADDATA;
    w->st.depth = depth;
    return 0;
}

int proof_stats(const Board *b, const uint8_t *buf, size_t len, ProofStats *st)
{
    Walk wk = {.in = buf, .len = len, .t = -1};
    int rc = walk(&wk, b);
    if (rc == 0 && st)
        *st = wk.st;
    return rc;
}

int proof_transform(const Board *b, uint8_t *buf, size_t len, int t)
{
    if (t < 0 || t >= NUM_SYMS)
        return RJ_EBADARG;
    Walk wk = {.in = buf, .len = len, .t = -1};
    int rc = walk(&wk, b);
    if (rc)
        return rc;
    /* Second pass rewrites: reading and writing the same byte is safe
     * because each byte is read before it is rewritten and never again. */
    wk.buf = buf;
    wk.t = t;
    return walk(&wk, b);
}

int proof_main_line(const Board *b, const uint8_t *buf, size_t len, Point *line, int max)
{
    Walk wk = {.in = buf, .len = len, .t = -1};
    int rc = walk(&wk, b);
    if (rc)
        return rc;
    wk.pos = PROOF_HEADER_LEN;
    wk.b = *b;
    int n = 0;
    bool attacker = b->to_move == wk.att;
    while (n < max) {
        Point m;
        if (attacker) {
            walk_move(&wk, &m);
            line[n++] = m;
            if (m != POINT_PASS && rules_makes_five(&wk.b, m, wk.att, wk.rs))
                break;
        } else {
            unsigned k = (unsigned)buf[wk.pos] | (unsigned)buf[wk.pos + 1] << 8;
            wk.pos += 2;
            if (k == 0)
                break; /* every reply is a short loss the checker sees on its own */
            size_t best_pos = wk.pos;
            uint32_t best = 0;
            for (unsigned i = 0; i < k; i++) {
                size_t at = wk.pos;
                uint32_t d = 0;
                walk_move(&wk, &m);
                board_play(&wk.b, m);
                walk_a(&wk, &d);
                board_undo(&wk.b);
                if (d > best) {
                    best = d;
                    best_pos = at;
                }
            }
            wk.pos = best_pos;
            walk_move(&wk, &m);
            line[n++] = m;
        }
        board_play(&wk.b, m);
        attacker = !attacker;
    }
    return n;
}

static bool in_set(const uint64_t *set, Point p) { return p < BOARD_POINTS && (set[p >> 6] >> (p & 63) & 1); }

static int drop_d(Walk *w, bool emit);

/* A-node of proof_drop_moves: copied when emit; an attacker stone on a dropped point fails. */
static int drop_a(Walk *w, bool emit)
{
    Point m;
    int rc = walk_move(w, &m);
    if (rc)
        return rc;
    if (emit && in_set(w->drop, m))
        return RJ_EBADDATA; /* the attacker's stone would be on an occupied point */
    if (emit)
        pw_u8(w->out, (uint8_t)m);
    if (m != POINT_PASS && rules_makes_five(&w->b, m, w->att, w->rs))
        return 0;
    board_play(&w->b, m);
    rc = drop_d(w, emit);
    board_undo(&w->b);
    return rc;
}

/* D-node of proof_drop_moves: the entries on dropped points are walked, not copied. */
static int drop_d(Walk *w, bool emit)
{
    unsigned n;
    if (walk_count(w, &n))
        return RJ_EBADDATA;
    size_t at = emit ? pw_reserve_u16(w->out) : 0;
    unsigned kept = 0;
    for (unsigned i = 0; i < n; i++) {
        Point m;
        int rc = walk_move(w, &m);
        if (rc)
            return rc;
        bool keep = emit && !in_set(w->drop, m);
        if (keep) {
            pw_u8(w->out, (uint8_t)m);
            kept++;
        } else if (emit) {
            w->dropped++;
        }
        board_play(&w->b, m);
        rc = drop_a(w, keep);
        board_undo(&w->b);
        if (rc)
            return rc;
    }
    if (emit)
        pw_patch_u16(w->out, at, (uint16_t)kept);
    return 0;
}

int proof_drop_moves(const Board *b, const uint8_t *buf, size_t len, const uint64_t drop[4], ProofWriter *out,
                     uint64_t *dropped)
{
    Walk wk = {.in = buf, .len = len, .t = -1};
    int rc = walk(&wk, b); /* the framing first: nothing is written for a malformed proof */
    if (rc)
        return rc;
    wk.pos = PROOF_HEADER_LEN;
    wk.b = *b;
    wk.out = out;
    wk.drop = drop;
    pw_bytes(out, buf, PROOF_HEADER_LEN);
    rc = b->to_move == wk.att ? drop_a(&wk, true) : drop_d(&wk, true);
    if (dropped)
        *dropped = wk.dropped;
    return rc ? rc : out->err;
}
