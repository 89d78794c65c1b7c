/* dfpn.c - see dfpn.h. */
#include "dfpn.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "error.h"
#include "qvcf.h"
#include "rules.h"
#include "vct.h"
#include "zobrist.h"

enum {
    MAX_CHILDREN = BOARD_POINTS + 1,
    BUSY_BITS = 16,
    FLUSH_EVERY = 64,            /* nodes between flushes of a thread's count */
    DEFAULT_VCF_BUDGET = 2000,
    DEFAULT_VCT_BUDGET = 1000,
    VCT_TT_LOG2 = 16,
    VCT_TREE = 1 << 14,
    INIT_PN_FOUR = 1,            /* child AND node after an attacker four */
    INIT_PN_DOUBLE = 2,          /* after a move with two open lines of two */
    INIT_PN_THREE = 3,           /* after a move making a three-ish shape */
    INIT_PN_QUIET = 8            /* after any other move */
};

struct Dfpn {
    DfpnConfig cfg;
    TT tt;
    _Atomic uint8_t *busy;  /* per key hash: threads inside the node */
    atomic_bool stop_internal;
    atomic_bool interrupted;
    _Atomic uint64_t nodes; /* flushed node count of the current solve */
    uint64_t node_limit;    /* absolute limit on nodes (0: none) */
    double t0, deadline;    /* deadline 0: none */
    Color attacker;
    Key root_key;
};

/* The children of one node on a worker's stack. */
typedef struct {
    int n;
    bool complete; /* all legal moves of the side to move are listed */
    Point mv[MAX_CHILDREN];
    Key key[MAX_CHILDREN];
    ProofNum init_pn[MAX_CHILDREN]; /* initial attacker proof number of the child */
} Children;

/*
 * A worker's cache of child lists (direct-mapped by key): df-pn re-enters the
 * nodes near the root constantly, and generating a list costs far more than
 * copying it.  Only non-terminal nodes are cached; a list depends on the
 * position alone, so a hit is always right.
 */
enum { GEN_CACHE_BITS = 12 };
typedef struct {
    Key key;
    uint16_t n;
    bool complete, used;
    Point mv[MAX_CHILDREN];
    uint8_t init_pn[MAX_CHILDREN];
} GenCacheEntry;

typedef struct {
    Dfpn *s;
    GenCacheEntry *cache; /* 1 << GEN_CACHE_BITS entries */
    VctCtx *vct;          /* the worker's VCT context */
    Board b;
    int tid;
    uint64_t nodes, unflushed, limit; /* limit: absolute local node limit (0: none) */
    uint64_t vcf_nodes;
    bool halt;
    double next_progress;
    Children *stack; /* one per depth below the search root */
} Worker;

/* ---- small helpers ---------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sum of proof numbers: infinite if either is, finite sums saturate at TT_PN_MAX. */
static inline ProofNum pn_sum(ProofNum a, ProofNum b)
{
    if (a >= PN_INF || b >= PN_INF)
        return PN_INF;
    uint64_t s = (uint64_t)a + b;
    return s > TT_PN_MAX ? TT_PN_MAX : (ProofNum)s;
}

static inline ProofNum pn_clamp64(uint64_t v) { return v >= PN_INF ? PN_INF : (ProofNum)v; }

Key dfpn_tt_key(const Board *b, Color attacker)
{
    return b->key ^ (attacker == WHITE ? zob_mix(ZOB_SEED ^ UINT64_C(0xa77ac0e5)) : 0);
}

/* TT key of the child reached by move m from b (node key `key`), without playing it. */
static inline Key child_key(const Board *b, Key key, Point m)
{
    Key k = key ^ zob_side();
    if (board_last_move(b) == POINT_PASS)
        k ^= zob_pass();
    return m == POINT_PASS ? k ^ zob_pass() : k ^ zob_stone(b->to_move, m);
}

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
        if (qvcf_pop16(near5) >= 4)
            return true;
        dirs2 += qvcf_pop16(near4) >= 2;
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

