/* renlib_proof.c - see renlib_proof.h. */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "renlib_proof.h"
#include "rules.h"

/* ---- the line to a position ---- */

/* Would a stone of the side to move on p be a legal move that does not end the game? */
static bool quiet_legal(Board *b, Point p, RuleSet rs)
{
    return board_at(b, p) == EMPTY && rules_is_legal(b, p, rs) && !rules_makes_five(b, p, b->to_move, rs);
}

int renlib_proof_line(const Board *b, RuleSet rs, Point *line, int *n)
{
    *n = 0;
    Board setup = *b;
    while (setup.ply > setup.base_ply)
        board_undo(&setup);
    int k = 0;
    if (board_stone_count(&setup) > 0) {
        /* A stone set: its stones in a legal order. */
        bool left[BOARD_POINTS];
        int remain[2] = {0, 0};
        for (int p = 0; p < BOARD_POINTS; p++) {
            left[p] = board_at(&setup, (Point)p) != EMPTY;
            if (left[p])
                remain[board_at(&setup, (Point)p) - 1]++;
        }
        Board r;
        board_init(&r);
        while (remain[0] + remain[1] > 0) {
            Color c = r.to_move;
            Point m = POINT_PASS;
            if (remain[c - 1] > 0) {
                for (int p = 0; p < BOARD_POINTS && m == POINT_PASS; p++)
                    if (left[p] && board_at(&setup, (Point)p) == c && quiet_legal(&r, (Point)p, rs))
                        m = (Point)p;
                if (m == POINT_PASS)
                    return RJ_EBADPOS;
                left[m] = false;
                remain[c - 1]--;
            } else if (k > 0 && line[k - 1] == POINT_PASS) {
                return RJ_EBADPOS; /* two passes would end the game */
            }
            if (k >= MAX_PLY - 2)
                return RJ_EBADPOS;
            line[k++] = m;
            board_play(&r, m);
        }
        if (r.to_move != setup.to_move) {
            if (k > 0 && line[k - 1] == POINT_PASS)
                return RJ_EBADPOS;
            line[k++] = POINT_PASS;
        }
    }
    for (int i = b->base_ply; i < b->ply; i++) {
        if (k >= MAX_PLY - 1)
            return RJ_EBADPOS;
        line[k++] = b->hist[i];
    }
    *n = k;
    return 0;
}

/* ---- export ---- */

typedef struct {
    const uint8_t *buf;
    size_t len, pos;
    RuleSet rs;
    Color att;
    Board b;
    RenlibTree *t;
    uint64_t moves;
    int err;
} Expand;

static void expand_d(Expand *e, int32_t parent);

/* Attacker node: one move, then (unless it wins at once) the defender node. */
static void expand_a(Expand *e, int32_t parent)
{
    if (e->err)
        return;
    Point m = e->buf[e->pos++];
    int32_t i;
    if ((e->err = renlib_add(e->t, parent, m, &i)) || (e->err = renlib_set_label(e->t, i, RENLIB_WIN_LABEL)))
        return;
    e->moves++;
    if (m != POINT_PASS && rules_makes_five(&e->b, m, e->att, e->rs))
        return;
    board_play(&e->b, m);
    expand_d(e, i);
    board_undo(&e->b);
}

/* Defender node: every listed reply, each followed by an attacker node. */
static void expand_d(Expand *e, int32_t parent)
{
    if (e->err)
        return;
    unsigned n = (unsigned)e->buf[e->pos] | (unsigned)e->buf[e->pos + 1] << 8;
    e->pos += 2;
    for (unsigned k = 0; k < n && !e->err; k++) {
        Point m = e->buf[e->pos++];
        int32_t i;
        if ((e->err = renlib_add(e->t, parent, m, &i)) || (e->err = renlib_set_label(e->t, i, RENLIB_LOSS_LABEL)))
            return;
        e->moves++;
        board_play(&e->b, m);
        expand_a(e, i);
        board_undo(&e->b);
    }
}

/*
 * Copy the subtree of src below node s (at depth 0 of the proof) into dst
 * below node d, breadth first, within the limits.
 */
