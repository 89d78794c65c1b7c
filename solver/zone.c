/* zone.c - the relevance zone of a threat proof (zone.h). */
#include "zone.h"

#include "board.h"
#include "rules.h"
#include "threat.h"

typedef struct {
    Board *b;
    Color att, def;
    RuleSet rs;
    const uint8_t *p;
    size_t len, at;
    uint64_t *zone;
    unsigned nodes;
} Walk;

static inline void mark(Walk *z, Point p) { z->zone[p >> 6] |= UINT64_C(1) << (p & 63); }

static bool read_u8(Walk *z, unsigned *v)
{
    if (z->at >= z->len)
        return false;
    *v = z->p[z->at++];
    return true;
}

/* Empty points of the windows (of `width`) free of attacker stones that hold two or more defender stones. */
static void mark_defender_windows(Walk *z, int width)
{
    const Board *b = z->b;
    unsigned full = (1u << width) - 1;
    for (int d = 0; d < NUM_DIRS; d++)
        for (int idx = 0; idx < board_num_lines(d); idx++) {
            unsigned own = b->line[z->def - 1][d][idx];
            if (thr_pop16(own) < 2)
                continue;
            unsigned valid = board_line_valid(d, idx);
            unsigned blk = (b->line[z->att - 1][d][idx] | ~valid) & 0xffffu;
            unsigned hit = 0;
            for (int s = 0; s + width <= BOARD_SIZE; s++) {
                unsigned w = full << s;
                if (!(blk & w) && thr_pop16(own & w) >= 2)
                    hit |= w & ~own;
            }
            for (; hit; hit &= hit - 1) {
                int pos = __builtin_ctz(hit);
                mark(z, thr_line_point(d, idx, pos));
            }
        }
}

/* Marks of a defender node (defender to move on z->b). */
static void mark_defender_node(Walk *z)
{
    Board *b = z->b;
    Point pts[BOARD_POINTS];
    int n = thr_five_points(b, z->att, z->rs, pts);
    for (int i = 0; i < n; i++)
        mark(z, pts[i]);
    /* The attacker's double-win makers and their five points, legal or not (a defence may make one legal). */
    n = thr_window_points(b, z->att, 3, pts);
    for (int i = 0; i < n; i++) {
        Point f[8];
        int k = rules_four_points_after(b, pts[i], z->att, z->rs, f);
        if (thr_distinct(f, k) < 2)
            continue;
        mark(z, pts[i]);
        for (int j = 0; j < k; j++)
            mark(z, f[j]);
    }
    bool black_def = z->def == BLACK && z->rs == RULE_RENJU;
    mark_defender_windows(z, 5);
    if (black_def) {
        mark_defender_windows(z, 6); /* a black stone next to a five-window can make it an overline */
        n = rules_forbidden_points(b, pts, NULL);
        for (int i = 0; i < n; i++)
            thr_mark_lines_r(pts[i], 5, z->zone);
    }
}

/*
 * Black attacker move m (just played) with threes in two or more directions:
 * it is legal, so at most one of them is real (RIF 9.3).  A white stone makes
 * a fake three real only by making a forbidden straight-four point of it
 * legal, which takes a stone on that point's lines: mark the lines of every
 * forbidden point within four steps of m on its lines.  (A white stone cannot
 * make fours, overlines or new threes; a third level of the recursion is left
 * to the checker.)
 */
static void mark_fake_three_guards(Walk *z, Point m)
{
    int col = point_col(m), row = point_row(m);
    for (int d = 0; d < NUM_DIRS; d++)
        for (int k = -4; k <= 4; k++) {
            int cc = col + k * DIR_DC[d], rr = row + k * DIR_DR[d];
            if (k == 0 || !point_on_board(cc, rr))
                continue;
            Point r = point_make(cc, rr);
            if (board_at(z->b, r) == EMPTY && rules_is_forbidden(z->b, r))
                thr_mark_lines_r(r, 5, z->zone);
        }
}

static bool walk_d(Walk *z);

/* An A-node: attacker to move. */
static bool walk_a(Walk *z)
{
    unsigned m;
    if (++z->nodes > ZONE_MAX_NODES || !read_u8(z, &m) || m >= BOARD_POINTS || board_at(z->b, (Point)m) != EMPTY)
        return false;
    Point mp = (Point)m;
    mark(z, mp);
    if (rules_makes_five(z->b, mp, z->att, z->rs))
        return true;
    bool guard = z->rs == RULE_RENJU && z->att == BLACK && thr_three_dirs(z->b, mp, BLACK, z->rs) >= 2;
    board_play(z->b, mp);
    if (guard)
        mark_fake_three_guards(z, mp);
    bool ok = walk_d(z);
    board_undo(z->b);
    return ok;
}

/* A D-node: defender to move. */
static bool walk_d(Walk *z)
{
    unsigned lo, hi;
    if (++z->nodes > ZONE_MAX_NODES || !read_u8(z, &lo) || !read_u8(z, &hi))
        return false;
    mark_defender_node(z);
    bool black_def = z->def == BLACK && z->rs == RULE_RENJU;
    unsigned n = lo | hi << 8;
    for (unsigned i = 0; i < n; i++) {
        unsigned g;
        if (!read_u8(z, &g))
            return false;
        if (g != POINT_PASS) {
            if (g >= BOARD_POINTS || board_at(z->b, (Point)g) != EMPTY)
                return false;
            mark(z, (Point)g);
            if (black_def)
                thr_mark_lines_r((Point)g, 5, z->zone);
        }
        board_play(z->b, (Point)g);
        bool ok = walk_a(z);
        board_undo(z->b);
        if (!ok)
            return false;
    }
    return true;
}

bool zone_of_proof(Board *b, Color attacker, RuleSet rs, const uint8_t *tree, size_t len, uint64_t zone[4])
{
    zone[0] = zone[1] = zone[2] = zone[3] = 0;
    if (b->to_move != attacker)
        return false;
    Walk z = {b, attacker, color_other(attacker), rs, tree, len, 0, zone, 0};
    return walk_a(&z) && z.at == len;
}
