/* vct.c - see vct.h; the principal line and the proof are in vct_proof.c. */
#include "vct.h"

#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "error.h"
#include "rules.h"
#include "threat.h"
#include "vct_impl.h"
#include "zobrist.h"

enum { DEFAULT_DEPTH = 40, MAX_DEPTH = 250, POLL_MASK = 63, TREE_START = 1 << 12 };

VctCtx *vct_new(int tt_log2, uint32_t max_tree)
{
    VctCtx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (max_tree < 16)
        max_tree = 16;
    c->vcf = vcf_new(tt_log2);
    c->alloc = max_tree < TREE_START ? max_tree : TREE_START;
    c->node = malloc((size_t)c->alloc * sizeof *c->node);
    int dl = tt_log2 < 10 ? 10 : tt_log2 > 24 ? 24 : tt_log2;
    c->dis = calloc((size_t)1 << dl, sizeof *c->dis);
    c->dis_mask = ((uint64_t)1 << dl) - 1;
    if (!c->vcf || !c->node || !c->dis) {
        vct_free(c);
        return NULL;
    }
    c->cap = max_tree;
    c->vcf_budget = 2000;
    return c;
}

/* Bytes of vct_new's hash tables for tt_log2 = k: the VCF table and the disproof table, 8 bytes an entry. */
static uint64_t table_bytes(int k) { return ((uint64_t)8 << k) + ((uint64_t)8 << (k < 24 ? k : 24)); }

void vct_size_for(uint64_t budget, size_t mem_bytes, int *tt_log2, uint32_t *max_tree)
{
    _Static_assert(sizeof(VctNode) == VCT_NODE_BYTES, "VCT_NODE_BYTES is the node's size");
    int k = 10;
    while (k < 28 && (budget == 0 || ((uint64_t)1 << k) < 2 * budget) && table_bytes(k + 1) <= mem_bytes / 4)
        k++;
    *tt_log2 = k;
    uint64_t rest = mem_bytes > table_bytes(k) ? mem_bytes - table_bytes(k) : 0;
    uint64_t nodes = rest / VCT_NODE_BYTES;
    *max_tree = nodes > UINT32_MAX / 2 ? UINT32_MAX / 2 : nodes < (1u << 16) ? (1u << 16) : (uint32_t)nodes;
}

void vct_free(VctCtx *ctx)
{
    if (!ctx)
        return;
    vcf_free(ctx->vcf);
    free(ctx->node);
    free(ctx->dis);
    free(ctx);
}

void vct_clear(VctCtx *ctx)
{
    vcf_clear(ctx->vcf);
    memset(ctx->dis, 0, (ctx->dis_mask + 1) * sizeof *ctx->dis);
}

void vct_set_vcf_budget(VctCtx *ctx, uint64_t nodes) { ctx->vcf_budget = nodes; }

/*
 * thr_short_loss() for a legal defender move x, exactly, when neither side
 * has a five point and g[0..ng) are the attacker's geometric double-win
 * points (empty points where its stone would leave two or more five points,
 * legal or not).  A defender stone creates no attacker five point and only
 * removes five points, so after x the attacker has no five point, the
 * defender's five points are those x makes, and the attacker's double-win
 * moves are among g (a white stone can make a forbidden black point legal,
 * hence the legality test after x).
 */
static bool quick_short_loss(Board *b, Point x, RuleSet rs, const Point *g, int ng)
{
    Color def = b->to_move, att = color_other(def);
    Point fd[8], f[8];
    int nfd = thr_fives_after(b, x, def, rs, fd);
    if (nfd >= 2)
        return false;
    bool loss = false;
    board_play(b, x);
    if (nfd == 1) {
        /* The attacker must block fd[0]; it wins only if the block leaves two five points. */
        loss = thr_fives_after(b, fd[0], att, rs, f) >= 2 && thr_legal(b, fd[0], att, rs);
    } else {
        for (int i = 0; i < ng && !loss; i++)
            loss = g[i] != x && thr_fives_after(b, g[i], att, rs, f) >= 2 && thr_legal(b, g[i], att, rs);
    }
    board_undo(b);
    return loss;
}