static int copy_bfs(const RenlibTree *src, int32_t s, RenlibTree *dst, int32_t d, const RenlibLimits *lim,
                    RenlibExport *x)
{
    size_t cap = (size_t)src->n;
    int32_t *qs = malloc(cap * sizeof *qs), *qd = malloc(cap * sizeof *qd);
    if (!qs || !qd) {
        free(qs);
        free(qd);
        return RJ_ENOMEM;
    }
    size_t head = 0, tail = 0;
    qs[tail] = s;
    qd[tail++] = d;
    uint16_t base = src->node[s].depth;
    int rc = 0;
    while (head < tail && !rc) {
        int32_t from = qs[head], to = qd[head++];
        uint32_t ply = (uint32_t)(src->node[from].depth - base);
        for (int32_t c = src->node[from].child; c != RENLIB_NONE && !rc; c = src->node[c].sibling) {
            if ((lim->max_depth && ply + 1 > lim->max_depth) || (lim->max_moves && x->moves >= lim->max_moves)) {
                x->truncated = true;
                if (!dst->node[to].comment)
                    rc = renlib_set_comment(dst, to, RENLIB_CUT_COMMENT);
                break;
            }
            int32_t ci;
            if ((rc = renlib_add(dst, to, src->node[c].move, &ci)) ||
                (rc = renlib_set_label(dst, ci, renlib_label(src, c))))
                break;
            x->moves++;
            if (ply + 1 > x->depth)
                x->depth = ply + 1;
            qs[tail] = c;
            qd[tail++] = ci;
        }
    }
    free(qs);
    free(qd);
    return rc;
}

int renlib_proof_export(RuleSet rs, const Point *line, int n, const uint8_t *proof, size_t len, const RenlibLimits *lim,
                        RenlibTree *t, RenlibExport *x)
{
    static const RenlibLimits none = {0, 0};
    memset(x, 0, sizeof *x);
    int rc = renlib_init(t);
    if (rc)
        return rc;
    if (!lim)
        lim = &none;
    Board b;
    board_init(&b);
    int32_t at = RENLIB_ROOT;
    Color winner;
    if (n >= RENLIB_MAX_DEPTH)
        return RJ_EBADPOS;
    for (int i = 0; i < n; i++) {
        if (rules_game_over(&b, rs, &winner) || !rules_is_legal(&b, line[i], rs))
            return RJ_EBADPOS;
        if ((rc = renlib_add(t, at, line[i], &at)))
            return rc == RJ_EBADARG ? RJ_EBADPOS : rc;
        board_play(&b, line[i]);
    }
    x->position = at;
    ProofStats st;
    if (proof_stats(&b, proof, len, &st) || proof[5] != rs)
        return RJ_EBADDATA;
    if ((uint64_t)n + st.depth > RENLIB_MAX_DEPTH)
        return RJ_EBADDATA;
    /* The whole proof as a tree first (framing checked above), then the part within the limits. */
    RenlibTree full;
    if ((rc = renlib_init(&full)))
        return rc;
    Expand e = {proof, len, PROOF_HEADER_LEN, rs, (Color)proof[6], b, &full, 0, 0};
    if (b.to_move == e.att)
        expand_a(&e, RENLIB_ROOT);
    else
        expand_d(&e, RENLIB_ROOT);
    rc = e.err == RJ_EBADARG ? RJ_EBADDATA : e.err;
    x->proof_moves = e.moves;
    if (!rc)
        rc = copy_bfs(&full, RENLIB_ROOT, t, at, lim, x);
    renlib_free(&full);
    return rc;
}

/* ---- import ---- */

enum { ST_UNSEEN = 0, ST_POS, ST_WIN, ST_DRAW, ST_ILLEGAL }; /* what a node's move did */

