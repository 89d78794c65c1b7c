/* vcf.c - see vcf.h. */
#include "vcf.h"

#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "error.h"
#include "rules.h"
#include "threat.h"
#include "zobrist.h"

/*
 * Transposition table: 2^k entries of 8 bytes, two-way buckets (i, i^1).
 * An entry stores a "no VCF within `depth` attacker moves" fact for a key:
 * bits 8..63 = bits 8..63 of (position key ^ salt), bits 0..7 = depth
 * (DEPTH_INF = no VCF at all).  0 is an empty slot.  The salt mixes in the
 * attacker colour and the rule set.
 */
enum { DEPTH_INF = 255, POLL_MASK = 255 };

/* Attacker nodes on one path: each plays a four and its block (two plies) on a board of BOARD_POINTS points. */
enum { VCF_LEVELS = BOARD_POINTS / 2 + 2 };

/*
 * Below this many stones a node lists its fours from the whole board (few
 * lines hold three stones); from it on, from its ancestor's list (four_moves).
 * Measured on renju solve --nodes 1e7, 1 thread: thresholds 10, 16 and 22 all
 * within 2% of each other, the list from the ancestor everywhere 2% slower
 * at 6 stones.
 */
enum { FL_MIN_STONES = 16 };

struct VcfCtx {
    uint64_t *tt;
    uint64_t mask;
    uint64_t nodes, max_nodes;
    double deadline;
    const atomic_bool *stop;
    bool abort;
    Color att, def;
    RuleSet rs;
    Key salt;
    int plen;
    Point path[VCF_MAX_LINE];
    VcfResult *out;
    /*
     * The attacker's four moves at each attacker node of the current path,
     * kept line by line: a node derives its list from the nearest ancestor's
     * by recomputing the lines through the stones played since (fl_ply: the
     * board's ply when fl was made, -1 when the node made none).
     */
    ThrFourLines fl[VCF_LEVELS];
    int fl_ply[VCF_LEVELS];
};

VcfCtx *vcf_new(int tt_log2)
{
    if (tt_log2 < 10)
        tt_log2 = 10;
    if (tt_log2 > 28)
        tt_log2 = 28;
    VcfCtx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->tt = calloc((size_t)1 << tt_log2, sizeof *c->tt);
    if (!c->tt) {
        free(c);
        return NULL;
    }
    c->mask = ((uint64_t)1 << tt_log2) - 1;
    return c;
}

void vcf_free(VcfCtx *ctx)
{
    if (!ctx)
        return;
    free(ctx->tt);
    free(ctx);
}

void vcf_clear(VcfCtx *ctx) { memset(ctx->tt, 0, (ctx->mask + 1) * sizeof *ctx->tt); }

static inline uint64_t tt_index(const VcfCtx *c, Key k) { return (k >> 20) & c->mask; }

/* True when a stored fact says "no VCF within depth". */
static bool tt_none(const VcfCtx *c, Key k, int depth)
{
    uint64_t i = tt_index(c, k);
    for (int j = 0; j < 2; j++) {
        uint64_t e = c->tt[i ^ (uint64_t)j];
        if (e && ((e ^ k) >> 8) == 0 && (int)(e & 0xff) >= depth)
            return true;
    }
    return false;
}

static void tt_store(VcfCtx *c, Key k, int depth)
{
    uint64_t i = tt_index(c, k);
    uint64_t e0 = c->tt[i], e1 = c->tt[i ^ 1];
    uint64_t v = (k & ~(uint64_t)0xff) | (uint64_t)depth;
    if (e0 == 0 || ((e0 ^ k) >> 8) == 0)
        c->tt[i] = v;
    else if (e1 == 0 || ((e1 ^ k) >> 8) == 0)
        c->tt[i ^ 1] = v;
    else if ((e0 & 0xff) <= (e1 & 0xff))
        c->tt[i] = v;
    else
        c->tt[i ^ 1] = v;
}

