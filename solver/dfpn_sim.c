/*
 * dfpn_sim.c - simulation (Kawano 1996): prove a defence by replaying the
 * proof of a sibling defence.
 *
 * At a defender node most replies are answered the same way: the attacker's
 * winning line after one reply usually wins after another.  When a child of
 * a defender node is proven, each unsolved sibling is tried by walking the
 * proven child's proof (the source) and the sibling (the target) side by
 * side: at an attacker node the target plays the move the source's proven
 * TT entry names; at a defender node every reply the target's own node
 * rules list is tried in turn, the source playing the same reply.  A target
 * node is proven only by its own node rules (ng_generate, leaf test
 * included) and by proven children, exactly as mid() proves nodes: the
 * source only guides the choice of the attacker's moves, so a simulation
 * cannot prove anything the search would not (and every proof is checked
 * when it is extracted).  The walk gives up at the first target node it
 * cannot follow (the source's entry is gone or unsolved, its move is not a
 * move of the target, a target leaf is disproven, a reply of the target has
 * no counterpart in the source) or when its work budget is spent; what it
 * proved on the way stays in the TT.
 *
 * Cost: a simulation does the node rules' work of each node it visits
 * (counted as search work), and no threshold bookkeeping.  Its budget is the
 * source's own work (TT work field), at least SIM_MIN_BUDGET and at most
 * DfpnConfig.sim_budget.
 *
 * Where: at defender nodes with more than DfpnConfig.sim_min_children
 * replies (default DFPN_SIM_MIN_CHILDREN = 4), on by default
 * (DFPN_SIM_BUDGET).  Measured (results/solver-bench.md, 1 thread):
 * - session 9, against no simulation: at every defender node it proved
 *   190-315 siblings per solve but perturbed the narrow threat lines (the 53
 *   positions of results/bench-positions.txt: total work 1.28x, geometric
 *   mean 1.05); at nodes of more than 24 replies only, those 53 kept their
 *   exact node counts, and the ladder (results/opening-ladder.txt, 1e7 work
 *   nodes) proved 36 of 57 instead of 34, geometric mean 0.95;
 * - session 10, the threshold on the ladder at 1e7 against 24: 8 gives a
 *   geometric mean of 0.994 and loses one position, 1 (everywhere) 0.853 with
 *   one gained and one lost, 4 0.844 with none lost and the median work to
 *   proof 648,926 -> 380,591; on the 53 bench positions 4 costs 1.29x in
 *   total, all of it one position (`h8 i9 i7 i8 g7 h6`, 2.6e5 -> 1.05e7; the
 *   others within a few percent).  The ladder is the suite of the hard
 *   opening lines, so 4 it is.
 */
#include <string.h>

#include "board.h"
#include "dfpn_impl.h"
#include "tt.h"

enum { SIM_MIN_BUDGET = 256 };

typedef struct {
    Worker *w;
    Board *src;     /* the source position, at the same depth as the target (w->b) */
    uint64_t limit; /* absolute limit on w->nodes */
    /*
     * Where the two positions differ: the source's defence (a stone the
     * target lacks) and the target's (a stone the source lacks); POINT_NONE
     * for a pass, or once the target has replied on src_extra: the source
     * then replies on tgt_extra, and the two positions are the same.
     */
    Point src_extra, tgt_extra;
} Sim;

static bool sim_and(Sim *m, int depth);

/* Look the target node up: 1 proven, -1 disproven, 0 neither. */
static int sim_probe(const Worker *w, Key key)
{
    TTData e;
    if (!probe_kept(w->s, key, &e))
        return 0;
    return e.pn == 0 ? 1 : e.dn == 0 ? -1 : 0;
}

/* Store a target node's result (work: the simulation's nodes spent on it). */
static void sim_store(Worker *w, Key key, bool proven, Point best, bool exact, uint64_t start)
{
    TTData t = {proven ? 0 : PN_INF, proven ? PN_INF : 0, best, tt_work_log(w->nodes - start), exact};
    dfpn_tt_put(w, key, &t);
}

static bool sim_over(const Sim *m) { return m->w->nodes >= m->limit || should_stop(m->w); }

/* Where a target node stands before its children are followed. */
typedef struct {
    Key key;        /* its TT key */
    uint64_t start; /* w->nodes when it was entered */
    Children *c;    /* its children (stack[depth]) */
} SimNode;

/*
 * Enter the target node at depth: 1 proven, -1 not provable here (disproven,
 * beyond the limits), 0 open with its children in n->c (generated with the
 * leaf test).  A terminal node's result is stored.
 */
