/* proof_extract.c - see proof_extract.h. */
#include "proof_extract.h"

#include <stdlib.h>

#include "board.h"
#include "error.h"
#include "rules.h"

typedef struct {
    Dfpn *s;
    Color att;
    RuleSet rs;
    uint64_t gap_budget, max_nodes;
    ProofWriter *w;
    ExtractStats st;
    const ProofSource *src; /* may be NULL */
} Ex;

static int ex_and(Ex *x, Board *b, uint32_t depth);

static void note_depth(Ex *x, uint32_t depth)
{
    if (depth > x->st.depth)
        x->st.depth = depth;
}

/* A proven child of attacker node b (least work first), or POINT_NONE. */
static Point proven_child(Ex *x, Board *b, const Point *mv, int n)
{
    Point best = POINT_NONE;
    int best_work = 1 << 20;
    for (int i = 0; i < n; i++) {
        if (mv[i] != POINT_PASS && rules_makes_five(b, mv[i], x->att, x->rs))
            return mv[i];
        board_play(b, mv[i]);
        TTData e;
        if (dfpn_probe(x->s, b, x->att, &e) && e.pn == 0 && e.work < best_work)
            best = mv[i], best_work = e.work;
        board_undo(b);
    }
    return best;
}

/*
 * After a gap was searched again: the node's own proven entry's move, when
 * its child's entry is gone already.  In a full table the child's solved
 * entry can be evicted (and, once the solved store is full too, lost) by the
 * stores that prove its parent; the child's subtree is then extracted, and
 * searched again where needed, like any other.  (Any move is safe here: the
 * proof is checked as a whole.)
 */
static Point proven_best(Ex *x, const Board *b, const Point *mv, int n)
{
    TTData e;
    if (!dfpn_probe(x->s, b, x->att, &e) || e.pn != 0)
        return POINT_NONE;
    for (int i = 0; i < n; i++)
        if (mv[i] == e.best)
            return e.best;
    return POINT_NONE;
}

/*
 * The subtree of b from the ProofSource, when it has one: 1 when written
 * (its size and depth counted), 0 when not, or an error of the writer.
 * After a defender's pass a stored proof that begins with the attacker's
 * pass is not taken: stored positions have no last move, and two passes in
 * a row end the game.
 */
static int splice(Ex *x, const Board *b, uint32_t depth)
{
    if (!x->src || depth == 0)
        return 0;
    uint8_t *p = NULL;
    size_t len = 0;
    if (x->src->get(x->src->ctx, b, x->att, &p, &len) != 0)
        return 0;
    ProofStats ps;
    bool after_pass = board_last_move(b) == POINT_PASS;
    int rc = 0;
    if (len > PROOF_HEADER_LEN && !(after_pass && b->to_move == x->att && p[PROOF_HEADER_LEN] == POINT_PASS) &&
        proof_stats(b, p, len, &ps) == 0) {
        pw_bytes(x->w, p + PROOF_HEADER_LEN, len - PROOF_HEADER_LEN);
        x->st.nodes += ps.nodes;
        x->st.spliced++;
        note_depth(x, depth + ps.depth);
        rc = x->w->err ? x->w->err : 1;
    }
    free(p);
    return rc;
}

