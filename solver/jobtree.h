/*
 * jobtree.h - the opening-level search: a job-level proof-number search
 * (job-level PNS, Wu et al. on Connect6) over the tree of opening positions.
 *
 * The tree.  The root is a position (the 3-stone opening, white to move, or
 * a 4-stone position, black to move); the attacker is always black.  A node
 * with black to move is an OR node, with white to move an AND node.
 *   - OR children: one per class of black's legal stone moves (fifth.h
 *     classes under the stabiliser of the node's stone set).  Black's pass is
 *     not a child: white answers it with a pass, a draw, so it never wins for
 *     black, and an OR node whose children are all disproven is disproven.
 *   - AND children: one per class of white's legal moves that are not short
 *     losses (after the move black has a five at once), and white's pass.
 *     After a pass the child is searched and stored as the setup position of
 *     the same stones (a stored result cannot carry "the last move was a
 *     pass"); the parent's composed proof is re-checked from the real board,
 *     so a stored proof that begins with a black pass (a draw there) is
 *     refused rather than trusted.
 * Positions equal under a symmetry (the SymKey, pass flag included) are one
 * node: the tree is a DAG and proof numbers over-count on it (accepted, as in
 * every PNS on a DAG).
 *
 * Jobs.  A leaf is evaluated by a job: a df-pn search of its position with a
 * node budget (JtConfig.job_nodes), run by a JobRunner somewhere (local
 * threads, jobpool.h; MPI ranks).  A proven or disproven job solves the
 * leaf exactly.  An unknown job leaves the leaf with the job's final root pn
 * and dn (capped) as its estimate; when that leaf is the most-proving node
 * again it is expanded into its children, with two exceptions.  At
 * JtConfig.max_stones it is run again with double the budget each time.
 * And a job that ended with a root pn of at most JtConfig.rerun_pn (a few
 * lines left open in its search) is run again with 4x its budget, up to
 * JtConfig.rerun times, before the node is expanded: one search shares its
 * table and its simulation among those lines, while the expanded node gives
 * each child its own job with an empty table (the CLI's default, 1 rerun
 * below pn 10: 4.01e8 -> 2.93e8 work over five positions, results/solver-
 * bench.md, session 14).  The root of a goal-win search, white to move
 * included, gets its job and JtConfig.root_rerun reruns whatever its pn, so
 * a position one search can prove costs about what that search costs (the
 * CLI's default, 2: the five positions 2.93e8 -> 2.86e8; a 5-stone root
 * spends 2e6 + 8e6 + 3.2e7 before the tree takes over).  With
 * JtConfig.rerun_in_job (the CLI's default) those reruns go on in the job's
 * own table (JtJob.extend) instead of repeating its work in new jobs (the
 * five: 2.86e8 -> 2.59e8; session 15).  The root's reruns stop where the
 * next would exceed JtConfig.root_cap x job_nodes (the CLI's 16: one search
 * of up to 8e6 at 5 and 6 stones with 5e5-node jobs; a 5-stone root that
 * fails it no longer spends 3.2e7 first).  With
 * JtConfig.scale > 1 the shallow positions, whose proofs are larger, get
 * bigger jobs: scale^(6 - stones) times job_nodes below 6 stones.  With
 * JtConfig.expand_below, a node below the root with fewer stones that has
 * had no whole job gets none: its probe (Probes) only, whose estimates its
 * expansion uses (none where its side has no probe share: the fresh leaves'
 * estimates below), under every goal.  A node of a resumed tree that had a
 * whole job keeps the rules above (its rerun included).  Fresh
 * leaves start at pn = dn = 1 adjusted by where the move lies: black moves
 * next to the stones and the parent job's most promising move first (small
 * pn), white replies next to the stones first (small dn).  When the node
 * had a job, its children start instead from the proof numbers that job's
 * search left for them (JtOutcome.est: the df-pn children of its root, read
 * from its transposition table), so the job's knowledge orders the
 * expansion: the lines it found promising are followed first, and children
 * it never listed (black moves beyond its candidates) start at twice its
 * largest estimate, or at JtConfig.unlisted_pn when that is more.  A job
 * that fails on a black move ends with a root pn in the thousands, far
 * above the estimates its siblings start from, so without that floor the
 * tree gave a job to every black move, far ones included, before it
 * expanded any (`h8 i9 i7 i8 g7 h7`: 175 of its 219 7th moves, each
 * refuted only after ~4e5 work); with a floor of 1e5 (the CLI's default)
 * the same tree is proven in 4.81e8 work instead of 6.50e8.  A leaf that
 * several expanded parents reach (a transposition) before its first job or
 * probe keeps the least pn and the least dn they give it, whichever parent
 * was expanded first, so a tree rebuilt from its saved state, which expands
 * the nodes in another order, has the same numbers.
 *
 * Selection.  From the root down: at an OR node the child of least pn, at an
 * AND node the child of least dn (ties: generation order), skipping solved
 * children and subtrees whose every open leaf is already running (so several
 * jobs can be in flight).  An expanded OR node whose own job failed adds
 * JtConfig.fail_weight percent of that job's pn to the pn its children give
 * it: a line that keeps failing grows dearer with every black move it is
 * followed down.  Without it, a line whose AND nodes each keep one hard
 * defence open (every other reply proven) carries the same pn down any
 * number of levels, and a line that went wrong (a black move that does not
 * win cannot be disproven: a draw) takes every job.  AND nodes add nothing:
 * white's replies are all to be proven anyway, so expanding a 5th move whose
 * job failed is the normal way down.
 * Goals change only the root's choice:
 *   - JT_GOAL_WIN: plain PNS; done when the root is solved.  With
 *     JtConfig.and_pn_dn, a white-to-move root whose open children all have
 *     a dn of at least that (no refutation by white in sight) works on its
 *     child of least pn (ties: least dn): an opening's 4th moves are all to
 *     be proven, and the least dn among numbers that large spreads the jobs
 *     over all of them.  D4 (sessions 24-28) gave g7 and i8 (dn 2.5e8, pn
 *     3431 and 1611) 7.2e9 and 2.36e10 work while f7 (dn 3.3e8, pn 159) had
 *     1.27e9; a search of f7 alone proved it in 2.38e9 more.  Below the root
 *     the least dn stays: there the least pn proved f7 in 2.70e9 (session 30).
 *   - JT_GOAL_COUNT (root black to move): every root child is to be decided
 *     (W bounds of a 4-stone root); the open child of least pn is worked on.
 *   - JT_GOAL_FAIR_N (root white to move, an opening): N_fair = 1 + min over
 *     4th-move classes of W (white's pass is no 4th move of the opening
 *     rules: not counted); only raising the least proven count can move the
 *     lower bound, so work goes to a 4th-move class of least wins_min (ties:
 *     least pn) below the least wins_max, inside it to its open 5th-move
 *     child of least pn; a 4th class is first tried as a whole by one job (a
 *     cheap first win; with probe_black_permille, a probe and then that job).  Done when the two bounds meet.  With
 *     JtConfig.balance, a 4th class's pn counts x (1 + w / (balance x
 *     job_nodes)), w the work of its subtree so far (a running job counts
 *     its budget until it reports): the pn of classes the tree has searched
 *     deeply and of classes it has only tried are not on one scale, and
 *     without it one class took every job (I7: j9 2.66e9 work, j6 j8 g9 8e6
 *     each; results/solver-bench.md, session 16).  A resumed tree sums the
 *     saved work of each class's subtree, a node two classes share (a
 *     transposition: white's 4th and 6th moves swapped) counted for each of
 *     them, where a running tree credits each job to the class it was
 *     selected through.  Counting a shared node for the first class only
 *     left D1's h7 at 7.25e7 after its subtree had taken 3.5e9 (credited to
 *     g7), so every resume sent the jobs back to h7 (session 18).
 * Probes (JtConfig.probe_permille).  A black move below the root (a
 * white-to-move node) gets first a probe: a job of probe_permille / 1000 of
 * its budget whose root pn and dn (of a search that small, they rank black's
 * moves well: results/solver-bench.md, session 15) become the node's
 * estimate; its full job comes when the node is the most-proving again (below
 * JtConfig.expand_below stones: its expansion instead), so
 * the tree weighs black's moves by their probes before it spends whole jobs
 * on them.  A probe is not counted in JtState.jobs (reruns and expansion go
 * by the full jobs).  With JtConfig.probe_black_permille a white move below
 * the root (a black-to-move node) gets its probe the same way: most jobs
 * that prove such a node finish in a few percent of their budget, so the
 * probe proves those, while one that fails costs the probe's share instead
 * of a whole budget and leaves a pn that weighs the line (the g7-h7 root
 * 1.023e8 -> 8.57e7 work to proof; results/solver-bench.md, session 18).
 * Borrowing (JtConfig.borrow_pass).  At a white-to-move node the tree gives
 * white's pass its job first (with probe_black_permille its probe: its whole
 * job then comes in dn order like its siblings'; giving the pass its whole
 * job first measured no better, session 18); once the pass is proven, its
 * stored proof is tried, through the source's `borrow` callback, on the position after each
 * open white move of that node: a move the proof never meets (it is not one
 * of black's moves, and it makes no white four or five the proof does not
 * answer) leaves it a valid proof once the proof's entries for white replies
 * on that point are left out (proof_drop_moves: white cannot play there; the
 * first white node of a slow threat lists nearly every point), which the
 * independent checker confirms from that move's position before it is stored
 * as its proof.  This is a relevance zone that the checker computes: no move
 * is proven that the checker did not accept.  Where the node's position has
 * a symmetry, a white move's class has up to 8 members, one position in as
 * many orientations, and the pass's proof (not symmetric in general) may
 * hold on one member and not on another: the members are tried in turn,
 * the representative first.  The pass itself must be
 * proven for the node to be proven, so giving it the first job costs only
 * where the node is refuted.
 * Simulation (JtConfig.sim_donors).  Before a black-to-move leaf (after a
 * white move) gets its first job (or, below JtConfig.expand_below stones, its
 * expansion after the probe), the stored proofs of up to sim_donors of
 * its proven siblings under the parent it was selected through, those whose
 * white moves lie nearest to its move first (Chebyshev distance, ties in
 * class order), are tried on it through the same `borrow` callback: the
 * checker decides from the leaf's own position, and a proof it accepts is
 * stored as the leaf's proof (Kawano's simulation at the tree's level: most
 * of white's replies are answered the same way).  A leaf is tried once per
 * tree (a resumed tree tries it again).  Under goal fair-n this includes the
 * 4th-move classes below the opening: a class a sibling's proof holds for
 * is proven without its first job (its expansion then has no job's
 * estimates to order it).
 * Repair (JtConfig.repair_permille).  A black-to-move leaf below a
 * white-to-move node whose probe did not prove it (or that gets no probe),
 * and that no sibling's proof holds for, gets one repair before its whole
 * job or its expansion (repair.h): a donor's proof is replayed on it,
 * keeping what holds and proving afresh, through the source's `repair`
 * callback, the nodes that do not: fresh proofs of at most repair_permille
 * thousandths of the leaf's job budget each, repair_calls times that budget
 * in all for one donor and point (a position with a stored result costs nothing; session 34: D3's
 * m5, 299 of 300 calls answered by the database, failed at a cap of 300
 * calls and is proven with 805 solves of 2.6e7 work in all); the leaf
 * itself is never searched whole that way.  Such a repair is tried for
 * each member of the leaf's class in turn (as for Borrowing; the
 * representative last, since before session 35 it was the only one tried
 * and the saved levels record those failures; session 35: I1's o9 not
 * mended in 2e8 work, its mirror image i15 in 1.05e8), and for each donor
 * in turn (repair_donors), until one is proven.  The proven siblings are
 * grouped in families by the first move of their stored proofs (the
 * source's first_move; up to the parent's symmetries, since the members'
 * turns already try a proof's mirror images), and each family other than the pass's (whose
 * members were borrowed or mended from the pass's proof, as a rule) gives
 * its member whose white move is nearest (Chebyshev distance), the nearest
 * families first, at most JT_MAX_REPAIR_DONORS - 1 of them; white's pass
 * comes last, when it is proven.  A family's proof was found with a white
 * stone elsewhere and breaks elsewhere: I2's h14 is not mended from the
 * pass's proof (first move j8, black's h file up to h13; the failures
 * climb to the root after 4.9e7 work), and is from h12's (first move i8)
 * in 6.3e6.  The
 * repair's work counts as the leaf's and the tree's.  A leaf is repaired
 * once per tree (a resumed tree tries it again).  With
 * JtConfig.borrow_repair_permille the root's white moves that the pass's
 * proof does not hold for get such a repair of it as soon as the pass is
 * proven, before any further job, the moves farthest from the stones first
 * (Chebyshev distance to the nearest stone; ties in class order): the
 * repair succeeds most often there (session 33, D3 after 109 repairs: 31 of
 * 31 classes at distance 7 proven, 3 of 16 at distance 1), so a search cut
 * short by --time proves more; where it fails, the move's state keeps its
 * budget level (JtState.repair_level, saved at once), and a resumed tree
 * repairs the move again only at a larger one.  A repair the source stops
 * (RJ_EINTR: a stop request, or the search's time limit), or that did not
 * run (no stored proof of the pass), records nothing, and no repair starts
 * after a stop.  The level is
 * kept per position, not per donor: a position that is a root move of two
 * searches (a 4-stone position two 3-stone openings share) repaired in
 * vain from one root's pass is not repaired from the other's at that level.
 * Proven internal nodes: the source's `solved` callback composes their proof
 * from the children's stored proofs (checked, then stored), so every proven
 * position in the database keeps a checked proof.
 *
 * State.  Every job's effort, last root pn/dn, best move and whether the node
 * was expanded are saved through the source (JtState) right after the job, and
 * results through the job runner's results store, so a new JobTree over the
 * same source rebuilds the same tree (expanded nodes are expanded again on
 * load) and continues where a stopped run, kill -9 included, left off.  With
 * one job in flight at a time the sequence of jobs is deterministic.
 *
 * Thread safety: none; the dispatcher (jobpool.h, or an MPI master) calls
 * jt_next / jt_done from one thread at a time.
 */