int vct_defences(Board *b, RuleSet rs, Point *out)
{
    Color def = b->to_move, att = color_other(def);
    Point g[BOARD_POINTS], w[BOARD_POINTS], f[BOARD_POINTS], f8[8];
    int nf4 = thr_four_moves(b, att, rs, f), ng = 0, nw = 0;
    for (int i = 0; i < nf4; i++) {
        if (thr_fives_after(b, f[i], att, rs, f8) < 2)
            continue;
        g[ng++] = f[i];
        if (thr_legal(b, f[i], att, rs))
            w[nw++] = f[i];
    }
    if (nw == 0)
        return -1;
    uint64_t set[4] = {0, 0, 0, 0};
    bool all = false;
    if (rs == RULE_RENJU && att == BLACK)
        for (int i = 0; i < nw && !all; i++)
            all = thr_three_dirs(b, w[i], att, rs) >= 2;
    if (all) {
        memset(set, 0xff, sizeof set);
    } else {
        thr_mark_lines(w[0], set);
        for (int i = 1; i < nw; i++) {
            uint64_t m[4] = {0, 0, 0, 0};
            thr_mark_lines(w[i], m);
            for (int j = 0; j < 4; j++)
                set[j] &= m[j];
        }
    }
    int nf = thr_four_moves(b, def, rs, f);
    for (int i = 0; i < nf; i++)
        set[f[i] >> 6] |= UINT64_C(1) << (f[i] & 63);
    int n = 0;
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (!(set[p >> 6] >> (p & 63) & 1) || board_at(b, (Point)p) != EMPTY)
            continue;
        if (thr_legal(b, (Point)p, def, rs) && !quick_short_loss(b, (Point)p, rs, g, ng))
            out[n++] = (Point)p;
    }
    return n;
}

static bool dis_probe(const VctCtx *c, Key k, int rem)
{
    uint64_t i = (k >> 20) & c->dis_mask;
    for (int j = 0; j < 2; j++) {
        uint64_t e = c->dis[i ^ (uint64_t)j];
        if (e && ((e ^ k) >> 8) == 0 && (int)(e & 0xff) >= rem)
            return true;
    }
    return false;
}

static void dis_store(VctCtx *c, Key k, int rem)
{
    uint64_t i = (k >> 20) & c->dis_mask, v = (k & ~(uint64_t)0xff) | (uint64_t)rem;
    uint64_t e0 = c->dis[i], e1 = c->dis[i ^ 1];
    if (e0 == 0 || ((e0 ^ k) >> 8) == 0 || (e1 != 0 && ((e1 ^ k) >> 8) != 0 && (e0 & 0xff) <= (e1 & 0xff)))
        c->dis[i] = v;
    else
        c->dis[i ^ 1] = v;
}

static bool out_of_budget(VctCtx *c)
{
    if (c->abort)
        return true;
    if (c->max_nodes && c->nodes >= c->max_nodes)
        return c->abort = true;
    if (c->stop && atomic_load_explicit(c->stop, memory_order_relaxed))
        return c->abort = true;
    if (c->deadline > 0 && clock_now() > c->deadline)
        return c->abort = true;
    return false;
}

static void set_proven(VctNode *n, int kind)
{
    n->kind = (uint8_t)kind;
    n->pn = 0;
    n->dn = PN_INF;
}

static void set_lost(VctNode *n)
{
    n->kind = K_LOST;
    n->pn = PN_INF;
    n->dn = 0;
}

/* Grow the tree to hold `need` nodes (doubling, up to the cap); false when it cannot. */
static bool tree_reserve(VctCtx *c, uint64_t need)
{
    if (need <= c->alloc)
        return true;
    if (need > c->cap)
        return false;
    uint64_t n = c->alloc;
    while (n < need)
        n *= 2;
    if (n > c->cap)
        n = c->cap;
    VctNode *p = realloc(c->node, (size_t)n * sizeof *p);
    if (!p)
        return false;
    c->node = p;
    c->alloc = (uint32_t)n;
    return true;
}

/*
 * Give node n the children moves[0..k); false when the tree is full.  The
 * tree may move: callers hold no VctNode pointer across this call.
 */
