/*
 * dfpn.h - parallel depth-first proof-number search (df-pn, Nagai 2002) with
 * the 1+epsilon trick (Pawlewicz & Lew) over the full renju game.
 *
 * The attacker (either colour) tries to win; draws (two passes, full board)
 * count as failures.  Nodes:
 *   - attacker to move (OR): a five wins at once; if the defender threatens
 *     five the only moves are the legal blocks (a second threat or a
 *     forbidden block is a loss); a VCF (vcf.h) found at the first visit
 *     proves the node (and a VCT when DfpnConfig.vct_budget > 0: off by
 *     default, it cost more than it saved on the opening positions);
 *     otherwise the children are the CANDIDATE moves: legal points within
 *     two of a stone, ordered by line patterns (all legal moves and a pass
 *     with DfpnConfig.full_width).
 *   - defender to move (AND): a defender five, or a defender VCF found at the
 *     first visit, disproves the node; an attacker five threat leaves only
 *     the legal block; otherwise every legal defender move and the pass are
 *     children, except moves the proof checker accepts as short losses: after
 *     them the attacker has a legal move that leaves two winning points while
 *     the defender has no five (each such move is verified one by one).
 *     When the attacker would win by VCF after a defender pass, that line is
 *     replayed after each defender move (vcf_line_holds, with an exact
 *     shortcut for distant moves, vcf_line_zone): the moves it still beats
 *     are left out of the child list (they are proven: the leaf VCF re-finds
 *     the win when a proof is extracted), so only the real defences count
 *     in the node's proof number; with none left the node is proven.
 * A proof therefore never depends on a guess.  A DISPROOF found with
 * candidate moves only says "no win among the candidates": the result is
 * RESULT_DISPROVEN only when the disproof is exact (every legal attacker
 * move, pass included, was refuted wherever the attacker was to move, which
 * forced moves and full_width give); otherwise RESULT_UNKNOWN with
 * DfpnResult.candidates_refuted set.
 *
 * Parallel search (a portfolio of tie-breaks): OpenMP threads each run
 * df-pn from the root in one transposition table (tt.h).  Thread 0 runs the
 * 1-thread search; thread t > 0 breaks ties between equally scored
 * children as if the board were turned by a board transform (ng_order's
 * tie), so it follows other lines, and keys its TT entries by the position's
 * key ^ a salt of its own, so the threads share the table's memory but not
 * its contents, except the root's solved children, which every thread
 * publishes and reads (at a defender root the threads so split the
 * defences).  The first thread to solve the root ends the solve.  A df-pn
 * search's work is heavy-tailed in such ties (the 8 transforms of
 * `h8 h9 i9 e5 k9 e11` take 8.6k to 220k nodes), so racing two orderings
 * cuts the long runs, and thread 0 does about what one thread would do.
 * Sharing numbers or proofs deeper down was measured: it let the threads
 * steer each other into larger proofs, at worst 30x the 1-thread work
 * (results/solver-bench.md).  With one thread the search is deterministic.
 * What the racers cost each other is kept small: a thread joins the solve
 * when it starts, with no barrier; the helpers are kept off the master's
 * CPU (placement.h); the threads' memory is allocated with the solver and
 * faulted in before it is shared (tt.h "Growth"); per-node fields and
 * counters lie on separate cache lines.  Thread 0 then runs within ~5% of a
 * lone thread's time on the 53-position suite.
 *
 * Solved store: once the TT reaches its cap (DfpnConfig.tt_mb), the proven
 * and disproven entries it evicts move to a second table of solved entries
 * only (made then, 64 KiB, growing like the TT up to tt_mb / 8: the two
 * tables use at most 1.125 x tt_mb), and the TT ranks its own entries by work
 * alone, so it keeps room for the search's unsolved entries.  Probes that
 * miss the TT look there (dfpn_probe and proof extraction too).  Below the
 * cap the TT grows instead of evicting, so a search that fits is the same
 * as before (`renju bench` signature unchanged).  Without the store a full
 * table filled with cheap solved entries and the search thrashed in small
 * tables (measurements: results/solver-bench.md).  Entries are lost only
 * once the store is at its cap too.
 *
 * The node rules live in nodegen.c (shared with proof extraction).
 *
 * Thread safety: one Dfpn per solve call at a time; dfpn_request_stop() and
 * reading the stop flag are safe from any thread or a signal handler.
 */
#ifndef RJ_DFPN_H
#define RJ_DFPN_H

#include <stdatomic.h>

#include "proof.h"
#include "tt.h"
#include "types.h"

