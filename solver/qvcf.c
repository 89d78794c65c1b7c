/* qvcf.c - see qvcf.h. */
#include "qvcf.h"

#include <pthread.h>

#include "board.h"
#include "error.h"
#include "rules.h"

#include <string.h>

enum { QVCF_DEFAULT_BUDGET = 100000, QVCF_MAX_DEPTH = 120 };

/* On-board positions of line idx in direction dir (closed form of board_line_valid). */
static inline unsigned line_valid(int dir, int idx)
{
    if (dir < 2)
        return 0x7fffu;
    int lo = idx - (BOARD_SIZE - 1) > 0 ? idx - (BOARD_SIZE - 1) : 0;
    int hi = idx < BOARD_SIZE - 1 ? idx : BOARD_SIZE - 1;
    return ((1u << (hi + 1)) - 1) & ~((1u << lo) - 1);
}

/* Stones in a 5-bit window. */
static const uint8_t POP5[32] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                  1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5 };

/*
 * POT[own9 | block9 << 9]: the most stones in a clean five-window of a nine
 * point stretch centred on an empty point (bit 4), built by qvcf_init().
 */
static uint8_t POT[1 << 18];
static pthread_once_t pot_once = PTHREAD_ONCE_INIT;

static void pot_build(void)
{
    for (unsigned i = 0; i < (1u << 18); i++) {
        unsigned own = i & 0x1ffu, block = i >> 9;
        int best = 0;
        for (int s = 0; s <= 4; s++) {
            if ((block >> s) & 0x1fu)
                continue;
            int n = POP5[(own >> s) & 0x1fu];
            if (n > best)
                best = n;
        }
        POT[i] = (uint8_t)best;
    }
}

void qvcf_init(void) { pthread_once(&pot_once, pot_build); }

void qvcf_potential(const Board *b, Point p, Color c, int *wmax, int *ntwo)
{
    assert(board_at(b, p) == EMPTY && POT[0x1ef] == 4);
    int mx = 0, two = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        int idx = board_line_index(p, d), pos = board_line_pos(p, d);
        /* Line bits shifted so position pos-4 is bit 0; off-board counts as blocked. */
        uint32_t own = (uint32_t)b->line[c - 1][d][idx] << 4;
        uint32_t block = ((uint32_t)(b->line[2 - c][d][idx] | (~line_valid(d, idx) & 0x7fffu)) << 4) | 0xfu |
                         ~((1u << 19) - 1);
        unsigned i = ((own >> pos) & 0x1ffu) | ((block >> pos) & 0x1ffu) << 9;
        int best = POT[i];
        if (best > mx)
            mx = best;
        two += best >= 2;
    }
    *wmax = mx;
    *ntwo = two;
}

int qvcf_window_max(const Board *b, Point p, Color c)
{
    int mx, two;
    qvcf_potential(b, p, c, &mx, &two);
    return mx;
}

/* Point at position pos of line idx in direction dir (inverse of board_line_index/pos). */
static inline Point line_point(int dir, int idx, int pos)
{
    switch (dir) {
    case DIR_E: return point_make(pos, idx);
    case DIR_N: return point_make(idx, pos);
    case DIR_NE: return point_make(pos, pos - idx + BOARD_SIZE - 1);
    default: return point_make(pos, idx - pos);
    }
}

int qvcf_window_points(const Board *b, Color c, int need, Point *out)
{
    bool mark[BOARD_POINTS];
    bool any = false;
    memset(mark, 0, sizeof mark);
    for (int d = 0; d < NUM_DIRS; d++) {
        int nl = board_num_lines(d);
        for (int idx = 0; idx < nl; idx++) {
            unsigned own = b->line[c - 1][d][idx];
            if (qvcf_pop16(own) < need)
                continue;
            unsigned block = b->line[2 - c][d][idx] | (~line_valid(d, idx) & 0xffffu);
            for (int s = 0; s + 4 < BOARD_SIZE; s++) {
                unsigned w = (own >> s) & 0x1fu;
                if (((block >> s) & 0x1fu) || POP5[w] < need)
                    continue;
                for (int k = 0; k < 5; k++)
                    if (!(w >> k & 1u)) {
                        mark[line_point(d, idx, s + k)] = true;
                        any = true;
                    }
            }
        }
    }
    int n = 0;
    if (any)
        for (int p = 0; p < BOARD_POINTS; p++)
            if (mark[p])
                out[n++] = (Point)p;
    return n;
}

int qvcf_five_points(const Board *b, Color c, RuleSet rs, Point *out)
{
    Point cand[BOARD_POINTS];
    int n = qvcf_window_points(b, c, 4, cand), k = 0;
    for (int i = 0; i < n; i++)
        if (rules_makes_five(b, cand[i], c, rs))
            out[k++] = cand[i];
    return k;
}

typedef struct {
    RuleSet rs;
    Color att, def;
    uint64_t budget, nodes;
    bool out_of_budget;
} Q;