typedef struct {
    int score, idx;
} Ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const Ranked *x = a, *y = b;
    if (x->score != y->score)
        return y->score - x->score;
    return x->idx - y->idx;
}

/* Stable sort of c's children by score, highest first. */
static void sort_children(Children *c, const int *score)
{
    Ranked r[MAX_CHILDREN];
    Point mv[MAX_CHILDREN];
    ProofNum ip[MAX_CHILDREN];
    if (c->n <= 1 || c->n > MAX_CHILDREN)
        return;
    size_t n = (size_t)c->n;
    for (int i = 0; i < c->n; i++) {
        Ranked x = { score[i], i };
        int j = i - 1;
        while (j >= 0 && cmp_ranked(&r[j], &x) > 0) {
            r[j + 1] = r[j];
            j--;
        }
        r[j + 1] = x;
    }
    memcpy(mv, c->mv, n * sizeof mv[0]);
    memcpy(ip, c->init_pn, n * sizeof ip[0]);
    for (int i = 0; i < c->n; i++) {
        c->mv[i] = mv[r[i].idx];
        c->init_pn[i] = ip[r[i].idx];
    }
}

/* near[p]: p lies within Chebyshev distance 2 of a stone. */
static void mark_near(const Board *b, bool *near)
{
    memset(near, 0, BOARD_POINTS);
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (board_at(b, (Point)p) == EMPTY)
            continue;
        int pc = point_col((Point)p), pr = point_row((Point)p);
        for (int dr = -2; dr <= 2; dr++)
            for (int dc = -2; dc <= 2; dc++)
                if (point_on_board(pc + dc, pr + dr))
                    near[point_make(pc + dc, pr + dr)] = true;
    }
}

/* ---- node rules ------------------------------------------------------- */

typedef struct {
    Result result; /* terminal result, or RESULT_UNKNOWN with children */
    bool exact;    /* for a terminal disproof */
    bool leaf_vcf; /* proven by the leaf VCF */
    Point best;    /* first move of the leaf win, or POINT_NONE */
} NodeStatus;

/* Attacker to move. */
static NodeStatus gen_or(const Dfpn *s, Board *b, Color att, Children *c, bool run_vcf, uint64_t *vcf_nodes,
                         VctCtx *vct)
{
    RuleSet rs = s->cfg.rules;
    Color def = color_other(att);
    Point pts[BOARD_POINTS];
    c->n = 0;
    c->complete = false;
    if (board_two_passes(b) || board_stone_count(b) == BOARD_POINTS)
        return (NodeStatus){ RESULT_DISPROVEN, true, false, POINT_NONE };
    if (qvcf_five_points(b, att, rs, pts) > 0)
        return (NodeStatus){ RESULT_PROVEN, true, false, pts[0] };
    int nd = qvcf_five_points(b, def, rs, pts);
    if (nd > 0 && distinct(pts, nd) > 1)
        return (NodeStatus){ RESULT_DISPROVEN, true, false, POINT_NONE };
    if (nd > 0 && !legal_for(b, pts[0], att, rs))
        return (NodeStatus){ RESULT_DISPROVEN, true, false, POINT_NONE };
    Point first = POINT_NONE;
    if (run_vcf && qvcf_search(b, att, rs, s->cfg.vcf_budget, vcf_nodes, &first))
        return (NodeStatus){ RESULT_PROVEN, true, true, first };
    if (run_vcf && vct && !s->cfg.no_vct) {
        ThreatOpts o;
        memset(&o, 0, sizeof o);
        o.max_nodes = s->cfg.vct_budget;
        VctResult vr;
        if (vct_search(vct, b, att, rs, &o, &vr) == 0) {
            *vcf_nodes += vr.nodes;
            if (vr.result == RESULT_PROVEN)
                return (NodeStatus){ RESULT_PROVEN, true, true, vr.len > 0 ? vr.line[0] : POINT_NONE };
        }
    }
    Key key = dfpn_tt_key(b, att);
    if (nd > 0) {
        c->n = 1;
        c->complete = true;
        c->mv[0] = pts[0];
        c->init_pn[0] = 1;
        c->key[0] = child_key(b, key, pts[0]);
        return (NodeStatus){ RESULT_UNKNOWN, false, false, POINT_NONE };
    }
    bool near[BOARD_POINTS];
    bool full = s->cfg.full_width || board_stone_count(b) == 0;
    mark_near(b, near);
    int score[MAX_CHILDREN];
    for (int p = 0; p < BOARD_POINTS; p++) {
        if ((!full && !near[p]) || !legal_for(b, (Point)p, att, rs))
            continue;
        int wa, na, wd, ndf;
        qvcf_potential(b, (Point)p, att, &wa, &na);
        qvcf_potential(b, (Point)p, def, &wd, &ndf);
        int i = c->n++;
        c->mv[i] = (Point)p;
        score[i] = 16 * wa * wa + 12 * na + 4 * wd * wd + 2 * ndf;
        c->init_pn[i] = wa >= 3 ? INIT_PN_FOUR : na >= 2 ? INIT_PN_DOUBLE : wa == 2 ? INIT_PN_THREE : INIT_PN_QUIET;
    }
    if (full) {
        int i = c->n++;
        c->mv[i] = POINT_PASS;
        score[i] = -1;
        c->init_pn[i] = INIT_PN_QUIET;
    }
    c->complete = full;
    sort_children(c, score);
    for (int i = 0; i < c->n; i++)
        c->key[i] = child_key(b, key, c->mv[i]);
    if (c->n == 0) /* no candidate: only an exact statement when the list was complete */
        return (NodeStatus){ RESULT_DISPROVEN, full, false, POINT_NONE };
    return (NodeStatus){ RESULT_UNKNOWN, false, false, POINT_NONE };
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
        loss = distinct(f, k) >= 2;
    }
    board_undo(b);
    return loss;
}