/* Attacker to move on b: write an A-node. */
static int ex_or(Ex *x, Board *b, uint32_t depth)
{
    int sp = splice(x, b, depth);
    if (sp)
        return sp > 0 ? 0 : sp;
    if (++x->st.nodes > x->max_nodes)
        return RJ_ENOMEM;
    Point pts[BOARD_POINTS];
    if (rules_five_points(b, x->att, x->rs, pts) > 0) {
        note_depth(x, depth + 1);
        return pw_u8(x->w, pts[0]);
    }
    Point *mv = malloc(sizeof(Point) * (BOARD_POINTS + 1));
    if (!mv)
        return RJ_ENOMEM;
    int rc = 0, n;
    for (int attempt = 0;; attempt++) {
        Result r = dfpn_node_children(x->s, b, x->att, mv, &n);
        if (r == RESULT_DISPROVEN) {
            rc = RJ_ENOTFOUND;
            break;
        }
        Point m = proven_child(x, b, mv, n);
        if (m == POINT_NONE && attempt > 0)
            m = proven_best(x, b, mv, n);
        if (m == POINT_NONE) {
            /* A leaf proven by the VCF, or a lost entry. */
            size_t len = x->w->len;
            x->st.nodes--;
            uint64_t vn = 0;
            uint32_t vd = 0;
            rc = dfpn_leaf_win(x->s, b, x->att, x->w, &vn, &vd) ? 0 : RJ_ENOTFOUND;
            if (rc == 0) {
                x->st.nodes += vn;
                x->st.vcf_leaves++;
                note_depth(x, depth + vd);
                break;
            }
            x->st.nodes++;
            x->w->len = len;
            if (rc != RJ_ENOTFOUND || attempt > 0) {
                rc = rc ? rc : RJ_ENOTFOUND;
                break;
            }
            x->st.researched++;
            if (dfpn_search_node(x->s, b, x->att, x->gap_budget) != RESULT_PROVEN) {
                rc = RJ_ENOTFOUND;
                break;
            }
            continue;
        }
        pw_u8(x->w, m);
        if (m != POINT_PASS && rules_makes_five(b, m, x->att, x->rs)) {
            note_depth(x, depth + 1);
            rc = x->w->err;
            break;
        }
        board_play(b, m);
        rc = ex_and(x, b, depth + 1);
        board_undo(b);
        break;
    }
    free(mv);
    return rc;
}

/* Defender to move on b: write a D-node. */
static int ex_and(Ex *x, Board *b, uint32_t depth)
{
    int sp = splice(x, b, depth);
    if (sp)
        return sp > 0 ? 0 : sp;
    if (++x->st.nodes > x->max_nodes)
        return RJ_ENOMEM;
    note_depth(x, depth);
    Point *mv = malloc(sizeof(Point) * (BOARD_POINTS + 1));
    if (!mv)
        return RJ_ENOMEM;
    int n, rc = 0;
    Result r = dfpn_node_children(x->s, b, x->att, mv, &n);
    if (r == RESULT_DISPROVEN || n > 0xffff) {
        rc = RJ_ENOTFOUND;
    } else if (r == RESULT_PROVEN) {
        rc = pw_u16(x->w, 0);
    } else {
        pw_u16(x->w, (uint16_t)n);
        for (int i = 0; i < n && !rc; i++) {
            pw_u8(x->w, mv[i]);
            board_play(b, mv[i]);
            rc = ex_or(x, b, depth + 1);
            board_undo(b);
        }
    }
    free(mv);
    return rc ? rc : x->w->err;
}

int proof_extract(Dfpn *s, const Board *b, Color attacker, uint64_t gap_budget, uint64_t max_nodes,
                  ProofWriter *w, ExtractStats *st)
{
    return proof_extract_from(s, b, attacker, gap_budget, max_nodes, NULL, w, st);
}

int proof_extract_from(Dfpn *s, const Board *b, Color attacker, uint64_t gap_budget, uint64_t max_nodes,
                       const ProofSource *src, ProofWriter *w, ExtractStats *st)
{
    Ex x = {s,
            attacker,
            dfpn_config(s)->rules,
            gap_budget ? gap_budget : 100000,
            max_nodes ? max_nodes : 50000000,
            w,
            {0, 0, 0, 0, 0},
            src};
    Board bb = *b;
    pw_header(w, x.rs, attacker);
    int rc = bb.to_move == attacker ? ex_or(&x, &bb, 0) : ex_and(&x, &bb, 0);
    if (st)
        *st = x.st;
    return rc ? rc : w->err;
}
