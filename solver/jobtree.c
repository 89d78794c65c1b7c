/* jobtree.c - see jobtree.h. */
#include "jobtree.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "rules.h"
#include "sym.h"

enum { PHASE_FRESH = 0, PHASE_EVALUATED = 1, PHASE_EXPANDED = 2 };

typedef struct {
    SymKey key;              /* canonical, the pass flag included */
    Point path[JT_MAX_PATH]; /* the moves from the root that first reached it */
    uint8_t npath;
    uint8_t phase;
    uint8_t status; /* Result */
    bool running;
    bool selectable;   /* an open leaf below (or itself) is not running */
    bool counted;      /* a count node: each child is to be decided */
    bool borrowed;     /* white to move: its pass's proof was tried on its other children */
    bool sim_tried;    /* black to move: its proven siblings' proofs were tried on it (Simulation) */
    bool repair_tried; /* black to move: a donor's proof was mended for it (Repair) */
    bool count_open;   /* a count node with work left */
    int nclasses;      /* a counted node: its move classes (W's upper bound before expansion) */
    Color to_move;
    int stones;
    ProofNum pn, dn;   /* current */
    ProofNum epn, edn; /* leaf estimate: heuristic, then the last job's */
    JtState st;
    int nch;
    int *ch;        /* child node ids */
    MoveClass *cls; /* the move class of each child (POINT_PASS alone for the pass) */
    uint32_t stamp;
    uint32_t estamp;
    bool dirty;          /* its numbers are to be recomputed (Updates) */
    int par0;            /* its first parent (-1: none, the root) */
    int pext;            /* its other parents: a list in JobTree.pe (-1: none) */
    uint64_t sub_effort; /* a counted root child of goal fair-n: the work of its subtree (Selection) */
    int via;             /* a running leaf of goal fair-n: the counted root child it was picked through */
} Node;

/* One more parent of a node: a list through JobTree.pe (Updates). */
typedef struct {
    int parent, next;
} ParentLink;

struct JobTree {
    JtConfig cfg;
    JtSource src;
    Board root;
    Node *nodes;
    int n, cap;
    uint64_t *slots; /* hash of node ids by key: slot_make(hash, id), 0 empty (The node table) */
    size_t nslots;
    uint32_t stamp;
    int running;
    JtStats stats;
    ParentLink *pe; /* the parents of nodes beyond their first (Node.pext) */
    int npe, cappe;
    int err;             /* a source error met inside an update */
    bool borrowed_now;   /* a child was proven by borrowing during this update pass */
    bool repair_stopped; /* a repair was interrupted (a stop request): none is tried again */
};

/* ---- boards ---- */

/* The board of a node as jobs and the store see it (the setup position right after a pass). */
static void node_board(const JobTree *t, const Node *n, Board *b)
{
    *b = t->root;
    for (int i = 0; i < n->npath; i++)
        board_play(b, n->path[i]);
    if (board_last_move(b) == POINT_PASS) {
        Board tmp = *b;
        board_setup_copy(&tmp, b);
    }
}

/* A job's proof number as a leaf estimate: at least 1, at most JT_PN_CAP. */
static ProofNum cap_pn(ProofNum v) { return v == 0 ? 1 : v > JT_PN_CAP ? JT_PN_CAP : v; }

/* ---- the node table ---- */

/*
 * The node table: open addressing (linear probing, at most half full) over
 * slots that hold a node's id and 32 bits of its key's hash, so a probe
 * reads a node only when the hashes agree, and growing rehashes from the
 * slots alone.  (A 2.8M-node tree is loaded again node by node, each
 * expansion looking up every child: this is most of a resume's time.)
 */
_Static_assert(SYMKEY_LEN % 8 == 0, "key_hash reads the key in 8-byte words");

static uint32_t key_hash(const SymKey *k)
{
    uint64_t h = 0;
    for (int i = 0; i < SYMKEY_LEN; i += 8) {
        uint64_t w;
        memcpy(&w, k->b + i, 8);
        h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
        h ^= h >> 29;
    }
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    return (uint32_t)(h >> 32);
}

static uint64_t slot_make(uint32_t h, int id) { return (uint64_t)h << 32 | ((uint32_t)id + 1u); }
static uint32_t slot_hash(uint64_t s) { return (uint32_t)(s >> 32); }
static int slot_id(uint64_t s) { return (int)((uint32_t)s - 1u); }

/* Put id (key hash h) into the table s of ns slots. */
static void slot_put(uint64_t *s, size_t ns, uint32_t h, int id)
{
    size_t j = h & (ns - 1);
    while (s[j])
        j = (j + 1) & (ns - 1);
    s[j] = slot_make(h, id);
}

static int slots_grow(JobTree *t)
{
    size_t ns = t->nslots ? t->nslots * 2 : 1024;
    uint64_t *s = calloc(ns, sizeof *s);
    if (!s)
        return RJ_ENOMEM;
    for (size_t i = 0; i < t->nslots; i++)
        if (t->slots[i])
            slot_put(s, ns, slot_hash(t->slots[i]), slot_id(t->slots[i]));
    free(t->slots);
    t->slots = s;
    t->nslots = ns;
    return 0;
}

static int find_node(const JobTree *t, const SymKey *k, uint32_t h)
{
    size_t j = h & (t->nslots - 1);
    for (uint64_t s; (s = t->slots[j]) != 0; j = (j + 1) & (t->nslots - 1))
        if (slot_hash(s) == h && !memcmp(t->nodes[slot_id(s)].key.b, k->b, SYMKEY_LEN))
            return slot_id(s);
    return -1;
}

static int expand(JobTree *t, int id);
static uint64_t sub_effort(JobTree *t, int id);

/*
 * The node for board b (reached from node `parent` by move m; parent -1 for
 * the root): found, or made with its stored result and saved state (and
 * expanded again when it was expanded before).  *out gets its id.  key is
 * b's canonical key when the caller has it, else NULL.
 */
static int get_node(JobTree *t, int parent, Point m, const Board *b, const SymKey *key, int *out)
{
    SymKey k;
    if (key)
        k = *key;
    else
        sym_canonical(b, t->cfg.rules, &k, NULL);
    uint32_t h = key_hash(&k);
    int id = find_node(t, &k, h);
    if (id >= 0) {
        *out = id;
        return 0;
    }
    if (parent >= 0 && t->nodes[parent].npath >= JT_MAX_PATH)
        return RJ_EBADARG;
    if (2 * (size_t)(t->n + 1) > t->nslots) {
        int rc = slots_grow(t);
        if (rc)
            return rc;
    }
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 256;
        Node *nn = realloc(t->nodes, (size_t)cap * sizeof *nn);
        if (!nn)
            return RJ_ENOMEM;
        t->nodes = nn;
        t->cap = cap;
    }
    id = t->n++;
    Node *n = &t->nodes[id];
    memset(n, 0, sizeof *n);
    n->key = k;
    if (parent >= 0) {
        const Node *p = &t->nodes[parent];
        memcpy(n->path, p->path, p->npath);
        n->path[p->npath] = m;
        n->npath = (uint8_t)(p->npath + 1);
    }
    slot_put(t->slots, t->nslots, h, id);
    t->stats.tree_nodes++;
    n->to_move = b->to_move;
    n->stones = board_stone_count(b);
    n->status = RESULT_UNKNOWN;
    n->epn = n->edn = 1;
    n->st.best = POINT_NONE;
    n->dirty = true;
    n->par0 = n->pext = -1;
    *out = id;

    Color winner;
    if (rules_game_over(b, t->cfg.rules, &winner)) {
        n->status = winner == BLACK ? RESULT_PROVEN : RESULT_DISPROVEN;
        return 0;
    }
    Board sb;
    const Board *lb = b;
    if (board_last_move(b) == POINT_PASS) {
        board_setup_copy(b, &sb);
        lb = &sb;
    }
    Result r;
    int rc = t->src.lookup(t->src.ctx, lb, &r);
    if (rc == 0 && r != RESULT_UNKNOWN)
        n->status = (uint8_t)r;
    else if (rc && rc != RJ_ENOTFOUND)
        return rc;
    JtState st;
    rc = t->src.load(t->src.ctx, lb, &st);
    if (rc == 0) {
        if (st.nest > 0 && !st.est)
            st.nest = 0;
        t->nodes[id].st = st;
        if (st.jobs || st.probed) {
            t->nodes[id].phase = PHASE_EVALUATED;
            t->nodes[id].epn = cap_pn(st.pn);
            t->nodes[id].edn = cap_pn(st.dn);
        }
        if (st.expanded)
            return expand(t, id);
    } else if (rc != RJ_ENOTFOUND) {
        return rc;
    }
    return 0;
}