#ifndef RJ_JOBTREE_H
#define RJ_JOBTREE_H

#include "board.h"
#include "fifth.h"
#include "types.h"

enum {
    JT_MAX_PATH = 48,
    JT_PN_CAP = 1000000,
    JT_MAX_SIM_DONORS = 16,
    JT_MAX_BALANCE = 1000000,
    JT_MAX_REPAIR_DONORS = 4
};

/* JtState.repair_level's range: a repair has at least one call of at least 1000 nodes. */
enum { JT_MIN_REPAIR_LEVEL = 10, JT_MAX_REPAIR_LEVEL = 63 };

typedef enum { JT_GOAL_WIN = 0, JT_GOAL_COUNT = 1, JT_GOAL_FAIR_N = 2 } JtGoal;

/* A job's proof numbers for one child of its root (from its transposition table). */
typedef struct {
    Point mv;
    ProofNum pn, dn;
} JtEst;

enum { JT_MAX_EST = BOARD_POINTS + 1 };

/* What a job found about its position (black the attacker). */
typedef struct {
    Result result;  /* PROVEN (black wins), DISPROVEN (exact), UNKNOWN */
    uint64_t nodes; /* work spent */
    double time_s;
    ProofNum pn, dn; /* the search's final root numbers (for UNKNOWN) */
    Point best;      /* most promising black move (black to move), else POINT_NONE */
    bool early;      /* UNKNOWN: ended at the runner's early look (jobrun.h), not its whole budget */
    int extended;    /* times the runner went on in the same table to 4x its work (JtJob.extend) */
    int nest;        /* UNKNOWN: the root's children as the search left them (0: none) */
    JtEst est[JT_MAX_EST];
} JtOutcome;

