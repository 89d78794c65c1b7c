/*
 * proof_extract.h - write the proof tree of a proven position (proof.h
 * format) from the df-pn transposition table.
 *
 * At the attacker's nodes the move written is a proven child (the one with
 * the least work invested, i.e. usually the smallest subtree); at the
 * defender's nodes every child of the node rules of dfpn.h is written (the
 * moves left out are short losses the checker confirms itself).  Leaves
 * proven by the leaf VCF get the VCF's own proof (vcf.h).  When an entry is
 * missing (overwritten in the TT) the node is searched again with a node
 * budget before giving up.
 *
 * Thread safety: not while the solver is searching.
 */
#ifndef RJ_PROOF_EXTRACT_H
#define RJ_PROOF_EXTRACT_H

#include "dfpn.h"
#include "proof.h"

typedef struct {
    uint64_t nodes;       /* A-nodes and D-nodes written */
    uint32_t depth;       /* longest line in plies */
    uint64_t vcf_leaves;  /* subtrees written by the leaf VCF / VCT */
    uint64_t researched;  /* gaps filled by searching again */
    uint64_t spliced;     /* subtrees taken from the ProofSource */
} ExtractStats;

/*
 * Proofs the TT does not hold: the positions a warm start preloaded
 * (dfpn_preload).  get gives the stored proof of b for attacker (header and
 * tree, b's frame, malloc'd; the caller frees it): 0, or RJ_ENOTFOUND for a
 * position it does not know.  It is asked at every node extraction writes
 * (below the root), so it should answer unknown positions fast.  A proof
 * built with it is only as good as those proofs: check it (proof_check)
 * before trusting it.
 */
typedef struct {
    void *ctx;
    int (*get)(void *ctx, const Board *b, Color attacker, uint8_t **proof, size_t *len);
} ProofSource;

/*
 * Append header and tree of the proof that attacker wins from b (not
 * modified) to w.  gap_budget: df-pn nodes allowed to re-prove one missing
 * node (0: 100000); max_nodes: give up above this many proof nodes (0: 50
 * million).  Returns 0; RJ_ENOTFOUND when b is not proven (or a gap could not
 * be re-proven); RJ_ENOMEM when the writer fails or the proof is too large.
 */
int proof_extract(Dfpn *s, const Board *b, Color attacker, uint64_t gap_budget, uint64_t max_nodes,
                  ProofWriter *w, ExtractStats *st);

/* proof_extract, taking a position's subtree from src where src knows it (src may be NULL). */
int proof_extract_from(Dfpn *s, const Board *b, Color attacker, uint64_t gap_budget, uint64_t max_nodes,
                       const ProofSource *src, ProofWriter *w, ExtractStats *st);

#endif /* RJ_PROOF_EXTRACT_H */