/* ---- updates ---- */

/*
 * Updates: a pass recomputes only the dirty nodes, those whose own state
 * changed (a job handed out or ended, an expansion, a proof found for it)
 * and their ancestors: a node is marked dirty together with all its parents,
 * so a clean node's subtree has not changed since it was last computed, and
 * its numbers are still what a recomputation would give.  The tree is a
 * DAG, so a node keeps all its parents.
 */
static void mark_dirty(JobTree *t, int id)
{
    Node *n = &t->nodes[id];
    if (n->dirty)
        return; /* its ancestors are dirty too */
    n->dirty = true;
    if (n->par0 >= 0)
        mark_dirty(t, n->par0);
    for (int e = n->pext; e >= 0; e = t->pe[e].next)
        mark_dirty(t, t->pe[e].parent);
}

/* Room for `extra` more parent links, so that linking a node's children cannot fail halfway. */
static int reserve_parents(JobTree *t, int extra)
{
    if (t->npe + extra <= t->cappe)
        return 0;
    int cap = t->cappe ? t->cappe : 1024;
    while (cap < t->npe + extra)
        cap *= 2;
    void *np = realloc(t->pe, (size_t)cap * sizeof *t->pe);
    if (!np)
        return RJ_ENOMEM;
    t->pe = np;
    t->cappe = cap;
    return 0;
}

/* Parent links: room reserved first (reserve_parents). */
static void add_parent(JobTree *t, int child, int parent)
{
    Node *c = &t->nodes[child];
    if (c->par0 < 0 || c->par0 == parent) {
        c->par0 = parent;
        return;
    }
    for (int e = c->pext; e >= 0; e = t->pe[e].next)
        if (t->pe[e].parent == parent)
            return;
    t->pe[t->npe].parent = parent;
    t->pe[t->npe].next = c->pext;
    c->pext = t->npe++;
    t->stats.links++;
}

/* ---- expansion ---- */

/* Children of node id (board b): fifth.h classes of the mover's moves, and white's pass. */
static int expand(JobTree *t, int id)
{
    if (t->nodes[id].phase == PHASE_EXPANDED)
        return 0;
    Board b;
    node_board(t, &t->nodes[id], &b);
    MoveClass *cls = malloc(sizeof *cls * (BOARD_POINTS + 1));
    int *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    if (!cls || !ch) {
        free(cls);
        free(ch);
        return RJ_ENOMEM;
    }
    MoveClass all[BOARD_POINTS];
    int k = fifth_move_classes(&b, t->cfg.rules, all);
    bool white = b.to_move == WHITE;
    Color mover = b.to_move;
    SymKey imgs[NUM_SYMS]; /* the children's keys come from these */
    sym_images(&b, t->cfg.rules, imgs);
    Point best = t->nodes[id].st.best;
    int nest = t->nodes[id].st.nest;
    const JtEst *est = t->nodes[id].st.est;
    ProofNum max_pn = 1, max_dn = 1;
    for (int i = 0; i < nest; i++) {
        max_pn = cap_pn(est[i].pn) > max_pn ? cap_pn(est[i].pn) : max_pn;
        max_dn = cap_pn(est[i].dn) > max_dn ? cap_pn(est[i].dn) : max_dn;
    }
    int nch = 0;
    int rc = 0;
    for (int i = 0; i <= k && rc == 0; i++) {
        MoveClass mc;
        if (i == k) {
            if (!white)
                break;
            mc.n = 1;
            mc.moves[0] = POINT_PASS;
        } else {
            mc = all[i];
        }
        Point m = mc.moves[0];
        board_play(&b, m);
        Color winner;
        bool over = rules_game_over(&b, t->cfg.rules, &winner);
        /* A white move after which black makes five at once is a short loss the checker accepts. */
        Point fp[BOARD_POINTS];
        if (white && !over && rules_five_points(&b, BLACK, t->cfg.rules, fp) > 0) {
            board_undo(&b);
            continue;
        }
        int cid, made = t->n;
        SymKey ck;
        sym_canonical_after(imgs, mover, m, &ck, NULL);
        rc = get_node(t, id, m, &b, &ck, &cid);
        board_undo(&b);
        if (rc)
            break;
        Node *c = &t->nodes[cid];
        if (c->phase == PHASE_FRESH && c->st.jobs == 0) {
            mark_dirty(t, cid); /* new estimates: its other parents too */
            ProofNum opn = c->epn, odn = c->edn;
            int d = m == POINT_PASS ? 9 : board_stone_dist(&b, m);
            int e = -1;
            for (int j = 0; j < nest; j++)
                for (int q = 0; q < mc.n; q++)
                    if (est[j].mv == mc.moves[q] && (e < 0 || est[j].pn < est[e].pn))
                        e = j;
            if (e >= 0) {
                c->epn = cap_pn(est[e].pn);
                c->edn = cap_pn(est[e].dn);
            } else if (nest > 0) {
                /* not among the job's children: after every line it saw */
                c->epn = white ? 1 : cap_pn(2 * max_pn > t->cfg.unlisted_pn ? 2 * max_pn : t->cfg.unlisted_pn);
                c->edn = white ? cap_pn(2 * max_dn) : 1;
            } else if (white) {
                c->epn = 1;
                c->edn = d <= 1 ? 1 : d == 2 ? 2 : d == 3 ? 4 : 8;
            } else {
                bool is_best = false;
                for (int j = 0; j < mc.n; j++)
                    is_best |= mc.moves[j] == best;
                c->epn = is_best ? 1 : d <= 1 ? 2 : d == 2 ? 3 : d == 3 ? 6 : 12;
                c->edn = 1;
            }
            if (cid < made) { /* a transposition: the least of its parents' estimates, in any order */
                c->epn = opn < c->epn ? opn : c->epn;
                c->edn = odn < c->edn ? odn : c->edn;
            }
        }
        cls[nch] = mc;
        ch[nch++] = cid;
    }
    if (!rc)
        rc = reserve_parents(t, nch);
    if (rc) {
        free(cls);
        free(ch);
        return rc;
    }
    for (int i = 0; i < nch; i++)
        add_parent(t, ch[i], id);
    Node *n = &t->nodes[id];
    n->cls = cls;
    n->ch = ch;
    n->nch = nch;
    n->phase = PHASE_EXPANDED;
    t->stats.expanded++;
    mark_dirty(t, id);
    if (!n->st.expanded && t->src.save) {
        n->st.expanded = true;
        Board sb;
        node_board(t, n, &sb);
        rc = t->src.save(t->src.ctx, &sb, &n->st);
    }
    n->st.expanded = true;
    /* The estimates have done their work (saved with the expansion; no later save drops them). */
    free(n->st.est);
    n->st.est = NULL;
    n->st.nest = 0;
    return rc;
}

/* ---- proof numbers ---- */