/* The saved search state of one node. */
typedef struct {
    uint64_t effort; /* work of its jobs */
    uint32_t jobs;
    ProofNum pn, dn; /* the last job's root numbers; 0/0: none */
    Point best;
    bool expanded;
    bool probed; /* its probe ran (JtConfig.probe_permille, probe_black_permille; not counted in jobs) */
    /*
     * A root move's repair of white's pass's proof (JtConfig.borrow_repair_permille)
     * ran here and failed, at this budget level: 1 + floor(log2(calls x nodes per
     * call)), at most JT_MAX_REPAIR_LEVEL (0: none).  A resumed tree repairs it
     * again only with a larger budget.
     */
    uint8_t repair_level;
    int nest;   /* the last job's child estimates (moves in the caller's frame) */
    JtEst *est; /* malloc'd: a loaded state hands it to the tree; saved states only lend it */
} JtState;

/* The children of a node as a proof lists them (for proof composition). */
typedef struct {
    int n;
    Point mv[BOARD_POINTS + 1]; /* every member of every child class, and POINT_PASS */
} JtMoves;

/*
 * Where the tree reads and writes what outlives it.  Boards are in the
 * caller's frame (the store canonicalises).  All callbacks return 0 or an
 * error code (error.h); lookup and load return RJ_ENOTFOUND on a miss.
 */
