/*
 * jobrun.h - the worker side of the opening-level search (jobtree.h): run
 * one job, a df-pn search of a position for black with a work budget, and
 * write what it proves to a results store.
 *
 * A proven job's proof is extracted and checked by the independent checker
 * before anything is stored; a proof that fails the check is a search bug and
 * the job reports UNKNOWN (nothing is claimed).  At black to move the proof's
 * first move is black's winning move m, and the position after m is proven
 * by the rest of the same proof: that child is stored too, with that part
 * of the checked proof as its own, so a 5th-move class proven inside a 4th-move job counts in
 * the W bounds without a second search.  Exact disproofs are stored without
 * a proof (as df-pn stores them); unknown jobs store nothing here (their
 * effort is the tree's saved state).
 *
 * The solver's TT is cleared before each job, so with one thread a job's
 * result depends only on its position, its budget and the early look.
 *
 * Thread safety: one JobRunner per thread; the store must be thread-safe.
 */
#ifndef RJ_JOBRUN_H
#define RJ_JOBRUN_H

#include "dfpn.h"
#include "jobtree.h"
#include "resultstore.h"

typedef struct {
    Dfpn *dfpn;                /* its own solver; the budget is set per job */
    RuleSet rules;
    const ResultStore *store;  /* may be NULL */
    /*
     * The early look (0: off): a job on a white-to-move position first runs
     * early_permille / 1000 of its budget; when it is still unknown with a
     * root dn below early_dn (early_dn_root for JT_LOOK_ROOT, the root of
     * goal win) it ends there (reported unknown with the
     * numbers and child estimates of that point), else it goes on in the
     * same table up to the whole budget.  Such a job is a black move the
     * tree is weighing; a low dn says white already has a cheap refutation
     * in sight.  In the I7 g7-h7 tree those jobs are most of the work, and
     * the tree never expanded one whose dn stayed that low (measurements:
     * results/solver-bench.md, session 13).
     */
    int early_permille;
    ProofNum early_dn;
    ProofNum early_dn_root;    /* the threshold for the root of goal win (JT_LOOK_ROOT) */
    uint64_t stopped_early;    /* counter, added to */
    uint64_t proofs_stored;    /* counters, added to */
    uint64_t proofs_failed;
} JobRunner;

enum { JOBRUN_EARLY_UNIT = 100000 }; /* the look's length at which the dn threshold is early_dn */

/*
 * Run a job on position b with a work budget (nodes).  When the budget is
 * spent and the job is unknown with a root pn of at most extend_pn (0: any),
 * it goes on in the same table to 4x its work so far, up to extend times
 * (o->extended counts them; JtJob.extend).  look (JtJob.look): JT_LOOK the
 * early look with early_dn, JT_LOOK_ROOT with early_dn_root, JT_LOOK_NONE
 * none (a probe: its whole budget).  Fills *o.  Returns 0,
 * RJ_EINTR when the solver's stop flag ended it (nothing stored; *o is the
 * partial outcome), or an error of the solver or the store.
 */
int jobrun_run(JobRunner *r, const Board *b, uint64_t budget, int extend, ProofNum extend_pn, int look, JtOutcome *o);

#endif /* RJ_JOBRUN_H */