static void solved_inner(JobTree *t, int id, Result r, int win_child)
{
    Node *n = &t->nodes[id];
    n->status = (uint8_t)r;
    t->stats.composed++;
    if (!t->src.solved)
        return;
    JtMoves *m = malloc(sizeof *m);
    if (!m) {
        t->err = RJ_ENOMEM;
        return;
    }
    m->n = 0;
    if (r == RESULT_PROVEN && n->to_move == BLACK) {
        m->mv[m->n++] = n->cls[win_child].moves[0];
    } else if (r == RESULT_PROVEN) {
        for (int i = 0; i < n->nch; i++)
            for (int j = 0; j < n->cls[i].n; j++)
                m->mv[m->n++] = n->cls[i].moves[j];
    }
    Board b;
    node_board(t, n, &b);
    int rc = t->src.solved(t->src.ctx, &b, r, m);
    free(m);
    if (rc == RJ_EBADDATA)
        t->stats.compose_failed++;
    else if (rc && !t->err)
        t->err = rc;
}

static bool try_repair(JobTree *t, int pid, int ci, int id, int permille, int *why);
static void repair_budget(const JobTree *t, int id, int permille, uint64_t *nodes, int *calls);

/* The budget level of a repair of node id (JtState.repair_level): 1 + floor(log2(calls x nodes)). */
static int repair_level(const JobTree *t, int id, int permille)
{
    uint64_t nodes;
    int calls;
    repair_budget(t, id, permille, &nodes, &calls);
    uint64_t total = nodes * (uint64_t)calls;
    int level = 1;
    while (total > 1 && level < JT_MAX_REPAIR_LEVEL) {
        total >>= 1;
        level++;
    }
    return level;
}

/* Chebyshev distance between two points (the donor order of Simulation and Repair). */
static int move_dist(Point a, Point b)
{
    int dr = abs(point_row(a) - point_row(b)), dc = abs(point_col(a) - point_col(b));
    return dr > dc ? dr : dc;
}

/* Child i of white-to-move node id is proven by a borrowed or mended proof (stored by the source). */
static void borrowed(JobTree *t, int id, int i)
{
    const Node *n = &t->nodes[id];
    Node *c = &t->nodes[n->ch[i]];
    c->status = RESULT_PROVEN;
    c->pn = 0;
    c->dn = PN_INF;
    c->selectable = false;
    t->stats.borrowed++;
    t->borrowed_now = true;
    mark_dirty(t, n->ch[i]); /* its other parents, and n again */
}

/*
 * A white-to-move node whose pass child is proven: try the pass's proof on
 * each open child not running (once per node; Borrowing, jobtree.h), and
 * at the root, with JtConfig.borrow_repair_permille, mend it where it does
 * not hold: after every child's check, the moves farthest from the stones
 * first (Repair, jobtree.h).
 */
static void borrow_pass(JobTree *t, int id)
{
    Node *n = &t->nodes[id];
    if (!t->cfg.borrow_pass || !t->src.borrow || n->borrowed || n->to_move != WHITE || n->phase != PHASE_EXPANDED ||
        n->status != RESULT_UNKNOWN)
        return;
    int pass = -1;
    for (int i = 0; i < n->nch; i++)
        if (n->cls[i].moves[0] == POINT_PASS)
            pass = i;
    if (pass < 0 || t->nodes[n->ch[pass]].status != RESULT_PROVEN)
        return;
    n->borrowed = true;
    /* Both boards from n's own (a child reached first by a transposition has its own frame). */
    Board nb, pb;
    node_board(t, n, &nb);
    Board after_pass = nb;
    board_play(&after_pass, POINT_PASS);
    board_setup_copy(&after_pass, &pb);
    bool repair = id == 0 && t->cfg.borrow_repair_permille > 0 && t->src.repair;
    int later[BOARD_POINTS + 1], far[BOARD_POINTS + 1], nl = 0;
    for (int i = 0; i < n->nch && !t->err; i++) {
        Node *c = &t->nodes[n->ch[i]];
        if (c->status != RESULT_UNKNOWN || c->running)
            continue;
        int rc = RJ_EBADDATA;
        for (int k = 0; k < n->cls[i].n && rc == RJ_EBADDATA; k++) { /* each member: see try_repair */
            Board cb = nb;
            board_play(&cb, n->cls[i].moves[k]);
            t->stats.borrow_tries++;
            rc = t->src.borrow(t->src.ctx, &cb, &pb);
        }
        if (rc == 0) {
            borrowed(t, id, i);
        } else if (rc != RJ_ENOTFOUND && rc != RJ_EBADDATA) {
            t->err = rc;
        } else if (repair && !c->repair_tried &&
                   c->st.repair_level >= repair_level(t, n->ch[i], t->cfg.borrow_repair_permille)) {
            c->repair_tried = true; /* failed before at this budget: no leaf repair either (the same donors) */
        } else if (repair && !c->repair_tried) {
            /* the repairs after every check, the moves farthest from the stones first (Repair, jobtree.h) */
            int d = board_stone_dist(&nb, n->cls[i].moves[0]), k = nl++;
            while (k > 0 && far[k - 1] < d) {
                later[k] = later[k - 1];
                far[k] = far[k - 1];
                k--;
            }
            later[k] = i;
            far[k] = d;
        }
    }
    for (int k = 0; k < nl && !t->err && !t->repair_stopped; k++) {
        int i = later[k];
        n = &t->nodes[id];
        t->nodes[n->ch[i]].repair_tried = true;
        int level = repair_level(t, n->ch[i], t->cfg.borrow_repair_permille);
        int why = 0;
        bool ok = try_repair(t, id, i, n->ch[i], t->cfg.borrow_repair_permille, &why);
        if (t->err)
            return;
        n = &t->nodes[id];
        Node *c = &t->nodes[n->ch[i]];
        if (ok) {
            borrowed(t, id, i);
        } else if (why == RJ_EBADDATA && t->src.save) { /* it ran and failed at this level: not again on resume */
            c->st.repair_level = (uint8_t)level;
            Board cb = nb;
            board_play(&cb, n->cls[i].moves[0]);
            int rc = t->src.save(t->src.ctx, &cb, &c->st);
            if (rc)
                t->err = rc;
        }
    }
}

/*
 * Simulation: before the first job of child ci of white-to-move node pid
 * (black to move after white's move), try the proofs of its proven siblings
 * on it, the sim_donors whose white moves lie nearest to its move first
 * (Simulation, jobtree.h).  True when one proved it.
 */
static bool try_siblings(JobTree *t, int pid, int ci)
{
    const Node *p = &t->nodes[pid];
    Point ym = p->cls[ci].moves[0];
    if (!t->src.borrow || ym >= BOARD_POINTS)
        return false;
    int donor[JT_MAX_SIM_DONORS], dist[JT_MAX_SIM_DONORS], nd = 0;
    int want = t->cfg.sim_donors < JT_MAX_SIM_DONORS ? t->cfg.sim_donors : JT_MAX_SIM_DONORS;
    if (want <= 0)
        return false;
    for (int i = 0; i < p->nch; i++) {
        Point xm = p->cls[i].moves[0];
        if (i == ci || xm >= BOARD_POINTS || t->nodes[p->ch[i]].status != RESULT_PROVEN)
            continue;
        int d = move_dist(xm, ym);
        int k;
        if (nd < want)
            k = nd++;
        else if (d < dist[want - 1])
            k = want - 1;
        else
            continue;
        while (k > 0 && dist[k - 1] > d) { /* insertion, nearest first, ties by class order */
            donor[k] = donor[k - 1];
            dist[k] = dist[k - 1];
            k--;
        }
        donor[k] = i;
        dist[k] = d;
    }
    Board pb, yb;
    node_board(t, p, &pb);
    yb = pb;
    board_play(&yb, ym);
    for (int j = 0; j < nd && !t->err; j++) {
        Board xb = pb;
        board_play(&xb, p->cls[donor[j]].moves[0]);
        t->stats.sim_tries++;
        int rc = t->src.borrow(t->src.ctx, &yb, &xb);
        if (rc == 0) {
            t->stats.simulated++;
            return true;
        }
        if (rc != RJ_ENOTFOUND && rc != RJ_EBADDATA)
            t->err = rc;
    }
    return false;
}

static uint64_t base_budget(const JobTree *t, const Node *n);

