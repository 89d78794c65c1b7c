/* repair_db.c - see repair_db.h. */
#include "repair_db.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "proof_extract.h"

/* Append the tree of a proof (header stripped) to w. */
static int append_tree(ProofWriter *w, const uint8_t *proof, size_t len)
{
    if (len <= PROOF_HEADER_LEN)
        return RJ_EBADDATA;
    return pw_bytes(w, proof + PROOF_HEADER_LEN, len - PROOF_HEADER_LEN);
}

static void tick(RepairDb *p)
{
    if (p->tick)
        p->tick(p->cb_ctx);
}

int repair_db_prove(void *ctx, Board *b, int depth, ProofWriter *w)
{
    RepairDb *p = ctx;
    atomic_bool *stop = dfpn_config(p->dfpn)->stop;
    if (stop && atomic_load(stop))
        return RJ_EINTR;
    DbRecord rec;
    if (db_get(p->db, b, p->rules, p->att, &rec) == 0) {
        if (rec.result == RESULT_DISPROVEN) {
            p->from_db++;
            p->disproven++;
            return RJ_ENOTFOUND;
        }
        uint8_t *proof = NULL;
        size_t len = 0;
        if (rec.result == RESULT_PROVEN && db_get_proof(p->db, b, p->rules, p->att, &proof, &len) == 0) {
            int rc = append_tree(w, proof, len);
            free(proof);
            p->from_db++;
            p->proven++;
            tick(p);
            return rc;
        }
    }
    if (depth == 0 && p->decline_root)
        return RJ_ENOTFOUND;
    if (p->max_work && p->work >= p->max_work) {
        p->declined++;
        return RJ_ENOTFOUND;
    }
    DfpnResult res;
    int rc = dfpn_solve(p->dfpn, b, &res);
    if (rc)
        return rc;
    if (p->trace) {
        char mv[MAX_PLY * 6 + 8], line[MAX_PLY * 6 + 64];
        notation_moves_str(b->hist + b->ply - depth, depth, mv, sizeof mv);
        snprintf(line, sizeof line, "[%s] %s, %llu nodes", mv, result_name(res.result), (unsigned long long)res.nodes);
        p->trace(p->cb_ctx, line);
    }
    p->work += res.nodes;
    p->searched++;
    tick(p);
    if (res.interrupted)
        return RJ_EINTR;
    if (res.result == RESULT_DISPROVEN) {
        p->disproven++;
        StoredResult sr = {RESULT_DISPROVEN, p->att, POINT_NONE, 0, 0, res.nodes};
        rc = p->store.store(p->store.ctx, b, p->rules, &sr, NULL, 0);
        return rc ? rc : RJ_ENOTFOUND;
    }
    if (res.result != RESULT_PROVEN) {
        p->unknown++;
        return RJ_ENOTFOUND;
    }
    ProofWriter pw = {0};
    ExtractStats es;
    ProofStats ps;
    rc = proof_extract(p->dfpn, b, p->att, 0, 0, &pw, &es);
    if (rc == 0 && proof_check(b, pw.data, pw.len, &ps, NULL, 0) == 0) {
        p->proven++;
        if (p->trace) {
            char line[64];
            snprintf(line, sizeof line, "  proof %llu nodes depth %u", (unsigned long long)ps.nodes, ps.depth);
            p->trace(p->cb_ctx, line);
        }
        StoredResult sr = {RESULT_PROVEN, p->att, pw.data[PROOF_HEADER_LEN], ps.nodes, ps.depth, res.nodes};
        rc = p->store.store(p->store.ctx, b, p->rules, &sr, pw.data, pw.len);
        if (rc == 0)
            rc = append_tree(w, pw.data, pw.len);
    } else {
        p->unknown++; /* no checked proof: claim nothing */
        rc = rc == RJ_ENOMEM ? rc : RJ_ENOTFOUND;
    }
    free(pw.data);
    return rc;
}

int repair_db_run(RepairDb *p, const Board *s, const uint8_t *src, size_t len, const Board *t, int max_failures,
                  RepairStats *st, ProofStats *ps, char *why, size_t whylen)
{
    RepairConfig cfg = {p->rules, repair_db_prove, p, 0, max_failures};
    ProofWriter w = {0};
    uint64_t work0 = p->work;
    int rc = proof_repair(s, src, len, t, &cfg, &w, st);
    if (rc == 0 && proof_check(t, w.data, w.len, ps, why, whylen) != 0)
        rc = RJ_EINTERNAL;
    if (rc == 0) {
        Point best = t->to_move == p->att && w.len > PROOF_HEADER_LEN ? w.data[PROOF_HEADER_LEN] : POINT_NONE;
        StoredResult sr = {RESULT_PROVEN, p->att, best, ps->nodes, ps->depth, p->work - work0};
        rc = p->store.store(p->store.ctx, t, p->rules, &sr, w.data, w.len);
    }
    free(w.data);
    return rc;
}
