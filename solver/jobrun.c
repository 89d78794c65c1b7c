/* jobrun.c - see jobrun.h. */
#include "jobrun.h"

#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "proof.h"
#include "proof_extract.h"

/* Store one proven position with its checked proof. */
static int store_proven(JobRunner *r, const Board *b, Point best, const uint8_t *proof, size_t len,
                        const ProofStats *ps, uint64_t nodes)
{
    if (!r->store)
        return 0;
    StoredResult sr;
    memset(&sr, 0, sizeof sr);
    sr.result = RESULT_PROVEN;
    sr.attacker = BLACK;
    sr.best = best;
    sr.proof_nodes = ps->nodes;
    sr.proof_depth = ps->depth;
    sr.nodes = nodes;
    int rc = r->store->store(r->store->ctx, b, r->rules, &sr, proof, len);
    if (rc == 0)
        r->proofs_stored++;
    return rc;
}

/*
 * The position after black's first move m of a proof (black to move at b) is
 * proven by the rest of it: header + the D-node that follows m.  Stored when
 * that is not a finished game.  It is not checked again: the checker accepted
 * the whole proof from b, which replays m (legal, no win at once) and then
 * checks exactly these bytes from the position after m (a second check of a
 * 4th-move proof costs about a second); proof_stats still validates the
 * framing and gives its size.
 */
static int store_child(JobRunner *r, const Board *b, const uint8_t *proof, size_t len)
{
    if (len <= PROOF_HEADER_LEN + 1)
        return 0;
    Point m = proof[PROOF_HEADER_LEN];
    if (m == POINT_PASS || m >= BOARD_POINTS)
        return 0;
    Board c = *b;
    board_play(&c, m);
    size_t clen = len - 1;
    uint8_t *cp = malloc(clen);
    if (!cp)
        return RJ_ENOMEM;
    memcpy(cp, proof, PROOF_HEADER_LEN);
    memcpy(cp + PROOF_HEADER_LEN, proof + PROOF_HEADER_LEN + 1, len - PROOF_HEADER_LEN - 1);
    ProofStats ps;
    int rc = 0;
    if (clen > PROOF_HEADER_LEN && proof_stats(&c, cp, clen, &ps) == 0)
        rc = store_proven(r, &c, POINT_NONE, cp, clen, &ps, 0);
    free(cp);
    return rc;
}

/* The root's children as the unknown search left them in its TT (unvisited ones: their first numbers). */
static void child_estimates(JobRunner *r, const Board *b, JtOutcome *o)
{
    Board c = *b;
    Point mv[BOARD_POINTS + 1];
    int n = 0;
    o->nest = 0;
    if (dfpn_node_children(r->dfpn, &c, BLACK, mv, &n) != RESULT_UNKNOWN)
        return;
    for (int i = 0; i < n && o->nest < JT_MAX_EST; i++) {
        board_play(&c, mv[i]);
        TTData e;
        if (dfpn_probe(r->dfpn, &c, BLACK, &e))
            o->est[o->nest++] = (JtEst){ mv[i], e.pn, e.dn };
        board_undo(&c);
    }
}

/* Go on with the search of b in the same table until *res counts total work nodes (or it ends). */
static int go_on(JobRunner *r, const Board *b, DfpnConfig *cfg, uint64_t total, DfpnResult *res)
{
    cfg->max_nodes = total > res->nodes ? total - res->nodes : 1;
    int rc = dfpn_set_config(r->dfpn, cfg);
    DfpnResult r2;
    if (rc || (rc = dfpn_solve(r->dfpn, b, &r2)))
        return rc;
    r2.nodes += res->nodes;
    r2.time_s += res->time_s;
    *res = r2;
    return 0;
}