/* A repair of node id: at most *calls fresh proofs of at most *nodes work each (Repair). */
static void repair_budget(const JobTree *t, int id, int permille, uint64_t *nodes, int *calls)
{
    uint64_t b = base_budget(t, &t->nodes[id]) / 1000 * (uint64_t)permille;
    *nodes = b < 1000 ? 1000 : b;
    *calls = t->cfg.repair_calls > 0 ? t->cfg.repair_calls : 16;
}

/* A repair's code that ends the donors' loop: proven, stopped, or an error (not RJ_EBADDATA / RJ_ENOTFOUND). */
static bool ran_out(int rc) { return rc != RJ_EBADDATA && rc != RJ_ENOTFOUND; }

/* A family's key: the first move's least image under the parent's symmetries (stab: sym_stabiliser). */
static Point family_key(unsigned stab, Point first)
{
    Point k = first;
    for (int g = 0; g < NUM_SYMS && first < BOARD_POINTS; g++)
        if (stab >> g & 1u) {
            Point q = sym_apply(g, first);
            k = q < k ? q : k;
        }
    return k;
}

/*
 * The donors of a repair of child ci of white-to-move node pid (Repair,
 * jobtree.h), in the order to try them, as child indices of pid: for each
 * family of proven siblings (their stored proofs' first move, from the
 * source's first_move, up to the parent's symmetries; one family when it is
 * NULL) other than the pass's,
 * its member nearest to ci's move, the nearest families first; then white's
 * pass when it is proven.  Returns their count (at most JT_MAX_REPAIR_DONORS).
 */
static int repair_donors(JobTree *t, int pid, int ci, int *donor)
{
    const Node *p = &t->nodes[pid];
    Point ym = p->cls[ci].moves[0];
    Board pb;
    node_board(t, p, &pb);
    unsigned stab = sym_stabiliser(&pb); /* a mirror image of a proof is of the same family (its members) */
    int pass = -1;
    Point pass_first = POINT_NONE;
    int fam_dist[JT_MAX_REPAIR_DONORS], nf = 0;
    Point fam_first[JT_MAX_REPAIR_DONORS];
    int lim = JT_MAX_REPAIR_DONORS - 1; /* room for the pass */
    for (int i = 0; i < p->nch; i++)
        if (p->cls[i].moves[0] == POINT_PASS && t->nodes[p->ch[i]].status == RESULT_PROVEN)
            pass = i;
    if (pass >= 0 && t->src.first_move) {
        Board xb = pb, tmp;
        board_play(&xb, POINT_PASS);
        board_setup_copy(&xb, &tmp);
        if (t->src.first_move(t->src.ctx, &tmp, &pass_first) != 0)
            pass_first = POINT_NONE;
        pass_first = family_key(stab, pass_first);
    }
    if (pass >= 0 && !t->src.first_move)
        lim = 0; /* no families: the pass alone */
    for (int i = 0; i < p->nch && lim > 0; i++) {
        Point xm = p->cls[i].moves[0];
        if (i == ci || xm >= BOARD_POINTS || t->nodes[p->ch[i]].status != RESULT_PROVEN)
            continue;
        Point first = POINT_NONE;
        if (t->src.first_move) {
            Board xb = pb;
            board_play(&xb, xm);
            if (t->src.first_move(t->src.ctx, &xb, &first) != 0 || (first = family_key(stab, first)) == pass_first)
                continue; /* no proof to read, or the pass's family (mended from it, as a rule) */
        }
        int d = move_dist(xm, ym), f = 0;
        while (f < nf && fam_first[f] != first)
            f++;
        if (f < nf && d >= fam_dist[f])
            continue;
        if (f == nf) {
            if (nf == lim && d >= fam_dist[nf - 1])
                continue; /* the nearest families only */
            f = nf < lim ? nf++ : nf - 1;
        }
        fam_first[f] = first, fam_dist[f] = d, donor[f] = i;
        while (f > 0 && fam_dist[f - 1] > fam_dist[f]) { /* nearest first, ties in class order */
            int td = fam_dist[f - 1], ti = donor[f - 1];
            Point tf = fam_first[f - 1];
            fam_dist[f - 1] = fam_dist[f], donor[f - 1] = donor[f], fam_first[f - 1] = fam_first[f];
            fam_dist[f] = td, donor[f] = ti, fam_first[f] = tf;
            f--;
        }
    }
    if (pass >= 0)
        donor[nf++] = pass;
    return nf;
}

/*
 * Repair: before the whole job (or the expansion) of black-to-move leaf id,
 * child ci of white-to-move node pid, mend the proof of each donor in turn
 * (repair_donors: the other proof families' nearest members, then white's
 * pass) on each point of the leaf's class until one is proven (Repair,
 * jobtree.h).  True when it proved the leaf; *why (may be NULL): the
 * source's code (JtSource.repair): RJ_EBADDATA when one ran and none proved
 * it, RJ_ENOTFOUND when none ran.
 */
static bool try_repair(JobTree *t, int pid, int ci, int id, int permille, int *why)
{
    if (why)
        *why = RJ_ENOTFOUND;
    const Node *p = &t->nodes[pid];
    Point ym = p->cls[ci].moves[0];
    if (ym >= BOARD_POINTS || t->repair_stopped)
        return false;
    int donor[JT_MAX_REPAIR_DONORS];
    int nd = repair_donors(t, pid, ci, donor);
    if (nd == 0)
        return false;
    Board pb, yb, xb;
    node_board(t, p, &pb);
    uint64_t nodes;
    int calls;
    repair_budget(t, id, permille, &nodes, &calls);
    /*
     * Each donor in turn, and for each each member of the class (Repair,
     * jobtree.h: the members are one position, but a donor proof that is not
     * symmetric breaks on them differently), the representative last:
     * before session 35 it was the only one tried, and the saved levels
     * record those failures.
     */
    int nm = p->cls[ci].n;
    int rc = RJ_ENOTFOUND;
    bool ran = false;
    for (int j = 0; j < nd && !ran_out(rc); j++) {
        Point dm = p->cls[donor[j]].moves[0];
        xb = pb;
        board_play(&xb, dm);
        if (dm == POINT_PASS) { /* as the store keeps it (node_board) */
            Board tmp = xb;
            board_setup_copy(&tmp, &xb);
        }
        rc = RJ_EBADDATA;
        for (int k = 1; k <= nm && rc == RJ_EBADDATA; k++) {
            yb = pb;
            board_play(&yb, p->cls[ci].moves[k % nm]);
            uint64_t work = 0;
            rc = t->src.repair(t->src.ctx, &yb, &xb, nodes, calls, &work);
            if (rc != RJ_EINTR || work > 0)
                t->stats.repair_tries++; /* (not one the source refused to start) */
            ran |= rc == RJ_EBADDATA;
            t->stats.nodes += work;
            t->stats.repair_nodes += work;
            t->nodes[id].st.effort += work;
        }
    }
    if (rc == RJ_ENOTFOUND && ran)
        rc = RJ_EBADDATA; /* the last donor had no proof, an earlier one failed */
    if (why)
        *why = rc;
    if (rc == 0) {
        t->stats.repaired++;
        return true;
    }
    if (rc == RJ_EINTR)
        t->repair_stopped = true; /* a stop request: no more repairs, the search then stops as usual */
    else if (rc != RJ_ENOTFOUND && rc != RJ_EBADDATA)
        t->err = rc;
    return false;
}

