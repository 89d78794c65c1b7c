/* repair.c - see repair.h. */
#include "repair.h"

#include <stdio.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "notation.h"
#include "rules.h"

enum { REP_WIDE = -1 }; /* rep_d: the attacker's threat no longer holds on the target */

typedef struct {
    const uint8_t *buf;
    size_t len, pos;
    RuleSet rs;
    Color att, def;
    Board s, t; /* source and target, at the same node of the proof */
    int root_ply;
    const RepairConfig *cfg;
    ProofWriter *w;
    RepairStats *st;
} Rep;

static int rd8(Rep *r)
{
    if (r->pos >= r->len)
        return -1;
    return r->buf[r->pos++];
}

static int rd16(Rep *r)
{
    if (r->pos + 2 > r->len)
        return -1;
    int v = r->buf[r->pos] | r->buf[r->pos + 1] << 8;
    r->pos += 2;
    return v;
}

/* Did the last move (a stone) win at once? */
static bool won(const Board *b, RuleSet rs)
{
    Point m = board_last_move(b);
    return m < BOARD_POINTS && rules_last_move_wins(b, rs) != EMPTY;
}

static bool legal(Board *b, Point m, RuleSet rs)
{
    return m == POINT_PASS || (m < BOARD_POINTS && board_at(b, m) == EMPTY && rules_is_legal(b, m, rs));
}

/* ---- walking the source alone (its framing needs the source board) ---- */

static int skip_d(Rep *r);

static int skip_a(Rep *r)
{
    int m = rd8(r);
    if (m < 0 || !legal(&r->s, (Point)m, r->rs))
        return RJ_EBADDATA;
    board_play(&r->s, (Point)m);
    int rc = won(&r->s, r->rs) ? 0 : skip_d(r);
    board_undo(&r->s);
    return rc;
}