/* Limits: set c->abort when a budget is exhausted. */
static bool out_of_budget(VcfCtx *c)
{
    if (c->abort)
        return true;
    if (c->max_nodes && c->nodes >= c->max_nodes)
        return c->abort = true;
    if ((c->nodes & POLL_MASK) == 1) {
        if (c->stop && atomic_load_explicit(c->stop, memory_order_relaxed))
            return c->abort = true;
        if (c->deadline > 0 && clock_now() > c->deadline)
            return c->abort = true;
    }
    return false;
}

/* Record a win: the current path followed by the n final moves. */
static void record_win(VcfCtx *c, const Point *fin, int n)
{
    VcfResult *o = c->out;
    memcpy(o->line, c->path, (size_t)c->plen * sizeof(Point));
    for (int i = 0; i < n; i++)
        o->line[c->plen + i] = fin[i];
    o->len = c->plen + n;
}

/* Ordering score: the attacker's line potential at p (threat.h). */
static int order_score(const Board *b, Point p, Color att) { return thr_potential(b, p, att); }

/* Is q a point the defender cannot block (black defender, forbidden point)? */
static bool block_forbidden(VcfCtx *c, Board *b, Point q)
{
    return c->rs == RULE_RENJU && c->def == BLACK && rules_is_forbidden(b, q);
}

/*
 * The attacker's four moves at the node of level lvl (thr_four_moves()' list):
 * from the nearest ancestor that made its list, if a few moves back, else
 * from the whole board.
 */
static int four_moves(VcfCtx *c, Board *b, int lvl, Point *out)
{
    if (board_stone_count(b) < FL_MIN_STONES)
        return thr_four_moves(b, c->att, c->rs, out); /* few lines to scan: the copy would cost more */
    ThrFourLines *fl = &c->fl[lvl];
    int lo = lvl > 3 ? lvl - 3 : 0; /* up to three levels back */
    int a = lvl - 1;
    while (a >= lo && c->fl_ply[a] < 0)
        a--;
    if (a >= lo) {
        assert(c->fl_ply[a] == b->ply - 2 * (lvl - a));
        *fl = c->fl[a];
        for (int i = c->fl_ply[a]; i < b->ply; i++)
            thr_four_lines_touch(b, c->att, c->rs, fl, b->hist[i]);
    } else {
        thr_four_lines_init(b, c->att, c->rs, fl);
    }
    c->fl_ply[lvl] = b->ply;
    return thr_four_lines_points(fl, out);
}

/*
 * Attacker to move.  Returns 1 win (line recorded), 0 no VCF within depth
 * attacker moves, -1 aborted.  At the root (dfive NULL) both sides' five
 * points are computed; below it the attacker has none (its last four was
 * blocked) and the defender's are exactly the nd points in dfive, made by its
 * block (the attacker blocked any earlier one).  lvl: the node's depth in
 * attacker nodes (the root's is 0).
 */