/* Recompute pn/dn, status and selectability below id (once per stamp). */
static void update(JobTree *t, int id)
{
    Node *n = &t->nodes[id];
    if (n->stamp == t->stamp || !n->dirty)
        return;
    n->stamp = t->stamp;
    n->dirty = false; /* now: a change found below during this pass marks it again (Updates) */
    if (n->phase == PHASE_EXPANDED)
        for (int i = 0; i < n->nch; i++)
            update(t, n->ch[i]);
    borrow_pass(t, id);
    n = &t->nodes[id];
    bool open_child = false;
    int undecided = 0;
    if (n->phase == PHASE_EXPANDED) {
        for (int i = 0; i < n->nch; i++) {
            const Node *c = &t->nodes[n->ch[i]];
            /*
             * A child dirty again (a borrow below marked it after this pass had
             * visited it, and the mark stopped at a node still dirty): this
             * node's numbers from it are stale, so it stays dirty for the next pass.
             */
            n->dirty |= c->dirty;
            if (c->status == RESULT_UNKNOWN) {
                undecided++;
                open_child |= c->selectable;
            }
        }
    }
    if (n->status != RESULT_UNKNOWN) {
        n->pn = n->status == RESULT_PROVEN ? 0 : PN_INF;
        n->dn = n->status == RESULT_PROVEN ? PN_INF : 0;
        n->selectable = false;
    } else if (n->phase != PHASE_EXPANDED) {
        n->pn = n->epn;
        n->dn = n->edn;
        n->selectable = !n->running;
    } else {
        bool or_node = n->to_move == BLACK;
        ProofNum mn = PN_INF, sum = 0;
        int win = -1, proven = 0, disproven = 0;
        bool refuted = false;
        for (int i = 0; i < n->nch; i++) {
            const Node *c = &t->nodes[n->ch[i]];
            ProofNum a = or_node ? c->pn : c->dn, s = or_node ? c->dn : c->pn;
            if (a < mn)
                mn = a;
            sum = pn_add(sum, s);
            if (c->status == RESULT_PROVEN) {
                proven++;
                if (win < 0)
                    win = i;
            }
            refuted |= c->status == RESULT_DISPROVEN;
            disproven += c->status == RESULT_DISPROVEN;
        }
        n->pn = or_node ? mn : sum;
        n->dn = or_node ? sum : mn;
        if (or_node && t->cfg.fail_weight > 0 && n->st.jobs > 0) /* its own job failed: Selection, jobtree.h */
            n->pn = pn_add(n->pn, (ProofNum)((uint64_t)n->epn * (uint64_t)t->cfg.fail_weight / 100));
        n->selectable = open_child;
        if (or_node && win >= 0)
            solved_inner(t, id, RESULT_PROVEN, win);
        else if (or_node && disproven == n->nch)
            solved_inner(t, id, RESULT_DISPROVEN, -1); /* black's pass: white passes back, a draw */
        else if (!or_node && refuted)
            solved_inner(t, id, RESULT_DISPROVEN, -1);
        else if (!or_node && proven == n->nch)
            solved_inner(t, id, RESULT_PROVEN, -1);
        n = &t->nodes[id];
        if (n->status != RESULT_UNKNOWN) {
            n->pn = n->status == RESULT_PROVEN ? 0 : PN_INF;
            n->dn = n->status == RESULT_PROVEN ? PN_INF : 0;
            n->selectable = false;
        }
    }
    if (n->counted) {
        if (n->status == RESULT_DISPROVEN)
            n->count_open = false; /* W = 0 exactly */
        else if (n->phase == PHASE_EXPANDED)
            n->count_open = undecided > 0 && open_child;
        else
            n->count_open = !n->running && n->status != RESULT_DISPROVEN;
    }
}

static void update_all(JobTree *t)
{
    /*
     * Borrowing proves children during the pass; a node updated before one
     * of them (a transposition) is recomputed by another pass.  Each node
     * borrows once, so this ends.
     */
    do {
        t->borrowed_now = false;
        t->stamp++;
        update(t, 0);
    } while (t->borrowed_now && !t->err);
}

/* Proven children of an expanded node, and children not disproven. */
static void count_children(const JobTree *t, const Node *n, int *proven, int *open)
{
    *proven = *open = 0;
    for (int i = 0; i < n->nch; i++) {
        Result r = (Result)t->nodes[n->ch[i]].status;
        *proven += r == RESULT_PROVEN;
        *open += r != RESULT_DISPROVEN;
    }
}

/*
 * W bounds of a black-to-move node: its proven / not disproven children once
 * expanded (else 0 / nclasses), at least 1 when proven, 0 when disproven.
 */
static void node_w(const JobTree *t, const Node *c, int nclasses, int *lo, int *hi)
{
    *lo = 0;
    *hi = nclasses;
    if (c->phase == PHASE_EXPANDED)
        count_children(t, c, lo, hi);
    if (c->status == RESULT_PROVEN && *lo == 0)
        *lo = 1;
    if (c->status == RESULT_DISPROVEN)
        *hi = 0;
}

/* ---- life cycle ---- */