typedef struct {
    const RenlibTree *t;
    RuleSet rs;
    Color atts[2];
    int natt;
    Board b;
    uint8_t *state;              /* ST_* per node */
    uint8_t *claim;              /* bit (att - 1): claimed for att */
    uint64_t *size;              /* [2 * node + att - 1]: proof nodes of the claim */
    int32_t *best;               /* [2 * node + att - 1]: chosen attacker child, or RENLIB_NONE */
    Point *five;                 /* [2 * node + att - 1]: added five when best is RENLIB_NONE */
    uint64_t *leaves;            /* per node */
    Point pts[3 * BOARD_POINTS]; /* scratch of others_lose */
    ProofWriter w;
    RenlibProvenFn on_proven;
    RenlibRejectedFn on_rejected;
    void *ctx;
    const atomic_bool *stop;
    RenlibImport st;
} Import;

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* Attacker five points on the lines through m, up to 2 (the stone on m is played). */
static int fives_near(const Board *b, Point m, Color att, RuleSet rs)
{
    int n = 0;
    for (int d = 0; d < NUM_DIRS && n < 2; d++)
        for (int s = -4; s <= 4 && n < 2; s++) {
            int col = point_col(m) + s * DIR_DC[d], row = point_row(m) + s * DIR_DR[d];
            if (s && point_on_board(col, row) && board_at(b, point_make(col, row)) == EMPTY &&
                rules_makes_five(b, point_make(col, row), att, rs))
                n++;
        }
    return n;
}

/* Attacker stones that might leave two winning points: empty points with 3+ attacker stones within 4 on a line. */
static int candidates(const Board *b, Color att, Point *out)
{
    int n = 0;
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (board_at(b, (Point)p) != EMPTY)
            continue;
        for (int d = 0; d < NUM_DIRS; d++) {
            int k = 0;
            for (int s = -4; s <= 4; s++) {
                int col = point_col((Point)p) + s * DIR_DC[d], row = point_row((Point)p) + s * DIR_DR[d];
                if (s && point_on_board(col, row) && board_at(b, point_make(col, row)) == att)
                    k++;
            }
            if (k >= 3) {
                out[n++] = (Point)p;
                break;
            }
        }
    }
    return n;
}

/*
 * Screen of a defender node (defender to move on the board): is every legal
 * defender move outside listed[] (index BOARD_POINTS = pass) a short loss by
 * proof.h's rules (a) and (b)?  The same test the checker makes, so that a
 * claim is rarely rejected; the checker still decides.
 */
static bool others_lose(Import *im, Color att, const bool *listed)
{
    Board *b = &im->b;
    RuleSet rs = im->rs;
    Color def = color_other(att);
    Point *five = im->pts, *cand = im->pts + BOARD_POINTS, *tmp = im->pts + 2 * BOARD_POINTS;
    int nfive = rules_five_points(b, att, rs, five), ncand = -1;
    for (int idx = 0; idx <= BOARD_POINTS; idx++) {
        Point m = idx == BOARD_POINTS ? POINT_PASS : (Point)idx;
        if (listed[idx] || (m != POINT_PASS && board_at(b, m) != EMPTY) || !rules_is_legal(b, m, rs))
            continue;
        if (m != POINT_PASS && rules_makes_five(b, m, def, rs))
            return false;
        if (ncand < 0)
            ncand = candidates(b, att, cand);
        board_play(b, m);
        bool ok = !board_two_passes(b) && board_stone_count(b) < BOARD_POINTS;
        bool won = false;
        for (int i = 0; ok && i < nfive && !won; i++)
            won = board_at(b, five[i]) == EMPTY && rules_makes_five(b, five[i], att, rs);
        for (int i = 0; ok && !won && i < ncand; i++) {
            Point c = cand[i];
            if (board_at(b, c) != EMPTY || !rules_is_legal(b, c, rs))
                continue;
            board_play(b, c);
            won = !board_two_passes(b) && board_stone_count(b) < BOARD_POINTS && fives_near(b, c, att, rs) >= 2 &&
                  rules_five_points(b, def, rs, tmp) == 0;
            board_undo(b);
        }
        board_undo(b);
        if (!ok || !won)
            return false;
    }
    return true;
}