static int skip_d(Rep *r)
{
    int n = rd16(r);
    if (n < 0 || n > BOARD_POINTS + 1)
        return RJ_EBADDATA;
    for (int i = 0; i < n; i++) {
        int m = rd8(r);
        if (m < 0 || !legal(&r->s, (Point)m, r->rs))
            return RJ_EBADDATA;
        board_play(&r->s, (Point)m);
        int rc = skip_a(r);
        board_undo(&r->s);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- the target ---- */

/*
 * Is the defender's last move on the target a short loss (proof.h): (a) the
 * attacker has a point that wins at once, or (b) a legal stone that leaves
 * it two or more such points while the defender then has none?
 */
static bool short_loss(Rep *r, const Point *five, int nfive, const Point *cand, int ncand)
{
    return rules_short_win_among(&r->t, r->rs, five, nfive, cand, ncand);
}

static void line_why(Rep *r, const char *what)
{
    size_t n = 0, cap = sizeof r->st->why;
    int k = snprintf(r->st->why, cap, "%s at [", what);
    n = k > 0 ? (size_t)k : 0;
    for (int i = r->root_ply; i < r->t.ply && n + 8 < cap; i++) {
        char pt[8];
        k = snprintf(r->st->why + n, cap - n, "%s%s", i > r->root_ply ? " " : "", notation_point_str(r->t.hist[i], pt));
        n += k > 0 ? (size_t)k : 0;
    }
    if (n + 2 < cap)
        snprintf(r->st->why + n, cap - n, "]");
}

/* The target's node (attacker to move) is proven afresh: its A-node replaces whatever w holds from start on. */
static int prove_here(Rep *r, size_t start)
{
    r->w->len = start;
    int cap = r->cfg->max_failures > 0 ? r->cfg->max_failures : REPAIR_MAX_FAILURES;
    if (r->st->failures >= (uint64_t)cap) {
        line_why(r, "more failures than allowed");
        return RJ_ENOTFOUND;
    }
    r->st->failures++;
    int rc = r->cfg->prove(r->cfg->ctx, &r->t, r->t.ply - r->root_ply, r->w);
    if (rc == RJ_ENOTFOUND)
        line_why(r, "not proven");
    else if (rc == 0)
        r->st->proven++;
    return rc ? rc : r->w->err;
}

static int rep_a(Rep *r);

/*
 * A defender node: the source's D-node is read to its end whatever happens.
 * 0 when written to w, REP_WIDE when the attacker's threat does not hold on
 * the target, or an error code.
 */
static int rep_d(Rep *r)
{
    int n = rd16(r);
    if (n < 0 || n > BOARD_POINTS + 1)
        return RJ_EBADDATA;
    Point mv[BOARD_POINTS + 1];
    size_t off[BOARD_POINTS + 1];
    bool listed[BOARD_POINTS + 1] = {false};
    for (int i = 0; i < n; i++) {
        int m = rd8(r);
        if (m < 0 || !legal(&r->s, (Point)m, r->rs))
            return RJ_EBADDATA;
        mv[i] = (Point)m;
        off[i] = r->pos;
        listed[m == POINT_PASS ? BOARD_POINTS : m] = true;
        board_play(&r->s, (Point)m);
        int rc = skip_a(r);
        board_undo(&r->s);
        if (rc)
            return rc;
    }
    size_t end = r->pos;
    Point fp[BOARD_POINTS];
    if (rules_five_points(&r->t, r->def, r->rs, fp) > 0)
        return REP_WIDE; /* the defender wins at once */
    int wide = r->cfg->wide_fail > 0 ? r->cfg->wide_fail : REPAIR_WIDE_FAIL;
    Point five[BOARD_POINTS], cand[BOARD_POINTS]; /* the attacker's short wins before any defender move */
    int nfive = rules_five_points(&r->t, r->att, r->rs, five);
    int ncand = rules_double_win_points(&r->t, r->att, r->rs, cand);
    Point add[BOARD_POINTS + 1];
    int nadd = 0;
    for (int p = 0; p <= BOARD_POINTS; p++) {
        Point m = p == BOARD_POINTS ? POINT_PASS : (Point)p;
        if (listed[p] || !legal(&r->t, m, r->rs))
            continue;
        board_play(&r->t, m);
        bool lost = short_loss(r, five, nfive, cand, ncand);
        board_undo(&r->t);
        if (!lost && nadd++ == wide)
            return REP_WIDE;
        if (!lost)
            add[nadd - 1] = m;
    }
    size_t at = pw_reserve_u16(r->w);
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (!legal(&r->t, mv[i], r->rs)) {
            r->st->dropped++;
            continue;
        }
        r->pos = off[i];
        board_play(&r->s, mv[i]);
        board_play(&r->t, mv[i]);
        pw_u8(r->w, mv[i]);
        int rc = rep_a(r);
        board_undo(&r->t);
        board_undo(&r->s);
        if (rc)
            return rc;
        count++;
    }
    for (int i = 0; i < nadd; i++) {
        board_play(&r->t, add[i]);
        pw_u8(r->w, add[i]);
        int rc = prove_here(r, r->w->len);
        board_undo(&r->t);
        if (rc)
            return rc;
        r->st->added++;
        count++;
    }
    pw_patch_u16(r->w, at, (uint16_t)count);
    r->pos = end;
    r->st->kept++;
    return r->w->err;
}

/*
 * An attacker node (source and target at the same position, the attacker to
 * move).  The source's subtree below it may be left unread: the caller,
 * rep_d, seeks to each reply by the offsets it took, and the root has
 * nothing after it.
 */
static int rep_a(Rep *r)
{
    size_t start = r->w->len;
    int m = rd8(r);
    if (m < 0 || !legal(&r->s, (Point)m, r->rs))
        return RJ_EBADDATA;
    Point p = (Point)m;
    if (!legal(&r->t, p, r->rs))
        return prove_here(r, start);
    board_play(&r->s, p);
    bool sw = won(&r->s, r->rs);
    board_play(&r->t, p);
    if (won(&r->t, r->rs)) { /* wins at once on the target: the node ends here */
        board_undo(&r->t);
        board_undo(&r->s);
        pw_u8(r->w, p);
        r->st->kept++;
        return r->w->err;
    }
    if (sw) { /* the source's five is blocked on the target */
        board_undo(&r->t);
        board_undo(&r->s);
        return prove_here(r, start);
    }
    pw_u8(r->w, p);
    int rc = rep_d(r);
    board_undo(&r->t);
    board_undo(&r->s);
    if (rc == REP_WIDE) {
        r->st->wide++;
        return prove_here(r, start);
    }
    if (rc == RJ_ENOTFOUND) { /* a node below was not proven: this whole node, with another first move if need be */
        r->st->escalated++;
        return prove_here(r, start);
    }
    if (rc == 0)
        r->st->kept++;
    return rc;
}

int proof_repair(const Board *s, const uint8_t *src, size_t len, const Board *t, const RepairConfig *cfg,
                 ProofWriter *w, RepairStats *st)
{
    memset(st, 0, sizeof *st);
    if (proof_stats(s, src, len, NULL))
        return RJ_EBADDATA;
    if (s->to_move != t->to_move)
        return RJ_EBADARG;
    Rep r;
    memset(&r, 0, sizeof r);
    r.buf = src;
    r.len = len;
    r.pos = PROOF_HEADER_LEN;
    r.rs = cfg->rules;
    r.att = src[6] == 1 ? BLACK : WHITE;
    r.def = r.att == BLACK ? WHITE : BLACK;
    r.s = *s;
    r.t = *t;
    r.root_ply = t->ply;
    r.cfg = cfg;
    r.w = w;
    r.st = st;
    if (src[5] != (uint8_t)cfg->rules)
        return RJ_EBADARG;
    int rc = pw_header(w, cfg->rules, r.att);
    if (rc)
        return rc;
    if (t->to_move == r.att)
        return rep_a(&r);
    rc = rep_d(&r);
    if (rc == REP_WIDE) {
        line_why(&r, "the source's threat does not hold");
        rc = RJ_ENOTFOUND;
    }
    return rc;
}