static bool add_children(VctCtx *c, uint32_t n, const Point *moves, int k, bool or_node)
{
    if (!tree_reserve(c, (uint64_t)c->used + (uint64_t)k)) {
        c->abort = true;
        return false;
    }
    VctNode *nd = &c->node[n];
    nd->child = c->used;
    nd->nchild = (uint16_t)k;
    nd->kind = K_INNER;
    for (int i = 0; i < k; i++) {
        VctNode *ch = &c->node[c->used++];
        memset(ch, 0, sizeof *ch);
        ch->pn = ch->dn = 1;
        ch->move = moves[i];
        ch->kind = K_OPEN;
    }
    nd->pn = or_node ? 1 : (ProofNum)k;
    nd->dn = or_node ? (ProofNum)k : 1;
    return true;
}

/* Is the attacker threatening (a five point or a double-win move) on b? */
static bool has_threat(VctCtx *c, Board *b)
{
    Point buf[BOARD_POINTS];
    return thr_five_points(b, c->att, c->rs, buf) > 0 || thr_double_wins(b, c->att, c->rs, buf, true) > 0;
}

/* ---- the wide order ----------------------------------------------------- */

bool vct_short_vcf(VctCtx *c, Board *b, VcfResult *vr)
{
    ThreatOpts o = {.max_nodes = VCT_SHORT_VCF_BUDGET, .max_depth = c->order + 1, .stop = c->stop};
    vcf_search(c->vcf, b, c->att, c->rs, &o, vr);
    c->nodes += vr->nodes;
    if (vr->result == RESULT_UNKNOWN)
        c->abort = true;
    return vr->result == RESULT_PROVEN;
}

/*
 * The defender's replies to a wide threat (defender to move on b, no five
 * point for either side): writes to out the legal defender moves after which
 * the attacker has no short VCF and returns their count; -1: no short VCF
 * after a pass either (no threat); -2: stopped (c->abort).  Each other move
 * is confirmed: far from the line (vcf_line_zone: it cannot change any point
 * the line reads, and makes no defender four), or the line replays after it
 * (vcf_line_holds), or a short VCF is found after it.
 */
static int wide_defences(VctCtx *c, Board *b, Point *out)
{
    VcfResult *line = &c->line;
    uint64_t zone[4] = {0, 0, 0, 0}, dfour[4] = {0, 0, 0, 0};
    board_play(b, POINT_PASS);
    bool threat = vct_short_vcf(c, b, line);
    bool far_ok = threat && vcf_line_zone(b, c->att, c->rs, line->line, line->len, zone);
    board_undo(b);
    if (c->abort)
        return -2;
    if (!threat)
        return -1;
    Point f[BOARD_POINTS];
    int nf = thr_four_moves(b, c->def, c->rs, f);
    for (int i = 0; i < nf; i++)
        dfour[f[i] >> 6] |= UINT64_C(1) << (f[i] & 63);
    int n = 0;
    for (int p = 0; p < BOARD_POINTS; p++) {
        uint64_t bit = UINT64_C(1) << (p & 63);
        if (board_at(b, (Point)p) != EMPTY || (far_ok && !((zone[p >> 6] | dfour[p >> 6]) & bit)))
            continue;
        if (!thr_legal(b, (Point)p, c->def, c->rs))
            continue;
        board_play(b, (Point)p);
        bool holds =
            vcf_line_holds(b, c->att, c->rs, (Point)p, line->line, line->len) || vct_short_vcf(c, b, &c->scratch);
        board_undo(b);
        if (c->abort)
            return -2;
        if (!holds)
            out[n++] = (Point)p;
    }
    return n;
}

int vct_wide_defences(VctCtx *ctx, Board *b, RuleSet rs, int order, Point *out)
{
    if (order < 2 || order > VCT_MAX_ORDER)
        return -1;
    ctx->att = color_other(b->to_move);
    ctx->def = b->to_move;
    ctx->rs = rs;
    ctx->order = order;
    ctx->stop = NULL;
    ctx->abort = false;
    return wide_defences(ctx, b, out);
}