/* The claims of node i (a position; the board is at it), from its children's. */
static void claim_node(Import *im, int32_t i)
{
    const RenlibTree *t = im->t;
    Board *b = &im->b;
    for (int a = 0; a < im->natt; a++) {
        Color att = im->atts[a];
        size_t k = 2 * (size_t)i + att - 1;
        im->best[k] = RENLIB_NONE;
        im->five[k] = POINT_NONE;
        bool ok;
        if (b->to_move == att) {
            uint64_t sz = UINT64_MAX;
            for (int32_t c = t->node[i].child; c != RENLIB_NONE; c = t->node[c].sibling) {
                size_t kc = 2 * (size_t)c + att - 1;
                if (im->state[c] == ST_WIN) {
                    im->best[k] = c;
                    sz = 1;
                    break;
                }
                if (im->state[c] == ST_POS && (im->claim[c] >> (att - 1) & 1) && sat_add(im->size[kc], 1) < sz) {
                    im->best[k] = c;
                    sz = sat_add(im->size[kc], 1);
                }
            }
            if (im->best[k] == RENLIB_NONE) {
                Point pts[BOARD_POINTS];
                if (rules_five_points(b, att, im->rs, pts) > 0) {
                    im->five[k] = pts[0];
                    sz = 1;
                }
            }
            ok = sz != UINT64_MAX;
            im->size[k] = sz;
        } else {
            uint64_t sz = 1;
            bool listed[BOARD_POINTS + 1];
            memset(listed, 0, sizeof listed);
            ok = true;
            for (int32_t c = t->node[i].child; c != RENLIB_NONE && ok; c = t->node[c].sibling) {
                if (im->state[c] == ST_ILLEGAL)
                    continue;
                listed[t->node[c].move == POINT_PASS ? BOARD_POINTS : t->node[c].move] = true;
                ok = im->state[c] == ST_POS && (im->claim[c] >> (att - 1) & 1);
                if (ok)
                    sz = sat_add(sz, im->size[2 * (size_t)c + att - 1]);
            }
            if (ok)
                ok = others_lose(im, att, listed);
            im->size[k] = sz;
        }
        if (ok)
            im->claim[i] |= (uint8_t)(1u << (att - 1));
    }
}

/* Pass 1: what each move does, and the claims, bottom up.  The board is at node i (a position). */
static void analyse(Import *im, int32_t i)
{
    const RenlibTree *t = im->t;
    Board *b = &im->b;
    if (im->stop && atomic_load_explicit(im->stop, memory_order_relaxed))
        return; /* renlib_proof_import checks the flag again and stops */
    for (int32_t c = t->node[i].child; c != RENLIB_NONE; c = t->node[c].sibling) {
        Point m = t->node[c].move;
        if (!rules_is_legal(b, m, im->rs)) {
            im->state[c] = ST_ILLEGAL;
        } else if (m != POINT_PASS && rules_makes_five(b, m, b->to_move, im->rs)) {
            im->state[c] = ST_WIN;
        } else {
            board_play(b, m);
            if (board_two_passes(b) || board_stone_count(b) == BOARD_POINTS) {
                im->state[c] = ST_DRAW;
            } else {
                im->state[c] = ST_POS;
                analyse(im, c);
            }
            board_undo(b);
        }
    }
    im->st.positions++;
    claim_node(im, i);
}

/* Write the claimed proof of node i for att (board at i). */
static void emit(Import *im, int32_t i, Color att)
{
    const RenlibTree *t = im->t;
    Board *b = &im->b;
    size_t k = 2 * (size_t)i + att - 1;
    if (b->to_move == att) {
        int32_t c = im->best[k];
        if (c == RENLIB_NONE) {
            pw_u8(&im->w, im->five[k]);
            return;
        }
        pw_u8(&im->w, t->node[c].move);
        if (im->state[c] == ST_WIN)
            return;
        board_play(b, t->node[c].move);
        emit(im, c, att);
        board_undo(b);
        return;
    }
    uint16_t n = 0;
    for (int32_t c = t->node[i].child; c != RENLIB_NONE; c = t->node[c].sibling)
        n += im->state[c] == ST_POS;
    pw_u16(&im->w, n);
    for (int32_t c = t->node[i].child; c != RENLIB_NONE; c = t->node[c].sibling) {
        if (im->state[c] != ST_POS)
            continue;
        pw_u8(&im->w, t->node[c].move);
        board_play(b, t->node[c].move);
        emit(im, c, att);
        board_undo(b);
    }
}