typedef struct {
    void *ctx;
    /* A stored proven / disproven result of b for black. */
    int (*lookup)(void *ctx, const Board *b, Result *res);
    int (*load)(void *ctx, const Board *b, JtState *st);
    int (*save)(void *ctx, const Board *b, const JtState *st); /* NULL: a read-only view */
    /*
     * An inner node b was solved by its children (may be NULL).  PROVEN at
     * black to move: black's winning move is m->mv[0] (m->n = 1); at white
     * to move m lists every white move the proof must answer.  DISPROVEN:
     * m->n = 0.  The callback composes, checks and stores the proof.
     */
    int (*solved)(void *ctx, const Board *b, Result r, const JtMoves *m);
    /*
     * Borrow a proof (may be NULL): b, black to move after a white move, is
     * proven by the stored proof of donor, the position after white's pass
     * (Borrowing) or after another white move (Simulation) at the same
     * parent, in the same frame, when that proof checks from b.  The
     * callback checks it with the independent checker and stores it as b's
     * proof.  0 when it did; RJ_ENOTFOUND or RJ_EBADDATA when not (no proof,
     * or the check fails); another error code on failure.
     */
    int (*borrow)(void *ctx, const Board *b, const Board *donor);
    /*
     * Repair a proof (may be NULL; Repair): b, black to move after a white
     * move, is proven by mending the stored proof of donor (as for borrow)
     * with fresh proofs of at most `nodes` work each and calls x nodes in
     * all (repair.h; positions with a stored result are free), the whole of
     * b not searched; the callback checks
     * the mended proof with the independent checker and stores it as b's
     * proof.  *work: the work spent, whatever the outcome.  0 when it did;
     * RJ_EBADDATA when it ran and did not (the repair failed, or the check
     * refused its proof); RJ_ENOTFOUND when none ran (donor has no stored
     * proof); RJ_EINTR when stopped (a stop
     * request or the search's time limit; with *work 0, not started: the
     * tree then counts no try and starts no other repair); another error
     * code on failure.
     */
    int (*repair)(void *ctx, const Board *b, const Board *donor, uint64_t nodes, int calls, uint64_t *work);
    /*
     * The first move of b's stored proof (may be NULL; Repair's donors): 0
     * and *mv in b's frame; RJ_ENOTFOUND when b has no stored proof.
     */
    int (*first_move)(void *ctx, const Board *b, Point *mv);
} JtSource;

