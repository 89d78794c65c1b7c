/*
 * search_db.h - the opening-level search's source (jobtree.h JtSource) over
 * the results database: stored results, the saved state of each node, and
 * the composition of proofs for inner nodes solved by their children.
 *
 * Saved node state lives in the database's "work" sub-database under the key
 * "jt1:" + the position's DbKey (canonical over the 8 symmetries, attacker
 * black), value 22 bytes little-endian: effort u64, jobs u32, pn u32, dn u32,
 * best move u8 (canonical frame, 255 none), flags u8 (1: expanded, 2: probed, bits 2-7: the root
 * repair's level, JtState.repair_level), then the last job's
 * child estimates, 9 bytes each: move u8 (canonical frame, 254 pass), pn
 * u32, dn u32.  Writes commit at once (a kill -9 loses at most the job that
 * was running).
 *
 * Composition.  A black-to-move node proven through child m gets the proof
 * header + m + the child's stored proof tree; a white-to-move node proven
 * through all its children gets header + a D-node listing every white move
 * of the tree with the child's stored proof tree under it (white moves left
 * out are short losses the checker confirms by itself).  The composed proof is
 * checked by the independent checker from the node's real board before it is
 * stored; when a child has no stored proof, or the check fails, nothing is
 * stored and the callback returns RJ_EBADDATA (the tree still counts the
 * node as proven through its children).  Queued results are flushed first,
 * so the children's proofs are readable.
 *
 * Borrowing (jobtree.h): the stored proof of the position after white's pass
 * is checked by the independent checker from the position after another
 * white move at the same node, and stored as its proof when it passes.
 * Repair (jobtree.h): see search_db_enable_repair.
 */
#ifndef RJ_SEARCH_DB_H
#define RJ_SEARCH_DB_H

#include <stdatomic.h>

#include "db.h"
#include "dfpn.h"
#include "jobtree.h"
#include "progress.h"

typedef struct {
    Db *db;
    RuleSet rules;
    ResultStore store;       /* db_result_store(db) */
    uint64_t composed;       /* proofs composed and stored */
    uint64_t compose_failed;
    uint64_t compose_bytes;  /* their total size */
    uint64_t borrowed;       /* positions proven by a borrowed proof: white's pass's or a sibling's (jobtree.h) */
    /* Repair (jobtree.h), after search_db_enable_repair */
    size_t repair_tt_mb;      /* the repairs' solver's table */
    atomic_bool *stop;        /* its stop flag */
    Dfpn *repair_dfpn;        /* created at the first repair */
    uint64_t repaired;        /* positions proven by a mended proof (checked, then stored) */
    uint64_t repair_work;     /* the repairs' df-pn work */
    uint64_t repair_rejected; /* mended proofs the checker refused (a bug; nothing claimed) */
    uint64_t repair_tries;    /* repairs run */
    Progress *repair_pr;      /* their progress lines (may be NULL) */
    double repair_deadline;   /* clock_now() time after which no repair starts (0: none) */
    /* `opening search --class-time` (cli_search.c): the root's moves searched on their own */
    uint64_t class_runs, class_proven, class_jobs, class_nodes;
    JtStats first_tree; /* the counters of the position's own tree before it was built again (has_first_tree) */
    bool has_first_tree;
    /*
     * Several trees open at once (renju-mpi --class-time: a position can be
     * in two classes' trees): a save keeps a stored state that is strictly
     * further along (search_db_state_ahead).  Off: the last save wins.
     */
    bool keep_ahead;
} SearchDb;

/* Fill s (db must outlive it) and the source over it; read_only: no save, no composition. */
void search_db_init(SearchDb *s, Db *db, RuleSet rs, bool read_only, JtSource *src);

/*
 * Give the source a `repair` callback (jobtree.h, Repair; repair_db.h): the
 * donor's stored proof is mended for the leaf, its fresh proofs searched by a
 * 1-thread solver of tt_mb MiB (created at the first repair, stopped by
 * stop), each proof found stored, the mended proof checked before it is
 * stored.  From the clock_now() time deadline on (0: never) a repair
 * returns RJ_EINTR at once, as after a stop request: the repairs at the
 * root run before any job (RENJU_JT_BORROW_REPAIR), where the job pool's
 * time limit is not yet looked at.  pr (may be NULL) gets a report when
 * one is due after a repair.  Call search_db_free when done.
 */
void search_db_enable_repair(SearchDb *s, JtSource *src, size_t tt_mb, atomic_bool *stop, double deadline,
                             Progress *pr);

/* Release what s holds (the repairs' solver); the database stays open. */
void search_db_free(SearchDb *s);

/*
 * Forget the saved state of every node (every "jt1:" key) of db in one
 * transaction, keeping the results; *n the states deleted.  The next
 * search builds its tree again from the stored results, so a stronger solver
 * gets to run the first jobs of the positions still open.  0 or an error code.
 */
int search_db_forget_tree(Db *db, uint64_t *n);

/*
 * Check a saved node state that comes from outside the search (`db import`
 * of a state line): RJ_ENOTFOUND when key is not a "jt1:" key; else 0 when
 * the key is the canonical key of a stone set (any counts) with attacker
 * black and the value has the layout above (the best move and the
 * estimates' moves empty points of that position, or the pass; proof numbers
 * at most PN_INF; a root repair level, JtState.repair_level, of 0 or of at
 * least JT_MIN_REPAIR_LEVEL on a black-to-move position; at most 2^24 jobs
 * and 2^50 work, so sums
 * stay in range), RJ_EBADDATA with a one-line reason in why otherwise.
 */
int search_db_check_state(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, char *why, size_t whylen);

/* Call fn for every saved node state of db ("jt1:" keys) in key order (db_work_foreach). */
int search_db_foreach_state(Db *db, DbWorkFn fn, void *ctx);

/*
 * Whether saved state a is at least as far along as b: expanded where b is
 * not (its children's states hold the work below it: a node that is one
 * search's expanded root and another's probed leaf keeps the root's state),
 * or the same and more work, or as much and more jobs, or as much of both
 * and probed where b is not (a node expanded without a new job, or only
 * probed since, records no more work: jobtree.h, JtConfig.expand_below), or
 * as much of all that and a higher root repair level.  A
 * value shorter than the layout counts as nothing done.
 */
bool search_db_state_ahead(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

#endif /* RJ_SEARCH_DB_H */
