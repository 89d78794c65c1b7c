/* qvcf.c - see qvcf.h. */
#include "qvcf.h"

#include "board.h"
#include "error.h"
#include "rules.h"

enum { QVCF_DEFAULT_BUDGET = 100000, QVCF_MAX_DEPTH = 120 };

int qvcf_window_max(const Board *b, Point p, Color c)
{
    assert(board_at(b, p) == EMPTY);
    int best = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        int idx = board_line_index(p, d), pos = board_line_pos(p, d);
        unsigned own = b->line[c - 1][d][idx], opp = b->line[2 - c][d][idx];
        unsigned valid = board_line_valid(d, idx);
        for (int s = pos - 4; s <= pos; s++) {
            if (s < 0 || s + 4 >= BOARD_SIZE)
                continue;
            unsigned w = 0x1fu << s;
            if ((w & ~valid) || (w & opp))
                continue;
            int n = __builtin_popcount(own & w);
            if (n > best)
                best = n;
        }
    }
    return best;
}

typedef struct {
    RuleSet rs;
    Color att, def;
    uint64_t budget, nodes;
    bool out_of_budget;
} Q;

/* Distinct points among pts[0..n). */
static int distinct(const Point *pts, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= pts[j] == pts[i];
        k += !seen;
    }
    return k;
}

/*
 * The attacker's four moves at this node: legal points that make a four.
 * When the defender threatens five (forced != POINT_NONE) only the block.
 * Returns the count; fives[i] gets the first winning point of move i and
 * nf[i] the number of distinct winning points.
 */
static int four_moves(Q *q, Board *b, Point forced, Point *mv, Point *five, int *nf)
{
    int n = 0;
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (board_at(b, (Point)p) != EMPTY)
            continue;
        if (forced != POINT_NONE && p != forced)
            continue;
        if (qvcf_window_max(b, (Point)p, q->att) < 3)
            continue;
        Point f[8];
        int k = rules_four_points_after(b, (Point)p, q->att, q->rs, f);
        if (k == 0 || !rules_is_legal(b, (Point)p, q->rs))
            continue;
        mv[n] = (Point)p;
        five[n] = f[0];
        nf[n] = distinct(f, k);
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
    if (rules_five_points(b, q->att, q->rs, pts) > 0) {
        *first = pts[0];
        return true;
    }
    if (depth >= QVCF_MAX_DEPTH)
        return false;
    Point forced = POINT_NONE;
    int nd = rules_five_points(b, q->def, q->rs, pts);
    if (nd > 0) {
        if (distinct(pts, nd) > 1)
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
    } else if (distinct(f, k) >= 2 || !def_can_block(q, b, f[0])) {
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