typedef struct {
    JtGoal goal;
    RuleSet rules;
    uint64_t job_nodes;   /* budget of one job (work nodes), > 0 */
    int max_stones;       /* leaves with this many stones are not expanded (0: 40) */
    int scale;            /* jobs on positions of s < 6 stones get job_nodes * scale^(6 - s) (0, 1: flat) */
    int fail_weight;      /* an expanded OR node's pn gains this percent of its failed job's pn (Selection) */
    ProofNum unlisted_pn; /* a black move its node's job never listed starts at least here (Jobs; 0: no floor) */
    int rerun;            /* a failed leaf whose job left root pn <= rerun_pn: up to this many 4x jobs first (Jobs) */
    ProofNum rerun_pn;    /* (0 with rerun > 0: never) */
    int root_rerun;       /* goal win: the root's job is rerun this many times (4x each), whatever its pn (Jobs) */
    int root_cap;         /* ... while the rerun's budget stays within root_cap x job_nodes (0: no cap) */
    bool rerun_in_job;    /* reruns go on in the job's own table (JtJob.extend) instead of new jobs (Jobs) */
    bool borrow_pass;     /* white's pass first, and its proof tried on white's other moves (Borrowing) */
    int probe_permille;   /* a black move's first job: a probe of this share of its budget (Probes; 0: none) */
    int probe_black_permille; /* the same for a white move's (a black-to-move node below the root; 0: none) */
    int sim_donors;           /* before a black-to-move leaf's first job: up to this many proven siblings' proofs tried
                                 (Simulation; 0: none, at most JT_MAX_SIM_DONORS) */
    int balance;        /* goal fair-n: a 4th class's pn x (1 + its work / (balance x job_nodes)) (Selection; 0: off) */
    int expand_below;   /* a node below the root with fewer stones: its probe only, then expanded (Jobs; 0: off) */
    ProofNum and_pn_dn; /* goal win, white-to-move root: open children all of dn >= this: least pn first (0: off) */
    ProofNum pass_pn;   /* goal win, white-to-move root: its open pass first while its pn is at most this (0: off) */
    int repair_permille;        /* Repair: each fresh proof gets this share of the leaf's job budget (0: off) */
    int repair_calls;           /* Repair: work of this many fresh proofs per leaf in all (0: 16) */
    int borrow_repair_permille; /* Borrowing: where the pass's proof does not hold, a repair with this share (0: off) */
} JtConfig;

