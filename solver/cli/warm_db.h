/*
 * warm_db.h - a solve's warm start from the results database: what the
 * opening-level search proved below the position.
 *
 * `renju opening search` leaves in the database the proven and disproven
 * positions of its tree (results, with their proofs) and the state of each
 * node it searched (search_db.h).  Where it left a position open, its tree
 * usually holds a line whose white nodes have all but one reply proven,
 * several levels deep, and one `renju solve` of the position would prove
 * all of those again.  The warm start walks the saved tree instead: from
 * the root, through every node the tree expanded, each child position
 * (every stone move of the side to move; white's pass is left out) is
 * looked up in the database; proven ones (with a stored proof) and
 * disproven ones go into the solver's TT (dfpn_preload), unsolved children
 * the tree expanded are walked in turn (each position once).  The search
 * then meets those positions solved, by any move order, and works on what
 * is open.  Proof extraction takes a preloaded position's subtree from the
 * database (warm_db_source, proof_extract_from); the caller checks the
 * whole proof before storing it.
 *
 * Only black's wins: the saved tree and its results are black's (the
 * opening search's attacker).
 */
#ifndef RJ_WARM_DB_H
#define RJ_WARM_DB_H

#include <stdatomic.h>

#include "db.h"
#include "dfpn.h"
#include "proof_extract.h"

typedef struct {
    uint64_t walked;    /* expanded tree nodes walked */
    uint64_t lookups;   /* child positions looked up */
    uint64_t proven;    /* preloaded as proven (black wins) */
    uint64_t disproven; /* preloaded as disproven */
    bool truncated;     /* the walk stopped at its node limit */
    double time_s;
} WarmStats;

typedef struct WarmDb WarmDb;

/*
 * Walk the saved tree of db below root (black the attacker) and preload
 * what it proved into s (dfpn_preload), walking at most max_walk expanded
 * nodes (0: WARM_MAX_WALK; a node costs about 1 ms: I7 h6's tree, 40,487
 * nodes, took 49 s) and stopping early when *stop (may be NULL) is set:
 * what was found so far is preloaded (st->truncated).  *out (NULL when
 * nothing was preloaded) answers proof extraction's questions afterwards:
 * free it with warm_db_free, and keep db open until then.  0, RJ_ENOMEM or
 * a database error.
 */
enum { WARM_MAX_WALK = 200000 };
int warm_db_load(WarmDb **out, Db *db, RuleSet rs, const Board *root, Dfpn *s, uint64_t max_walk,
                 const atomic_bool *stop, WarmStats *st);

/* The ProofSource of w's preloaded proven positions (their stored proofs, in the asking board's frame). */
void warm_db_source(WarmDb *w, ProofSource *src);

void warm_db_free(WarmDb *w);

#endif /* RJ_WARM_DB_H */