/* Pass 2: the topmost claims, checked; the board is at node i (a position). */
static int select_proofs(Import *im, int32_t i)
{
    const RenlibTree *t = im->t;
    for (int a = 0; a < im->natt; a++) {
        Color att = im->atts[a];
        if (!(im->claim[i] >> (att - 1) & 1))
            continue;
        if (im->stop && atomic_load(im->stop))
            return RJ_EINTR;
        im->w.len = 0;
        pw_header(&im->w, im->rs, att);
        emit(im, i, att);
        if (im->w.err)
            return im->w.err;
        char why[512];
        ProofStats ps;
        im->st.claimed++;
        if (proof_check(&im->b, im->w.data, im->w.len, &ps, why, sizeof why) == 0) {
            im->st.proven++;
            im->st.proven_lines += im->leaves[i];
            RenlibProven p = {i, att, &im->b, im->w.data, im->w.len, ps, false};
            int rc = im->on_proven ? im->on_proven(im->ctx, &p) : 0;
            int32_t c = im->best[2 * (size_t)i + att - 1];
            if (rc || im->b.to_move != att || c == RENLIB_NONE || im->state[c] != ST_POS)
                return rc;
            /* The defender node after the first move: the checked proof minus that move. */
            uint8_t *rest = im->w.data + 1;
            memmove(rest, im->w.data, PROOF_HEADER_LEN);
            board_play(&im->b, t->node[c].move);
            ProofStats cs;
            if (proof_stats(&im->b, rest, im->w.len - 1, &cs) == 0) {
                RenlibProven q = {c, att, &im->b, rest, im->w.len - 1, cs, true};
                rc = im->on_proven ? im->on_proven(im->ctx, &q) : 0;
            }
            board_undo(&im->b);
            return rc;
        }
        im->st.rejected++;
        RenlibRejected r = {i, att, &im->b, why};
        int rc = im->on_rejected ? im->on_rejected(im->ctx, &r) : 0;
        if (rc)
            return rc;
    }
    for (int32_t c = t->node[i].child; c != RENLIB_NONE; c = t->node[c].sibling) {
        if (im->state[c] != ST_POS)
            continue;
        board_play(&im->b, t->node[c].move);
        int rc = select_proofs(im, c);
        board_undo(&im->b);
        if (rc)
            return rc;
    }
    return 0;
}

int renlib_proof_import(const RenlibTree *t, RuleSet rs, Color attacker, RenlibProvenFn on_proven,
                        RenlibRejectedFn on_rejected, void *ctx, const atomic_bool *stop, RenlibImport *st)
{
    Import im;
    memset(&im, 0, sizeof im);
    im.t = t;
    im.rs = rs;
    if (attacker == EMPTY) {
        im.atts[im.natt++] = BLACK;
        im.atts[im.natt++] = WHITE;
    } else {
        im.atts[im.natt++] = attacker;
    }
    im.on_proven = on_proven;
    im.on_rejected = on_rejected;
    im.ctx = ctx;
    im.stop = stop;
    size_t n = (size_t)t->n;
    im.state = calloc(n, 1);
    im.claim = calloc(n, 1);
    im.size = calloc(2 * n, sizeof *im.size);
    im.best = calloc(2 * n, sizeof *im.best);
    im.five = calloc(2 * n, sizeof *im.five);
    im.leaves = calloc(n, sizeof *im.leaves);
    int rc = 0;
    if (!im.state || !im.claim || !im.size || !im.best || !im.five || !im.leaves) {
        rc = RJ_ENOMEM;
        goto done;
    }
    board_init(&im.b);
    im.state[RENLIB_ROOT] = ST_POS;
    analyse(&im, RENLIB_ROOT);
    if (im.stop && atomic_load(im.stop)) {
        rc = RJ_EINTR;
        goto done;
    }
    /* Below an illegal move, a five or a draw a line is dead (parents come first: the mark runs down). */
    for (int32_t i = 1; i < t->n; i++)
        if (im.state[t->node[i].parent] != ST_POS)
            im.state[i] = ST_ILLEGAL;
    /* Leaves per subtree (living ones only), from the bottom: a child's index is above its parent's. */
    for (int32_t i = t->n - 1; i >= 0; i--) {
        if (t->node[i].child == RENLIB_NONE) {
            im.st.lines++;
            if (im.state[i] == ST_ILLEGAL)
                im.st.illegal_lines++;
            else
                im.leaves[i] = 1;
        }
        if (t->node[i].parent != RENLIB_NONE)
            im.leaves[t->node[i].parent] += im.leaves[i];
    }
    rc = select_proofs(&im, RENLIB_ROOT);
done:
    if (st)
        *st = im.st;
    free(im.state);
    free(im.claim);
    free(im.size);
    free(im.best);
    free(im.five);
    free(im.leaves);
    free(im.w.data);
    return rc;
}