/* Defender to move. */
static NodeStatus gen_and(const Dfpn *s, Board *b, Color att, Children *c, bool run_vcf, uint64_t *vcf_nodes)
{
    RuleSet rs = s->cfg.rules;
    Color def = color_other(att);
    Point pts[BOARD_POINTS];
    c->n = 0;
    c->complete = true;
    if (board_two_passes(b) || board_stone_count(b) == BOARD_POINTS)
        return (NodeStatus){ RESULT_DISPROVEN, true, false, POINT_NONE };
    if (qvcf_five_points(b, def, rs, pts) > 0)
        return (NodeStatus){ RESULT_DISPROVEN, true, false, POINT_NONE };
    int na = qvcf_five_points(b, att, rs, pts);
    if (na > 0 && (distinct(pts, na) > 1 || !legal_for(b, pts[0], def, rs)))
        return (NodeStatus){ RESULT_PROVEN, true, false, POINT_NONE };
    Key key = dfpn_tt_key(b, att);
    if (na > 0) {
        c->n = 1;
        c->mv[0] = pts[0];
        c->init_pn[0] = 1;
        c->key[0] = child_key(b, key, pts[0]);
        return (NodeStatus){ RESULT_UNKNOWN, false, false, POINT_NONE };
    }
    if (run_vcf && qvcf_search(b, def, rs, s->cfg.vcf_budget, vcf_nodes, NULL))
        return (NodeStatus){ RESULT_DISPROVEN, true, false, POINT_NONE };
    /* S: attacker moves that would leave two winning points (open fours, four-fours). */
    Point S[BOARD_POINTS], cand[BOARD_POINTS];
    int ns = 0, ncand = qvcf_window_points(b, att, 3, cand);
    for (int i = 0; i < ncand; i++) {
        Point f[8];
        int k = rules_four_points_after(b, cand[i], att, rs, f);
        if (distinct(f, k) >= 2 && legal_for(b, cand[i], att, rs))
            S[ns++] = cand[i];
    }
    int score[MAX_CHILDREN];
    bool near[BOARD_POINTS];
    mark_near(b, near);
    for (int p = 0; p <= BOARD_POINTS; p++) {
        Point m = p == BOARD_POINTS ? POINT_PASS : (Point)p;
        if (m != POINT_PASS && !legal_for(b, m, def, rs))
            continue;
        if (ns > 0 && short_loss(b, m, att, rs, S, ns))
            continue;
        int i = c->n++;
        c->mv[i] = m;
        c->init_pn[i] = 1;
        if (m == POINT_PASS) {
            score[i] = -1;
        } else if (!near[m]) {
            score[i] = 0;
        } else {
            int wa, na2, wd, nd2;
            qvcf_potential(b, m, att, &wa, &na2);
            qvcf_potential(b, m, def, &wd, &nd2);
            score[i] = 16 * wd * wd + 8 * wa * wa + 4 * na2 + 2 * nd2;
        }
    }
    /* Scored (near) moves first, sorted; the far moves and the pass keep their order. */
    int nsc = 0;
    for (int i = 0; i < c->n; i++)
        if (score[i] > 0) {
            Point m = c->mv[i];
            int sc = score[i];
            memmove(&c->mv[nsc + 1], &c->mv[nsc], (size_t)(i - nsc) * sizeof c->mv[0]);
            memmove(&score[nsc + 1], &score[nsc], (size_t)(i - nsc) * sizeof score[0]);
            c->mv[nsc] = m;
            score[nsc] = sc;
            nsc++;
        }
    int total = c->n;
    c->n = nsc;
    sort_children(c, score);
    c->n = total;
    for (int i = 0; i < c->n; i++)
        c->key[i] = child_key(b, key, c->mv[i]);
    if (c->n == 0)
        return (NodeStatus){ RESULT_PROVEN, true, false, POINT_NONE };
    return (NodeStatus){ RESULT_UNKNOWN, false, false, POINT_NONE };
}

