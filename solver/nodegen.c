/* nodegen.c - see nodegen.h. */
#include "nodegen.h"

#include <string.h>

#include "board.h"
#include "rules.h"
#include "sym.h"
#include "threat.h"

enum {
    INIT_PN_FOUR = 1,   /* child AND node after an attacker four */
    INIT_PN_DOUBLE = 2, /* after a move with two open lines of two */
    INIT_PN_THREE = 3,  /* after a move making a three-ish shape */
    INIT_PN_QUIET = 8   /* after any other move */
};

/*
 * A necessary condition for a black stone on p to be forbidden, from stone
 * counts alone: a three or a four through p needs two other black stones
 * within 4 points on its line, so a double-three or a double-four across
 * lines needs two such directions; an overline or a double-four on one line
 * needs at least four other black stones within 5 points on that line.
 */
static bool may_be_forbidden(const Board *b, Point p)
{
    int dirs2 = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        unsigned line = b->line[0][d][board_line_index(p, d)];
        int pos = board_line_pos(p, d);
        unsigned near5 = (line << 5 >> pos) & 0x7ffu;  /* positions pos-5 .. pos+5 */
        unsigned near4 = (near5 >> 1) & 0x1ffu;         /* positions pos-4 .. pos+4 */
        if (thr_pop16(near5) >= 4)
            return true;
        dirs2 += thr_pop16(near4) >= 2;
    }
    return dirs2 >= 2;
}

/* Is a stone of colour c on empty point p legal (black under renju: not forbidden)? */
static bool legal_for(Board *b, Point p, Color c, RuleSet rs)
{
    if (board_at(b, p) != EMPTY)
        return false;
    return !(rs == RULE_RENJU && c == BLACK && may_be_forbidden(b, p) && rules_is_forbidden(b, p));
}

enum { MAX_SCORE = 511 };

/* Stable sort of c's children by score (0..MAX_SCORE, clamped), highest first: a counting sort. */
static void sort_children(Children *c, const int *score)
{
    uint16_t count[MAX_SCORE + 2];
    Point mv[MAX_CHILDREN];
    ProofNum ip[MAX_CHILDREN];
    if (c->n <= 1 || c->n > MAX_CHILDREN)
        return;
    size_t n = (size_t)c->n;
    memset(count, 0, sizeof count);
    int hi = 0, lo = MAX_SCORE;
    for (int i = 0; i < c->n; i++) {
        int sc = score[i] < 0 ? 0 : score[i] > MAX_SCORE ? MAX_SCORE : score[i];
        count[MAX_SCORE - sc + 1]++;
        if (sc > hi)
            hi = sc;
        if (sc < lo)
            lo = sc;
    }
    /* Prefix sums over descending scores, only across the range in use. */
    for (int k = MAX_SCORE - hi + 1; k <= MAX_SCORE - lo + 1; k++)
        count[k] += count[k - 1];
    memcpy(mv, c->mv, n * sizeof mv[0]);
    memcpy(ip, c->init_pn, n * sizeof ip[0]);
    for (int i = 0; i < c->n; i++) {
        int sc = score[i] < 0 ? 0 : score[i] > MAX_SCORE ? MAX_SCORE : score[i];
        int at = count[MAX_SCORE - sc]++;
        c->mv[at] = mv[i];
        c->init_pn[at] = ip[i];
    }
}

/* wide[r] bit c: empty point (c, r) lies within Chebyshev distance 2 of a stone. */
static void near_rows(const Board *b, uint16_t *wide)
{
    /* Rows of stones, dilated by two columns, then by two rows (two empty rows of padding each side). */
    unsigned row[BOARD_SIZE + 4] = { 0 };
    for (int r = 0; r < BOARD_SIZE; r++) {
        unsigned m = (unsigned)b->line[0][DIR_E][r] | b->line[1][DIR_E][r];
        row[r + 2] = (m | m << 1 | m << 2 | m >> 1 | m >> 2) & 0x7fffu;
    }
    for (int r = 0; r < BOARD_SIZE; r++) {
        unsigned occ = (unsigned)b->line[0][DIR_E][r] | b->line[1][DIR_E][r];
        wide[r] = (uint16_t)((row[r] | row[r + 1] | row[r + 2] | row[r + 3] | row[r + 4]) & ~occ);
    }
}