enum {
    DFPN_MAX_PV = 64,
    DFPN_SIM_BUDGET = 1 << 16,
    DFPN_SIM_MIN_CHILDREN = 4,
    DFPN_QUIET_FREE = 2,     /* see DfpnConfig.quiet_free */
    DFPN_QUIET_DEEP_PN = 64, /* see DfpnConfig.quiet_deep_pn */
    DFPN_EFFORT_SHIFT = 12,  /* see DfpnConfig.effort_shift */
};

/* Progress report (called from thread 0 at most every progress_interval s). */
typedef struct {
    uint64_t nodes;
    double time_s;
    ProofNum root_pn, root_dn;
    int tt_fill_permille;
} DfpnProgress;

typedef struct {
    Color attacker;          /* EMPTY: the side to move */
    RuleSet rules;
    int threads;             /* >= 1 */
    uint64_t max_nodes;      /* work budget: df-pn plus leaf threat-search nodes; 0: unlimited */
    double max_time;         /* seconds, 0: unlimited */
    size_t tt_mb;            /* transposition table size */
    bool full_width;         /* attacker: every legal move and the pass (exact disproofs, slow) */
    uint64_t vcf_budget;     /* nodes of each leaf VCF (0: default) */
    uint64_t vct_budget;     /* nodes of a leaf VCT at each new attacker node (0: no leaf VCT, the default) */
    /*
     * VCT pruning (dfpn_prune.c): at a wide defender node the search comes
     * back to, a VCT of this many nodes after a defender pass and, when it
     * wins, after each reply (0: off).
     */
    uint64_t vct_prune_budget;
    /*
     * With vct_prune_budget: prune by the relevance zone of that VCT's proof
     * (zone.h) instead of a VCT after each reply.
     */
    bool vct_prune_zone;
    uint64_t sim_budget;  /* simulation (dfpn_sim.c): work cap of one (0: none; default DFPN_SIM_BUDGET) */
    int sim_min_children; /* simulation only at defender nodes with more replies (0: DFPN_SIM_MIN_CHILDREN) */
    int vct_order;        /* threat order of the leaf VCT (vct.h): 0 or 1 strict (the default), 2..4 wide */
    /*
     * Quiet attacker moves deep in the search (NodeRules in nodegen.h): a
     * quiet candidate more than quiet_free attacker moves below the root
     * starts at proof number quiet_deep_pn instead of 8 (0: the defaults
     * DFPN_QUIET_FREE and DFPN_QUIET_DEEP_PN; quiet_free < 0: off).
     */
    int quiet_free;
    int quiet_deep_pn;
    /*
     * Effort in the proof number (mid() in dfpn.c): at an attacker node, a
     * child whose last search took about 2^k work nodes counts
     * 2^(k - effort_shift) more in its proof number, one per 2^effort_shift
     * nodes (0: the default DFPN_EFFORT_SHIFT; < 0: off).  A forcing line
     * that does not win keeps a low proof number however deep it goes (the
     * defender has one or two replies at each step); with this its siblings
     * get their turn as its work grows.  A heuristic: results never depend
     * on it.
     */
    int effort_shift;
    atomic_bool *stop; /* external stop flag (may be NULL), e.g. set by a signal handler */
    void (*progress)(void *ctx, const DfpnProgress *p); /* may be NULL */
    void *progress_ctx;
    double progress_interval; /* seconds (0: 0.5) */
} DfpnConfig;

/* Fill c with the defaults (threads 1, 64 MiB, renju, attacker = side to move). */
void dfpn_config_default(DfpnConfig *c);

typedef struct {
    Result result;            /* PROVEN, DISPROVEN (exact) or UNKNOWN */
    bool candidates_refuted;  /* UNKNOWN because only candidate moves were refuted */
    bool stopped;             /* budget exhausted or stop requested */
    bool interrupted;         /* the external stop flag was set */
    Color attacker;
    Point best;               /* winning move (proven), or the most promising one */
    int pv_len;
    Point pv[DFPN_MAX_PV];    /* principal variation from the TT */
    uint64_t nodes;            /* work: df-pn nodes plus the nodes of the leaf VCF/VCT searches */
    uint64_t dfpn_nodes;       /* df-pn nodes alone (MID calls) */
    uint64_t max_thread_nodes; /* the most work one thread did (parallel balance) */
    uint64_t thread0_nodes;    /* thread 0's work (the 1-thread search's order) */
    uint64_t sim_proven;       /* defences proven by simulation (DfpnConfig.sim_budget) */
    uint64_t vct_pruned;       /* defences proven by VCT pruning (DfpnConfig.vct_prune_budget) */
    double time_s;
    ProofNum root_pn, root_dn;
} DfpnResult;

typedef struct Dfpn Dfpn;

/*
 * Create a solver with its transposition table, its threads' memory (leaf
 * threat-search tables, child-list caches) and, for several threads,
 * OpenMP's threads, so a solve allocates nothing.  0, RJ_ENOMEM or
 * RJ_EBADARG.
 */
