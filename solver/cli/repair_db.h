/*
 * repair_db.h - proof repair (repair.h) over the results database: the
 * prover that `renju repair` and the opening search's repairs share, and a
 * whole repair whose mended proof is checked before it is stored.
 *
 * The prover proves a node of the target the source proof no longer covers:
 * the stored result of that position when there is one (a stored proof is
 * used as it is; a stored disproof ends that branch), else a df-pn solve in
 * the solver the caller gives (the table the earlier calls of the same
 * repair left: their positions are related).  A proof found is checked by
 * the independent checker, then stored; a disproof is stored too; an
 * unknown claims nothing.  The solver's stop flag ends the repair
 * (RJ_EINTR).  With `decline_root` the whole target (depth 0)
 * is not searched: a caller that would rather spend a job on it says so.
 * With `max_work`, once the solves' work (`work`) has reached it, every
 * node not stored is declined (RJ_ENOTFOUND, counted in `declined`): the
 * repair's budget is its search work, while a stored result costs nothing.
 *
 * Thread safety: one RepairDb per thread.
 */
#ifndef RJ_REPAIR_DB_H
#define RJ_REPAIR_DB_H

#include <stdbool.h>

#include "db.h"
#include "dfpn.h"
#include "proof.h"
#include "repair.h"
#include "resultstore.h"

typedef struct {
    Db *db;
    ResultStore store; /* db_result_store(db) */
    RuleSet rules;
    Color att;
    Dfpn *dfpn;                                 /* the prover's solver (its budget: the caller's config) */
    bool decline_root;                          /* depth 0: RJ_ENOTFOUND without a search */
    uint64_t max_work;                          /* the solves' work allowed in all (0: no limit); then declined */
    void (*trace)(void *ctx, const char *line); /* a line per df-pn solve and per proof (may be NULL) */
    void (*tick)(void *ctx);                    /* after each prover call (may be NULL) */
    void *cb_ctx;                               /* for trace and tick */
    /* counters */
    uint64_t work; /* df-pn work of the solves */
    long long from_db, searched, proven, disproven, unknown, declined;
} RepairDb;

/* RepairProver (repair.h) over a RepairDb (ctx). */
int repair_db_prove(void *ctx, Board *b, int depth, ProofWriter *w);

/*
 * Mend the stored proof (src, len; header included) of source position s
 * for target t, check the result from t with the independent checker and
 * store it as t's proof.  0 when stored (*ps: its size); RJ_ENOTFOUND when
 * not mended (st->why says where); RJ_EINTERNAL when the mended proof does
 * not check (nothing is stored; a repair bug; why says where); RJ_EBADDATA
 * for a malformed source proof; or an error (RJ_EINTR from the solver's
 * stop flag, the store's).
 */
int repair_db_run(RepairDb *p, const Board *s, const uint8_t *src, size_t len, const Board *t, int max_failures,
                  RepairStats *st, ProofStats *ps, char *why, size_t whylen);

#endif /* RJ_REPAIR_DB_H */