/* Wide order: is the attacker's move p (legal, made on b) a threat: a short VCF if the defender passed? */
static bool wide_threat(VctCtx *c, Board *b)
{
    board_play(b, POINT_PASS);
    bool t = vct_short_vcf(c, b, &c->scratch);
    board_undo(b);
    return t;
}

/*
 * Order 2: can an attacker stone on empty p be a threat, a VCF of a four, a
 * second four (or double win) and a five after a pass?  A necessary
 * condition, derived: if p lies on the first four's line, that four's
 * window holds p, the four's point and two attacker stones; if not, the
 * first four is one the attacker can make now (its window's stones are on
 * the board), and a window of the second four's five holds p, that four's
 * point and two stones of the board or the first four.  So p shares a
 * five-window free of defender stones with two attacker stones, or with one
 * and a point where the attacker makes a four now (four_pts).
 */
static bool order2_candidate(const Board *b, Point p, Color att, const uint64_t four_pts[4])
{
    for (int d = 0; d < NUM_DIRS; d++) {
        int idx = board_line_index(p, d), pos = board_line_pos(p, d);
        unsigned own = b->line[att - 1][d][idx];
        unsigned blk = b->line[2 - att][d][idx] | (uint16_t)~board_line_valid(d, idx);
        for (int s = pos - 4; s <= pos; s++) {
            if (s < 0 || s > BOARD_SIZE - 5)
                continue;
            unsigned w = 0x1fu << s;
            if (blk & w)
                continue;
            int k = thr_pop16(own & w);
            if (k >= 2)
                return true;
            for (int q = s; k == 1 && q < s + 5; q++) {
                Point pt = thr_line_point(d, idx, q);
                if (q != pos && !(own >> q & 1) && (four_pts[pt >> 6] >> (pt & 63) & 1))
                    return true;
            }
        }
    }
    return false;
}

/* ---- expansion ---------------------------------------------------------- */

/*
 * Expand an attacker node (attacker to move); depth = attacker moves made so
 * far.  Below the root the attacker has no five point (its four was blocked,
 * or it had none) and the defender's five points are those its last move made.
 */
static void expand_or(VctCtx *c, Board *b, uint32_t n, int depth, bool root)
{
    VctNode *nd = &c->node[n];
    Point buf[BOARD_POINTS], mv[BOARD_POINTS], f[8];
    if (root && thr_five_points(b, c->att, c->rs, buf) > 0) {
        nd->win = buf[0];
        set_proven(nd, K_FIVE);
        return;
    }
    Point last = board_last_move(b);
    int nd5 = root || last >= BOARD_POINTS ? thr_five_points(b, c->def, c->rs, buf)
                                           : thr_fives_through(b, last, c->def, c->rs, buf);
    if (nd5 >= 2) {
        set_lost(nd);
        return;
    }
    if (nd5 == 1) {
        Point p = buf[0];
        bool ok = thr_legal(b, p, c->att, c->rs);
        if (ok && c->order < 2) { /* wide order: the defender node after the block tests its threat */
            board_play(b, p);
            ok = has_threat(c, b);
            board_undo(b);
        }
        if (!ok)
            set_lost(nd);
        else
            add_children(c, n, &p, 1, true);
        return;
    }
    if (thr_double_wins(b, c->att, c->rs, buf, true) > 0) {
        nd->win = buf[0];
        set_proven(nd, K_DOUBLE);
        return;
    }
    if (depth >= c->max_depth) {
        set_lost(nd);
        return;
    }
    if (c->vcf_budget) {
        VcfResult vr;
        ThreatOpts o = {.max_nodes = c->vcf_budget, .stop = c->stop};
        vcf_search(c->vcf, b, c->att, c->rs, &o, &vr);
        c->nodes += vr.nodes;
        if (vr.result == RESULT_PROVEN) {
            set_proven(nd, K_VCF);
            return;
        }
    }
    /* Threat moves: legal fours, then legal threes (wide order: moves leaving a short VCF after a pass). */
    uint64_t seen[4] = {0, 0, 0, 0};
    int k = 0;
    int n4 = thr_four_moves(b, c->att, c->rs, buf);
    for (int i = 0; i < n4; i++) {
        seen[buf[i] >> 6] |= UINT64_C(1) << (buf[i] & 63);
        if (thr_fives_after(b, buf[i], c->att, c->rs, f) > 0 && thr_legal(b, buf[i], c->att, c->rs))
            mv[k++] = buf[i];
    }
    int nfour = k;
    bool wide = c->order >= 2;
    int n3 = thr_window_points(b, c->att, wide ? 1 : 2, buf);
    for (int i = 0; i < n3; i++) {
        Point p = buf[i];
        if (seen[p >> 6] >> (p & 63) & 1)
            continue;
        if (c->order == 2 && !order2_candidate(b, p, c->att, seen))
            continue;
        if (!thr_legal(b, p, c->att, c->rs))
            continue;
        board_play(b, p);
        bool three = thr_double_wins_near(b, p, c->att, c->rs, f, true) > 0 || (wide && wide_threat(c, b));
        board_undo(b);
        if (c->abort)
            return; /* left open: the search stops */
        if (three)
            mv[k++] = p;
    }
    if (k == 0) {
        set_lost(nd);
        return;
    }
    /* Order: fours first (they come first), then by line potential (ties: first min wins). */
    int sc[BOARD_POINTS];
    for (int i = 0; i < k; i++)
        sc[i] = thr_potential(b, mv[i], c->att) + (i < nfour ? 100 : 0);
    for (int i = 1; i < k; i++) {
        Point pm = mv[i];
        int v = sc[i], j = i - 1;
        for (; j >= 0 && sc[j] < v; j--)
            mv[j + 1] = mv[j], sc[j + 1] = sc[j];
        mv[j + 1] = pm, sc[j + 1] = v;
    }
    add_children(c, n, mv, k, true);
}