/* near[p]: p is empty and lies within Chebyshev distance 2 of a stone. */
static void mark_near(const Board *b, bool *near)
{
    uint16_t wide[BOARD_SIZE];
    near_rows(b, wide);
    for (int r = 0, p = 0; r < BOARD_SIZE; r++)
        for (int col = 0; col < BOARD_SIZE; col++, p++)
            near[p] = wide[r] >> col & 1;
}

/* ---- node rules ------------------------------------------------------- */

/* The node's status: children follow (not terminal). */
static inline NodeStatus status_open(void) { return (NodeStatus){ .result = RESULT_UNKNOWN, .best = POINT_NONE }; }

/* Proven by the node rules (a five, a forced loss of the defender); best: the winning move or POINT_NONE. */
static inline NodeStatus status_proven(Point best)
{
    return (NodeStatus){ .result = RESULT_PROVEN, .exact = true, .best = best };
}

/* Proven by the leaf VCF / VCT, whose line starts with best (POINT_NONE: none). */
static inline NodeStatus status_leaf_win(Point best)
{
    return (NodeStatus){ .result = RESULT_PROVEN, .exact = true, .leaf_vcf = true, .best = best };
}

/* Disproven; exact when every legal attacker move was refuted (see NodeStatus.exact). */
static inline NodeStatus status_disproven(bool exact)
{
    return (NodeStatus){ .result = RESULT_DISPROVEN, .exact = exact, .best = POINT_NONE };
}


/* Attacker to move. */
/* Leaf VCF of colour c (to move on b) within nr's budget; the line goes to *r. */
static bool leaf_vcf(const NodeRules *nr, Board *b, Color c, NgCtx *x, VcfResult *r)
{
    ThreatOpts o;
    memset(&o, 0, sizeof o);
    o.max_nodes = nr->vcf_budget;
    if (vcf_search(x->vcf, b, c, nr->rules, &o, r) != 0)
        return false;
    x->threat_nodes += r->nodes;
    return r->result == RESULT_PROVEN;
}

static NodeStatus gen_or(const NodeRules *nr, Board *b, Color att, Children *c, bool run_vcf, NgCtx *x)
{
    RuleSet rs = nr->rules;
    Color def = color_other(att);
    Point pts[BOARD_POINTS];
    c->n = 0;
    c->complete = false;
    if (board_two_passes(b) || board_stone_count(b) == BOARD_POINTS)
        return status_disproven(true);
    if (thr_five_points(b, att, rs, pts) > 0)
        return status_proven(pts[0]);
    int nd = thr_five_points(b, def, rs, pts);
    if (nd > 1)
        return status_disproven(true);
    if (nd > 0 && !legal_for(b, pts[0], att, rs))
        return status_disproven(true);
    run_vcf &= x != NULL;
    if (run_vcf && leaf_vcf(nr, b, att, x, &x->line))
        return status_leaf_win(x->line.len > 0 ? x->line.line[0] : POINT_NONE);
    if (run_vcf && x->vct && nr->vct_budget > 0) {
        ThreatOpts o;
        memset(&o, 0, sizeof o);
        o.max_nodes = nr->vct_budget;
        o.order = nr->vct_order;
        VctResult vr;
        if (vct_search(x->vct, b, att, rs, &o, &vr) == 0) {
            x->threat_nodes += vr.nodes;
            if (vr.result == RESULT_PROVEN)
                return status_leaf_win(vr.len > 0 ? vr.line[0] : POINT_NONE);
        }
    }
    if (nd > 0) {
        c->n = 1;
        c->complete = true;
        c->mv[0] = pts[0];
        c->init_pn[0] = 1;
        c->ordered = true;
        return status_open();
    }
    bool full = nr->full_width || board_stone_count(b) == 0;
    ProofNum quiet_pn = INIT_PN_QUIET; /* a quiet move deep in the search starts dearer: NodeRules */
    if (nr->quiet_free > 0 && (board_stone_count(b) - nr->first_or_stones) / 2 >= nr->quiet_free)
        quiet_pn = (ProofNum)nr->quiet_deep_pn;
    uint16_t near[BOARD_SIZE];
    ThrWindows wm;
    bool black = rs == RULE_RENJU && att == BLACK;
    ThrRows wr;
    near_rows(b, near);
    thr_windows_scan_min(b, att, 2, &wm);
    thr_windows_rows(b, &wm, &wr);
    for (int r = 0; r < BOARD_SIZE; r++) {
        unsigned cand = full ? 0x7fffu : near[r];
        for (; cand; cand &= cand - 1) {
            int col = __builtin_ctz(cand);
            Point p = point_make(col, r);
            if (board_at(b, p) != EMPTY)
                continue;
            bool four = wr.u3[r] >> col & 1, dbl = wr.a2[r] >> col & 1, three = wr.u2[r] >> col & 1;
            /* Black's forbidden points, screened as in thr_forbid_screen() (wm is black's scan here). */
            if (black && (dbl || (wr.m4[r] >> col & 1)) && rules_is_forbidden(b, p))
                continue;
            int i = c->n++;
            c->mv[i] = p;
            c->init_pn[i] = four ? INIT_PN_FOUR : dbl ? INIT_PN_DOUBLE : three ? INIT_PN_THREE : quiet_pn;
        }
    }
    if (full) {
        int i = c->n++;
        c->mv[i] = POINT_PASS;
        c->init_pn[i] = INIT_PN_QUIET;
    }
    c->complete = full;
    c->ordered = false;
    if (c->n == 0) /* no candidate: only an exact statement when the list was complete */
        return status_disproven(full);
    return status_open();
}