int dfpn_create(Dfpn **out, const DfpnConfig *cfg);

/*
 * Replace the configuration of an existing solver (budgets, attacker, leaf
 * VCT, threads...) keeping its TT: cfg->tt_mb, rules and full_width must
 * equal the solver's (the TT's entries depend on them).  Cached child lists
 * are dropped (they depend on the budgets).  0, RJ_EBADARG or RJ_ENOMEM
 * (more threads).
 */
int dfpn_set_config(Dfpn *s, const DfpnConfig *cfg);

/* Free the solver (NULL is fine). */
void dfpn_free(Dfpn *s);

/*
 * Solve the position b (not modified) for the configured attacker within the
 * budgets.  The TT is kept between calls, and so are the facts each thread's
 * leaf VCF learnt and its cached child lists (all true of the positions
 * whatever the root): clear them with dfpn_clear for a cold start.  Returns
 * 0 (any result, including UNKNOWN) or an error code.
 */
int dfpn_solve(Dfpn *s, const Board *b, DfpnResult *res);

/* Empty the transposition table and what the threads learnt (a cold start). */
void dfpn_clear(Dfpn *s);

/* Ask a running search to stop (async-signal-safe). */
void dfpn_request_stop(Dfpn *s);

/* The solver's transposition table and configuration (read-only use). */
const TT *dfpn_tt(const Dfpn *s);
const DfpnConfig *dfpn_config(const Dfpn *s);

/*
 * Key of position b in the TT of a search for attacker (the Zobrist key with
 * the attacker folded in).
 */
Key dfpn_tt_key(const Board *b, Color attacker);

/*
 * Warm start: positions whose result is already known (the results
 * database's, db/), put in the TT before a solve as solved entries under
 * every thread's key.  The search takes such a position as proven or
 * disproven wherever it meets it, by any move order.  A proven one's proof
 * is not in the TT: proof extraction takes it from a ProofSource
 * (proof_extract.h), and the caller checks the whole proof.  A disproven one
 * must be an exact disproof (every legal attacker move refuted), as the
 * database's are.
 */
typedef struct {
    Key key;       /* dfpn_tt_key of the position for the solve's attacker */
    Result result; /* RESULT_PROVEN or RESULT_DISPROVEN */
} DfpnKnown;

/*
 * Put the n known results k in s's TT (growing it first so that they fit
 * at an eighth of its slots, within DfpnConfig.tt_mb), for a solve with
 * s's configured threads.  0, or RJ_EBADARG (a result neither proven nor
 * disproven).  Not while a solve runs.
 */
int dfpn_preload(Dfpn *s, const DfpnKnown *k, size_t n);

/*
 * The TT entry of position b (attacker fixed) for the last solve's proof:
 * thread t keys its entries by dfpn_tt_key ^ a salt of its own ("Parallel
 * search" above; thread 0's salt is 0), and a proof can span threads (the
 * root's children are shared).  So: the solving thread's entry if solved,
 * else a solved entry of any other thread, else the solving thread's
 * unsolved entry.  False when there is none.  Proof extraction and the PV
 * read the TT through this.
 */
bool dfpn_probe(const Dfpn *s, const Board *b, Color attacker, TTData *e);

/*
 * The node rules above, for proof extraction: classify position b (attacker
 * fixed) and, for a non-terminal node, list its children (moves, POINT_PASS
 * included) in search order.  Returns RESULT_PROVEN / RESULT_DISPROVEN for a
 * terminal node (no children, *n = 0) and RESULT_UNKNOWN otherwise.  The leaf
 * VCF is not run here.  mv needs room for BOARD_POINTS + 1 moves.
 */
Result dfpn_node_children(const Dfpn *s, Board *b, Color attacker, Point *mv, int *n);

/*
 * The leaf test of an attacker node as the search runs it (VCF then VCT with
 * the configured budgets), b restored: true when it proves a win.  When w is
 * not NULL the leaf's proof (an A-node, no header) is appended to w and
 * *pnodes / *pdepth (may be NULL) get its size and depth.
 */
bool dfpn_leaf_win(const Dfpn *s, Board *b, Color attacker, ProofWriter *w, uint64_t *pnodes, uint32_t *pdepth);

/*
 * Search position b (attacker fixed, b restored) single-threaded in the
 * solver's TT, as the thread that solved the last root (dfpn_probe),
 * until solved or max_nodes more nodes; used to fill gaps while extracting
 * proofs.  Returns the result at b (UNKNOWN if unsolved).
 */
Result dfpn_search_node(Dfpn *s, Board *b, Color attacker, uint64_t max_nodes);

#endif /* RJ_DFPN_H */