static NodeStatus gen(const Dfpn *s, Board *b, Color att, Children *c, bool run_vcf, uint64_t *vcf_nodes,
                      VctCtx *vct)
{
    return b->to_move == att ? gen_or(s, b, att, c, run_vcf, vcf_nodes, vct)
                             : gen_and(s, b, att, c, run_vcf, vcf_nodes);
}

Result dfpn_node_children(const Dfpn *s, Board *b, Color attacker, Point *mv, int *n)
{
    Children *c = malloc(sizeof *c);
    if (!c) {
        *n = 0;
        return RESULT_UNKNOWN;
    }
    NodeStatus st = gen(s, b, attacker, c, false, NULL, NULL);
    *n = c->n;
    memcpy(mv, c->mv, (size_t)c->n * sizeof *mv);
    free(c);
    return st.result;
}

/* ---- the search ------------------------------------------------------- */

static bool should_stop(const Worker *w)
{
    const Dfpn *s = w->s;
    return w->halt || atomic_load_explicit(&s->stop_internal, memory_order_relaxed) ||
           (s->cfg.stop && atomic_load_explicit(s->cfg.stop, memory_order_relaxed));
}

static void report_progress(Worker *w, double t)
{
    Dfpn *s = w->s;
    TTData e = { 1, 1, POINT_NONE, 0, false };
    tt_probe(&s->tt, s->root_key, &e);
    DfpnProgress p = { atomic_load(&s->nodes), t - s->t0, e.pn, e.dn, tt_fill_permille(&s->tt) };
    s->cfg.progress(s->cfg.progress_ctx, &p);
}

/* Count one node; every FLUSH_EVERY nodes publish the count and check budgets. */
static void count_node(Worker *w)
{
    w->nodes++;
    if (w->limit && w->nodes >= w->limit)
        w->halt = true;
    if (++w->unflushed < FLUSH_EVERY)
        return;
    Dfpn *s = w->s;
    uint64_t total = atomic_fetch_add(&s->nodes, w->unflushed) + w->unflushed;
    w->unflushed = 0;
    if (s->node_limit && total >= s->node_limit)
        atomic_store(&s->stop_internal, true);
    if (s->cfg.stop && atomic_load(s->cfg.stop))
        atomic_store(&s->interrupted, true);
    if (s->deadline > 0 || (w->tid == 0 && s->cfg.progress)) {
        double t = now_s();
        if (s->deadline > 0 && t >= s->deadline)
            atomic_store(&s->stop_internal, true);
        if (w->tid == 0 && s->cfg.progress && t >= w->next_progress) {
            w->next_progress = t + s->cfg.progress_interval;
            report_progress(w, t);
        }
    }
}