static int sim_enter(Sim *m, int depth, SimNode *n)
{
    Worker *w = m->w;
    Board *b = &w->b;
    if (depth >= MAX_PLY - 1 || b->ply >= MAX_PLY - 2 || sim_over(m))
        return -1;
    n->key = dfpn_tt_key(b, w->s->attacker) ^ w->salt;
    int known = sim_probe(w, n->key);
    if (known)
        return known;
    n->start = w->nodes;
    dfpn_count_work(w, 1);
    n->c = &w->stack[depth];
    NodeStatus st = dfpn_node_gen(w, n->key, false, n->c);
    if (st.result == RESULT_UNKNOWN)
        return 0;
    sim_store(w, n->key, st.result == RESULT_PROVEN, st.best, st.exact, n->start);
    return st.result == RESULT_PROVEN ? 1 : -1;
}

/* Attacker to move on the target: follow the source's proven move. */
static bool sim_or(Sim *m, int depth)
{
    Worker *w = m->w;
    Dfpn *s = w->s;
    Board *b = &w->b;
    SimNode n;
    int at = sim_enter(m, depth, &n);
    if (at)
        return at > 0;
    Key key = n.key;
    uint64_t start = n.start;
    Children *c = n.c;
    TTData se;
    if (!probe_kept(s, dfpn_tt_key(m->src, s->attacker) ^ w->salt, &se) || se.pn != 0 || se.best == POINT_NONE)
        return false;
    Point mv = se.best;
    bool listed = false;
    for (int i = 0; i < c->n && !listed; i++)
        listed = c->mv[i] == mv;
    if (!listed || (mv != POINT_PASS && board_at(m->src, mv) != EMPTY))
        return false;
    board_play(b, mv);
    board_play(m->src, mv);
    bool ok = sim_and(m, depth + 1);
    board_undo(m->src);
    board_undo(b);
    if (ok)
        sim_store(w, key, true, mv, false, start);
    return ok;
}

/* Defender to move on the target: every reply of the target, answered as in the source. */
static bool sim_and(Sim *m, int depth)
{
    Worker *w = m->w;
    Board *b = &w->b;
    SimNode n;
    int at = sim_enter(m, depth, &n);
    if (at)
        return at > 0;
    Key key = n.key;
    uint64_t start = n.start;
    Children *c = n.c;
    /*
     * A reply on the source's defence is answered in the source by the
     * target's defence (the two positions are then the same); a reply on
     * another point the source holds has no counterpart there.
     */
    for (int i = 0; i < c->n; i++)
        if (c->mv[i] != POINT_PASS && c->mv[i] != m->src_extra && board_at(m->src, c->mv[i]) != EMPTY)
            return false;
    for (int i = 0; i < c->n; i++) {
        Point d = c->mv[i];
        Point sx = m->src_extra, tx = m->tgt_extra;
        bool swap = d != POINT_PASS && d == sx;
        if (swap && (tx == POINT_NONE || board_at(m->src, tx) != EMPTY))
            return false;
        board_play(b, d);
        board_play(m->src, swap ? tx : d);
        if (swap)
            m->src_extra = m->tgt_extra = POINT_NONE;
        bool ok = sim_or(m, depth + 1);
        m->src_extra = sx, m->tgt_extra = tx;
        board_undo(m->src);
        board_undo(b);
        if (!ok)
            return false;
    }
    sim_store(w, key, true, c->n > 0 ? c->mv[0] : POINT_NONE, false, start);
    return true;
}

void dfpn_simulate_siblings(Worker *w, int depth, Children *c, int src_i)
{
    const DfpnConfig *cfg = &w->s->cfg;
    if (cfg->sim_budget == 0 || c->n <= cfg->sim_min_children || depth + 2 >= MAX_PLY)
        return;
    uint64_t budget = (uint64_t)1 << (c->work[src_i] < 40 ? c->work[src_i] : 40);
    if (budget < SIM_MIN_BUDGET)
        budget = SIM_MIN_BUDGET;
    if (budget > cfg->sim_budget)
        budget = cfg->sim_budget;
    Board *b = &w->b;
    for (int j = 0; j < c->n && !should_stop(w); j++) {
        if (j == src_i || c->pn[j] == 0 || c->dn[j] == 0)
            continue;
        w->sim_src = *b;
        board_play(&w->sim_src, c->mv[src_i]);
        Point si = c->mv[src_i], tj = c->mv[j];
        Sim m = {w, &w->sim_src, w->nodes + budget, si == POINT_PASS ? POINT_NONE : si,
                 tj == POINT_PASS ? POINT_NONE : tj};
        board_play(b, c->mv[j]);
        bool ok = sim_or(&m, depth + 1);
        board_undo(b);
        if (ok) {
            w->sim_proven++;
            c->pn[j] = 0, c->dn[j] = PN_INF;
            c->exact[j] = false;
            c->work[j] = tt_work_log(budget);
        }
    }
}
