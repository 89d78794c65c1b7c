/*
 * opening.h - solving the positions the opening rules ask about, with a
 * results store (docs/renju.md "Opening procedures", "What solved and fair N
 * mean").
 *
 * The attacker is always black: a position's status is RESULT_PROVEN when
 * black wins it, RESULT_DISPROVEN when black provably cannot (an exact df-pn
 * disproof), RESULT_UNKNOWN otherwise.  Unknown is never turned into a
 * guess: W and fair-N are reported as intervals (fifth.h bounds functions),
 * and every position that was not searched, or whose search ran out of
 * budget or was interrupted, simply counts as unknown, so a partial run still
 * gives valid bounds.
 *
 * Store.  Every search result is written to the ResultStore when one is
 * given: proven (with its proof when OpeningConfig.proofs, the proof first
 * checked by the independent checker), disproven, and unknown results as
 * "effort" records (RESULT_UNKNOWN with the nodes spent).  Before searching,
 * the store is consulted: a proven/disproven record is used as is (the
 * position is not searched again); an unknown record whose nodes are at
 * least this run's node budget (the Dfpn's max_nodes; never with a time-only
 * budget) is skipped as "already tried".  db_result_store() hides effort
 * records (lookups see only proven/disproven); a store whose lookup also
 * reports them (the CLI's) makes reruns skip what was already tried.
 *
 * Determinism.  The transposition table is cleared before each search, so
 * with one thread a position's result does not depend on what was searched
 * before it (a sharded run gives the same results as a single run).
 *
 * Stopping.  The Dfpn's stop flag (DfpnConfig.stop) stops the current search
 * and the iteration: the functions return RJ_EINTR with the outputs filled
 * (positions not finished are unknown).  Results already written stay.
 *
 * Thread safety: one call per Dfpn at a time; the store must be thread-safe
 * (db_result_store is).
 */
#ifndef RJ_OPENING_H
#define RJ_OPENING_H

#include "dfpn.h"
#include "fifth.h"
#include "resultstore.h"
#include "types.h"

/* Outcome of one position. */
typedef struct {
    Result status;      /* for black */
    Point best;         /* black's winning move (proven, black to move) or POINT_NONE */
    bool searched;      /* df-pn ran in this call */
    bool from_store;    /* status read from the store (proven/disproven, or effort skip) */
    bool interrupted;   /* the stop flag ended the search */
    bool proof_stored;  /* a checked proof was written with the result */
    int proof_rc;       /* 0, or why a proven result has no stored proof (error.h) */
    uint64_t nodes;     /* nodes searched in this call */
    double time_s;
} OpeningSolve;

/* Common settings of the functions below. */
typedef struct {
    Dfpn *dfpn;                /* attacker BLACK; its max_nodes/max_time are the per-position budget */
    RuleSet rules;
    const ResultStore *store;  /* may be NULL */
    bool proofs;               /* extract, check and store proofs of proven results */
    double deadline;           /* overall deadline in clock_now() seconds (clock.h), 0: none;
                                  positions not started before it count as unknown */
    /* Called after each position (may be NULL): done/total positions so far. */
    void (*progress)(void *ctx, int done, int total, const Board *pos, const OpeningSolve *r);
    void *progress_ctx;
} OpeningConfig;

/*
 * Status for black of position b (any side to move; b not modified): the
 * store, a finished game (a five: its winner; a draw: disproven), or a df-pn
 * search, written back to the store as described above.  Returns 0 (any
 * status), RJ_EINTR when the stop flag ended the search (*out unknown, nothing
 * stored), or an error code of the solver or the store.
 */
int opening_solve(const OpeningConfig *c, const Board *b, OpeningSolve *out);

/* One move class and the status of the position after its representative. */
typedef struct {
    MoveClass cls;
    OpeningSolve res;
} OpeningClass;

/*
 * Every class of black's legal moves in b (black to move; fifth.h
 * equivalence), each solved after its representative moves[0].  For a
 * 4-stone position these are the 5th-move classes and *wins_min and *wins_max
 * the bounds on W; for other positions the same count of winning move
 * classes.  out needs room for BOARD_POINTS classes; *n gets their count
 * (all of them, also on RJ_EINTR or past the deadline: unsolved ones are
 * unknown).  Returns 0, RJ_EBADPOS (white to move), RJ_EINTR, or an error.
 */
int opening_move_classes(const OpeningConfig *c, Board *b, OpeningClass *out, int *n, int *wins_min, int *wins_max);

/* Number of black move classes in b (black to move): what opening_move_classes would solve. */
int opening_count_classes(Board *b, RuleSet rs);

/* One 4th-move class of an opening and the W bounds of the position after it. */
typedef struct {
    MoveClass cls;
    int nfifth;          /* 5th-move classes after cls.moves[0] */
    int wins_min, wins_max;
    int proven, disproven; /* = wins_min, nfifth - wins_max */
    bool selected;       /* its 5th moves were solved (see opening_fair_n's only) */
} OpeningFourth;

/*
 * The fair-N bounds of the position b (white to move; for an opening, the
 * 4th-move classes): for every class of white's legal moves, the W bounds of
 * the position after its representative (opening_move_classes), and
 * *nfair_min = 1 + min wins_min, *nfair_max = 1 + min wins_max
 * (fifth_fair_n_bounds).  only (may be NULL) restricts the search to the
 * classes holding one of its nonly points: the other classes are counted
 * with every 5th move unknown (wins_min 0, wins_max = their class count), so
 * the bounds stay valid.  out needs room for BOARD_POINTS entries; *n gets
 * their count.  Returns 0, RJ_EBADPOS (black to move, or white has no legal
 * move), RJ_EINTR (outputs filled), or an error.
 */
int opening_fair_n(const OpeningConfig *c, Board *b, const Point *only, int nonly, OpeningFourth *out, int *n,
                   int *nfair_min, int *nfair_max);

/*
 * Number of positions opening_fair_n would solve (5th-move classes summed
 * over the selected 4th-move classes; only as there).
 */
long opening_count_fair_n(Board *b, RuleSet rs, const Point *only, int nonly);

/*
 * The positions reached from b by depth >= 1 plies, each ply expanding one
 * representative of every class of the mover's legal moves (fifth.h), in
 * generation order, without duplicates (positions equal under a symmetry
 * are emitted once, at their first occurrence).  fn is called with each
 * position (valid during the call); a nonzero return stops the walk and is
 * returned.  A finished game, or a position whose mover has no legal stone
 * move, is not expanded: it is emitted where it is reached.  b is restored.
 * Returns 0, fn's value, RJ_EBADARG (depth < 1 or > 3), or RJ_ENOMEM.
 */
int opening_plan(Board *b, RuleSet rs, int depth, int (*fn)(void *ctx, const Board *pos), void *ctx);

#endif /* RJ_OPENING_H */