static inline unsigned busy_index(Key k) { return (unsigned)(k >> (64 - BUSY_BITS)); }

/* The df-pn MID procedure at depth (the worker's board is the node). */
static void mid(Worker *w, int depth, ProofNum thphi, ProofNum thdelta)
{
    Dfpn *s = w->s;
    Board *b = &w->b;
    Color att = s->attacker;
    bool is_or = b->to_move == att;
    Key key = dfpn_tt_key(b, att);
    uint64_t start = w->nodes;
    count_node(w);
    TTData e;
    bool found = tt_probe(&s->tt, key, &e);
    if (found && (e.pn == 0 || e.dn == 0))
        return;
    /* Mark the node busy before the (possibly costly) leaf tests, so other threads avoid it. */
    bool multi = s->cfg.threads > 1;
    if (multi)
        atomic_fetch_add_explicit(&s->busy[busy_index(key)], 1, memory_order_relaxed);
    Children *c = &w->stack[depth];
    GenCacheEntry *gce = &w->cache[key & ((1u << GEN_CACHE_BITS) - 1)];
    NodeStatus st = { RESULT_UNKNOWN, false, false, POINT_NONE };
    if (found && gce->used && gce->key == key) {
        c->n = gce->n;
        c->complete = gce->complete;
        memcpy(c->mv, gce->mv, c->n);
        for (int i = 0; i < c->n; i++) {
            c->init_pn[i] = gce->init_pn[i];
            c->key[i] = child_key(b, key, c->mv[i]);
        }
    } else {
        st = gen(s, b, att, c, !found, &w->vcf_nodes, w->vct);
        if (st.result == RESULT_UNKNOWN) {
            gce->used = true;
            gce->key = key;
            gce->n = (uint16_t)c->n;
            gce->complete = c->complete;
            memcpy(gce->mv, c->mv, c->n);
            for (int i = 0; i < c->n; i++)
                gce->init_pn[i] = (uint8_t)c->init_pn[i];
        }
    }
    if (st.result != RESULT_UNKNOWN) {
        TTData t = { st.result == RESULT_PROVEN ? 0 : PN_INF, st.result == RESULT_PROVEN ? PN_INF : 0,
                     st.best, 0, st.exact };
        tt_store(&s->tt, key, &t);
        if (multi)
            atomic_fetch_sub_explicit(&s->busy[busy_index(key)], 1, memory_order_relaxed);
        return;
    }
    ProofNum phi, delta;
    int best = 0, hard = 0;
    bool exact = false;
    for (;;) {
        for (int i = 0; i < c->n; i++)
            tt_prefetch(&s->tt, c->key[i]);
        phi = PN_INF;
        delta = 0;
        ProofNum best_v = PN_INF + 1u, second_v = PN_INF, best_real_min = PN_INF + 1u;
        ProofNum best_phi = 0, real_phi = 0;
        int real_best = 0, sel = 0, hard_work = -1;
        bool all_exact = true, some_exact = false;
        for (int i = 0; i < c->n; i++) {
            TTData ce;
            ProofNum cpn, cdn;
            bool cexact = false;
            int work = 0;
            if (tt_probe(&s->tt, c->key[i], &ce)) {
                cpn = ce.pn, cdn = ce.dn, cexact = ce.exact, work = ce.work;
            } else {
                cpn = is_or ? c->init_pn[i] : 1;
                cdn = 1;
            }
            /* The child's own phi/delta: it is an AND node under an OR node and vice versa. */
            ProofNum cphi = is_or ? cdn : cpn, cdelta = is_or ? cpn : cdn;
            if (cdelta < phi)
                phi = cdelta;
            delta = pn_sum(delta, cphi);
            if (work > hard_work)
                hard_work = work, hard = i;
            if (is_or)
                all_exact &= cpn == PN_INF && cexact;
            else
                some_exact |= cdn == 0 && cexact;
            ProofNum v = cdelta;
            if (multi && v < PN_INF) {
                unsigned busy = atomic_load_explicit(&s->busy[busy_index(c->key[i])], memory_order_relaxed);
                if (busy)
                    v = pn_clamp64((uint64_t)v + (uint64_t)busy * ((uint64_t)v + 2));
                if (v >= PN_INF)
                    v = PN_INF - 1;
            }
            if (v < best_v) {
                second_v = best_v > PN_INF ? PN_INF : best_v;
                best_v = v, sel = i, best_phi = cphi;
            } else if (v < second_v) {
                second_v = v;
            }
            if (cdelta < best_real_min)
                best_real_min = cdelta, real_best = i, real_phi = cphi;
        }
        exact = is_or ? (c->complete && all_exact) : some_exact;
        best = real_best;
        if (phi >= thphi || delta >= thdelta || should_stop(w))
            break;
        if (depth == 0) { /* keep the root's numbers current for progress reports */
            TTData rt = { is_or ? phi : delta, is_or ? delta : phi, c->mv[best], tt_work_log(w->nodes - start), false };
            tt_store(&s->tt, key, &rt);
        }
        uint64_t d2 = (uint64_t)second_v + second_v / 4 + 1;
        ProofNum c_thdelta = d2 < thphi ? (ProofNum)d2 : thphi;
        ProofNum sel_phi = best_phi;
        if (multi) {
            /* Progress guard: the selected child must be below its threshold on real values. */
            TTData ce;
            ProofNum creal = 1;
            if (tt_probe(&s->tt, c->key[sel], &ce))
                creal = is_or ? ce.pn : ce.dn;
            else
                creal = is_or ? c->init_pn[sel] : 1;
            if (creal >= c_thdelta) {
                sel = real_best, sel_phi = real_phi;
                c_thdelta = thphi;
            }
        }
        best = sel;
        uint64_t tp = thdelta >= PN_INF ? PN_INF : (uint64_t)thdelta - delta + sel_phi;
        ProofNum c_thphi = pn_clamp64(tp);
        board_play(b, c->mv[sel]);
        mid(w, depth + 1, c_thphi, c_thdelta);
        board_undo(b);
    }
    if (multi)
        atomic_fetch_sub_explicit(&s->busy[busy_index(key)], 1, memory_order_relaxed);
    ProofNum pn = is_or ? phi : delta, dn = is_or ? delta : phi;
    Point bm = c->mv[(!is_or && pn == 0) ? hard : best];
    TTData t = { pn, dn, bm, tt_work_log(w->nodes - start), exact };
    tt_store(&s->tt, key, &t);
}