static int att_node(VcfCtx *c, Board *b, int depth, const Point *dfive, int nd, int lvl)
{
    Point buf[BOARD_POINTS], mv[BOARD_POINTS], q[BOARD_POINTS], f[8], fd[8];
    int score[BOARD_POINTS];
    c->nodes++;
    c->fl_ply[lvl] = -1;
    if (out_of_budget(c))
        return -1;
    if (!dfive && thr_five_points(b, c->att, c->rs, buf) > 0) {
        record_win(c, buf, 1);
        return 1;
    }
    if (depth < 2)
        return 0;
    Key k = b->key ^ c->salt;
    if (tt_none(c, k, depth))
        return 0;
    int n;
    if (dfive && nd == 1) {
        /*
         * The defender's four (made by its block) must be blocked at once, by
         * a four: that one candidate, without listing every attacker four (q
         * makes a four exactly when thr_four_moves() would list it).
         */
        if (thr_fives_after(b, dfive[0], c->att, c->rs, f) == 0)
            return 0;
        mv[0] = dfive[0];
        n = 1;
    } else {
        /* The attacker's fours first: with none there is nothing to do (whatever the defender has). */
        n = four_moves(c, b, lvl, mv);
        if (n == 0)
            return 0;
        if (!dfive) {
            nd = thr_five_points(b, c->def, c->rs, buf);
        } else {
            for (int i = 0; i < nd; i++)
                buf[i] = dfive[i];
        }
        if (nd >= 2) {
            tt_store(c, k, DEPTH_INF);
            return 0;
        }
        if (nd == 1) {
            /* The defender's four must be blocked, by a four. */
            int j = 0;
            while (j < n && mv[j] != buf[0])
                j++;
            if (j == n)
                return 0;
            mv[0] = buf[0];
            n = 1;
        }
    }
    /* Pass 1: keep legal fours; a move leaving two five points wins now. */
    int m = 0;
    for (int i = 0; i < n; i++) {
        Point p = mv[i];
        int nf = thr_fives_after(b, p, c->att, c->rs, f);
        if (nf == 0 || !thr_legal(b, p, c->att, c->rs))
            continue;
        if (nf >= 2) {
            board_play(b, p);
            Point fin[3] = {p, thr_legal(b, f[0], c->def, c->rs) ? f[0] : POINT_PASS, f[1]};
            board_undo(b);
            record_win(c, fin, 3);
            return 1;
        }
        mv[m] = p;
        q[m] = f[0];
        score[m] = order_score(b, p, c->att);
        m++;
    }
    /* Order by score (insertion sort: lists are short). */
    for (int i = 1; i < m; i++) {
        Point pm = mv[i], pq = q[i];
        int s = score[i], j = i - 1;
        for (; j >= 0 && score[j] < s; j--) {
            mv[j + 1] = mv[j], q[j + 1] = q[j], score[j + 1] = score[j];
        }
        mv[j + 1] = pm, q[j + 1] = pq, score[j + 1] = s;
    }
    int child = depth == DEPTH_INF ? DEPTH_INF : depth - 1;
    /*
     * The children's table slots, fetched now: each child's first act is its
     * probe, a cache miss in a big table (the key after the four and its
     * block; a pass before this node is undone by the four).  A hint only.
     */
    Key pk = b->key ^ c->salt ^ (board_last_move(b) == POINT_PASS ? zob_pass() : 0);
    for (int i = 0; i < m; i++)
        __builtin_prefetch(&c->tt[tt_index(c, pk ^ zob_stone(c->att, mv[i]) ^ zob_stone(c->def, q[i])) & ~(uint64_t)1]);
    for (int i = 0; i < m; i++) {
        board_play(b, mv[i]);
        if (block_forbidden(c, b, q[i])) {
            board_undo(b);
            Point fin[3] = {mv[i], POINT_PASS, q[i]};
            record_win(c, fin, 3);
            return 1;
        }
        int nfd = thr_fives_after(b, q[i], c->def, c->rs, fd);
        board_play(b, q[i]);
        c->path[c->plen++] = mv[i];
        c->path[c->plen++] = q[i];
        int r = att_node(c, b, child, fd, nfd, lvl + 1);
        c->plen -= 2;
        board_undo(b);
        board_undo(b);
        if (r)
            return r;
    }
    tt_store(c, k, depth);
    return 0;
}

/* Defender to move at the root: see vcf.h. */
static int def_root(VcfCtx *c, Board *b, int depth)
{
    Point buf[BOARD_POINTS];
    c->nodes++;
    if (thr_five_points(b, c->def, c->rs, buf) > 0)
        return 0;
    int na = thr_five_points(b, c->att, c->rs, buf);
    if (na == 0 || depth < 1)
        return 0;
    if (na >= 2) {
        Point fin[2] = {thr_legal(b, buf[0], c->def, c->rs) ? buf[0] : POINT_PASS, buf[1]};
        record_win(c, fin, 2);
        return 1;
    }
    if (block_forbidden(c, b, buf[0])) {
        Point fin[2] = {POINT_PASS, buf[0]};
        record_win(c, fin, 2);
        return 1;
    }
    board_play(b, buf[0]);
    c->path[c->plen++] = buf[0];
    int r = att_node(c, b, depth, NULL, 0, 0);
    c->plen--;
    board_undo(b);
    return r;
}

static int run(VcfCtx *c, Board *b, int depth)
{
    c->plen = 0;
    return b->to_move == c->att ? att_node(c, b, depth, NULL, 0, 0) : def_root(c, b, depth);
}

