/*
 * vct_impl.h - what the VCT's files share (private to solver/vct*.c): the
 * context, the proof-number tree's node, and the short threat VCF of the
 * wide order.
 *
 *   vct.c        the search: node expansion (strict and wide threat orders),
 *                the proof-number loop, the tree's growth
 *   vct_proof.c  the principal line and the proof tree of a win (proof.h)
 */
#ifndef RJ_VCT_IMPL_H
#define RJ_VCT_IMPL_H

#include "board.h"
#include "vct.h"

/*
 * Node kinds: open (not expanded), inner (expanded with children), and the
 * terminals: K_FIVE (the attacker makes five), K_DOUBLE (a double-win move),
 * K_VCF (a VCF, found again when needed), K_DONE (a defender node every
 * reply of which is a short loss of proof.h), K_COVERED (wide order: a
 * defender node after every reply of which, pass included, the attacker has
 * a VCF of at most order + 1 moves), K_LOST (no VCT below).
 */
enum { K_OPEN, K_INNER, K_FIVE, K_DOUBLE, K_VCF, K_DONE, K_COVERED, K_LOST };

typedef struct {
    ProofNum pn, dn;
    uint32_t child; /* index of the first child (children are contiguous) */
    uint16_t nchild;
    Point move; /* move leading to this node */
    uint8_t kind;
    Point win; /* K_FIVE: the five point; K_DOUBLE: the double-win move */
} VctNode;

struct VctCtx {
    VcfCtx *vcf;
    VctNode *node;
    uint32_t cap, alloc, used; /* the tree's limit, its allocated nodes, the nodes in use */
    uint64_t vcf_budget;
    /* per search */
    Color att, def;
    RuleSet rs;
    int order; /* 1: strict threats; >= 2: wide (vct.h) */
    bool root_or, abort;
    uint64_t nodes, max_nodes;
    double deadline;
    const atomic_bool *stop;
    int max_depth;
    Key root_key, salt;
    /*
     * Disproof table: "no VCT here within r more attacker moves" facts, 2-way
     * buckets; entry = bits 8..63 of (key ^ salt), bits 0..7 = r.  0 = empty.
     * Facts stay true, so the table persists across searches (the salt holds
     * the attacker, the rule set and the order).
     */
    uint64_t *dis;
    uint64_t dis_mask;
    bool proven;
    VcfResult line, scratch; /* the wide order's threat line after a pass, and a scratch line */
};

/*
 * Node budget of one short VCF (wide order).  Such a VCF has at most
 * order + 1 <= VCT_MAX_ORDER + 1 attacker moves, so this is ample; a search
 * that runs out of it is stopped (result unknown) rather than risk a wrong
 * disproof fact.
 */
enum { VCT_SHORT_VCF_BUDGET = 200000 };

/*
 * The short VCF of the wide order: a VCF of c->att (to move on b) of at most
 * c->order + 1 attacker moves, the line in *vr; counts its nodes and stops
 * the search (c->abort) when it runs out of budget.  b is restored.
 */
bool vct_short_vcf(VctCtx *c, Board *b, VcfResult *vr);

/* After a proven search: the principal line from the root (b at the root) into out->line / out->len. */
void vct_pv(VctCtx *c, Board *b, VctResult *out);

#endif /* RJ_VCT_IMPL_H */