/*
 * Expand a defender node (defender to move).  Below the root the defender has
 * no five point (the attacker blocked it, or it had none) and the attacker's
 * five points are those its last move made.
 */
static void expand_and(VctCtx *c, Board *b, uint32_t n, bool root)
{
    VctNode *nd = &c->node[n];
    Point buf[BOARD_POINTS];
    if (root && thr_five_points(b, c->def, c->rs, buf) > 0) {
        set_lost(nd);
        return;
    }
    Point last = board_last_move(b);
    int na = root || last >= BOARD_POINTS ? thr_five_points(b, c->att, c->rs, buf)
                                          : thr_fives_through(b, last, c->att, c->rs, buf);
    if (na >= 2) {
        set_proven(nd, K_DONE);
        return;
    }
    if (na == 1) {
        if (!thr_legal(b, buf[0], c->def, c->rs))
            set_proven(nd, K_DONE);
        else
            add_children(c, n, buf, 1, false);
        return;
    }
    int k = c->order >= 2 ? wide_defences(c, b, buf) : vct_defences(b, c->rs, buf);
    if (k == -2)
        return; /* stopped: left open */
    if (k < 0)
        set_lost(nd);
    else if (k == 0)
        set_proven(nd, c->order >= 2 ? K_COVERED : K_DONE);
    else
        add_children(c, n, buf, k, false);
}

static void update(VctCtx *c, uint32_t n, bool or_node)
{
    VctNode *nd = &c->node[n];
    ProofNum pn = or_node ? PN_INF : 0, dn = or_node ? 0 : PN_INF;
    for (uint32_t i = 0; i < nd->nchild; i++) {
        const VctNode *ch = &c->node[nd->child + i];
        if (or_node) {
            pn = ch->pn < pn ? ch->pn : pn;
            dn = pn_add(dn, ch->dn);
        } else {
            pn = pn_add(pn, ch->pn);
            dn = ch->dn < dn ? ch->dn : dn;
        }
    }
    nd->pn = pn;
    nd->dn = dn;
}