/* A job handed to a runner. */
typedef struct {
    int node;        /* the tree's node id, for jt_done */
    uint64_t budget; /* work nodes */
    int sym;         /* the transform from the node's frame to the board's (moves reported come back through it) */
    Board board;     /* the position as a setup position in its canonical frame */
    /*
     * The runner may go on in the same table after the budget, up to extend
     * times, each to 4x the work so far, while the job is unknown with a
     * root pn of at most extend_pn (0: whatever its pn); JtOutcome.extended
     * says how many times it did (JtConfig.rerun_in_job).
     */
    int extend;
    ProofNum extend_pn;
    bool probe; /* a probe (probe_permille, probe_black_permille): the whole budget, no look, no extension */
    int look;   /* the early look (jobrun.h): JT_LOOK, none for a probe, the root's threshold for a goal-win root */
} JtJob;

enum { JT_LOOK = 0, JT_LOOK_NONE = 1, JT_LOOK_ROOT = 2 };

/* Counters over the tree's life (this process). */
typedef struct {
    uint64_t jobs, jobs_proven, jobs_disproven, jobs_unknown;
    uint64_t jobs_early;   /* of the unknown ones, those that ended at the early look (JtOutcome.early) */
    uint64_t borrow_tries; /* white moves whose position was checked with the pass's proof (Borrowing) */
    uint64_t borrowed;     /* of those, proven so */
    uint64_t sim_tries;    /* proven siblings' proofs tried on a black-to-move leaf (Simulation) */
    uint64_t simulated;    /* leaves proven so */
    uint64_t repair_tries; /* repairs of a donor's proof run (Repair; not one the source refused to start) */
    uint64_t repaired;     /* leaves proven so */
    uint64_t repair_nodes; /* the repairs' work (also counted in nodes) */
    uint64_t nodes;        /* work of the jobs run here */
    double job_time_s;
    uint64_t tree_nodes;     /* nodes in the tree */
    uint64_t links;          /* parent links beyond a node's first: transpositions inside the tree */
    uint64_t expanded;       /* expansions */
    uint64_t composed;       /* inner nodes solved by their children */
    uint64_t compose_failed; /* of those, proofs that could not be composed */
} JtStats;

typedef struct JobTree JobTree;

/*
 * A tree rooted at position root (copied), with the source's saved state
 * loaded (nodes expanded before are expanded again).  0, RJ_EBADARG (a
 * finished game, a root right after a pass (its stored results, kept for the
 * setup position, would ignore that another pass draws), a goal that does
 * not fit the side to move, job_nodes 0),
 * RJ_ENOMEM, or an error of the source.
 */
int jt_create(JobTree **out, const Board *root, const JtConfig *cfg, const JtSource *src);
void jt_free(JobTree *t);

/*
 * The next job: the most-proving open leaf not already running (marked
 * running now), expanding evaluated leaves on the way.  Returns 0 with *job
 * filled, RJ_ENOTFOUND when no job can start now (the goal is met, the tree is
 * exhausted, or every open leaf is running), or an error (source, RJ_ENOMEM).
 */