int vcf_search(VcfCtx *ctx, Board *b, Color attacker, RuleSet rs, const ThreatOpts *opts, VcfResult *out)
{
    static const ThreatOpts none = {0};
    if (!opts)
        opts = &none;
    out->result = RESULT_UNKNOWN;
    out->nodes = 0;
    out->len = 0;
    out->attacker_moves = 0;
    if ((attacker != BLACK && attacker != WHITE) || b->ply + (BOARD_POINTS - board_stone_count(b)) + 2 > MAX_PLY)
        return RJ_EBADARG;
    VcfCtx *c = ctx;
    c->att = attacker;
    c->def = color_other(attacker);
    c->rs = rs;
    c->salt = zob_mix(ZOB_SEED ^ 0x5643460000ull ^ ((uint64_t)attacker << 8) ^ (uint64_t)rs);
    c->nodes = 0;
    c->max_nodes = opts->max_nodes;
    c->deadline = opts->max_time_s > 0 ? clock_now() + opts->max_time_s : 0;
    c->stop = opts->stop;
    c->abort = false;
    c->out = out;
    int depth = opts->max_depth > 0 && opts->max_depth < DEPTH_INF ? opts->max_depth : DEPTH_INF;
    int r = run(c, b, depth);
    if (r == 1 && opts->shortest) {
        /* Iterative deepening below the length found: the first win is a shortest one. */
        VcfResult best = *out;
        int found = 0;
        for (int i = 0; i < best.len; i++)
            found += (i % 2 == 0) == (b->to_move == attacker);
        for (int d = 1; d < found; d++) {
            int rr = run(c, b, d);
            if (rr == 1) {
                best = *out;
                break;
            }
            if (rr < 0) {
                r = -1;
                break;
            }
        }
        if (r == 1)
            *out = best;
    }
    out->nodes = c->nodes;
    if (r == 1) {
        out->result = RESULT_PROVEN;
        out->attacker_moves = 0;
        for (int i = 0; i < out->len; i++)
            out->attacker_moves += (i % 2 == 0) == (b->to_move == attacker);
    } else {
        out->result = r == 0 ? RESULT_DISPROVEN : RESULT_UNKNOWN;
        out->len = 0;
    }
    return 0;
}

int vcf_line_to_proof(Board *b, Color attacker, RuleSet rs, const VcfResult *res, ProofWriter *w)
{
    Color def = color_other(attacker);
    Point buf[BOARD_POINTS];
    int i = 0, played = 0, rc = RJ_EINTERNAL;
    if (res->result != RESULT_PROVEN)
        return RJ_EINTERNAL;
    bool att_turn = b->to_move == attacker;
    for (;;) {
        if (att_turn) {
            if (i >= res->len)
                goto done;
            Point m = res->line[i++];
            if (m >= BOARD_POINTS || !thr_legal(b, m, attacker, rs))
                goto done;
            pw_u8(w, m);
            if (thr_is_five(b, m, attacker, rs)) {
                rc = w->err;
                goto done;
            }
            board_play(b, m);
            played++;
        } else {
            int na = thr_five_points(b, attacker, rs, buf);
            bool forb = na == 1 && rs == RULE_RENJU && def == BLACK && rules_is_forbidden(b, buf[0]);
            if (na >= 2 || forb) {
                pw_u16(w, 0);
                rc = w->err;
                goto done;
            }
            if (na != 1 || i >= res->len || res->line[i] != buf[0])
                goto done;
            pw_u16(w, 1);
            pw_u8(w, buf[0]);
            board_play(b, res->line[i++]);
            played++;
        }
        att_turn = !att_turn;
    }
done:
    while (played--)
        board_undo(b);
    return rc;
}

int vcf_write_proof(VcfCtx *ctx, Board *b, Color attacker, RuleSet rs, const ThreatOpts *opts, ProofWriter *w,
                    VcfResult *res)
{
    VcfResult local;
    VcfResult *r = res ? res : &local;
    int rc = vcf_search(ctx, b, attacker, rs, opts, r);
    if (rc)
        return rc;
    if (r->result != RESULT_PROVEN)
        return RJ_ENOTFOUND;
    return vcf_line_to_proof(b, attacker, rs, r, w);
}