static void worker_done(Worker *w)
{
    free(w->stack);
    free(w->cache);
    vct_free(w->vct);
    w->stack = NULL;
    w->cache = NULL;
    w->vct = NULL;
}

static int worker_init(Worker *w, Dfpn *s, const Board *b, int tid)
{
    memset(w, 0, sizeof *w);
    w->s = s;
    w->b = *b;
    w->tid = tid;
    w->stack = malloc(sizeof(Children) * MAX_PLY);
    w->cache = calloc((size_t)1 << GEN_CACHE_BITS, sizeof *w->cache);
    w->vct = vct_new(VCT_TT_LOG2, VCT_TREE);
    if (w->stack && w->cache && w->vct)
        return 0;
    worker_done(w);
    return RJ_ENOMEM;
}

static void worker_flush(Worker *w)
{
    atomic_fetch_add(&w->s->nodes, w->unflushed);
    w->unflushed = 0;
}

void dfpn_config_default(DfpnConfig *c)
{
    memset(c, 0, sizeof *c);
    c->attacker = EMPTY;
    c->rules = RULE_RENJU;
    c->threads = 1;
    c->tt_mb = 64;
    c->progress_interval = 0.5;
}

int dfpn_create(Dfpn **out, const DfpnConfig *cfg)
{
    *out = NULL;
    if (cfg->threads < 1 || cfg->tt_mb < 1)
        return RJ_EBADARG;
    qvcf_init();
    Dfpn *s = calloc(1, sizeof *s);
    if (!s)
        return RJ_ENOMEM;
    s->cfg = *cfg;
    if (s->cfg.vcf_budget == 0)
        s->cfg.vcf_budget = DEFAULT_VCF_BUDGET;
    if (s->cfg.vct_budget == 0)
        s->cfg.vct_budget = DEFAULT_VCT_BUDGET;
    if (s->cfg.progress_interval <= 0)
        s->cfg.progress_interval = 0.5;
    s->busy = calloc((size_t)1 << BUSY_BITS, sizeof *s->busy);
    int rc = s->busy ? tt_create(&s->tt, cfg->tt_mb) : RJ_ENOMEM;
    if (rc) {
        dfpn_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void dfpn_free(Dfpn *s)
{
    if (!s)
        return;
    tt_free(&s->tt);
    free(s->busy);
    free(s);
}

void dfpn_clear(Dfpn *s) { tt_clear(&s->tt); }

void dfpn_request_stop(Dfpn *s) { atomic_store(&s->stop_internal, true); }

const TT *dfpn_tt(const Dfpn *s) { return &s->tt; }

const DfpnConfig *dfpn_config(const Dfpn *s) { return &s->cfg; }

/* Principal variation: follow the TT's best moves from the root. */
static void extract_pv(const Dfpn *s, const Board *root, DfpnResult *res)
{
    Board b = *root;
    res->pv_len = 0;
    while (res->pv_len < DFPN_MAX_PV && b.ply < MAX_PLY - 1) {
        TTData e;
        if (!tt_probe(&s->tt, dfpn_tt_key(&b, s->attacker), &e) || e.best == POINT_NONE)
            break;
        if (e.best != POINT_PASS && (e.best >= BOARD_POINTS || board_at(&b, e.best) != EMPTY))
            break;
        res->pv[res->pv_len++] = e.best;
        board_play(&b, e.best);
        Color winner;
        if (rules_game_over(&b, s->cfg.rules, &winner))
            break;
    }
}

int dfpn_solve(Dfpn *s, const Board *b, DfpnResult *res)
{
    memset(res, 0, sizeof *res);
    s->attacker = s->cfg.attacker == EMPTY ? b->to_move : s->cfg.attacker;
    s->root_key = dfpn_tt_key(b, s->attacker);
    atomic_store(&s->stop_internal, false);
    atomic_store(&s->interrupted, false);
    atomic_store(&s->nodes, 0);
    s->t0 = now_s();
    s->deadline = s->cfg.max_time > 0 ? s->t0 + s->cfg.max_time : 0;
    s->node_limit = s->cfg.max_nodes;
    int nthreads = s->cfg.threads;
    int err = 0;
    uint64_t max_thread_nodes = 0;
#pragma omp parallel num_threads(nthreads) shared(err, max_thread_nodes)
    {
        Worker w;
        if (worker_init(&w, s, b, omp_get_thread_num())) {
#pragma omp atomic write
            err = RJ_ENOMEM;
        } else {
            w.next_progress = s->t0 + s->cfg.progress_interval;
            while (!should_stop(&w)) {
                TTData e;
                if (tt_probe(&s->tt, s->root_key, &e) && (e.pn == 0 || e.dn == 0))
                    break;
                mid(&w, 0, PN_INF, PN_INF);
            }
            atomic_store(&s->stop_internal, true); /* solved or stopped: everyone unwinds */
#pragma omp critical(dfpn_max_nodes)
            if (w.nodes > max_thread_nodes)
                max_thread_nodes = w.nodes;
            worker_flush(&w);
            worker_done(&w);
        }
    }
    if (err)
        return err;
    TTData e = { 1, 1, POINT_NONE, 0, false };
    bool found = tt_probe(&s->tt, s->root_key, &e);
    res->attacker = s->attacker;
    res->nodes = atomic_load(&s->nodes);
    res->max_thread_nodes = max_thread_nodes;
    res->time_s = now_s() - s->t0;
    res->root_pn = e.pn;
    res->root_dn = e.dn;
    res->best = found ? e.best : POINT_NONE;
    res->interrupted = s->cfg.stop && atomic_load(s->cfg.stop);
    if (found && e.pn == 0) {
        res->result = RESULT_PROVEN;
    } else if (found && e.dn == 0) {
        res->result = e.exact ? RESULT_DISPROVEN : RESULT_UNKNOWN;
        res->candidates_refuted = !e.exact;
    } else {
        res->result = RESULT_UNKNOWN;
        res->stopped = true;
    }
    extract_pv(s, b, res);
    return 0;
}

Result dfpn_search_node(Dfpn *s, Board *b, Color attacker, uint64_t max_nodes)
{
    Worker w;
    if (worker_init(&w, s, b, 0))
        return RESULT_UNKNOWN;
    Color saved = s->attacker;
    int saved_threads = s->cfg.threads;
    s->attacker = attacker;
    s->cfg.threads = 1;
    atomic_store(&s->stop_internal, false);
    s->deadline = 0;
    s->node_limit = 0;
    w.limit = max_nodes ? max_nodes : 0;
    Key key = dfpn_tt_key(b, attacker);
    TTData e;
    while (!should_stop(&w)) {
        if (tt_probe(&s->tt, key, &e) && (e.pn == 0 || e.dn == 0))
            break;
        mid(&w, 0, PN_INF, PN_INF);
    }
    worker_done(&w);
    s->attacker = saved;
    s->cfg.threads = saved_threads;
    if (tt_probe(&s->tt, key, &e))
        return e.pn == 0 ? RESULT_PROVEN : e.dn == 0 ? RESULT_DISPROVEN : RESULT_UNKNOWN;
    return RESULT_UNKNOWN;
}

bool dfpn_leaf_win(const Dfpn *s, Board *b, Color attacker, ProofWriter *w, uint64_t *pnodes, uint32_t *pdepth)
{
    RuleSet rs = s->cfg.rules;
    size_t len = w ? w->len : 0;
    if (w ? qvcf_write_proof(b, attacker, rs, s->cfg.vcf_budget, w, pnodes, pdepth) == 0
          : qvcf_search(b, attacker, rs, s->cfg.vcf_budget, NULL, NULL))
        return true;
    if (w)
        w->len = len;
    if (s->cfg.no_vct)
        return false;
    VctCtx *vct = vct_new(VCT_TT_LOG2, VCT_TREE);
    if (!vct)
        return false;
    ThreatOpts o;
    memset(&o, 0, sizeof o);
    o.max_nodes = s->cfg.vct_budget * 20; /* a fresh context knows less than the search's */
    VctResult vr;
    bool win = vct_search(vct, b, attacker, rs, &o, &vr) == 0 && vr.result == RESULT_PROVEN;
    if (win && w) {
        win = vct_write_proof(vct, b, w) == 0;
        if (!win) {
            w->len = len;
        } else {
            ProofStats st;
            /* Size and depth of the appended subtree: frame it with a header to reuse proof_stats. */
            ProofWriter tmp = { 0 };
            pw_header(&tmp, rs, attacker);
            pw_bytes(&tmp, w->data + len, w->len - len);
            if (!tmp.err && proof_stats(b, tmp.data, tmp.len, &st) == 0) {
                if (pnodes)
                    *pnodes += st.nodes;
                if (pdepth && st.depth > *pdepth)
                    *pdepth = st.depth;
            }
            free(tmp.data);
        }
    }
    vct_free(vct);
    return win;
}
