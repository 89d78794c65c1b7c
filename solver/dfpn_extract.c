/*
 * dfpn_extract.c - what proof extraction asks of a solver after a solve
 * (dfpn.h): the TT entry of a position across the threads' keys, a node's
 * children in search order, and the leaf win with its proof.
 */
#include <stdlib.h>
#include <string.h>

#include "dfpn_impl.h"
#include "vcf.h"
#include "vct.h"

Result dfpn_node_children(const Dfpn *s, Board *b, Color attacker, Point *mv, int *n)
{
    Children *c = malloc(sizeof *c);
    if (!c) {
        *n = 0;
        return RESULT_UNKNOWN;
    }
    NodeStatus st = ng_generate(&s->node_rules, b, attacker, c, false, NULL);
    if (st.result == RESULT_UNKNOWN && !c->ordered)
        ng_order(b, attacker, dfpn_tt_key(b, attacker), c, NULL);
    *n = c->n;
    memcpy(mv, c->mv, (size_t)c->n * sizeof *mv);
    free(c);
    return st.result;
}

bool dfpn_probe(const Dfpn *s, const Board *b, Color attacker, TTData *e)
{
    Key key = dfpn_tt_key(b, attacker);
    bool found = probe_kept(s, key ^ thread_salt(s->result_tid), e);
    if (found && (e->pn == 0 || e->dn == 0))
        return true;
    /* A subtree another thread solved (the root's children are shared): any thread's proof is a proof. */
    for (int t = 0; t < s->nworkers; t++) { /* every thread any solve of s ran (set_config may lower threads) */
        TTData o;
        if (t != s->result_tid && probe_kept(s, key ^ thread_salt(t), &o) && (o.pn == 0 || o.dn == 0)) {
            *e = o;
            return true;
        }
    }
    return found;
}

/* Size and depth of the subtree appended to w from offset len: framed with a header for proof_stats. */
static void appended_stats(const Board *b, RuleSet rs, Color attacker, const ProofWriter *w, size_t len,
                           uint64_t *pnodes, uint32_t *pdepth)
{
    ProofStats st;
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

bool dfpn_leaf_win(const Dfpn *s, Board *b, Color attacker, ProofWriter *w, uint64_t *pnodes, uint32_t *pdepth)
{
    RuleSet rs = s->cfg.rules;
    size_t len = w ? w->len : 0;
    VcfCtx *vcf = vcf_new(VCF_TT_LOG2 - 4);
    if (!vcf)
        return false;
    ThreatOpts vo;
    memset(&vo, 0, sizeof vo);
    vo.max_nodes = s->cfg.vcf_budget * 20; /* a fresh context knows less than the search's */
    VcfResult vr1;
    bool vwin = vcf_search(vcf, b, attacker, rs, &vo, &vr1) == 0 && vr1.result == RESULT_PROVEN &&
                (!w || vcf_line_to_proof(b, attacker, rs, &vr1, w) == 0);
    vcf_free(vcf);
    if (vwin) {
        if (w)
            appended_stats(b, rs, attacker, w, len, pnodes, pdepth);
        return true;
    }
    if (w)
        w->len = len;
    uint64_t vct_budget = s->cfg.vct_budget > s->cfg.vct_prune_budget ? s->cfg.vct_budget : s->cfg.vct_prune_budget;
    if (vct_budget == 0)
        return false;
    VctCtx *vct = vct_new(VCT_TT_LOG2, VCT_TREE);
    if (!vct)
        return false;
    ThreatOpts o;
    memset(&o, 0, sizeof o);
    o.max_nodes = vct_budget * 20; /* a fresh context knows less than the search's */
    o.order = s->cfg.vct_order;
    VctResult vr;
    bool win = vct_search(vct, b, attacker, rs, &o, &vr) == 0 && vr.result == RESULT_PROVEN;
    if (win && w) {
        win = vct_write_proof(vct, b, w) == 0;
        if (!win)
            w->len = len;
        else
            appended_stats(b, rs, attacker, w, len, pnodes, pdepth);
    }
    vct_free(vct);
    return win;
}