/*
 * The replay of vcf_line_holds; with zone not NULL also mark the points a
 * defender stone must avoid to leave the replay unchanged, and fail where
 * distant stones could matter (see vcf_line_zone).
 *
 * Why the zone suffices, for a defender stone x outside it that makes no
 * defender five point (so the defender still has none before the line):
 * - The attacker's moves and the defender's blocks are in the zone, so x is
 *   none of them and every point the line plays is still empty.
 * - A five, and the five points of an attacker four (windows of four attacker
 *   stones and one empty point, exactness counting attacker stones only),
 *   change only when x is one of those five points: all are in the zone.
 * - Black attacker: each move has threes in at most one direction (checked;
 *   a three needs a five-window free of white with two other black stones,
 *   and white stones only remove such windows), so no white stone can make it
 *   a double-three, and white stones cannot make fours or overlines: it stays
 *   legal.  The directions thr_three_dirs() skips because the move makes a
 *   four there stay fours (their five points are in the zone), and a line
 *   holding a four holds no three (checked over the whole pattern table by a
 *   reviewer: none of the 5,912 patterns with a four has a three).  White
 *   attacker: always legal.
 * - The defender's five points after its block g lie in windows through g
 *   (it had none before), or through x and g: x within four steps of g on a
 *   line, in the zone; windows through x alone would make x a five-point
 *   maker now, excluded.  A defender stone can also turn a black five point
 *   into an overline point, which only removes defender threats.
 * - A black defender's block that is legal without x stays legal or becomes
 *   forbidden with x; forbidden, the line wins at once, since black has no
 *   five point then (five would beat forbidden).  A block that is forbidden
 *   without x fails the zone (x might make it legal).
 * So every step replays the same or wins earlier.
 */
static bool replay(Board *b, Color att, RuleSet rs, Point last, const Point *line, int len, uint64_t *zone)
{
    assert(b->to_move == att && len >= 0);
    Color def = color_other(att);
    Point f[8], g[8];
    int nd = last < BOARD_POINTS ? thr_fives_through(b, last, def, rs, f) : 0;
    int played = 0;
    bool win = false;
    for (int i = 0; i < len; i += 2) {
        Point m = line[i];
        if (m >= BOARD_POINTS || board_at(b, m) != EMPTY)
            break;
        if (zone)
            zone[m >> 6] |= UINT64_C(1) << (m & 63);
        if (thr_is_five(b, m, att, rs)) {
            win = true;
            break;
        }
        if (nd > 1 || (nd == 1 && f[0] != m))
            break; /* a defender five left open */
        if (zone && rs == RULE_RENJU && att == BLACK && thr_three_dirs(b, m, att, rs) >= 2)
            break; /* its legality may depend on distant white stones (RIF 9.3 recursion) */
        if (!thr_legal(b, m, att, rs))
            break;
        board_play(b, m);
        played++;
        int na = thr_fives_through(b, m, att, rs, g);
        if (na == 0)
            break;
        if (zone)
            for (int k = 0; k < na; k++)
                zone[g[k] >> 6] |= UINT64_C(1) << (g[k] & 63);
        /* The defender has no five point now: the only one, if any, was just blocked. */
        if (na >= 2) {
            win = true;
            break;
        }
        if (rs == RULE_RENJU && def == BLACK && rules_is_forbidden(b, g[0])) {
            win = zone == NULL; /* with zone: a distant black stone might make the block legal */
            break;
        }
        if (zone)
            thr_mark_lines_r(g[0], 4, zone);
        board_play(b, g[0]);
        played++;
        nd = thr_fives_through(b, g[0], def, rs, f);
    }
    while (played--)
        board_undo(b);
    return win;
}

bool vcf_line_holds(Board *b, Color att, RuleSet rs, Point last, const Point *line, int len)
{
    return replay(b, att, rs, last, line, len, NULL);
}

bool vcf_line_zone(Board *b, Color att, RuleSet rs, const Point *line, int len, uint64_t zone[4])
{
    zone[0] = zone[1] = zone[2] = zone[3] = 0;
    return replay(b, att, rs, POINT_PASS, line, len, zone);
}