int jobrun_run(JobRunner *r, const Board *b, uint64_t budget, int extend, ProofNum extend_pn, int look, JtOutcome *o)
{
    memset(o, 0, sizeof *o);
    o->result = RESULT_UNKNOWN;
    o->best = POINT_NONE;
    DfpnConfig cfg = *dfpn_config(r->dfpn);
    cfg.attacker = BLACK;
    /* An early look at white-to-move jobs (JobRunner.early_permille). */
    bool early = r->early_permille > 0 && b->to_move == WHITE && look != JT_LOOK_NONE;
    uint64_t first = early ? budget * (uint64_t)r->early_permille / 1000 : budget;
    if (first == 0)
        first = 1;
    cfg.max_nodes = first;
    int rc = dfpn_set_config(r->dfpn, &cfg);
    if (rc)
        return rc;
    dfpn_clear(r->dfpn);
    DfpnResult res;
    rc = dfpn_solve(r->dfpn, b, &res);
    if (rc)
        return rc;
    /* Still open after the look (not a disproof among the candidates, which ends it anyway). */
    if (early && res.result == RESULT_UNKNOWN && !res.interrupted && first < budget && res.nodes >= first &&
        res.root_dn > 0) {
        /* the threshold grows with the look, as dn does (no overflow: dn < 2^32) */
        uint64_t dn = look == JT_LOOK_ROOT ? r->early_dn_root : r->early_dn;
        uint64_t thr = dn * (first / JOBRUN_EARLY_UNIT) + dn * (first % JOBRUN_EARLY_UNIT) / JOBRUN_EARLY_UNIT;
        if ((uint64_t)res.root_dn < thr) {
            r->stopped_early++;
            o->early = true;
        } else if ((rc = go_on(r, b, &cfg, budget, &res))) { /* in the same table up to the whole budget */
            return rc;
        }
    }
    /* Reruns in the same table (JtJob.extend): the whole budget spent, still open, pn low enough. */
    while (!o->early && o->extended < extend && res.result == RESULT_UNKNOWN && !res.interrupted &&
           res.nodes >= budget && res.root_dn > 0 && (extend_pn == 0 || res.root_pn <= extend_pn) &&
           budget < (1ull << 42)) {
        budget *= 4;
        if ((rc = go_on(r, b, &cfg, budget, &res)))
            return rc;
        o->extended++;
    }
    o->nodes = res.nodes;
    o->time_s = res.time_s;
    o->pn = res.root_pn;
    o->dn = res.root_dn;
    o->best = b->to_move == BLACK ? res.best : POINT_NONE;
    if (res.interrupted && res.result == RESULT_UNKNOWN)
        return RJ_EINTR;
    if (res.result == RESULT_DISPROVEN) {
        o->result = RESULT_DISPROVEN;
        if (r->store) {
            StoredResult sr;
            memset(&sr, 0, sizeof sr);
            sr.result = RESULT_DISPROVEN;
            sr.attacker = BLACK;
            sr.best = POINT_NONE;
            sr.nodes = res.nodes;
            rc = r->store->store(r->store->ctx, b, r->rules, &sr, NULL, 0);
        }
        return rc;
    }
    if (res.result != RESULT_PROVEN) {
        child_estimates(r, b, o);
        return 0;
    }
    ProofWriter w = { 0 };
    ExtractStats es;
    rc = proof_extract(r->dfpn, b, BLACK, 0, 0, &w, &es);
    ProofStats ps;
    if (rc == 0 && proof_check(b, w.data, w.len, &ps, NULL, 0) == 0) {
        o->result = RESULT_PROVEN;
        Point best = POINT_NONE;
        if (b->to_move == BLACK && w.len > PROOF_HEADER_LEN)
            best = o->best = w.data[PROOF_HEADER_LEN];
        rc = store_proven(r, b, best, w.data, w.len, &ps, res.nodes);
        if (rc == 0 && b->to_move == BLACK)
            rc = store_child(r, b, w.data, w.len);
    } else {
        /* No checked proof: claim nothing (a proof that fails the checker is a search bug). */
        r->proofs_failed++;
        rc = rc == RJ_ENOMEM ? rc : 0;
    }
    free(w.data);
    return rc;
}
