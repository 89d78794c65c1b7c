/*
 * dfpn_prune.c - threat pruning at wide defender nodes: when the attacker
 * would win by VCT after a defender pass, every reply after which it still
 * wins by VCT is proven at once (a VCT search of that reply: exact, no zone
 * argument).
 *
 * A defender node with no VCF threat lists every legal reply (some 210 in an
 * opening), so its proof number is the count of them and df-pn hardly ever
 * works below it, although most replies often lose to the same threats.  On
 * `h8 i9 i7 i8 g7 h7` about one wide defender node in nine that the search
 * came back to had a VCT after a pass, and a VCT then won after 145-207 of its
 * 207-219 replies (a sample of 213 such nodes, 3,000-node VCTs), leaving
 * 10-70 real defences.
 *
 * Cost control: only nodes the search comes back to (found in the TT: a new
 * node usually exceeds its thresholds at once and is left), with more than
 * PRUNE_MIN_CHILDREN replies, and once while the node's child list stays in
 * the worker's cache.  The VCTs are counted as search work.
 *
 * Soundness: each pruned reply is proven by a VCT the search found in that
 * very position, stored in the TT as a leaf win; proof extraction proves it
 * again with its own VCT (dfpn_leaf_win, with this budget times 20) and the
 * proof checker checks the whole proof.
 *
 * Off by default (DfpnConfig.vct_prune_budget 0): it did not pay.  The VCTs
 * cost 40k-580k work a pruned node, mostly on nodes that are never proven:
 * with 2,000-node VCTs, `h8 h9 i9 h10 j10` went from proven in 1.44e7 work to
 * unknown at 3e7, `h8 h9 i9 i11 j8` from 1.278e7 to 1.305e7 (proven both),
 * `h8 i9 i7 i8 g7 h7` stayed unknown at 1e8, and the proven positions of
 * results/bench-positions.txt kept their node counts (nothing pruned there).
 * It stays as the exact reference a cheaper relevance zone must reproduce
 * (issue 15): the set of replies a zone may leave out is the set this proves.
 *
 * Zone mode (DfpnConfig.vct_prune_zone, RENJU_VCT_ZONE=1): one VCT after the
 * pass and no VCT per reply; the replies outside the relevance zone of that
 * VCT's proof tree (zone.h) are stored as leaf wins.  Extraction proves them
 * again by VCT (or searches them) and the checker checks the whole proof, so
 * a zone that is too small costs work, never soundness; tests/test_zone.c
 * confirmed with the checker every move outside the zone on 3,209 random
 * opening-like positions (487,057 moves, none refuted).  Each node is tried
 * once a solve (Worker.tried).  It did not pay either (results/solver-bench.md):
 * the VCT after the pass won at 1-19% of the nodes tried, and on the ladder
 * (1e7 work, VCTs of 1,000 nodes) 34 positions kept their exact counts and two
 * 5- and 6-stone wins were lost.  Off by default.
 */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "dfpn_impl.h"
#include "tt.h"
#include "vct.h"
#include "zone.h"

enum { PRUNE_MIN_CHILDREN = 24 };

/* Is the child of key ck solved in the TT already? */
static bool child_solved(Worker *w, Key ck)
{
    TTData e;
    return probe_kept(w->s, ck, &e) && (e.pn == 0 || e.dn == 0);
}

/* Store the child of key ck as an attacker win (a leaf: extraction proves it again) and count it. */
static void store_pruned(Worker *w, Key ck, Point first, uint64_t work)
{
    TTData t = {0, PN_INF, first, tt_work_log(work), true};
    dfpn_tt_put(w, ck, &t);
    w->vct_pruned++;
}

/* A VCT of the attacker on the worker's board within budget: true when it wins, *first its first move. */
static bool vct_wins(Worker *w, uint64_t budget, Point *first)
{
    ThreatOpts o;
    memset(&o, 0, sizeof o);
    o.max_nodes = budget;
    VctResult vr;
    if (vct_search(w->ng.vct, &w->b, w->s->attacker, w->s->cfg.rules, &o, &vr) != 0)
        return false;
    dfpn_count_work(w, vr.nodes);
    *first = vr.len > 0 ? vr.line[0] : POINT_NONE;
    return vr.result == RESULT_PROVEN;
}

/*
 * Zone mode (DfpnConfig.vct_prune_zone), the worker's board after the pass
 * (undone here): the replies outside the zone of the VCT's proof tree
 * (zone.h) are proven without a search of their own; first is the VCT's
 * first move.
 */
static void prune_by_zone(Worker *w, Key key, const Children *c, Point first)
{
    Board *b = &w->b;
    ProofWriter pw = {0};
    uint64_t zone[4];
    bool ok = vct_write_proof(w->ng.vct, b, &pw) == 0 && pw.err == 0 &&
              zone_of_proof(b, w->s->attacker, w->s->cfg.rules, pw.data, pw.len, zone);
    free(pw.data);
    board_undo(b);
    if (!ok)
        return;
    for (int i = 0; i < c->n; i++) {
        Point d = c->mv[i];
        if (d == POINT_PASS || zone_has(zone, d))
            continue;
        Key ck = ng_child_key(b, key, d);
        if (!child_solved(w, ck))
            store_pruned(w, ck, first, 0);
    }
}

bool dfpn_prune_wanted(const Worker *w, const Children *c)
{
    return w->s->cfg.vct_prune_budget > 0 && w->ng.vct && c->n > PRUNE_MIN_CHILDREN &&
           board_last_move(&w->b) != POINT_PASS;
}

void dfpn_prune_by_vct(Worker *w, Key key, const Children *c)
{
    PruneTried *pt = &w->tried[key & ((1u << PRUNE_TRIED_BITS) - 1)];
    if (pt->epoch == w->epoch && pt->key == key)
        return; /* once a solve: the VCT would find the same again */
    pt->key = key, pt->epoch = w->epoch;
    Board *b = &w->b;
    uint64_t budget = w->s->cfg.vct_prune_budget;
    Point first;
    board_play(b, POINT_PASS);
    bool threat = vct_wins(w, budget, &first);
    if (threat && w->s->cfg.vct_prune_zone) {
        prune_by_zone(w, key, c, first);
        return;
    }
    board_undo(b);
    if (!threat)
        return;
    for (int i = 0; i < c->n && !should_stop(w); i++) {
        Point d = c->mv[i];
        Key ck = ng_child_key(b, key, d);
        if (child_solved(w, ck))
            continue;
        uint64_t start = w->nodes;
        board_play(b, d);
        bool win = vct_wins(w, budget, &first);
        board_undo(b);
        if (win)
            store_pruned(w, ck, first, w->nodes - start);
    }
}