/*
 * Is defender move m (on b, defender to move) a short loss the checker accepts:
 * after m the defender has no five point and the attacker has a legal move in
 * S leaving two or more winning points?
 */
static bool short_loss(Board *b, Point m, Color att, RuleSet rs, const Point *S, int ns)
{
    Point f[8];
    if (m != POINT_PASS && rules_four_points_after(b, m, color_other(att), rs, f) > 0)
        return false; /* the defender would threaten five */
    bool loss = false;
    board_play(b, m);
    for (int i = 0; i < ns && !loss; i++) {
        if (S[i] == m || !legal_for(b, S[i], att, rs))
            continue;
        int k = rules_four_points_after(b, S[i], att, rs, f);
        loss = thr_distinct(f, k) >= 2;
    }
    board_undo(b);
    return loss;
}

/* Row r of a 225-point set (4 x 64-bit words) as a 15-bit mask. */
static inline unsigned set_row(const uint64_t set[4], int r)
{
    int at = r * BOARD_SIZE, w = at >> 6, s = at & 63;
    uint64_t x = set[w] >> s;
    if (s > 64 - BOARD_SIZE && w < 3)
        x |= set[w + 1] << (64 - s);
    return (unsigned)x & 0x7fffu;
}

/* Defender to move. */
static NodeStatus gen_and(const NodeRules *nr, Board *b, Color att, Children *c, bool run_vcf, NgCtx *x)
{
    RuleSet rs = nr->rules;
    Color def = color_other(att);
    Point pts[BOARD_POINTS];
    c->n = 0;
    c->complete = true;
    if (board_two_passes(b) || board_stone_count(b) == BOARD_POINTS)
        return status_disproven(true);
    if (thr_five_points(b, def, rs, pts) > 0)
        return status_disproven(true);
    int na = thr_five_points(b, att, rs, pts);
    if (na > 0 && (na > 1 || !legal_for(b, pts[0], def, rs)))
        return status_proven(POINT_NONE);
    if (na > 0) {
        c->n = 1;
        c->mv[0] = pts[0];
        c->init_pn[0] = 1;
        c->ordered = true;
        return status_open();
    }
    if (run_vcf && x && leaf_vcf(nr, b, def, x, &x->line))
        return status_disproven(true);
    const VcfResult *line = x ? &x->line : NULL;
    /* The attacker's threat: its VCF if the defender passed (not after an attacker pass: two passes end). */
    bool threat = false, far_ok = false;
    uint64_t zone[4] = { 0, 0, 0, 0 };
    if (x && board_last_move(b) != POINT_PASS) {
        board_play(b, POINT_PASS);
        threat = leaf_vcf(nr, b, att, x, &x->line);
        far_ok = threat && vcf_line_zone(b, att, rs, x->line.line, x->line.len, zone);
        board_undo(b);
    }
    /* The defender's four moves (the defender has no five point here, so these are exactly the moves threatening five). */
    uint64_t dfour[4] = { 0, 0, 0, 0 };
    if (far_ok) {
        int nf = thr_four_moves(b, def, rs, pts);
        for (int i = 0; i < nf; i++)
            dfour[pts[i] >> 6] |= UINT64_C(1) << (pts[i] & 63);
    }
    /* S: attacker moves that would leave two winning points (open fours, four-fours). */
    Point S[BOARD_POINTS], cand[BOARD_POINTS];
    int ns = 0, ncand = thr_window_points(b, att, 3, cand);
    for (int i = 0; i < ncand; i++) {
        Point f[8];
        int k = rules_four_points_after(b, cand[i], att, rs, f);
        if (thr_distinct(f, k) >= 2 && legal_for(b, cand[i], att, rs))
            S[ns++] = cand[i];
    }
    /* Black defender: its forbidden points, screened as in thr_forbid_screen(). */
    ThrWindows wb;
    ThrRows wbr;
    bool black = def == BLACK && rs == RULE_RENJU;
    if (black) {
        thr_windows_scan_min(b, BLACK, 2, &wb);
        thr_windows_rows(b, &wb, &wbr);
    }
    /* Row masks: the defender's legal moves, and the distant ones the threat line still beats. */
    uint16_t legal[BOARD_SIZE], far[BOARD_SIZE];
    for (int r = 0; r < BOARD_SIZE; r++) {
        unsigned ok = ~(unsigned)(b->line[0][DIR_E][r] | b->line[1][DIR_E][r]) & 0x7fffu;
        if (black)
            for (unsigned t = ok & (wbr.a2[r] | wbr.m4[r]); t; t &= t - 1) {
                int col = __builtin_ctz(t);
                if (rules_is_forbidden(b, point_make(col, r)))
                    ok &= ~(1u << col);
            }
        legal[r] = (uint16_t)ok;
        far[r] = far_ok ? (uint16_t)(~(set_row(zone, r) | set_row(dfour, r)) & 0x7fffu) : 0;
    }
    for (int p = 0; p <= BOARD_POINTS; p++) {
        Point m = POINT_PASS;
        bool holds = threat; /* for the pass */
        if (p < BOARD_POINTS) {
            int r = p / BOARD_SIZE;
            unsigned rest = legal[r] >> (p - r * BOARD_SIZE);
            if (!rest) { /* no legal move left on this row */
                p = (r + 1) * BOARD_SIZE - 1;
                continue;
            }
            p += __builtin_ctz(rest);
            m = (Point)p;
            int col = p - r * BOARD_SIZE;
            holds = threat && (far[r] >> col & 1); /* a distant move that threatens nothing */
            if (threat && !holds) {
                board_play(b, m);
                holds = vcf_line_holds(b, att, rs, m, line->line, line->len);
                board_undo(b);
            }
        }
        if (holds || (ns > 0 && short_loss(b, m, att, rs, S, ns)))
            continue; /* beaten by the threat line, or a short loss: not a child */
        int i = c->n++;
        c->mv[i] = m;
        c->init_pn[i] = 1;
    }
    c->ordered = false;
    if (c->n == 0)
        return status_proven(POINT_NONE);
    return status_open();
}