int jt_create(JobTree **out, const Board *root, const JtConfig *cfg, const JtSource *src)
{
    *out = NULL;
    Color winner;
    if (!cfg->job_nodes || rules_game_over(root, cfg->rules, &winner) || board_last_move(root) == POINT_PASS)
        return RJ_EBADARG;
    if (cfg->goal == JT_GOAL_COUNT && root->to_move != BLACK)
        return RJ_EBADARG;
    if (cfg->goal == JT_GOAL_FAIR_N && root->to_move != WHITE)
        return RJ_EBADARG;
    JobTree *t = calloc(1, sizeof *t);
    if (!t)
        return RJ_ENOMEM;
    t->cfg = *cfg;
    if (t->cfg.max_stones <= 0)
        t->cfg.max_stones = 40;
    t->src = *src;
    t->root = *root;
    int rc = slots_grow(t);
    int id = 0;
    if (!rc)
        rc = get_node(t, -1, POINT_NONE, root, NULL, &id);
    /*
     * The root of a goal that counts, or an opening, is expanded at once (a
     * job on it is wasted); so is a white-to-move root of goal win without
     * root reruns (its job would only list white's replies).  A read-only
     * view (status) expands an open white root no job has searched yet, so
     * that it lists white's moves; once the search has run root jobs it shows
     * the tree the search saved.
     */
    bool white_root = root->to_move == WHITE;
    bool fresh_view = !rc && !src->save && t->nodes[0].st.jobs == 0 && t->nodes[0].status == RESULT_UNKNOWN;
    if (!rc && (cfg->goal != JT_GOAL_WIN || (white_root && (cfg->root_rerun <= 0 || fresh_view))))
        rc = expand(t, 0);
    if (!rc && cfg->goal == JT_GOAL_COUNT)
        t->nodes[0].counted = true;
    if (!rc && cfg->goal == JT_GOAL_FAIR_N)
        for (int i = 0; i < t->nodes[0].nch; i++)
            if (t->nodes[0].cls[i].moves[0] != POINT_PASS) {
                Node *c = &t->nodes[t->nodes[0].ch[i]];
                c->counted = true;
                Board cb;
                node_board(t, c, &cb);
                Color w;
                MoveClass tmp[BOARD_POINTS];
                c->nclasses = rules_game_over(&cb, cfg->rules, &w) ? 0 : fifth_move_classes(&cb, cfg->rules, tmp);
            }
    if (!rc && cfg->goal == JT_GOAL_FAIR_N) { /* the saved work of each root child's subtree (Selection) */
        for (int i = 0; i < t->nodes[0].nch; i++) {
            t->stamp++; /* each class its whole subtree, the nodes it shares with other classes included */
            t->nodes[t->nodes[0].ch[i]].sub_effort = sub_effort(t, t->nodes[0].ch[i]);
        }
    }
    /* A counted child expanded on load may have solved nodes: no callbacks during load are lost. */
    if (!rc) {
        update_all(t);
        rc = t->err;
    }
    if (rc) {
        jt_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

void jt_free(JobTree *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n; i++) {
        free(t->nodes[i].ch);
        free(t->nodes[i].cls);
        free(t->nodes[i].st.est);
    }
    free(t->nodes);
    free(t->pe);
    free(t->slots);
    free(t);
}

/* ---- selection ---- */

/* A leaf not to be expanded (max_stones, or a path of passes at its length limit): jobs rerun, bigger. */
static bool at_limit(const JobTree *t, const Node *n)
{
    return n->stones >= t->cfg.max_stones || n->npath >= JT_MAX_PATH - 1;
}

/* A node's probe share in 1/1000 of its budget: by the side to move (Probes, jobtree.h). */
static int probe_share(const JobTree *t, const Node *n)
{
    return n->to_move == WHITE ? t->cfg.probe_permille : t->cfg.probe_black_permille;
}

/*
 * A move below the root that gets a probe first, or has had only its probe
 * (Probes, jobtree.h): its whole job comes next, also in a tree resumed with
 * probes off (unless skip_job: then its expansion).
 */
static bool probe_first(const JobTree *t, const Node *n)
{
    return (probe_share(t, n) > 0 || n->st.probed) && n->npath > 0 && n->st.jobs == 0 && !at_limit(t, n);
}

/* The budget of a probe of a job of b work nodes (it runs only when less than b). */
static uint64_t probe_budget(const JobTree *t, const Node *n, uint64_t b)
{
    uint64_t pb = b / 1000 * (uint64_t)probe_share(t, n);
    return pb < 1000 ? 1000 : pb;
}

/*
 * A node below the root with fewer than expand_below stones gets no whole
 * job: once it has had its probe (or at once where there is no probe) it is
 * expanded with the probe's estimates (Jobs, jobtree.h).
 */
static bool skip_job(const JobTree *t, const Node *n)
{
    return n->stones < t->cfg.expand_below && n->npath > 0 && n->st.jobs == 0 && !at_limit(t, n) &&
           (n->st.probed || probe_share(t, n) == 0);
}

/* A node's first budget: job_nodes, times scale for each stone below 6. */
static uint64_t base_budget(const JobTree *t, const Node *n)
{
    uint64_t b = t->cfg.job_nodes;
    for (int s = n->stones; s < 6 && t->cfg.scale > 1; s++)
        b = b > UINT64_MAX / 64 ? b : b * (uint64_t)t->cfg.scale;
    return b;
}

/*
 * The reruns of a goal-win root: root_rerun, fewer where the last would
 * exceed root_cap x job_nodes (Jobs, jobtree.h); -1 for any other node.
 */
static int root_reruns(const JobTree *t, const Node *n)
{
    if (n->npath != 0 || t->cfg.goal != JT_GOAL_WIN || t->cfg.root_rerun <= 0)
        return -1;
    uint64_t b = base_budget(t, n);
    int k = 0;
    while (k < t->cfg.root_rerun && b < (1ull << 40) &&
           (t->cfg.root_cap <= 0 || t->cfg.job_nodes > UINT64_MAX / 4 / (uint64_t)t->cfg.root_cap ||
            b * 4 <= t->cfg.job_nodes * (uint64_t)t->cfg.root_cap))
        b *= 4, k++;
    return k;
}

/*
 * An evaluated leaf whose last job ended unknown with a root pn of at most
 * rerun_pn gets another job, 4x the last one's budget, up to rerun times,
 * before it is expanded; the root of a goal-win search, up to root_rerun
 * times (root_reruns) whatever its pn (Jobs, jobtree.h).
 */
static bool rerun_here(const JobTree *t, const Node *n)
{
    int rr = root_reruns(t, n);
    if (rr >= 0) /* the root: whatever its pn */
        return n->phase == PHASE_EVALUATED && n->st.jobs > 0 && n->st.jobs <= (uint32_t)rr;
    return n->phase == PHASE_EVALUATED && t->cfg.rerun > 0 && n->st.jobs > 0 && n->st.jobs <= (uint32_t)t->cfg.rerun &&
           n->st.pn > 0 && n->st.pn <= t->cfg.rerun_pn;
}

/*
 * The job's board: the node's position as a setup position in the canonical
 * frame, so a job does not depend on which path first reached a transposed
 * node (a resumed tree may reach it by another); job->sym maps the node's
 * frame to the job's.
 */
static void job_board(const JobTree *t, const Node *n, JtJob *job)
{
    Board b;
    node_board(t, n, &b);
    SymKey k;
    int tr;
    sym_canonical(&b, t->cfg.rules, &k, &tr);
    board_init(&job->board);
    for (int p = 0; p < BOARD_POINTS; p++)
        if (b.cell[p] != EMPTY)
            board_setup_stone(&job->board, sym_apply(tr, (Point)p), (Color)b.cell[p]);
    board_set_to_move(&job->board, b.to_move);
    job->sym = tr;
}

/*
 * Least lower and upper W bounds over the counted root children (the upper
 * bound of an unexpanded one: its class count, reckoned when it was made).
 */
static void fair_bounds(const JobTree *t, int *lm, int *hm)
{
    const Node *r = &t->nodes[0];
    *lm = *hm = 1 << 30;
    for (int i = 0; i < r->nch; i++) {
        const Node *c = &t->nodes[r->ch[i]];
        if (!c->counted)
            continue;
        int lo, hi;
        node_w(t, c, c->nclasses, &lo, &hi);
        *lm = lo < *lm ? lo : *lm;
        *hm = hi < *hm ? hi : *hm;
    }
}

/* Work left for the goal at the root. */
static bool goal_open(const JobTree *t)
{
    const Node *r = &t->nodes[0];
    switch (t->cfg.goal) {
    case JT_GOAL_WIN:
        return r->status == RESULT_UNKNOWN && r->selectable;
    case JT_GOAL_COUNT:
        return r->count_open;
    default: {
        int lm, hm;
        fair_bounds(t, &lm, &hm);
        if (lm >= hm)
            return false; /* N_fair is exact */
        for (int i = 0; i < r->nch; i++) {
            const Node *c = &t->nodes[r->ch[i]];
            int lo, hi;
            node_w(t, c, c->nclasses, &lo, &hi);
            if (c->counted && c->count_open && lo < hm)
                return true;
        }
        return false;
    }
    }
}

/* Least proof number among the open undecided children of a counted node (its own pn unexpanded). */
static ProofNum count_pn(const JobTree *t, const Node *n)
{
    if (n->phase != PHASE_EXPANDED)
        return n->pn;
    ProofNum best = PN_INF;
    for (int i = 0; i < n->nch; i++) {
        const Node *c = &t->nodes[n->ch[i]];
        if (c->status == RESULT_UNKNOWN && c->selectable && c->pn < best)
            best = c->pn;
    }
    return best;
}

/*
 * A white-to-move root whose every open child has a dn of at least
 * JtConfig.and_pn_dn: white refutes none of them in sight, so its child of
 * least pn is worked on first (Selection, jobtree.h).
 */
static bool and_hopeless(const JobTree *t, const Node *n)
{
    if (t->cfg.and_pn_dn == 0)
        return false;
    bool any = false;
    for (int i = 0; i < n->nch; i++) {
        const Node *c = &t->nodes[n->ch[i]];
        if (c->status != RESULT_UNKNOWN || !c->selectable)
            continue;
        if (c->dn < t->cfg.and_pn_dn)
            return false;
        any = true;
    }
    return any;
}

/* The child of id to descend into: -1 when none is open. */
static int pick_child(const JobTree *t, int id)
{
    const Node *n = &t->nodes[id];
    int best = -1;
    ProofNum bv = PN_INF;
    uint64_t bw = UINT64_MAX;
    bool fair_root = id == 0 && t->cfg.goal == JT_GOAL_FAIR_N;
    int lm = 0, hm = 1 << 30;
    if (fair_root)
        fair_bounds(t, &lm, &hm);
    bool and_by_pn = id == 0 && t->cfg.goal == JT_GOAL_WIN && n->to_move == WHITE && and_hopeless(t, n);
    if (id == 0 && t->cfg.goal == JT_GOAL_WIN && n->to_move == WHITE && t->cfg.pass_pn > 0)
        for (int i = 0; i < n->nch; i++) { /* white's pass while it is near a proof (Selection) */
            const Node *c = &t->nodes[n->ch[i]];
            if (n->cls[i].moves[0] == POINT_PASS && c->status == RESULT_UNKNOWN && c->selectable &&
                c->pn <= t->cfg.pass_pn)
                return i;
        }
    for (int i = 0; i < n->nch; i++) {
        const Node *c = &t->nodes[n->ch[i]];
        ProofNum v;
        uint64_t w;
        if (fair_root) {
            int pr, op;
            node_w(t, c, c->nclasses, &pr, &op);
            if (!c->counted || !c->count_open || pr >= hm)
                continue; /* at or above the least upper bound: cannot move N_fair */
            v = (ProofNum)pr;
            w = count_pn(t, c);
            if (t->cfg.balance > 0) { /* x (1 + its work / (balance x job_nodes)), in 1/16ths */
                uint64_t bal = (uint64_t)t->cfg.balance;
                uint64_t unit = t->cfg.job_nodes > UINT64_MAX / bal ? UINT64_MAX : t->cfg.job_nodes * bal;
                uint64_t q = c->sub_effort / unit;
                uint64_t f = q >= (1u << 20) ? 1u << 24 : 16 + q * 16 + (c->sub_effort % unit) / (unit / 16 + 1);
                w = w >= PN_INF ? UINT64_MAX : w * f;
            }
        } else {
            if (c->status != RESULT_UNKNOWN || !c->selectable)
                continue;
            if (t->cfg.borrow_pass && n->to_move == WHITE && n->cls[i].moves[0] == POINT_PASS &&
                c->phase == PHASE_FRESH && c->st.jobs == 0)
                return i; /* white's pass first: its proof may prove the other moves (Borrowing) */
            bool by_pn = n->counted || n->to_move == BLACK || and_by_pn;
            v = by_pn ? c->pn : c->dn;
            w = and_by_pn ? c->dn : 0;
        }
        if (best < 0 || v < bv || (v == bv && w < bw)) {
            best = i;
            bv = v;
            bw = w;
        }
    }
    return best;
}

/*
 * Before the whole job (or the expansion) of a black-to-move leaf id, child
 * pi of parent: its proven siblings' proofs (Simulation), then, once its
 * probe failed (or where it gets none), a repair (Repair).  1 when one proved it (then marked), 0
 * when not, or an error code.
 */
static int prove_before_job(JobTree *t, int id, int parent, int pi)
{
    Node *n = &t->nodes[id];
    if (parent < 0 || n->to_move != BLACK || n->st.jobs != 0)
        return 0;
    bool done = false;
    if (t->cfg.sim_donors > 0 && !n->sim_tried) {
        n->sim_tried = true;
        done = try_siblings(t, parent, pi);
    }
    uint64_t b = base_budget(t, n);
    bool probe_due = probe_first(t, n) && !n->st.probed && probe_budget(t, n, b) < b;
    if (!done && !t->err && t->cfg.repair_permille > 0 && t->src.repair && !n->repair_tried && !probe_due &&
        !at_limit(t, n)) {
        n->repair_tried = true;
        done = try_repair(t, parent, pi, id, t->cfg.repair_permille, NULL);
    }
    if (t->err)
        return t->err;
    if (done) {
        n->status = RESULT_PROVEN;
        mark_dirty(t, id);
    }
    return done;
}

int jt_next(JobTree *t, JtJob *job)
{
    for (int guard = 0; guard < 1000000; guard++) {
        if (t->err)
            return t->err;
        if (!goal_open(t))
            return RJ_ENOTFOUND;
        int id = 0, via = -1, parent = -1, pi = -1;
        for (;;) {
            Node *n = &t->nodes[id];
            if (n->phase != PHASE_EXPANDED) {
                bool skip = n->status == RESULT_UNKNOWN && skip_job(t, n);
                bool job_here = n->status == RESULT_UNKNOWN && !skip &&
                                (n->phase == PHASE_FRESH || at_limit(t, n) || rerun_here(t, n) || probe_first(t, n));
                /* (a node expanded without its whole job tries them before its expansion) */
                if (job_here || skip) {
                    int pr = prove_before_job(t, id, parent, pi);
                    if (pr < 0)
                        return pr;
                    if (pr) {
                        id = -1;
                        break;
                    }
                    n = &t->nodes[id];
                }
                if (job_here)
                    break;
                /* Evaluated and still open (or solved but counted): its children come next. */
                int rc = expand(t, id);
                if (rc)
                    return rc;
                id = -1;
                break;
            }
            int i = pick_child(t, id);
            if (i < 0) {
                id = -2;
                break;
            }
            if (id == 0)
                via = t->nodes[0].ch[i];
            parent = id;
            pi = i;
            id = t->nodes[id].ch[i];
        }
        if (id == -1) {
            update_all(t);
            continue;
        }
        if (id == -2)
            return RJ_EINTERNAL; /* goal_open said there is work: the flags disagree */
        Node *n = &t->nodes[id];
        n->running = true;
        mark_dirty(t, id);
        n->via = t->cfg.goal == JT_GOAL_FAIR_N ? via : -1;
        t->running++;
        job->node = id;
        int shift = n->st.jobs > 10 ? 10 : (int)n->st.jobs;
        uint64_t b = base_budget(t, n);
        if (at_limit(t, n))
            b = b > (UINT64_MAX >> 11) ? b : b << shift;
        else if (rerun_here(t, n))
            for (uint32_t s = 0; s < n->st.jobs && b < (1ull << 40); s++)
                b *= 4;
        job->probe = false;
        if (probe_first(t, n) && !n->st.probed) { /* (no probe where it would be the whole job) */
            uint64_t pb = probe_budget(t, n, b);
            job->probe = pb < b;
            b = job->probe ? pb : b;
        }
        job->budget = b;
        if (n->via > 0) /* counted at once, so that jobs in flight spread too (Selection) */
            t->nodes[n->via].sub_effort += b;
        job->extend = 0;
        job->extend_pn = 0;
        job->look = job->probe ? JT_LOOK_NONE : root_reruns(t, n) >= 0 ? JT_LOOK_ROOT : JT_LOOK;
        /* the reruns rerun_here would give, in the job's table */
        if (t->cfg.rerun_in_job && !at_limit(t, n) && !job->probe) {
            int rr = root_reruns(t, n);
            bool root = rr >= 0;
            int want = root ? rr : t->cfg.rerun_pn > 0 ? t->cfg.rerun : 0;
            job->extend = want > (int)n->st.jobs ? want - (int)n->st.jobs : 0;
            job->extend_pn = root ? 0 : t->cfg.rerun_pn;
        }
        job_board(t, n, job);
        update_all(t);
        return 0;
    }
    return RJ_EINTERNAL;
}

/* A job ended: its node stops running, and the budget jt_next counted into its via node's work becomes nodes. */
static void job_ended(JobTree *t, const JtJob *job, uint64_t nodes)
{
    Node *n = &t->nodes[job->node];
    n->running = false;
    mark_dirty(t, job->node);
    t->running--;
    if (n->via > 0 && n->via < t->n) {
        Node *v = &t->nodes[n->via];
        v->sub_effort = (v->sub_effort > job->budget ? v->sub_effort - job->budget : 0) + nodes;
    }
}

int jt_done(JobTree *t, const JtJob *job, const JtOutcome *o)
{
    if (job->node < 0 || job->node >= t->n || !t->nodes[job->node].running)
        return RJ_EBADARG;
    job_ended(t, job, o->nodes);
    Node *n = &t->nodes[job->node];
    n->st.effort += o->nodes;
    if (job->probe) {
        n->st.probed = true;
        n->sim_tried = false; /* siblings proven since are tried before its whole job or expansion (Simulation) */
    } else
        n->st.jobs += 1 + (uint32_t)(o->extended > 0 ? o->extended : 0);
    n->st.pn = o->pn;
    n->st.dn = o->dn;
    int back = sym_inverse(job->sym);
    if (o->best < BOARD_POINTS)
        n->st.best = sym_apply(back, o->best);
    if (n->phase == PHASE_FRESH)
        n->phase = PHASE_EVALUATED;
    free(n->st.est);
    n->st.est = NULL;
    n->st.nest = 0;
    if (o->result == RESULT_UNKNOWN && o->nest > 0 && n->phase != PHASE_EXPANDED) {
        n->st.est = malloc(sizeof *n->st.est * (size_t)o->nest);
        if (!n->st.est)
            return RJ_ENOMEM;
        for (int i = 0; i < o->nest; i++) {
            n->st.est[i] = o->est[i];
            if (o->est[i].mv < BOARD_POINTS)
                n->st.est[i].mv = sym_apply(back, o->est[i].mv);
        }
        n->st.nest = o->nest;
    }
    n->epn = cap_pn(o->pn);
    n->edn = cap_pn(o->dn);
    if (n->status == RESULT_UNKNOWN && o->result != RESULT_UNKNOWN)
        n->status = (uint8_t)o->result;
    t->stats.jobs++;
    t->stats.nodes += o->nodes;
    t->stats.job_time_s += o->time_s;
    t->stats.jobs_proven += o->result == RESULT_PROVEN;
    t->stats.jobs_disproven += o->result == RESULT_DISPROVEN;
    t->stats.jobs_unknown += o->result == RESULT_UNKNOWN;
    t->stats.jobs_early += o->result == RESULT_UNKNOWN && o->early;
    int rc = 0;
    if (t->src.save) {
        Board nb;
        node_board(t, n, &nb);
        rc = t->src.save(t->src.ctx, &nb, &n->st);
    }
    update_all(t);
    return rc ? rc : t->err;
}

void jt_abandon(JobTree *t, const JtJob *job)
{
    if (job->node < 0 || job->node >= t->n || !t->nodes[job->node].running)
        return;
    job_ended(t, job, 0);
    update_all(t);
}

bool jt_finished(const JobTree *t) { return !goal_open(t); }

int jt_running(const JobTree *t) { return t->running; }

int jt_check_updates(JobTree *t)
{
    typedef struct {
        ProofNum pn, dn;
        uint8_t status;
        bool selectable, count_open;
    } Kept;
    int n = t->n;
    Kept *k = malloc(sizeof *k * (size_t)(n ? n : 1));
    if (!k)
        return -1;
    int bad = 0;
    for (int i = 0; i < n; i++) /* after a pass no node is left dirty */
        bad += t->nodes[i].dirty;
    for (int i = 0; i < n; i++) {
        const Node *x = &t->nodes[i];
        k[i] = (Kept){x->pn, x->dn, x->status, x->selectable, x->count_open};
        t->nodes[i].dirty = true;
    }
    update_all(t);
    for (int i = 0; i < n; i++) {
        const Node *x = &t->nodes[i];
        bad += k[i].pn != x->pn || k[i].dn != x->dn || k[i].status != x->status || k[i].selectable != x->selectable ||
               k[i].count_open != x->count_open;
    }
    free(k);
    return bad;
}

Result jt_root_result(const JobTree *t) { return (Result)t->nodes[0].status; }

bool jt_root_expanded(const JobTree *t) { return t->nodes[0].phase == PHASE_EXPANDED; }

void jt_root_pn(const JobTree *t, ProofNum *pn, ProofNum *dn)
{
    *pn = t->nodes[0].pn;
    *dn = t->nodes[0].dn;
}

const JtStats *jt_stats(const JobTree *t) { return &t->stats; }

int jt_node_info(const JobTree *t, const Board *b, JtNodeInfo *out)
{
    SymKey k;
    sym_canonical(b, t->cfg.rules, &k, NULL);
    int id = find_node(t, &k, key_hash(&k));
    if (id < 0)
        return RJ_ENOTFOUND;
    const Node *n = &t->nodes[id];
    *out = (JtNodeInfo){(Result)n->status, n->pn, n->dn, n->st.jobs, n->phase == PHASE_EXPANDED};
    return 0;
}

/* ---- reports ---- */

static uint64_t sub_effort(JobTree *t, int id)
{
    Node *n = &t->nodes[id];
    if (n->estamp == t->stamp)
        return 0; /* counted once per report over the DAG */
    n->estamp = t->stamp;
    uint64_t e = n->st.effort;
    if (n->phase == PHASE_EXPANDED)
        for (int i = 0; i < n->nch; i++)
            e += sub_effort(t, t->nodes[id].ch[i]);
    return e;
}

int jt_root_children(JobTree *t, JtChild *out, int *n)
{
    Node *r = &t->nodes[0];
    *n = 0;
    if (r->phase != PHASE_EXPANDED)
        return 0;
    t->stamp++;
    for (int i = 0; i < r->nch; i++) {
        Node *c = &t->nodes[r->ch[i]];
        JtChild *o = &out[i];
        memset(o, 0, sizeof *o);
        o->cls = r->cls[i];
        o->status = (Result)c->status;
        o->pn = c->pn;
        o->dn = c->dn;
        o->effort = sub_effort(t, r->ch[i]);
        c = &t->nodes[r->ch[i]];
        o->balance_work = t->cfg.goal == JT_GOAL_FAIR_N ? c->sub_effort : 0;
        if (c->to_move != BLACK) {
            o->nchild = -1;
            o->wins_min = c->status == RESULT_PROVEN;
            o->wins_max = c->status != RESULT_DISPROVEN;
            continue;
        }
        if (c->phase == PHASE_EXPANDED) {
            o->nchild = c->nch;
        } else if (c->counted) {
            o->nchild = c->nclasses;
        } else {
            Board b;
            node_board(t, c, &b);
            Color winner;
            MoveClass tmp[BOARD_POINTS];
            o->nchild = rules_game_over(&b, t->cfg.rules, &winner) ? 0 : fifth_move_classes(&b, t->cfg.rules, tmp);
        }
        node_w(t, c, o->nchild, &o->wins_min, &o->wins_max);
    }
    *n = r->nch;
    return 0;
}

void jt_root_w(JobTree *t, int *wins_min, int *wins_max)
{
    const Node *r = &t->nodes[0];
    node_w(t, r, 0, wins_min, wins_max);
}

/* The transform from node n's frame into the walk's (whose board is walk): -1 when walk is not n's position. */
static int frame_to(const JobTree *t, const Node *n, const Board *walk)
{
    Board nb, wb = *walk;
    node_board(t, n, &nb);
    if (board_last_move(&wb) == POINT_PASS)
        board_setup_copy(walk, &wb);
    SymKey kn, kw;
    int tn, tw;
    sym_canonical(&nb, t->cfg.rules, &kn, &tn);
    sym_canonical(&wb, t->cfg.rules, &kw, &tw);
    if (memcmp(kn.b, kw.b, SYMKEY_LEN) != 0)
        return -1;
    return sym_compose(sym_inverse(tw), tn);
}

int jt_line(JobTree *t, JtLineStep *out, int max)
{
    Board walk = t->root;
    int id = 0, k = 0, tr = 0; /* tr: node id's frame -> the walk's (the root's) */
    if (!goal_open(t))
        return 0;
    while (k < max) {
        const Node *n = &t->nodes[id];
        if (n->phase != PHASE_EXPANDED) /* (a counted node goes on when solved, as jt_next does) */
            break;
        int i = pick_child(t, id);
        if (i < 0)
            break;
        Point m = n->cls[i].moves[0];
        if (m != POINT_PASS)
            m = sym_apply(tr, m);
        if (m != POINT_PASS && board_at(&walk, m) != EMPTY)
            return RJ_EINTERNAL; /* the frames disagree: a bug */
        board_play(&walk, m);
        int cid = n->ch[i];
        const Node *c = &t->nodes[cid];
        JtLineStep *o = &out[k++];
        o->mv = m;
        o->status = (Result)c->status;
        o->pn = c->pn;
        o->dn = c->dn;
        t->stamp++;
        o->effort = sub_effort(t, cid);
        int proven, open;
        count_children(t, c, &proven, &open);
        o->open = c->phase == PHASE_EXPANDED ? open - proven : 0;
        tr = frame_to(t, c, &walk);
        if (tr < 0)
            return RJ_EINTERNAL; /* the walk's board is not the child's position: a bug */
        id = cid;
    }
    return k;
}