/*
 * The attacker's four moves at this node: legal points that make a four.
 * When the defender threatens five (forced != POINT_NONE) only the block.
 * Returns the count; fives[i] gets the first winning point of move i and
 * nf[i] the number of distinct winning points.
 */
static int four_moves(Q *q, Board *b, Point forced, Point *mv, Point *five, int *nf)
{
    int n = 0;
    Point cand[BOARD_POINTS];
    int nc = qvcf_window_points(b, q->att, 3, cand);
    for (int i = 0; i < nc; i++) {
        Point p = cand[i];
        if (forced != POINT_NONE && p != forced)
            continue;
        Point f[8];
        int k = rules_four_points_after(b, (Point)p, q->att, q->rs, f);
        if (k == 0 || !rules_is_legal(b, (Point)p, q->rs))
            continue;
        mv[n] = p;
        five[n] = f[0];
        nf[n] = qvcf_distinct(f, k);
        n++;
    }
    return n;
}

/* Can the defender (to move) legally block at p?  Black may not play forbidden points. */
static bool def_can_block(Q *q, Board *b, Point p)
{
    return rules_is_legal(b, p, q->rs);
}

/* Attacker to move.  Returns true on a VCF; *first gets its first move. */
static bool vcf(Q *q, Board *b, int depth, Point *first)
{
    Point pts[BOARD_POINTS];
    if (++q->nodes > q->budget) {
        q->out_of_budget = true;
        return false;
    }
    if (qvcf_five_points(b, q->att, q->rs, pts) > 0) {
        *first = pts[0];
        return true;
    }
    if (depth >= QVCF_MAX_DEPTH)
        return false;
    Point forced = POINT_NONE;
    int nd = qvcf_five_points(b, q->def, q->rs, pts);
    if (nd > 0) {
        if (qvcf_distinct(pts, nd) > 1)
            return false;
        forced = pts[0];
    }
    Point mv[BOARD_POINTS], five[BOARD_POINTS];
    int nf[BOARD_POINTS];
    int n = four_moves(q, b, forced, mv, five, nf);
    for (int i = 0; i < n; i++) {
        board_play(b, mv[i]);
        bool win;
        if (nf[i] >= 2 || !def_can_block(q, b, five[i])) {
            win = true;
        } else {
            board_play(b, five[i]);
            Point dummy;
            win = vcf(q, b, depth + 2, &dummy);
            board_undo(b);
        }
        board_undo(b);
        if (win) {
            *first = mv[i];
            return true;
        }
        if (q->out_of_budget)
            return false;
    }
    return false;
}

bool qvcf_search(Board *b, Color att, RuleSet rs, uint64_t budget, uint64_t *nodes, Point *first)
{
    assert(b->to_move == att);
    Q q = { rs, att, color_other(att), budget ? budget : QVCF_DEFAULT_BUDGET, 0, false };
    Point f = POINT_NONE;
    bool win = vcf(&q, b, 0, &f);
    if (nodes)
        *nodes += q.nodes;
    if (first)
        *first = win ? f : POINT_NONE;
    return win;
}

/* Write the proof of a VCF known to exist from b (attacker to move). */
static int write_vcf(Q *q, Board *b, ProofWriter *w, uint64_t *pnodes, uint32_t depth, uint32_t *pdepth)
{
    Point first;
    q->nodes = 0;
    q->out_of_budget = false;
    if (!vcf(q, b, 0, &first))
        return RJ_ENOTFOUND;
    pw_u8(w, first);
    ++*pnodes;
    if (depth + 1 > *pdepth)
        *pdepth = depth + 1;
    if (rules_makes_five(b, first, q->att, q->rs))
        return w->err;
    Point f[8];
    int k = rules_four_points_after(b, first, q->att, q->rs, f);
    board_play(b, first);
    ++*pnodes; /* the D-node */
    int rc;
    if (k == 0) {
        rc = RJ_EINTERNAL;
    } else if (qvcf_distinct(f, k) >= 2 || !def_can_block(q, b, f[0])) {
        rc = pw_u16(w, 0); /* every defence is a short loss */
    } else {
        pw_u16(w, 1);
        pw_u8(w, f[0]);
        board_play(b, f[0]);
        rc = write_vcf(q, b, w, pnodes, depth + 2, pdepth);
        board_undo(b);
    }
    board_undo(b);
    return rc ? rc : w->err;
}

int qvcf_write_proof(Board *b, Color att, RuleSet rs, uint64_t budget, ProofWriter *w, uint64_t *pnodes,
                     uint32_t *pdepth)
{
    assert(b->to_move == att);
    Q q = { rs, att, color_other(att), budget ? budget : QVCF_DEFAULT_BUDGET, 0, false };
    uint64_t n = 0;
    uint32_t d = 0;
    int rc = write_vcf(&q, b, w, &n, 0, &d);
    if (pnodes)
        *pnodes += n;
    if (pdepth && d > *pdepth)
        *pdepth = d;
    return rc;
}