int jt_next(JobTree *t, JtJob *job);

/*
 * Record the outcome of a job from jt_next: saves the node's state through the
 * source, updates the proof numbers and calls the source's `solved` for inner
 * nodes solved by it.  0 or an error code.
 */
int jt_done(JobTree *t, const JtJob *job, const JtOutcome *o);

/* Release a job that will not report (stopped, its worker lost): the node can be selected again. */
void jt_abandon(JobTree *t, const JtJob *job);

/* True when the goal is met or no open leaf is left (running jobs aside). */
bool jt_finished(const JobTree *t);

/* Jobs handed out and not yet reported. */
int jt_running(const JobTree *t);

/*
 * For tests: recompute every node from its children, as if all were dirty
 * (Updates, jobtree.c), and return how many nodes' numbers, status or
 * flags differ from those the incremental updates kept, plus the nodes they
 * left dirty (-1: out of memory).
 */
int jt_check_updates(JobTree *t);

/* The root's status, proof numbers and the counters. */
Result jt_root_result(const JobTree *t);
bool jt_root_expanded(const JobTree *t); /* its children are known (its first jobs ran) */
void jt_root_pn(const JobTree *t, ProofNum *pn, ProofNum *dn);
const JtStats *jt_stats(const JobTree *t);

/* Status and bounds of one root child (a 4th-move class under an opening, a 5th under a 4-stone root). */
typedef struct {
    MoveClass cls;          /* its moves in the root's frame */
    Result status;          /* for black, the position after cls.moves[0] */
    int nchild;             /* its own child classes (5th moves after a 4th), or -1 when not counted */
    int wins_min, wins_max; /* W bounds of the position after it (JT_GOAL_FAIR_N / WIN roots) */
    ProofNum pn, dn;
    uint64_t effort;       /* work spent in its subtree's jobs (saved totals; a node shared with an earlier child: 0) */
    uint64_t balance_work; /* goal fair-n: the work the balance counts for it (Selection), else 0 */
} JtChild;

/*
 * The root's children (room for BOARD_POINTS + 1 entries; *n their count).
 * For a white-to-move root the W bounds of each child: proven 5th-move
 * classes (at least 1 when the child itself is proven), and the classes not
 * disproven (0 when the child is disproven; the class count when not
 * expanded).  For a black-to-move root wins_min/max are the child's own
 * 0/1 bounds.  0 or RJ_ENOMEM.
 */
int jt_root_children(JobTree *t, JtChild *out, int *n);

/* W bounds of the root itself (black to move: its child classes proven / not disproven). */
void jt_root_w(JobTree *t, int *wins_min, int *wins_max);

/* What the tree holds for one position (jt_node_info). */
typedef struct {
    Result status;
    ProofNum pn, dn; /* current; a leaf's are its estimate */
    uint32_t jobs;   /* jobs run on it (saved totals) */
    bool expanded;
} JtNodeInfo;

/*
 * The node of position b (as played from the root, any of the 8 frames)
 * when the tree holds it.  0, or RJ_ENOTFOUND.  For tools and tests: the
 * selection never asks.
 */
int jt_node_info(const JobTree *t, const Board *b, JtNodeInfo *out);

/* One move of the most-proving line (jt_line) and the node it leads to. */
typedef struct {
    Point mv; /* in the root's frame; POINT_PASS for white's pass */
    Result status;
    ProofNum pn, dn;
    uint64_t effort; /* work spent in the subtree of the node it leads to (saved totals) */
    int open;        /* that node's open (unsolved) children; 0 when it is a leaf */
} JtLineStep;

/*
 * The most-proving line: the moves the search's selection descends through
 * from the root (the least pn at black's nodes, the least dn at white's,
 * white's pass first where Borrowing gives it the first job; under goal w4
 * and fair-n through counted nodes already solved, as jt_next goes), to the
 * leaf the next job would be given, in the root's frame (a node first
 * reached by a transposition has its own frame; its moves are mapped back
 * and the position checked).  Up to max steps to out; returns the count (0:
 * the goal is reached or the root is a leaf), or RJ_EINTERNAL when a mapped
 * move does not lead to its node's position (a bug).
 */
int jt_line(JobTree *t, JtLineStep *out, int max);

#endif /* RJ_JOBTREE_H */