NodeStatus ng_generate(const NodeRules *nr, Board *b, Color att, Children *c, bool run_leaf, NgCtx *x)
{
    return b->to_move == att ? gen_or(nr, b, att, c, run_leaf, x) : gen_and(nr, b, att, c, run_leaf, x);
}

void ng_tie_order(int t, TieOrder *out)
{
    for (int p = 0; p < BOARD_POINTS; p++)
        out->rank[p] = (uint8_t)(t > 0 && t < NUM_SYMS ? sym_apply(t, (Point)p) : p);
    if (t < NUM_SYMS)
        return;
    uint64_t x = UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)t; /* a splitmix64 stream: Fisher-Yates */
    for (int i = BOARD_POINTS - 1; i > 0; i--) {
        uint64_t z = zob_mix(x);
        x += UINT64_C(0x9e3779b97f4a7c15);
        int j = (int)(z % (uint64_t)(i + 1));
        uint8_t r = out->rank[i];
        out->rank[i] = out->rank[j];
        out->rank[j] = r;
    }
}

/* Put c's children in the order of tie's ranks (the pass last). */
static void order_by_rank(Children *c, const TieOrder *tie)
{
    int16_t at[BOARD_POINTS];
    memset(at, -1, sizeof at);
    int pass = -1;
    for (int i = 0; i < c->n; i++) {
        if (c->mv[i] == POINT_PASS)
            pass = i;
        else
            at[tie->rank[c->mv[i]]] = (int16_t)i;
    }
    Point mv[MAX_CHILDREN];
    ProofNum ip[MAX_CHILDREN];
    int n = 0;
    for (int q = 0; q < BOARD_POINTS; q++)
        if (at[q] >= 0)
            mv[n] = c->mv[at[q]], ip[n++] = c->init_pn[at[q]];
    if (pass >= 0)
        mv[n] = POINT_PASS, ip[n++] = c->init_pn[pass];
    memcpy(c->mv, mv, (size_t)n * sizeof mv[0]);
    memcpy(c->init_pn, ip, (size_t)n * sizeof ip[0]);
}