/* Child of n with the smallest pn (OR) or dn (AND). */
static uint32_t best_child(const VctCtx *c, uint32_t n, bool or_node)
{
    const VctNode *nd = &c->node[n];
    uint32_t best = nd->child;
    ProofNum bv = PN_INF;
    for (uint32_t i = 0; i < nd->nchild; i++) {
        const VctNode *ch = &c->node[nd->child + i];
        ProofNum v = or_node ? ch->pn : ch->dn;
        if (v < bv) {
            bv = v;
            best = nd->child + i;
        }
    }
    return best;
}

int vct_search(VctCtx *ctx, Board *b, Color attacker, RuleSet rs, const ThreatOpts *opts, VctResult *out)
{
    static const ThreatOpts none = {0};
    if (!opts)
        opts = &none;
    memset(out, 0, offsetof(VctResult, line));
    out->result = RESULT_UNKNOWN;
    VctCtx *c = ctx;
    c->proven = false;
    if (attacker != BLACK && attacker != WHITE)
        return RJ_EBADARG;
    c->att = attacker;
    c->def = color_other(attacker);
    c->rs = rs;
    c->order = opts->order > 1 ? opts->order : 1;
    if (c->order > VCT_MAX_ORDER)
        return RJ_EBADARG;
    c->max_depth = opts->max_depth > 0 ? (opts->max_depth < MAX_DEPTH ? opts->max_depth : MAX_DEPTH) : DEFAULT_DEPTH;
    if (b->ply + 2 * c->max_depth + 4 > MAX_PLY)
        return RJ_EBADARG;
    c->nodes = 0;
    c->max_nodes = opts->max_nodes;
    c->deadline = opts->max_time_s > 0 ? clock_now() + opts->max_time_s : 0;
    c->stop = opts->stop;
    c->abort = false;
    c->root_or = b->to_move == attacker;
    c->root_key = b->key;
    c->salt = zob_mix(ZOB_SEED ^ 0x5643540000ull ^ ((uint64_t)attacker << 8) ^ (uint64_t)rs ^
                      (c->order > 1 ? (uint64_t)c->order << 16 : 0));
    c->used = 1;
    memset(&c->node[0], 0, sizeof c->node[0]);
    c->node[0].pn = c->node[0].dn = 1;
    c->node[0].move = POINT_NONE;
    uint32_t path[2 * MAX_DEPTH + 8];
    int pdepth[2 * MAX_DEPTH + 8];
    for (uint64_t iter = 0; c->node[0].pn != 0 && c->node[0].dn != 0; iter++) {
        if ((iter & POLL_MASK) == 0 && out_of_budget(c))
            break;
        if (c->max_nodes && c->nodes >= c->max_nodes)
            break;
        int np = 0, depth = 0;
        uint32_t n = 0;
        bool or_node = c->root_or;
        pdepth[np] = 0;
        path[np++] = 0;
        while (c->node[n].kind == K_INNER && np < (int)(sizeof path / sizeof path[0]) - 1) {
            n = best_child(c, n, or_node);
            board_play(b, c->node[n].move);
            depth += or_node;
            or_node = !or_node;
            pdepth[np] = depth;
            path[np++] = n;
        }
        c->nodes++;
        if (dis_probe(c, b->key ^ c->salt, c->max_depth - depth))
            set_lost(&c->node[n]);
        else if (or_node)
            expand_or(c, b, n, depth, n == 0);
        else
            expand_and(c, b, n, n == 0);
        if (c->node[n].kind == K_OPEN) /* tree full */
            c->abort = true;
        if (c->node[n].dn == 0)
            dis_store(c, b->key ^ c->salt, c->max_depth - depth);
        for (int i = np - 2; i >= 0; i--) {
            board_undo(b);
            ProofNum before = c->node[path[i]].dn;
            update(c, path[i], c->root_or == (i % 2 == 0));
            if (c->node[path[i]].dn == 0 && before != 0)
                dis_store(c, b->key ^ c->salt, c->max_depth - pdepth[i]);
        }
        if (c->abort)
            break;
    }
    out->nodes = c->nodes;
    out->tree_nodes = c->used;
    if (c->node[0].pn == 0) {
        out->result = RESULT_PROVEN;
        c->proven = true;
        vct_pv(c, b, out);
    } else if (c->node[0].dn == 0) {
        out->result = RESULT_DISPROVEN;
    }
    return 0;
}