/* ng_order's sort of two or more children. */
static void order_moves(Board *b, Color att, Children *c, const TieOrder *tie)
{
    if (tie)
        order_by_rank(c, tie);
    Color def = color_other(att);
    bool is_or = b->to_move == att;
    int score[MAX_CHILDREN];
    bool near[BOARD_POINTS];
    ThrWindows wma, wmd;
    if (!is_or)
        mark_near(b, near);
    thr_windows_scan(b, att, &wma);
    thr_windows_scan(b, def, &wmd);
    for (int i = 0; i < c->n; i++) {
        Point m = c->mv[i];
        if (m == POINT_PASS) {
            score[i] = -1;
        } else if (!is_or && !near[m]) {
            score[i] = 0;
        } else {
            int wa, na, wd, nd;
            thr_windows_at(&wma, m, &wa, &na);
            thr_windows_at(&wmd, m, &wd, &nd);
            score[i] = is_or ? 16 * wa * wa + 12 * na + 4 * wd * wd + 2 * nd
                             : 16 * wd * wd + 8 * wa * wa + 4 * na + 2 * nd;
        }
    }
    if (is_or) {
        sort_children(c, score);
    } else {
        /* Scored (near) moves first, sorted; the far moves, the proven ones and the pass keep their order. */
        int nsc = 0;
        for (int i = 0; i < c->n; i++)
            if (score[i] > 0) {
                Point m = c->mv[i];
                int sc = score[i];
                ProofNum ip = c->init_pn[i];
                memmove(&c->mv[nsc + 1], &c->mv[nsc], (size_t)(i - nsc) * sizeof c->mv[0]);
                memmove(&score[nsc + 1], &score[nsc], (size_t)(i - nsc) * sizeof score[0]);
                memmove(&c->init_pn[nsc + 1], &c->init_pn[nsc], (size_t)(i - nsc) * sizeof c->init_pn[0]);
                c->mv[nsc] = m;
                score[nsc] = sc;
                c->init_pn[nsc] = ip;
                nsc++;
            }
        int total = c->n;
        c->n = nsc;
        sort_children(c, score);
        c->n = total;
    }
}

void ng_order(Board *b, Color att, Key key, Children *c, const TieOrder *tie)
{
    if (c->n > 1)
        order_moves(b, att, c, tie);
    for (int i = 0; i < c->n; i++)
        c->key[i] = ng_child_key(b, key, c->mv[i]);
    c->ordered = true;
}
