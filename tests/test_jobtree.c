/*
 * test_jobtree.c - the opening-level search's master logic (solver/jobtree.h)
 * on real positions with a scripted job runner and an in-memory source:
 * most-proving selection, expansion of unknown leaves, bound arithmetic,
 * symmetric classes merged, proof-composition requests, resume equivalence
 * and determinism.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "error.h"
#include "fifth.h"
#include "jobtree.h"
#include "notation.h"
#include "position.h"
#include "rules.h"
#include "sym.h"

/* ---- an in-memory source ---- */

enum { MEM_MAX = 4096 };

typedef struct {
    SymKey key;
    bool has_state, has_result;
    JtState st; /* best in the canonical frame; est kept in est[] */
    JtEst est[JT_MAX_EST];
    Result res;
} MemEntry;

typedef struct {
    MemEntry e[MEM_MAX];
    int n;
    int solved_calls;
    Result last_solved;
    int last_moves;
    Point last_move0;
    int loads, saves;
} Mem;

static MemEntry *mem_find(Mem *m, const Board *b, bool add, int *t)
{
    SymKey k;
    sym_canonical(b, RULE_RENJU, &k, t);
    for (int i = 0; i < m->n; i++)
        if (!memcmp(m->e[i].key.b, k.b, SYMKEY_LEN))
            return &m->e[i];
    if (!add || m->n == MEM_MAX)
        return NULL;
    MemEntry *e = &m->e[m->n++];
    memset(e, 0, sizeof *e);
    e->key = k;
    return e;
}

/* Store b's result as proven (a job's or a borrow's, as the runner's store would). */
static void mem_store_proven(Mem *m, const Board *b)
{
    MemEntry *e = mem_find(m, b, true, NULL);
    assert_non_null(e);
    e->has_result = true;
    e->res = RESULT_PROVEN;
}

static int mem_lookup(void *ctx, const Board *b, Result *res)
{
    MemEntry *e = mem_find(ctx, b, false, NULL);
    if (!e || !e->has_result)
        return RJ_ENOTFOUND;
    *res = e->res;
    return 0;
}

/* An entry's state for a board whose canonical transform is t (best and estimates back in its frame). */
static void entry_load(const MemEntry *e, int t, JtState *st)
{
    *st = e->st;
    st->best = e->st.best < BOARD_POINTS ? sym_apply(sym_inverse(t), e->st.best) : POINT_NONE;
    st->est = NULL;
    if (st->nest) {
        st->est = malloc(sizeof *st->est * (size_t)st->nest);
        assert_non_null(st->est);
        for (int i = 0; i < st->nest; i++) {
            st->est[i] = e->est[i];
            if (st->est[i].mv < BOARD_POINTS)
                st->est[i].mv = sym_apply(sym_inverse(t), st->est[i].mv);
        }
    }
}

/* Keep st in e, best and estimates in the canonical frame (t: the board's canonical transform). */
static void entry_save(MemEntry *e, int t, const JtState *st)
{
    e->has_state = true;
    e->st = *st;
    e->st.est = NULL;
    e->st.best = st->best < BOARD_POINTS ? sym_apply(t, st->best) : POINT_NONE;
    for (int i = 0; i < st->nest; i++) {
        e->est[i] = st->est[i];
        if (e->est[i].mv < BOARD_POINTS)
            e->est[i].mv = sym_apply(t, e->est[i].mv);
    }
}

static int mem_load(void *ctx, const Board *b, JtState *st)
{
    Mem *m = ctx;
    int t;
    MemEntry *e = mem_find(m, b, false, &t);
    if (!e || !e->has_state)
        return RJ_ENOTFOUND;
    m->loads++;
    entry_load(e, t, st);
    return 0;
}

static int mem_save(void *ctx, const Board *b, const JtState *st)
{
    Mem *m = ctx;
    int t;
    MemEntry *e = mem_find(m, b, true, &t);
    assert_non_null(e);
    m->saves++;
    entry_save(e, t, st);
    return 0;
}

static int mem_solved(void *ctx, const Board *b, Result r, const JtMoves *mv)
{
    Mem *m = ctx;
    MemEntry *e = mem_find(m, b, true, NULL);
    e->has_result = true;
    e->res = r;
    m->solved_calls++;
    m->last_solved = r;
    m->last_moves = mv->n;
    m->last_move0 = mv->n ? mv->mv[0] : POINT_NONE;
    return 0;
}

static JtSource mem_source(Mem *m)
{
    return (JtSource){m, mem_lookup, mem_load, mem_save, mem_solved, NULL, NULL, NULL};
}

/* ---- scripted outcomes ---- */

typedef struct {
    Point prove[8]; /* black's 5th moves (a position's 5th stone) that win */
    int nprove;
    Point refute[8]; /* 5th moves that are exactly refuted */
    int nrefute;
    Point best;                /* the "most promising move" reported at black to move */
    bool prove_white_children; /* every job whose position has black to move after white's 6th: proven */
    bool refute_fifths;        /* every 5-stone job (white to move): exactly refuted */
    Point est_mv[4];           /* child estimates reported by unknown jobs with black to move */
    ProofNum est_pn[4];
    int nest;
    ProofNum fail_pn;   /* the root pn of an unknown job (0: 100) */
    ProofNum fail_dn;   /* its dn (0: 100) */
    Point cheap;        /* a white stone whose positions' unknown jobs report pn cheap_pn */
    ProofNum cheap_pn;  /* (0: none) */
    bool prove_pass;    /* every job on a position with black to move and two white stones: proven */
    bool prove_replies; /* every job on a position with black to move, three stones each: proven */
    Point pest_mv[4];   /* the child estimates instead, at black to move right after white's pass */
    ProofNum pest_pn[4];
    int npest;
} Script;

static bool has_black(const Board *b, Point p) { return p < BOARD_POINTS && board_at(b, p) == BLACK; }

static void run_script(const Script *s, const Board *b, JtOutcome *o)
{
    memset(o, 0, sizeof *o);
    o->result = RESULT_UNKNOWN;
    o->nodes = 1000;
    o->pn = s->fail_pn ? s->fail_pn : 100;
    o->dn = s->fail_dn ? s->fail_dn : 100;
    if (s->cheap_pn && board_at(b, s->cheap) == WHITE)
        o->pn = s->cheap_pn;
    o->best = b->to_move == BLACK ? s->best : POINT_NONE;
    for (int i = 0; i < s->nprove; i++)
        if (has_black(b, s->prove[i]) && b->stones[0] == 3)
            o->result = RESULT_PROVEN;
    for (int i = 0; i < s->nrefute; i++)
        if (has_black(b, s->refute[i]) && b->stones[0] == 3)
            o->result = RESULT_DISPROVEN;
    if (s->prove_white_children && b->to_move == BLACK && b->stones[0] == 3)
        o->result = RESULT_PROVEN;
    if (s->prove_pass && b->to_move == BLACK && b->stones[1] == 2)
        o->result = RESULT_PROVEN;
    if (s->prove_replies && b->to_move == BLACK && b->stones[0] == 3 && b->stones[1] == 3)
        o->result = RESULT_PROVEN;
    if (s->refute_fifths && b->to_move == WHITE && b->stones[0] == 3)
        o->result = RESULT_DISPROVEN;
    bool passed = b->to_move == BLACK && b->stones[0] == b->stones[1] + 1;
    const Point *em = passed && s->npest ? s->pest_mv : s->est_mv;
    const ProofNum *ep = passed && s->npest ? s->pest_pn : s->est_pn;
    if (o->result == RESULT_UNKNOWN && b->to_move == BLACK)
        for (int i = 0; i < (passed && s->npest ? s->npest : s->nest); i++)
            if (board_at(b, em[i]) == EMPTY)
                o->est[o->nest++] = (JtEst){em[i], ep[i], 10};
}

static Board pos(const char *s)
{
    Board b;
    char err[128];
    assert_int_equal(position_parse(s, RULE_RENJU, EMPTY, &b, err, sizeof err), 0);
    return b;
}

static Point pt(const char *s)
{
    Point p;
    int used;
    assert_int_equal(notation_parse_point(s, &p, &used), 0);
    return p;
}

/* The job's board in the frame of the test's moves (job->sym undone). */
static Board node_frame(const JtJob *job)
{
    Board b;
    board_init(&b);
    int back = sym_inverse(job->sym);
    for (int p = 0; p < BOARD_POINTS; p++)
        if (job->board.cell[p] != EMPTY)
            board_setup_stone(&b, sym_apply(back, (Point)p), (Color)job->board.cell[p]);
    board_set_to_move(&b, job->board.to_move);
    return b;
}

/*
 * A job's board is its node's position in the canonical frame: the script
 * reads it in the frame of the test's moves and its moves go back into the
 * job's frame.
 */
static void run_job(const Script *s, const JtJob *job, JtOutcome *o)
{
    Board b = node_frame(job);
    run_script(s, &b, o);
    if (o->best < BOARD_POINTS)
        o->best = sym_apply(job->sym, o->best);
    for (int i = 0; i < o->nest; i++)
        if (o->est[i].mv < BOARD_POINTS)
            o->est[i].mv = sym_apply(job->sym, o->est[i].mv);
}

/* Run up to max jobs one at a time; the job boards' keys go to keys (may be NULL).  Returns jobs run. */
static int run_jobs(JobTree *t, const Script *s, int max, SymKey *keys)
{
    int k = 0;
    while (k < max) {
        JtJob job;
        int rc = jt_next(t, &job);
        if (rc == RJ_ENOTFOUND)
            break;
        assert_int_equal(rc, 0);
        if (keys)
            sym_canonical(&job.board, RULE_RENJU, &keys[k], NULL);
        JtOutcome o;
        run_job(s, &job, &o);
        assert_int_equal(jt_done(t, &job, &o), 0);
        assert_int_equal(jt_check_updates(t), 0); /* the incremental updates agree with a full one */
        k++;
    }
    return k;
}

static int setup(void **state)
{
    (void)state;
    rules_init();
    return 0;
}

/* An unknown job at the root expands it; the child holding the job's best move is searched next. */
static void test_best_move_first_and_or_proof(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("h8 i9 i7 i8");
    JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    Script s = {.best = pt("g9"), .prove = {pt("g9")}, .nprove = 1};
    JtJob job;
    assert_int_equal(jt_next(t, &job), 0);
    assert_int_equal(board_stone_count(&job.board), 4); /* the root itself first */
    JtOutcome o;
    run_job(&s, &job, &o);
    o.result = RESULT_UNKNOWN;
    assert_int_equal(jt_done(t, &job, &o), 0);
    assert_int_equal(jt_next(t, &job), 0);
    assert_int_equal(board_stone_count(&job.board), 5);
    Board nb = node_frame(&job);
    assert_true(has_black(&nb, pt("g9")));
    run_job(&s, &job, &o);
    assert_int_equal(o.result, RESULT_PROVEN);
    assert_int_equal(jt_done(t, &job, &o), 0);
    assert_int_equal(jt_root_result(t), RESULT_PROVEN);
    assert_true(jt_finished(t));
    assert_int_equal(jt_next(t, &job), RJ_ENOTFOUND);
    /* The composition request names black's winning move. */
    assert_int_equal(m.solved_calls, 1);
    assert_int_equal(m.last_solved, RESULT_PROVEN);
    assert_int_equal(m.last_moves, 1);
    assert_int_equal(m.last_move0, pt("g9"));
    assert_int_equal(jt_stats(t)->jobs, 2);
    jt_free(t);
}

/* A failed job's child estimates order its expansion: the child it found most promising first. */
static void test_estimates_order_expansion(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("h8 i9 i7 i8");
    JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    /* The best move says g9, but the search's numbers favour j10 (pn 3) over g9 (pn 40). */
    Script s = {.best = pt("g9"), .est_mv = {pt("g9"), pt("j10")}, .est_pn = {40, 3}, .nest = 2};
    SymKey keys[3];
    assert_int_equal(run_jobs(t, &s, 3, keys), 3);
    Board j10 = root, g9 = root;
    board_play(&j10, pt("j10"));
    board_play(&g9, pt("g9"));
    SymKey kj, kg;
    sym_canonical(&j10, RULE_RENJU, &kj, NULL);
    sym_canonical(&g9, RULE_RENJU, &kg, NULL);
    assert_memory_equal(keys[1].b, kj.b, SYMKEY_LEN);
    assert_memory_equal(keys[2].b, kg.b, SYMKEY_LEN);
    /* The estimates were saved with the root's state and dropped once it was expanded. */
    MemEntry *e = mem_find(&m, &root, false, NULL);
    assert_non_null(e);
    assert_true(e->st.expanded);
    assert_int_equal(e->st.nest, 2);
    jt_free(t);
}

/* W bounds of a 4-stone root: proven and refuted classes counted exactly. */
static void test_count_bounds(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("h8 i9 i7 i8");
    MoveClass cls[BOARD_POINTS];
    Board tmp = root;
    int ncls = fifth_move_classes(&tmp, RULE_RENJU, cls);
    JtConfig cfg = {.goal = JT_GOAL_COUNT, .rules = RULE_RENJU, .job_nodes = 1000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    int lo, hi;
    jt_root_w(t, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, ncls);
    Script s = {
        .best = POINT_NONE, .prove = {pt("g9"), pt("j10")}, .nprove = 2, .refute = {pt("a1"), pt("o15")}, .nrefute = 2};
    /* Fresh children (heuristic pn <= 12) all come before evaluated ones (pn 100): one job each. */
    assert_int_equal(run_jobs(t, &s, ncls, NULL), ncls);
    jt_root_w(t, &lo, &hi);
    assert_int_equal(lo, 2);
    assert_int_equal(hi, ncls - 2);
    JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    int n;
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    assert_int_equal(n, ncls);
    int proven = 0, refuted = 0;
    for (int i = 0; i < n; i++) {
        assert_true(ch[i].effort > 0);
        proven += ch[i].status == RESULT_PROVEN;
        refuted += ch[i].status == RESULT_DISPROVEN;
    }
    assert_int_equal(proven, 2);
    assert_int_equal(refuted, 2);
    free(ch);
    /* The root is proven but W is still open: the most-proving line goes on below it, to a 5th move. */
    assert_int_equal(jt_root_result(t), RESULT_PROVEN);
    JtLineStep line[JT_MAX_PATH];
    assert_int_equal(jt_line(t, line, JT_MAX_PATH), 1);
    assert_int_equal(line[0].status, RESULT_UNKNOWN);
    /* The next job expands an unknown leaf instead of rerunning it. */
    JtJob job;
    assert_int_equal(jt_next(t, &job), 0);
    assert_int_equal(board_stone_count(&job.board), 6);
    jt_abandon(t, &job);
    jt_free(t);
}

/* A white-to-move node is proven when every white reply is: the composition lists them all. */
static void test_and_node_proof_moves(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("h8 i9 i7 i8 g9");
    JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    Script s = {.best = POINT_NONE, .prove_white_children = true};
    int jobs = run_jobs(t, &s, 1000, NULL);
    assert_int_equal(jt_root_result(t), RESULT_PROVEN);
    /* Every legal white move (220 empty points) and the pass (no short losses here), one job each. */
    assert_int_equal(jobs, 221);
    assert_int_equal(m.last_moves, 221);
    assert_int_equal(m.last_solved, RESULT_PROVEN);
    jt_free(t);
}

/* One refuted white reply disproves the node at once. */
static void test_and_node_disproof(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("h8 i9 i7 i8 g9");
    Board after = root;
    board_play(&after, pt("h10"));
    MemEntry *e = mem_find(&m, &after, true, NULL);
    e->has_result = true;
    e->res = RESULT_DISPROVEN;
    JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    assert_int_equal(jt_root_result(t), RESULT_DISPROVEN);
    assert_true(jt_finished(t));
    assert_int_equal(m.last_solved, RESULT_DISPROVEN);
    jt_free(t);
}

/* Every black move refuted: the black-to-move node is disproven (its pass would be answered by a pass: a draw). */
static void test_or_node_disproof(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("h8 i9 i7 i8");
    MoveClass cls[BOARD_POINTS];
    Board tmp = root;
    int ncls = fifth_move_classes(&tmp, RULE_RENJU, cls);
    JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    Script s = {.best = POINT_NONE, .refute_fifths = true};
    assert_int_equal(run_jobs(t, &s, 1000, NULL), 1 + ncls);
    assert_int_equal(jt_root_result(t), RESULT_DISPROVEN);
    assert_int_equal(m.last_solved, RESULT_DISPROVEN);
    int lo, hi;
    jt_root_w(t, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 0);
    jt_free(t);
}

/* A root right after a pass is refused (its stored results would ignore that a pass now draws). */
static void test_root_after_pass(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("h8 i9 i7 i8 pass");
    JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000};
    JobTree *t = NULL;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), RJ_EBADARG);
    assert_null(t);
}

/* fair-n: a 4th-move class with W = 0 proven fixes N_fair = 1: nothing left to search. */
static void test_fair_n_closed(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("I7");
    Board four = root;
    board_play(&four, pt("a1"));
    MemEntry *e = mem_find(&m, &four, true, NULL);
    e->has_result = true;
    e->res = RESULT_DISPROVEN;
    JtConfig cfg = {.goal = JT_GOAL_FAIR_N, .rules = RULE_RENJU, .job_nodes = 1000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    assert_true(jt_finished(t));
    JtJob job;
    assert_int_equal(jt_next(t, &job), RJ_ENOTFOUND);
    jt_free(t);
}

/* A mirror-symmetric opening: 4th-move classes are the stabiliser's orbits, each member once. */
static void test_symmetric_classes(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("D1");
    JtConfig cfg = {.goal = JT_GOAL_FAIR_N, .rules = RULE_RENJU, .job_nodes = 1000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    int n;
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    int members = 0, pass = 0;
    for (int i = 0; i < n; i++) {
        if (ch[i].cls.moves[0] == POINT_PASS) {
            pass++;
            continue;
        }
        members += ch[i].cls.n;
        assert_true(ch[i].nchild > 0);
        assert_int_equal(ch[i].wins_min, 0);
        assert_int_equal(ch[i].wins_max, ch[i].nchild);
    }
    assert_int_equal(pass, 1);
    assert_int_equal(members, BOARD_POINTS - 3);
    assert_true(n - 1 < members); /* the mirror merged pairs */
    assert_int_equal(n - 1, 117); /* 12 free points on the h file + 210 / 2 mirror pairs */
    free(ch);
    jt_free(t);
}

/* fair-n goal: every 4th-move class is first tried as a whole, one job each. */
static void test_fair_n_first_jobs(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("I7");
    JtConfig cfg = {.goal = JT_GOAL_FAIR_N, .rules = RULE_RENJU, .job_nodes = 1000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    int n;
    jt_root_children(t, ch, &n);
    int n4 = n;
    /* Each 4th class is first tried as a whole: n4 - 1 jobs on 4-stone positions (white's pass is no 4th move). */
    Script s = {.best = POINT_NONE};
    SymKey *keys = malloc(sizeof *keys * (size_t)n4);
    assert_int_equal(run_jobs(t, &s, n4 - 1, keys), n4 - 1);
    for (int i = 0; i < n4 - 1; i++)
        assert_int_equal(keys[i].b[0], BLACK); /* 4-stone positions: black to move */
    jt_root_children(t, ch, &n);
    for (int i = 0; i < n; i++)
        assert_true(ch[i].cls.moves[0] == POINT_PASS ? ch[i].effort == 0 : ch[i].effort > 0);
    /* Then a class is expanded: 5-stone jobs, white to move. */
    assert_int_equal(run_jobs(t, &s, 1, keys), 1);
    assert_int_equal(keys[0].b[0], WHITE);
    free(keys);
    free(ch);
    jt_free(t);
}

/*
 * JtConfig.expand_below: a 4th-move position of a fair-n search gets its
 * probe and no whole job, and is expanded with the probe's estimates (here
 * the corners a1 and o15, far from the stones, listed first: one of them
 * gets the first 5-stone job).  Without it, a 4-stone position gets its whole job after its probe;
 * without probes, the first job is already on a 5-stone position (a move
 * next to the stones: no estimates).
 */
static void test_expand_below(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        static Mem m;
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        Board root = pos("I7");
        JtConfig cfg = {.goal = JT_GOAL_FAIR_N,
                        .rules = RULE_RENJU,
                        .job_nodes = 100000,
                        .probe_black_permille = k == 2 ? 0 : 40,
                        .expand_below = k == 1 ? 0 : 5};
        Script s = {.best = POINT_NONE, .est_mv = {pt("a1"), pt("o15")}, .est_pn = {1, 1}, .nest = 2};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        int probes4 = 0, whole4 = 0, first5 = -1;
        for (int j = 0; j < 400 && first5 < 0; j++) {
            JtJob job;
            assert_int_equal(jt_next(t, &job), 0);
            Board nb = node_frame(&job);
            int stones = board_stone_count(&nb);
            if (stones == 4) {
                assert_int_equal(job.budget, job.probe ? 4000 : 100000);
                probes4 += job.probe;
                whole4 += !job.probe;
            } else {
                assert_int_equal(stones, 5);
                first5 = j;
                Point corners[4] = {pt("a1"), pt("a15"), pt("o1"), pt("o15")};
                int at = 0;
                for (int c = 0; c < 4; c++)
                    at += board_at(&nb, corners[c]) == BLACK;
                assert_int_equal(at, k == 2 ? 0 : 1); /* a corner the 4-stone job listed first */
            }
            JtOutcome o;
            run_job(&s, &job, &o);
            assert_int_equal(jt_done(t, &job, &o), 0);
            assert_int_equal(jt_check_updates(t), 0);
        }
        if (k == 0) { /* every 4th class probed, none given a whole job */
            assert_true(first5 > 0);
            assert_int_equal(probes4, first5);
            assert_int_equal(whole4, 0);
        } else if (k == 1) {
            assert_true(whole4 > 0);
        } else {
            assert_int_equal(first5, 0);
        }
        jt_free(t);
    }
}

/* Stopping after k jobs and building the tree again from the source continues the same sequence. */
static void test_resume_same_sequence(void **state)
{
    (void)state;
    static Mem m1, m2;
    memset(&m1, 0, sizeof m1);
    memset(&m2, 0, sizeof m2);
    Board root = pos("h8 i9 i7 i8");
    JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000, .max_stones = 7};
    Script s = {.best = pt("g9"), .est_mv = {pt("g9"), pt("j10"), pt("h10")}, .est_pn = {7, 9, 8}, .nest = 3};
    enum { TOTAL = 300, FIRST = 130 };
    static SymKey a[TOTAL], b[TOTAL];
    JtSource src1 = mem_source(&m1);
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src1), 0);
    assert_int_equal(run_jobs(t, &s, TOTAL, a), TOTAL);
    jt_free(t);

    JtSource src2 = mem_source(&m2);
    assert_int_equal(jt_create(&t, &root, &cfg, &src2), 0);
    assert_int_equal(run_jobs(t, &s, FIRST, b), FIRST);
    jt_free(t);
    assert_int_equal(jt_create(&t, &root, &cfg, &src2), 0);
    assert_true(m2.loads > 0);
    assert_int_equal(run_jobs(t, &s, TOTAL - FIRST, b + FIRST), TOTAL - FIRST);
    jt_free(t);
    for (int i = 0; i < TOTAL; i++)
        assert_memory_equal(a[i].b, b[i].b, SYMKEY_LEN);
    /* The run went below the 5th moves: some job had 6 stones or more. */
    int deepest = 0;
    for (int i = 0; i < TOTAL; i++) {
        int st = 0;
        for (int j = 2; j < 2 + (BOARD_POINTS + 3) / 4; j++)
            for (int k = 0; k < 8; k += 2)
                st += ((a[i].b[j] >> k) & 3) != 0;
        deepest = st > deepest ? st : deepest;
    }
    assert_true(deepest >= 6);
}

/*
 * JtConfig.fail_weight: an expanded node whose own job failed adds that
 * percent of the job's pn to the pn its children give it; a leaf does not.
 */
static void test_fail_weight(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8");
    Script s = {.best = pt("g9"), .est_mv = {pt("g9"), pt("j10")}, .est_pn = {40, 3}, .nest = 2};
    const int weights[2] = {0, 50};
    for (int k = 0; k < 2; k++) {
        static Mem m;
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000, .fail_weight = weights[k]};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        ProofNum pn, dn;
        JtJob job;
        JtOutcome o;
        assert_int_equal(jt_next(t, &job), 0); /* the root's own job: pn 100 */
        run_job(&s, &job, &o);
        assert_int_equal(jt_done(t, &job, &o), 0);
        jt_root_pn(t, &pn, &dn);
        assert_int_equal(pn, 100);             /* a leaf: the job's pn alone */
        assert_int_equal(jt_next(t, &job), 0); /* expands the root; j10 (pn 3) is next */
        Board nb = node_frame(&job);
        assert_true(has_black(&nb, pt("j10")));
        jt_root_pn(t, &pn, &dn);
        assert_int_equal(pn, 3 + weights[k]); /* the least child, plus half of the failed job's 100 */
        run_job(&s, &job, &o);                /* j10 fails too: pn 100 */
        assert_int_equal(jt_done(t, &job, &o), 0);
        jt_root_pn(t, &pn, &dn);
        assert_int_equal(pn, 40 + weights[k]); /* g9 is the least child now */
        assert_int_equal(jt_next(t, &job), 0);
        nb = node_frame(&job);
        assert_true(has_black(&nb, pt("g9")));
        jt_free(t);
    }
}

/*
 * JtConfig.and_pn_dn: at a white-to-move goal-win root whose open children all have a
 * dn of at least that, the child of least pn is worked on; without it, the
 * child of least dn.  Every white 6th move's first job reports dn 1e7, the
 * one after white j6 (a block of black's three) pn 2, the others 100: with
 * the knob, the jobs after the first round go below j6; without, they follow
 * the least dn elsewhere.
 */
static void test_and_pn_dn(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9");
    Script s = {.best = POINT_NONE, .fail_dn = 10000000, .cheap = pt("j6"), .cheap_pn = 2};
    for (int k = 0; k < 2; k++) {
        static Mem m;
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000, .and_pn_dn = k ? 1000000 : 0};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
        assert_non_null(ch);
        int n;
        assert_int_equal(run_jobs(t, &s, 1, NULL), 1); /* a white root of goal win is expanded at once */
        jt_root_children(t, ch, &n);
        assert_true(n > 200);
        assert_int_equal(run_jobs(t, &s, n, NULL), n); /* a first job each */
        int below = 0;
        for (int j = 0; j < 20; j++) {
            JtJob job;
            assert_int_equal(jt_next(t, &job), 0);
            Board nb = node_frame(&job);
            below += board_at(&nb, pt("j6")) == WHITE;
            JtOutcome o;
            run_job(&s, &job, &o);
            assert_int_equal(jt_done(t, &job, &o), 0);
        }
        assert_int_equal(below, k ? 20 : 0);
        free(ch);
        jt_free(t);
    }
}

/*
 * Black moves the root's job never listed start at twice its largest
 * estimate, or at JtConfig.unlisted_pn when that is more: with it, a listed
 * move whose job failed is expanded before any unlisted move gets a job.
 */
static void test_unlisted_pn(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8");
    Script s = {.best = pt("g9"), .est_mv = {pt("g9"), pt("j10")}, .est_pn = {40, 3}, .nest = 2};
    const ProofNum unlisted[2] = {0, 1000};
    for (int k = 0; k < 2; k++) {
        static Mem m;
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000, .unlisted_pn = unlisted[k]};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        /* The root, then j10 (pn 3) and g9 (pn 40): all fail with pn 100. */
        assert_int_equal(run_jobs(t, &s, 3, NULL), 3);
        ProofNum pn, dn;
        jt_root_pn(t, &pn, &dn);
        assert_int_equal(pn, k == 0 ? 80 : 100); /* an unlisted move at 2 x 40, or the failed ones at 100 */
        JtJob job;
        assert_int_equal(jt_next(t, &job), 0);
        Board nb = node_frame(&job);
        bool listed = has_black(&nb, pt("j10")) || has_black(&nb, pt("g9"));
        if (k == 0) {
            /* a 5-stone job on a move the root's job never listed */
            assert_int_equal(board_stone_count(&nb), 5);
            assert_false(listed);
        } else {
            /* a failed listed move (pn 100 both; g9 first in generation order) expanded: a job on a white reply */
            assert_int_equal(board_stone_count(&nb), 6);
            assert_true(listed);
        }
        jt_free(t);
    }
}

/*
 * A failed job that left a small root pn (at most rerun_pn) is run again
 * with 4x the budget, up to rerun times, before its node is expanded; with a
 * larger pn, or rerun 0, the node is expanded at once.
 */
static void test_rerun(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8");
    const ProofNum fail_pn[3] = {5, 50, 5};
    const int rerun[3] = {2, 2, 0};
    for (int k = 0; k < 3; k++) {
        Script s = {.best = pt("g9"), .fail_pn = fail_pn[k]};
        static Mem m;
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000, .rerun = rerun[k], .rerun_pn = 10};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        uint64_t want[3] = {1000, 4000, 16000}; /* the root's jobs while it is rerun */
        int nroot = k == 0 ? 3 : 1;
        for (int j = 0; j < nroot + 1; j++) {
            JtJob job;
            assert_int_equal(jt_next(t, &job), 0);
            Board nb = node_frame(&job);
            if (j < nroot) {
                assert_int_equal(board_stone_count(&nb), 4);
                assert_int_equal(job.budget, want[j]);
            } else { /* expanded: a 5th move's job, at the base budget */
                assert_int_equal(board_stone_count(&nb), 5);
                assert_int_equal(job.budget, 1000);
            }
            JtOutcome o;
            run_job(&s, &job, &o);
            assert_int_equal(jt_done(t, &job, &o), 0);
        }
        assert_int_equal(jt_stats(t)->jobs, (uint64_t)nroot + 1);
        jt_free(t);
    }
}

/*
 * Reruns in the job's table (JtConfig.rerun_in_job): a job carries the reruns
 * rerun_here would give (extend, extend_pn); the extensions a runner made
 * count as jobs, so a node extended to the limit is expanded next, and one
 * extended less (its pn still low) gets the rest as a new, bigger job.  A
 * goal-win root's job carries root_rerun extensions whatever its pn.
 */
static void test_rerun_in_job(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        Board root = pos(k < 2 ? "h8 i9 i7 i8" : "h8 i9 i7 i8 g9");
        static Mem m;
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        JtConfig cfg = {.goal = JT_GOAL_WIN,
                        .rules = RULE_RENJU,
                        .job_nodes = 1000,
                        .rerun = 2,
                        .rerun_pn = 10,
                        .root_rerun = k == 2 ? 2 : 0,
                        .rerun_in_job = true};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        Script s = {.best = pt("g9"), .fail_pn = 5};
        JtJob job;
        JtOutcome o;
        assert_int_equal(jt_next(t, &job), 0);
        assert_int_equal(job.budget, 1000);
        assert_int_equal(job.extend, 2);
        assert_int_equal(job.extend_pn, k == 2 ? 0 : 10);
        run_job(&s, &job, &o);
        o.extended = k == 1 ? 1 : 2;
        assert_int_equal(jt_done(t, &job, &o), 0);
        assert_int_equal(jt_next(t, &job), 0);
        Board nb = node_frame(&job);
        if (k == 1) { /* one extension of two: the second as a new job of 16x, with none left */
            assert_int_equal(board_stone_count(&nb), 4);
            assert_int_equal(job.budget, 16000);
            assert_int_equal(job.extend, 0);
        } else { /* expanded: a child's job at the base budget, with its own extensions */
            assert_int_equal(board_stone_count(&nb), k == 2 ? 6 : 5);
            assert_int_equal(job.budget, 1000);
            assert_int_equal(job.extend, 2);
            assert_int_equal(job.extend_pn, 10);
        }
        jt_free(t);
    }
}

/*
 * Probes: a black move below the root first gets a probe (probe_permille of
 * its budget), then, when it is the most-proving node again, its full job,
 * and only then is it expanded.  The probe is saved: a new tree over the
 * same source goes on with the full job.
 */
static void test_probe(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8"); /* black to move */
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    JtConfig cfg = {.goal = JT_GOAL_WIN,
                    .rules = RULE_RENJU,
                    .job_nodes = 100000,
                    .probe_permille = 40,
                    .probe_black_permille = 40};
    Script s = {.best = pt("g9"), .est_mv = {pt("g9")}, .est_pn = {3}, .nest = 1, .fail_pn = 1};
    JobTree *t;
    JtJob job;
    JtOutcome o;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    for (int j = 0; j < 2; j++) {
        assert_int_equal(jt_next(t, &job), 0);
        Board nb = node_frame(&job);
        assert_int_equal(board_stone_count(&nb), j == 0 ? 4 : 5); /* the root (no probe), then g9 */
        assert_int_equal(job.probe, j == 1);
        assert_int_equal(job.look, job.probe ? JT_LOOK_NONE : JT_LOOK); /* no root reruns here: a plain look */
        assert_int_equal(job.budget, j == 0 ? 100000 : 4000);
        if (j == 1)
            assert_int_equal(nb.cell[pt("g9")], BLACK);
        run_job(&s, &job, &o);
        assert_int_equal(jt_done(t, &job, &o), 0);
    }
    assert_int_equal(jt_stats(t)->jobs, 2);
    jt_free(t);
    /*
     * A new tree, with probes off: g9's probe is saved, so its full job comes
     * next (not its expansion), then, in a tree with probes on again, its
     * expansion.
     */
    JtConfig off = cfg;
    off.probe_permille = off.probe_black_permille = 0;
    assert_int_equal(jt_create(&t, &root, &off, &src), 0);
    assert_int_equal(jt_next(t, &job), 0);
    Board nb = node_frame(&job);
    assert_int_equal(board_stone_count(&nb), 5);
    assert_int_equal(nb.cell[pt("g9")], BLACK);
    assert_false(job.probe);
    assert_int_equal(job.look, JT_LOOK);
    assert_int_equal(job.budget, 100000);
    run_job(&s, &job, &o);
    assert_int_equal(jt_done(t, &job, &o), 0);
    jt_free(t);
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    uint64_t expanded = jt_stats(t)->expanded;
    assert_int_equal(jt_next(t, &job), 0);
    assert_int_equal(jt_stats(t)->expanded, expanded + 1); /* g9, whose many replies now weigh on its pn */
    nb = node_frame(&job);
    assert_int_equal(board_stone_count(&nb), 5); /* so another black 5th move gets its probe */
    assert_int_equal(nb.cell[pt("g9")], EMPTY);
    assert_true(job.probe);
    assert_int_equal(job.budget, 4000);
    jt_free(t);
}

/*
 * Probes of white moves (probe_black_permille): below a white-to-move root
 * each reply (a black-to-move node) gets a probe of its own share of the
 * budget first, and its full job only when it is the most-proving node
 * again; a node is never probed twice, and the root itself is not probed.
 */
static void test_probe_black(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 100000, .probe_black_permille = 50};
    Script s = {.best = POINT_NONE, .fail_pn = 7};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    enum { MAXJ = 400 };
    static SymKey seen[MAXJ];
    int nseen = 0, probes = 0, full = 0;
    for (int j = 0; j < MAXJ; j++) {
        JtJob job;
        assert_int_equal(jt_next(t, &job), 0);
        Board nb = node_frame(&job);
        SymKey k;
        sym_canonical(&job.board, RULE_RENJU, &k, NULL);
        int before = -1;
        for (int i = 0; i < nseen && before < 0; i++)
            if (!memcmp(seen[i].b, k.b, SYMKEY_LEN))
                before = i;
        if (board_stone_count(&nb) == 5) { /* the root: its whole job, if it gets one */
            assert_int_equal(j, 0);
            assert_false(job.probe);
            assert_int_equal(job.budget, 100000);
        } else {
            assert_int_equal(board_stone_count(&nb), 6); /* white's replies (nothing below them is expanded) */
            assert_int_equal(nb.to_move, BLACK);
            assert_int_equal(job.probe, before < 0); /* a first job is a probe, a second the whole job */
            assert_int_equal(job.budget, before < 0 ? 5000 : 100000);
            assert_int_equal(job.look, job.probe ? JT_LOOK_NONE : JT_LOOK);
            probes += job.probe;
            full += !job.probe;
        }
        if (before < 0)
            seen[nseen++] = k;
        JtOutcome o;
        run_job(&s, &job, &o);
        if (job.probe) /* a probe: a small estimate, so the node is the most-proving again soon */
            o.pn = 2, o.dn = 2;
        assert_int_equal(jt_done(t, &job, &o), 0);
        if (full >= 3)
            break;
    }
    assert_true(probes >= 3);
    assert_int_equal(full, 3);
    jt_free(t);
}

/*
 * White's pass at a goal-win root (pass_pn): while the pass is open with a
 * pn of at most pass_pn the root works on it, whatever the other moves' dn;
 * off, the jobs go to other white moves as well.
 */
static void test_pass_root(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    static Mem m;
    int outside[3];
    for (int k = 0; k < 3; k++) {
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        /* k = 0: off; 1: on; 2: on, but the pass's pn (7 and up) is above the threshold */
        JtConfig cfg = {.goal = JT_GOAL_WIN,
                        .rules = RULE_RENJU,
                        .job_nodes = 1000,
                        .borrow_pass = true,
                        .pass_pn = k == 0   ? 0
                                   : k == 1 ? 100000
                                            : 2};
        Script s = {.best = POINT_NONE, .fail_pn = 7, .fail_dn = 3};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        outside[k] = 0;
        for (int j = 0; j < 80; j++) {
            JtJob job;
            assert_int_equal(jt_next(t, &job), 0);
            Board nb = node_frame(&job);
            int extra = nb.stones[0] - nb.stones[1] - (nb.to_move == WHITE); /* 1 or more below a pass */
            if (j > 0 && extra < 1)
                outside[k]++;
            JtOutcome o;
            run_job(&s, &job, &o);
            assert_int_equal(jt_done(t, &job, &o), 0);
        }
        jt_free(t);
    }
    assert_true(outside[0] > 0);
    assert_int_equal(outside[1], 0);
    assert_true(outside[2] > 0);
}

/* A borrow callback: the pass's "proof" holds for white moves on columns a-d; stored like a result. */
static int g_borrow_calls;
static int mem_borrow(void *ctx, const Board *b, const Board *pass)
{
    g_borrow_calls++;
    assert_int_equal(b->to_move, BLACK);
    Point w = POINT_NONE;
    for (int p = 0; p < BOARD_POINTS; p++)
        if (b->cell[p] != pass->cell[p]) {
            assert_int_equal(b->cell[p], WHITE);
            assert_int_equal(pass->cell[p], EMPTY);
            w = (Point)p;
        }
    assert_true(w < BOARD_POINTS);
    if (point_col(w) >= 4)
        return RJ_EBADDATA;
    mem_store_proven(ctx, b);
    return 0;
}

/* Repair callback: white moves on columns e-f are mended from the pass's proof; the leaf must have had its probe. */
enum { REPAIR_MAXJ = 600, REPAIR_WORK = 300 };
static SymKey g_rp_probed[REPAIR_MAXJ], g_rp_tried[REPAIR_MAXJ];
static int g_rp_nprobed, g_rp_ntried, g_rp_ok, g_rp_bad;
static uint64_t g_rp_nodes;
static int g_rp_calls_cfg;

static bool key_in(const SymKey *set, int n, const Board *b)
{
    SymKey k;
    sym_canonical(b, RULE_RENJU, &k, NULL);
    for (int i = 0; i < n; i++)
        if (!memcmp(set[i].b, k.b, SYMKEY_LEN))
            return true;
    return false;
}

/* The points where b and donor differ (*diff), and the last of them that is white on b and empty on donor. */
static Point white_extra(const Board *b, const Board *donor, int *diff)
{
    Point w = POINT_NONE;
    *diff = 0;
    for (int p = 0; p < BOARD_POINTS; p++)
        if (b->cell[p] != donor->cell[p]) {
            (*diff)++;
            if (b->cell[p] == WHITE && donor->cell[p] == EMPTY)
                w = (Point)p;
        }
    return w;
}

static int mem_repair(void *ctx, const Board *b, const Board *donor, uint64_t nodes, int calls, uint64_t *work)
{
    *work = REPAIR_WORK;
    int diff;
    Point w = white_extra(b, donor, &diff);
    /* the donor is white's pass (proven first), the leaf white's move more; after its probe, once */
    g_rp_bad += b->to_move != BLACK || donor->to_move != BLACK || diff != 1 || w == POINT_NONE ||
                donor->stones[1] != 2 || nodes != g_rp_nodes || calls != g_rp_calls_cfg ||
                !key_in(g_rp_probed, g_rp_nprobed, b) || key_in(g_rp_tried, g_rp_ntried, b);
    if (g_rp_ntried < REPAIR_MAXJ)
        sym_canonical(b, RULE_RENJU, &g_rp_tried[g_rp_ntried++], NULL);
    if (w == POINT_NONE || point_col(w) < 4 || point_col(w) > 5)
        return RJ_EBADDATA;
    mem_store_proven(ctx, b);
    g_rp_ok++;
    return 0;
}

/*
 * Repair: a white move the pass's proof does not hold for (columns e-o
 * here) gets its probe; when the probe fails, the pass's proof is mended
 * for it once (columns e-f succeed) before its whole job, with
 * repair_permille of its budget per fresh proof; a repaired leaf gets no
 * whole job, and the repairs' work counts as the tree's.  Off, no repair.
 */
static void test_repair_leaf(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    static Mem m;
    for (int k = 0; k < 2; k++) {
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        src.borrow = mem_borrow;
        src.repair = mem_repair;
        g_borrow_calls = g_rp_nprobed = g_rp_ntried = g_rp_ok = g_rp_bad = 0;
        g_rp_calls_cfg = 7;
        g_rp_nodes = 100000 / 1000 * 100;
        JtConfig cfg = {.goal = JT_GOAL_WIN,
                        .rules = RULE_RENJU,
                        .job_nodes = 100000,
                        .borrow_pass = true,
                        .probe_black_permille = 50,
                        .repair_permille = k ? 100 : 0,
                        .repair_calls = 7};
        Script s = {.best = POINT_NONE, .prove_pass = true, .fail_pn = 7};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        uint64_t job_work = 0;
        int whole_after_repair = 0, jobs = 0;
        for (; jobs < REPAIR_MAXJ; jobs++) {
            JtJob job;
            int rc = jt_next(t, &job);
            if (rc == RJ_ENOTFOUND)
                break;
            assert_int_equal(rc, 0);
            Board nb = node_frame(&job);
            if (job.probe && g_rp_nprobed < REPAIR_MAXJ)
                sym_canonical(&nb, RULE_RENJU, &g_rp_probed[g_rp_nprobed++], NULL);
            Result r;
            whole_after_repair += !job.probe && mem_lookup(&m, &nb, &r) == 0; /* proven before its job */
            JtOutcome o;
            run_job(&s, &job, &o);
            job_work += o.nodes;
            assert_int_equal(jt_done(t, &job, &o), 0);
            assert_int_equal(jt_check_updates(t), 0);
        }
        const JtStats *st = jt_stats(t);
        assert_int_equal(g_rp_bad, 0);
        assert_int_equal(whole_after_repair, 0);
        assert_int_equal((int)st->repair_tries, g_rp_ntried);
        assert_int_equal((int)st->repaired, g_rp_ok);
        assert_int_equal(st->repair_nodes, (uint64_t)g_rp_ntried * REPAIR_WORK);
        assert_int_equal(st->nodes, job_work + st->repair_nodes);
        if (k) {
            assert_true(g_rp_ok >= 10);         /* the e and f columns, less what borrowing took */
            assert_true(g_rp_ntried > g_rp_ok); /* and the rest tried once, not proven */
        } else {
            assert_int_equal(g_rp_ntried, 0);
        }
        jt_free(t);
    }
}

/*
 * Borrowing: at a white-to-move node white's pass gets the first job; once it
 * is proven, its proof is tried on every other open white move, and those it
 * holds for are proven without a job (and stored: a new tree finds them).
 */
static void test_borrow_pass(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    src.borrow = mem_borrow;
    g_borrow_calls = 0;
    JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000, .borrow_pass = true};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    assert_non_null(ch);
    int n = 0;
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    int far = 0;
    for (int i = 0; i < n; i++)
        far += ch[i].cls.moves[0] != POINT_PASS && point_col(ch[i].cls.moves[0]) < 4;
    assert_true(far > 10 && far < n - 10);
    Script s = {.best = pt("g9"), .prove_pass = true};
    JtJob job;
    JtOutcome o;
    assert_int_equal(jt_next(t, &job), 0);
    Board nb = node_frame(&job);
    assert_int_equal(nb.stones[1], 2); /* the pass first */
    assert_int_equal(g_borrow_calls, 0);
    run_job(&s, &job, &o);
    assert_int_equal(jt_done(t, &job, &o), 0);
    assert_int_equal(g_borrow_calls, n - 1); /* every other move tried once */
    assert_int_equal(jt_stats(t)->borrow_tries, (uint64_t)(n - 1));
    assert_int_equal(jt_stats(t)->borrowed, (uint64_t)far);
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    int proven = 0;
    for (int i = 0; i < n; i++) {
        bool is_far = ch[i].cls.moves[0] != POINT_PASS && point_col(ch[i].cls.moves[0]) < 4;
        if (is_far)
            assert_int_equal(ch[i].status, RESULT_PROVEN);
        proven += ch[i].status == RESULT_PROVEN;
    }
    assert_int_equal(proven, far + 1);
    assert_int_equal(jt_next(t, &job), 0); /* the next job: a white move the proof did not hold for */
    nb = node_frame(&job);
    assert_int_equal(nb.stones[1], 3);
    for (int p = 0; p < BOARD_POINTS; p++)
        if (nb.cell[p] == WHITE && root.cell[p] == EMPTY)
            assert_true(point_col((Point)p) >= 4);
    jt_free(t);
    /* A new tree over the same source: the borrowed results are stored (the pass is not: nothing to borrow). */
    g_borrow_calls = 0;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    assert_int_equal(g_borrow_calls, 0);
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    proven = 0;
    for (int i = 0; i < n; i++)
        proven += ch[i].status == RESULT_PROVEN;
    assert_true(proven >= far);
    jt_free(t);
    free(ch);
}

/* Repair callback at the root (JtConfig.borrow_repair_permille): columns e-f mended, from the pass only. */
static int g_rr_tries, g_rr_ok, g_rr_bad, g_rr_calls = 7;
static bool g_rr_stop;                    /* the source stops every repair before it starts (RJ_EINTR, no work) */
static bool g_rr_noproof;                 /* the source has no proof of the donor (RJ_ENOTFOUND) */
static int g_rr_last_far, g_rr_order_bad; /* the repairs come farthest from the stones first */
static int mem_repair_root(void *ctx, const Board *b, const Board *donor, uint64_t nodes, int calls, uint64_t *work)
{
    g_rr_tries++;
    if (g_rr_stop) {
        *work = 0;
        return RJ_EINTR;
    }
    *work = REPAIR_WORK;
    int diff;
    Point w = white_extra(b, donor, &diff);
    int far = 99;
    for (int q = 0; w < BOARD_POINTS && q < BOARD_POINTS; q++) {
        int dc = abs(point_col(q) - point_col(w)), dr = abs(point_row(q) - point_row(w));
        if (donor->cell[q] != EMPTY && (dc > dr ? dc : dr) < far)
            far = dc > dr ? dc : dr;
    }
    g_rr_order_bad += far > g_rr_last_far;
    g_rr_last_far = far;
    g_rr_bad += b->to_move != BLACK || donor->to_move != BLACK || diff != 1 || w == POINT_NONE ||
                donor->stones[1] != 2 || nodes != 1000 || calls != g_rr_calls || point_col(w) < 4;
    if (g_rr_noproof)
        return RJ_ENOTFOUND; /* no stored proof of the donor: no repair ran */
    if (w == POINT_NONE || point_col(w) > 5)
        return RJ_EBADDATA;
    mem_store_proven(ctx, b);
    g_rr_ok++;
    return 0;
}

/*
 * Borrowing with a repair at the root (borrow_repair_permille): once white's
 * pass is proven, every root move its proof does not hold for (columns e-o
 * here) gets one repair of it at once, with the share of its job budget;
 * those mended (columns e-f) are proven without a job, the moves farthest
 * from the stones repaired first, and none is repaired again, nor after a
 * resume unless with a larger budget; off, no repair at all.
 */
static void test_borrow_repair_root(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    static Mem m;
    JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    assert_non_null(ch);
    for (int k = 0; k < 2; k++) {
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        src.borrow = mem_borrow;
        src.repair = mem_repair_root;
        g_borrow_calls = g_rr_tries = g_rr_ok = g_rr_bad = g_rr_order_bad = 0;
        g_rr_last_far = 99;
        JtConfig cfg = {.goal = JT_GOAL_WIN,
                        .rules = RULE_RENJU,
                        .job_nodes = 1000,
                        .borrow_pass = true,
                        .repair_calls = 7,
                        .borrow_repair_permille = k ? 100 : 0};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        int n = 0;
        assert_int_equal(jt_root_children(t, ch, &n), 0);
        int far = 0, mended = 0;
        for (int i = 0; i < n; i++) {
            Point mv = ch[i].cls.moves[0];
            far += mv != POINT_PASS && point_col(mv) < 4;
            mended += mv != POINT_PASS && point_col(mv) >= 4 && point_col(mv) <= 5;
        }
        assert_true(mended > 3);
        Script s = {.best = pt("g9"), .prove_pass = true};
        JtJob job;
        JtOutcome o;
        assert_int_equal(jt_next(t, &job), 0); /* the pass first */
        run_job(&s, &job, &o);
        assert_int_equal(jt_done(t, &job, &o), 0);
        const JtStats *st = jt_stats(t);
        assert_int_equal(g_borrow_calls, n - 1);
        assert_int_equal(g_rr_bad, 0);
        assert_int_equal(g_rr_order_bad, 0);
        assert_int_equal(g_rr_tries, k ? n - 1 - far : 0);
        assert_int_equal((int)st->repair_tries, g_rr_tries);
        assert_int_equal((int)st->repaired, k ? mended : 0);
        assert_int_equal(st->repair_nodes, (uint64_t)g_rr_tries * REPAIR_WORK);
        assert_int_equal((int)st->borrowed, far + (k ? mended : 0));
        assert_int_equal(jt_root_children(t, ch, &n), 0);
        int proven = 0;
        for (int i = 0; i < n; i++)
            proven += ch[i].status == RESULT_PROVEN;
        assert_int_equal(proven, 1 + far + (k ? mended : 0));
        /* More jobs: no repair but the root's (each root move is repaired once). */
        int tries = g_rr_tries;
        for (int j = 0; j < 60; j++) {
            int rc = jt_next(t, &job);
            if (rc == RJ_ENOTFOUND)
                break;
            assert_int_equal(rc, 0);
            run_job(&s, &job, &o);
            assert_int_equal(jt_done(t, &job, &o), 0);
        }
        assert_int_equal(g_rr_tries, tries);
        jt_free(t);
        if (!k)
            continue;
        /*
         * Resumed over the same source (the pass's proof stored, as the job
         * runner's store would): a move whose repair failed keeps the budget
         * level it failed at, so the same budget repairs none again; twice
         * the calls, each of those once more, unless the source stops the
         * repairs (a stop request, the time limit): then the first records
         * nothing and no other starts; and a repair that could not run (no
         * proof of the pass to mend) records nothing either.
         */
        Board after = root, pb;
        board_play(&after, POINT_PASS);
        board_setup_copy(&after, &pb);
        mem_store_proven(&m, &pb);
        int failed = tries - g_rr_ok;
        assert_true(failed > 10);
        /* r: 0 the same budget; 1 twice the calls, stopped; 2 no proof of the pass to mend; 3, 4 mended */
        const int want[5] = {0, 1, failed, failed, 0};
        for (int r = 0; r < 5; r++) {
            cfg.repair_calls = g_rr_calls = r ? 14 : 7;
            g_rr_stop = r == 1;
            g_rr_noproof = r == 2;
            int before = g_rr_tries;
            g_rr_last_far = 99;
            assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
            assert_int_equal(jt_next(t, &job), 0);
            assert_int_equal(g_rr_tries - before, want[r]);
            assert_int_equal((int)jt_stats(t)->repair_tries, r == 1 ? 0 : want[r]);
            assert_int_equal(g_rr_bad, 0);
            assert_int_equal(g_rr_order_bad, 0);
            jt_free(t);
        }
        g_rr_calls = 7;
        g_rr_stop = g_rr_noproof = false;
    }
    free(ch);
}

/*
 * Callbacks for a symmetric root: the pass's proof holds (borrow), or is
 * mended (repair), only where g_mb_borrow / g_mb_repair mark white's move;
 * every call's white move is counted in g_mb_seen.
 */
static bool g_mb_borrow[BOARD_POINTS], g_mb_repair[BOARD_POINTS];
static int g_mb_seen_borrow[BOARD_POINTS], g_mb_seen_repair[BOARD_POINTS], g_mb_bad;
static bool g_mb_used[BOARD_POINTS]; /* the point a class was proven on */
static Point mb_white(const Board *b, const Board *donor)
{
    int diff;
    Point w = white_extra(b, donor, &diff);
    g_mb_bad += diff != 1 || w >= BOARD_POINTS || b->to_move != BLACK || donor->to_move != BLACK;
    return w < BOARD_POINTS ? w : 0;
}
static int mb_borrow(void *ctx, const Board *b, const Board *pass)
{
    Point w = mb_white(b, pass);
    g_mb_seen_borrow[w]++;
    if (!g_mb_borrow[w])
        return RJ_EBADDATA;
    g_mb_used[w] = true;
    mem_store_proven(ctx, b);
    return 0;
}
/*
 * The first move of a stored proof: white's pass's is g5, and so is that
 * of a proof borrowed or mended from it on the point it was (g_mb_used);
 * read on the class's other point, its mirror image i5 (one family up to
 * the root's symmetry).
 */
static int mb_first_move(void *ctx, const Board *b, Point *mv)
{
    Result r;
    if (mem_lookup(ctx, b, &r) != 0 || r != RESULT_PROVEN) {
        int whites = 0;
        for (int p = 0; p < BOARD_POINTS; p++)
            whites += b->cell[p] == WHITE;
        if (whites != 2)
            return RJ_ENOTFOUND;
        *mv = pt("g5"); /* the pass's position (not stored in Mem here) */
        return 0;
    }
    Board root = pos("h8 h9 h10 h11 h12");
    int diff;
    Point w = white_extra(b, &root, &diff);
    *mv = w < BOARD_POINTS && !g_mb_used[w] ? pt("i5") : pt("g5");
    return 0;
}
static int mb_repair(void *ctx, const Board *b, const Board *donor, uint64_t nodes, int calls, uint64_t *work)
{
    (void)nodes, (void)calls;
    *work = REPAIR_WORK;
    Point w = mb_white(b, donor);
    g_mb_seen_repair[w]++;
    if (!g_mb_repair[w])
        return RJ_EBADDATA;
    g_mb_used[w] = true;
    mem_store_proven(ctx, b);
    return 0;
}

/*
 * A root with a mirror symmetry (stones on the h file): a class of white
 * moves has two members, and a pass's proof that holds, or is mended, for
 * one member only proves the class.  The borrow tries the members in turn;
 * the repair tries the other member first and the representative last, and
 * stops at the first that holds.
 */
static void test_borrow_repair_members(void **state)
{
    (void)state;
    Board root = pos("h8 h9 h10 h11 h12"); /* white to move, symmetric about the h file */
    static Mem m;
    memset(&m, 0, sizeof m);
    JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    assert_non_null(ch);
    JtSource src = mem_source(&m);
    src.borrow = mb_borrow;
    src.repair = mb_repair;
    src.first_move = mb_first_move; /* every proof of the pass's family: no other donor */
    memset(g_mb_borrow, 0, sizeof g_mb_borrow);
    memset(g_mb_repair, 0, sizeof g_mb_repair);
    memset(g_mb_seen_borrow, 0, sizeof g_mb_seen_borrow);
    memset(g_mb_seen_repair, 0, sizeof g_mb_seen_repair);
    memset(g_mb_used, 0, sizeof g_mb_used);
    g_mb_bad = 0;
    JtConfig cfg = {.goal = JT_GOAL_WIN,
                    .rules = RULE_RENJU,
                    .job_nodes = 1000,
                    .borrow_pass = true,
                    .repair_calls = 7,
                    .borrow_repair_permille = 100};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    int n = 0;
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    /* i % 3 == 1: borrowed by the second member; 0: mended (the second member, or the only one); 2: neither */
    int pairs = 0, want_borrowed = 0, want_repaired = 0, want_tries = 0;
    for (int i = 0; i < n; i++) {
        const MoveClass *c = &ch[i].cls;
        if (c->moves[0] == POINT_PASS)
            continue;
        assert_true(c->n <= 2);
        pairs += c->n == 2;
        if (c->n == 2 && i % 3 == 1) {
            g_mb_borrow[c->moves[1]] = true;
            want_borrowed++;
        } else if (i % 3 == 0) {
            g_mb_repair[c->moves[c->n - 1]] = true;
            want_repaired++;
            want_tries++;
        } else {
            want_tries += c->n;
        }
    }
    assert_true(pairs > 50);
    Script s = {.best = pt("g9"), .prove_pass = true};
    JtJob job;
    JtOutcome o;
    assert_int_equal(jt_next(t, &job), 0); /* the pass first */
    run_job(&s, &job, &o);
    assert_int_equal(jt_done(t, &job, &o), 0);
    const JtStats *st = jt_stats(t);
    assert_int_equal(g_mb_bad, 0);
    assert_int_equal((int)st->borrowed, want_borrowed + want_repaired);
    assert_int_equal((int)st->repaired, want_repaired);
    assert_int_equal((int)st->repair_tries, want_tries);
    assert_int_equal(st->repair_nodes, (uint64_t)want_tries * REPAIR_WORK);
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    for (int i = 0; i < n; i++) {
        const MoveClass *c = &ch[i].cls;
        if (c->moves[0] == POINT_PASS)
            continue;
        bool two = c->n == 2;
        bool proven = (two && i % 3 == 1) || i % 3 == 0;
        assert_int_equal(ch[i].status, proven ? RESULT_PROVEN : RESULT_UNKNOWN);
        /* every class's check starts at its representative and goes on only where it fails */
        assert_int_equal(g_mb_seen_borrow[c->moves[0]], 1);
        if (two)
            assert_int_equal(g_mb_seen_borrow[c->moves[1]], 1);
        /* the repairs: none for a borrowed class; else the other member first, the representative only when it fails */
        int rep0 = g_mb_seen_repair[c->moves[0]], rep1 = two ? g_mb_seen_repair[c->moves[1]] : 0;
        if (two && i % 3 == 1)
            assert_int_equal(rep0 + rep1, 0);
        else if (two && i % 3 == 0)
            assert_true(rep0 == 0 && rep1 == 1);
        else if (two)
            assert_true(rep0 == 1 && rep1 == 1);
        else
            assert_int_equal(rep0, 1);
    }
    jt_free(t);
    free(ch);
}

/*
 * Repair donors by family (the first move of their stored proofs): white's
 * pass's proof and those mended from it are family 1, g_fd_fam marks the
 * others' (0: no proof).  The pass's proof is mended for white moves on
 * columns e-f, a family-2 proof for columns k-n; g_fd_bad counts donors of
 * the pass's own family.
 */
static int g_fd_fam[BOARD_POINTS], g_fd_bad, g_fd_tries, g_fd_pass_on_kn, g_fd_tries_at[BOARD_POINTS];
static int g_fd_last_dist[BOARD_POINTS]; /* the distance of the last sibling donor tried on a move (-1: the pass) */
static int g_fd_order_bad;               /* a donor farther than the one before it, or one after the pass */
static int fd_first_move(void *ctx, const Board *b, Point *mv)
{
    (void)ctx;
    Point w = POINT_NONE;
    int whites = 0;
    for (int p = 0; p < BOARD_POINTS; p++)
        whites += b->cell[p] == WHITE;
    if (whites == 2) { /* the pass's position: the root's two white stones */
        *mv = 1;
        return 0;
    }
    Board root = pos("h8 i9 i7 i8 g9");
    int diff;
    w = white_extra(b, &root, &diff);
    if (diff != 1 || w >= BOARD_POINTS || !g_fd_fam[w])
        return RJ_ENOTFOUND;
    *mv = (Point)g_fd_fam[w];
    return 0;
}
static int fd_repair(void *ctx, const Board *b, const Board *donor, uint64_t nodes, int calls, uint64_t *work)
{
    (void)nodes, (void)calls;
    *work = REPAIR_WORK;
    g_fd_tries++;
    Point wt = POINT_NONE, wd = POINT_NONE;
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (b->cell[p] == WHITE && donor->cell[p] == EMPTY)
            wt = (Point)p;
        if (donor->cell[p] == WHITE && b->cell[p] == EMPTY)
            wd = (Point)p;
    }
    assert_true(wt < BOARD_POINTS);
    int dist = -1;
    if (wd != POINT_NONE) {
        int dc = abs(point_col(wd) - point_col(wt)), dr = abs(point_row(wd) - point_row(wt));
        dist = dc > dr ? dc : dr;
    }
    if (g_fd_tries_at[wt]++ > 0) /* nearest families first, the pass last */
        g_fd_order_bad += g_fd_last_dist[wt] < 0 || (dist >= 0 && dist < g_fd_last_dist[wt]);
    g_fd_last_dist[wt] = dist;
    int fam = wd == POINT_NONE ? 1 : g_fd_fam[wd];
    g_fd_bad += fam != 2 && fam != 3 && wd != POINT_NONE; /* a sibling donor of the pass's family, or without a proof */
    int c = point_col(wt);
    g_fd_pass_on_kn += fam == 1 && c >= 10 && c <= 13;
    if ((fam == 1 && c >= 4 && c <= 5) || (fam == 2 && c >= 10 && c <= 13)) {
        g_fd_fam[wt] = fam;
        mem_store_proven(ctx, b);
        return 0;
    }
    return RJ_EBADDATA;
}

/*
 * The repair's donors: a proven sibling whose proof comes from another
 * family than the pass's (here two stored before the search: o4, family 2,
 * which mends columns k-n, and a15, family 3, which mends nothing) is
 * tried before the pass, the nearest family first, and family 2 mends what
 * the pass's cannot; the pass's family (the moves borrowed or mended from
 * it) never donates.
 */
static void test_repair_donor_families(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    static Mem m;
    memset(&m, 0, sizeof m);
    memset(g_fd_fam, 0, sizeof g_fd_fam);
    memset(g_fd_tries_at, 0, sizeof g_fd_tries_at);
    g_fd_bad = g_fd_tries = g_fd_pass_on_kn = 0;
    Board seed = root;
    board_play(&seed, pt("o4"));
    mem_store_proven(&m, &seed);
    g_fd_fam[pt("o4")] = 2;
    seed = root;
    board_play(&seed, pt("a15"));
    mem_store_proven(&m, &seed);
    g_fd_fam[pt("a15")] = 3;
    g_fd_order_bad = 0;
    JtSource src = mem_source(&m);
    src.borrow = mem_borrow; /* columns a-d: the pass's family, unrecorded (fd_first_move: no proof) */
    src.repair = fd_repair;
    src.first_move = fd_first_move;
    JtConfig cfg = {.goal = JT_GOAL_WIN,
                    .rules = RULE_RENJU,
                    .job_nodes = 1000,
                    .borrow_pass = true,
                    .repair_calls = 7,
                    .borrow_repair_permille = 100};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    Script s = {.best = pt("g9"), .prove_pass = true};
    JtJob job;
    JtOutcome o;
    assert_int_equal(jt_next(t, &job), 0); /* the pass first */
    run_job(&s, &job, &o);
    assert_int_equal(jt_done(t, &job, &o), 0);
    JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    assert_non_null(ch);
    int n = 0;
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    int ef = 0, kn = 0, other = 0, want_tries = 0;
    for (int i = 0; i < n; i++) {
        Point mv = ch[i].cls.moves[0];
        if (mv == POINT_PASS || mv == pt("o4") || mv == pt("a15"))
            continue;
        int c = point_col(mv);
        bool is_ef = c >= 4 && c <= 5, is_kn = c >= 10 && c <= 13;
        if (c < 4) {
            assert_int_equal(ch[i].status, RESULT_PROVEN); /* borrowed */
            assert_int_equal(g_fd_tries_at[mv], 0);
            continue;
        }
        ef += is_ef, kn += is_kn, other += !is_ef && !is_kn;
        assert_int_equal(ch[i].status, is_ef || is_kn ? RESULT_PROVEN : RESULT_UNKNOWN);
        /* k-n: family 2 mends it, first or after family 3 when a15 is nearer; else 2 and 3 fail, then the pass */
        if (is_kn)
            assert_in_range(g_fd_tries_at[mv], 1, 2);
        else
            assert_int_equal(g_fd_tries_at[mv], 3);
        want_tries += g_fd_tries_at[mv];
    }
    assert_true(ef > 5 && kn > 5 && other > 5);
    assert_int_equal(g_fd_tries, want_tries);
    assert_int_equal(g_fd_bad, 0);
    assert_int_equal(g_fd_order_bad, 0);
    assert_int_equal(g_fd_pass_on_kn, 0);
    const JtStats *st = jt_stats(t);
    assert_int_equal((int)st->repaired, ef + kn);
    assert_int_equal((int)st->repair_tries, want_tries);
    jt_free(t);
    free(ch);
}

/*
 * The root of a goal-win search, white to move included, gets its job and
 * root_rerun reruns (4x each) whatever its pn, then the tree expands it;
 * root_cap stops the reruns where the next would exceed it.
 */
static void test_root_rerun(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    /* k = 2: root_cap 4 (x job_nodes) leaves one rerun */
    for (int k = 0; k < 3; k++) {
        Script s = {.best = pt("g9"), .fail_pn = 500}; /* above rerun_pn: only the root reruns */
        static Mem m;
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        JtConfig cfg = {.goal = JT_GOAL_WIN,
                        .rules = RULE_RENJU,
                        .job_nodes = 1000,
                        .rerun = 1,
                        .rerun_pn = 10,
                        .root_rerun = k == 1 ? 0 : 2,
                        .root_cap = k == 2 ? 4 : 0};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        const uint64_t want[3] = {1000, 4000, 16000};
        int nroot = k == 0 ? 3 : k == 2 ? 2 : 0;
        for (int j = 0; j < nroot + 2; j++) {
            JtJob job;
            assert_int_equal(jt_next(t, &job), 0);
            Board nb = node_frame(&job);
            assert_int_equal(job.look, j < nroot ? JT_LOOK_ROOT : JT_LOOK); /* the root's search: its own threshold */
            if (j < nroot) {
                assert_int_equal(board_stone_count(&nb), 5);
                assert_int_equal(job.budget, want[j]);
            } else { /* expanded: white's 6th moves, each one job at the base budget (pn 500: no rerun) */
                assert_int_equal(board_stone_count(&nb), 6);
                assert_int_equal(job.budget, 1000);
            }
            JtOutcome o;
            run_job(&s, &job, &o);
            assert_int_equal(jt_done(t, &job, &o), 0);
        }
        jt_free(t);
    }
}

/*
 * A read-only view (status) of a goal-win white root with root reruns lists
 * white's moves while no job has searched the root, and the saved root (not
 * expanded) once root jobs have run.
 */
static void test_view_white_root(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m), view = src;
    view.save = NULL;
    view.solved = NULL;
    JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000, .root_rerun = 2};
    JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    assert_non_null(ch);
    JobTree *t;
    int n = -1;
    assert_int_equal(jt_create(&t, &root, &cfg, &view), 0);
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    assert_true(n > 1); /* white's 6th-move classes and the pass */
    jt_free(t);

    Script s = {.best = pt("g9"), .fail_pn = 500};
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    JtJob job;
    JtOutcome o;
    assert_int_equal(jt_next(t, &job), 0);
    run_job(&s, &job, &o);
    assert_int_equal(jt_done(t, &job, &o), 0);
    jt_free(t);

    assert_int_equal(jt_create(&t, &root, &cfg, &view), 0);
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    assert_int_equal(n, 0); /* the search's own tree: one root job, not expanded yet */
    jt_free(t);
    free(ch);
}

/*
 * A donor callback (Simulation): a proven sibling's "proof" (a result stored
 * in the source) holds when the two white moves share a row.  Counts the
 * calls, the most for one leaf, and donors out of nearest-first order.
 */
static int g_sim_calls, g_sim_bad, g_sim_run, g_sim_max_run, g_sim_unordered, g_sim_last_d;
static Board g_sim_last;
static int mem_sim(void *ctx, const Board *b, const Board *donor)
{
    g_sim_calls++;
    Point y = POINT_NONE, x = POINT_NONE;
    int diff = 0;
    for (int p = 0; p < BOARD_POINTS; p++)
        if (b->cell[p] != donor->cell[p]) {
            diff++;
            if (b->cell[p] == WHITE && donor->cell[p] == EMPTY)
                y = (Point)p;
            else if (donor->cell[p] == WHITE && b->cell[p] == EMPTY)
                x = (Point)p;
        }
    g_sim_bad += b->to_move != BLACK || donor->to_move != BLACK || diff != 2 || y == POINT_NONE || x == POINT_NONE;
    if (y == POINT_NONE || x == POINT_NONE)
        return RJ_EBADDATA;
    int dr = abs(point_row(x) - point_row(y)), dc = abs(point_col(x) - point_col(y));
    int d = dr > dc ? dr : dc;
    bool same = !memcmp(g_sim_last.cell, b->cell, sizeof b->cell);
    g_sim_run = same ? g_sim_run + 1 : 1;
    g_sim_max_run = g_sim_run > g_sim_max_run ? g_sim_run : g_sim_max_run;
    g_sim_unordered += same && d < g_sim_last_d;
    g_sim_last = *b;
    g_sim_last_d = d;
    Result r;
    if (mem_lookup(ctx, donor, &r) != 0 || r != RESULT_PROVEN) {
        g_sim_bad++; /* only proven siblings are donors (each stored by its job, or by this callback) */
        return RJ_ENOTFOUND;
    }
    if (point_row(x) != point_row(y))
        return RJ_EBADDATA;
    mem_store_proven(ctx, b);
    return 0;
}

/*
 * Simulation: before a black-to-move leaf's first job its proven siblings'
 * proofs are tried on it (the sim_donors nearest); a leaf one holds for is
 * proven without a job, and stored.  Off (0), no donor is tried.
 */
static void test_sim_siblings(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    static Mem m;
    Script s = {.best = pt("g9"), .prove_white_children = true};
    int jobs[2], sims[2], nch = 0, stored_by_jobs = 0;
    for (int k = 0; k < 2; k++) {
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        src.borrow = mem_sim;
        g_sim_calls = g_sim_bad = g_sim_run = g_sim_max_run = g_sim_unordered = 0;
        memset(&g_sim_last, 0, sizeof g_sim_last);
        JtConfig cfg = {.goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 1000, .sim_donors = k ? 3 : 0};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        /* the jobs, their proven results stored as a runner's store would (the donors' proofs) */
        jobs[k] = 0;
        stored_by_jobs = 0;
        JtJob job;
        while (jt_next(t, &job) == 0) {
            JtOutcome o;
            run_job(&s, &job, &o);
            if (o.result == RESULT_PROVEN && job.board.to_move == BLACK) {
                mem_store_proven(&m, &job.board);
                stored_by_jobs++;
            }
            assert_int_equal(jt_done(t, &job, &o), 0);
            jobs[k]++;
        }
        assert_int_equal(jt_root_result(t), RESULT_PROVEN);
        sims[k] = (int)jt_stats(t)->simulated;
        assert_int_equal(g_sim_bad, 0);
        assert_int_equal((int)jt_stats(t)->sim_tries, g_sim_calls);
        JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
        assert_non_null(ch);
        assert_int_equal(jt_root_children(t, ch, &nch), 0);
        int in_store = 0;
        for (int i = 0; i < nch; i++) {
            Board cb = root;
            board_play(&cb, ch[i].cls.moves[0]);
            Result r;
            in_store += ch[i].cls.moves[0] != POINT_PASS && mem_lookup(&m, &cb, &r) == 0 && r == RESULT_PROVEN;
        }
        assert_int_equal(in_store, sims[k] + stored_by_jobs - 1); /* every white move's position (not the pass's) */
        assert_true(g_sim_max_run <= 3);                          /* at most sim_donors tried on one leaf */
        assert_int_equal(g_sim_unordered, 0);                     /* nearest first */
        free(ch);
        jt_free(t);
        if (!k)
            assert_int_equal(g_sim_calls, 0);
    }
    assert_int_equal(sims[0], 0);
    assert_int_equal(jobs[0], nch); /* every white move and the pass: a job each */
    assert_true(sims[1] > 20);      /* rows that hold a proven sibling near the move */
    assert_int_equal(jobs[1] + sims[1], nch);
    assert_true(g_sim_max_run == 3); /* some leaf had three donors tried */
}

/*
 * Goal fair-n with balance: a 4th-move class's pn counts more the more work
 * its subtree has had, so the jobs after the first round spread over several
 * classes; without it they follow one class's least pn.
 */
static void test_fair_n_balance(void **state)
{
    (void)state;
    static Mem m;
    Board root = pos("I7");
    Script s = {.best = POINT_NONE};
    int deep[2];
    for (int k = 0; k < 2; k++) {
        memset(&m, 0, sizeof m);
        JtSource src = mem_source(&m);
        JtConfig cfg = {.goal = JT_GOAL_FAIR_N, .rules = RULE_RENJU, .job_nodes = 1000, .balance = k ? 1 : 0};
        JobTree *t;
        assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
        JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
        assert_non_null(ch);
        int n;
        jt_root_children(t, ch, &n);
        assert_int_equal(run_jobs(t, &s, n - 1 + 150, NULL), n - 1 + 150);
        jt_root_children(t, ch, &n);
        deep[k] = 0;
        uint64_t total = 0;
        for (int i = 0; i < n; i++) {
            deep[k] += ch[i].effort > 1000; /* more than its first job */
            total += ch[i].effort;
        }
        assert_int_equal(total, (uint64_t)(n - 1 + 150) * 1000);
        free(ch);
        jt_free(t);
    }
    assert_int_equal(deep[0], 1);
    assert_true(deep[1] >= 3);
}

/*
 * Goal fair-n, resumed: the balance counts for each 4th-move class the whole
 * saved work of its subtree, nodes it shares with other classes (D1: white's
 * 4th and 6th moves swapped) included, so no class looks cheap again after a
 * resume because a shared line was credited to another class.
 */
static void test_fair_n_balance_resume(void **state)
{
    (void)state;
    enum { JOBS_RESUME = 600 };
    static Mem m;
    memset(&m, 0, sizeof m);
    Board root = pos("D1");
    /* black's 5th l12 first; every position after white's 6th proven: the classes are proven through l12 in turn */
    Script s = {
        .best = pt("l12"), .est_mv = {pt("l12")}, .est_pn = {2}, .nest = 1, .prove_white_children = true, .fail_pn = 1};
    JtSource src = mem_source(&m);
    JtConfig cfg = {.goal = JT_GOAL_FAIR_N, .rules = RULE_RENJU, .job_nodes = 1000, .unlisted_pn = 100000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    int jobs = run_jobs(t, &s, JOBS_RESUME, NULL);
    assert_int_equal(jobs, JOBS_RESUME);
    jt_free(t);
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    JtChild *ch = malloc(sizeof *ch * (BOARD_POINTS + 1));
    assert_non_null(ch);
    int n;
    assert_int_equal(jt_root_children(t, ch, &n), 0);
    uint64_t once = 0, each = 0;
    int shared = 0;
    for (int i = 0; i < n; i++) {
        if (ch[i].cls.moves[0] == POINT_PASS)
            continue;
        assert_true(ch[i].balance_work >= ch[i].effort);
        shared += ch[i].balance_work > ch[i].effort;
        once += ch[i].effort;
        each += ch[i].balance_work;
    }
    assert_int_equal(once, (uint64_t)JOBS_RESUME * 1000); /* the report counts a shared node once */
    assert_int_equal(ch[0].cls.moves[0], pt("a1"));
    assert_int_equal(ch[0].status, RESULT_PROVEN);
    assert_int_equal(ch[1].cls.moves[0], pt("b1"));
    assert_true(ch[1].balance_work >= ch[1].effort + 1000); /* a1 l12 b1 = b1 l12 a1, proven in a1's subtree */
    assert_true(shared >= 2);
    assert_true(each > once);
    free(ch);
    jt_free(t);
}

/*
 * Simulation after a probe: a white move's position whose probe ended
 * unknown has its proven siblings' proofs tried again before its whole job,
 * so a sibling proven between the two can spare that job.  Here every probe
 * ends unknown and every whole job proves.
 */
static void test_sim_after_probe(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    src.borrow = mem_sim;
    g_sim_calls = g_sim_bad = g_sim_run = g_sim_max_run = g_sim_unordered = 0;
    memset(&g_sim_last, 0, sizeof g_sim_last);
    JtConfig cfg = {
        .goal = JT_GOAL_WIN, .rules = RULE_RENJU, .job_nodes = 100000, .sim_donors = 3, .probe_black_permille = 40};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    enum { MAXP = 400 };
    static SymKey probed[MAXP];
    static bool whole[MAXP];
    int np = 0;
    JtJob job;
    while (jt_next(t, &job) == 0) {
        JtOutcome o;
        memset(&o, 0, sizeof o);
        o.nodes = job.budget;
        o.best = POINT_NONE;
        o.result = job.board.to_move == BLACK && !job.probe ? RESULT_PROVEN : RESULT_UNKNOWN;
        o.pn = o.dn = 2;
        SymKey k;
        sym_canonical(&job.board, RULE_RENJU, &k, NULL);
        if (job.board.to_move == BLACK) {
            int i = 0;
            while (i < np && memcmp(probed[i].b, k.b, SYMKEY_LEN))
                i++;
            if (job.probe) {
                assert_int_equal(i, np); /* probed once */
                assert_true(np < MAXP);
                probed[np++] = k;
            } else {
                assert_true(i < np); /* its probe came first */
                whole[i] = true;
                mem_store_proven(&m, &job.board); /* stored, as a runner's store would */
            }
        }
        assert_int_equal(jt_done(t, &job, &o), 0);
    }
    assert_int_equal(jt_root_result(t), RESULT_PROVEN);
    assert_int_equal(g_sim_bad, 0);
    int spared = 0;
    for (int i = 0; i < np; i++)
        spared += !whole[i];
    assert_true(spared >= 1); /* probed, then proven by a sibling's proof instead of its whole job */
    jt_free(t);
}

/* A borrow callback whose every proven donor's proof holds; the positions it proved kept in g_simmed. */
enum { SIMMED_MAX = 400 };
static SymKey g_simmed[SIMMED_MAX];
static int g_nsimmed;
static int mem_sim_any(void *ctx, const Board *b, const Board *donor)
{
    Result r;
    if (mem_lookup(ctx, donor, &r) != 0 || r != RESULT_PROVEN) {
        g_sim_bad++;
        return RJ_ENOTFOUND;
    }
    mem_store_proven(ctx, b);
    if (g_nsimmed < SIMMED_MAX)
        sym_canonical(b, RULE_RENJU, &g_simmed[g_nsimmed++], NULL);
    return 0;
}

/*
 * The same with JtConfig.expand_below 7: a white move's 6-stone position
 * gets its probe and no whole job, and its proven siblings' proofs are tried
 * again after the probe, before its expansion.
 */
static void test_sim_after_probe_expand(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    src.borrow = mem_sim_any;
    g_sim_calls = g_sim_bad = g_sim_run = g_sim_max_run = g_sim_unordered = 0;
    memset(&g_sim_last, 0, sizeof g_sim_last);
    g_nsimmed = 0;
    JtConfig cfg = {.goal = JT_GOAL_WIN,
                    .rules = RULE_RENJU,
                    .job_nodes = 100000,
                    .sim_donors = 3,
                    .probe_black_permille = 40,
                    .expand_below = 7};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    enum { MAXP = 400 };
    static SymKey probed[MAXP];
    int np = 0, jobs = 0;
    JtJob job;
    while (jobs++ < 300 && jt_next(t, &job) == 0) {
        JtOutcome o;
        memset(&o, 0, sizeof o);
        o.nodes = job.budget;
        o.best = POINT_NONE;
        /* whole jobs on black-to-move positions prove (8 stones), and so do the probes of the
           6-stone positions whose white 6th move is on columns a-d: proven siblings */
        o.result = job.board.to_move == BLACK && !job.probe ? RESULT_PROVEN : RESULT_UNKNOWN;
        o.pn = 2;
        o.dn = job.probe ? 100 : 2; /* a probed move comes back after the fresh ones have had their probes */
        Board nb = node_frame(&job);
        if (board_stone_count(&nb) == 6) {
            assert_true(job.probe); /* no whole job below 7 stones */
            Point w6 = POINT_NONE;
            for (int p = 0; p < BOARD_POINTS; p++)
                if (board_at(&nb, (Point)p) == WHITE && p != pt("i9") && p != pt("i8"))
                    w6 = (Point)p;
            assert_true(w6 < BOARD_POINTS);
            if (point_col(w6) < 4)
                o.result = RESULT_PROVEN;
            else {
                assert_true(np < MAXP);
                sym_canonical(&job.board, RULE_RENJU, &probed[np++], NULL);
            }
        }
        if (o.result == RESULT_PROVEN) {
            mem_store_proven(&m, &job.board);
        }
        assert_int_equal(jt_done(t, &job, &o), 0);
        assert_int_equal(jt_check_updates(t), 0);
    }
    assert_int_equal(g_sim_bad, 0);
    int after = 0; /* probed 6-stone positions left unknown that a sibling's proof proved afterwards */
    for (int i = 0; i < g_nsimmed; i++)
        for (int j = 0; j < np; j++)
            after += !memcmp(g_simmed[i].b, probed[j].b, SYMKEY_LEN);
    print_message("expand_below: %d 6-stone probes left unknown, %d of them proven by a sibling's proof afterwards\n",
                  np, after);
    assert_true(after >= 1);
    jt_free(t);
}

/* ---- a random tree: transpositions and borrows ---- */

/* A position's hash, the same in every frame (its canonical key), mixed with a salt. */
static uint64_t pos_hash(const Board *b, uint64_t salt)
{
    SymKey k;
    sym_canonical(b, RULE_RENJU, &k, NULL);
    uint64_t h = UINT64_C(0xcbf29ce484222325) ^ salt * UINT64_C(0x9e3779b97f4a7c15);
    for (int i = 0; i < SYMKEY_LEN; i++)
        h = (h ^ k.b[i]) * UINT64_C(0x100000001b3);
    h ^= h >> 29;
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    return h ^ h >> 32;
}

/* The points the random jobs list (every line of the tree plays among them, so lines transpose). */
static const char *const g_pool[] = {"h7", "g8", "h9", "j9", "g7", "h10", "j7", "f8", "j10", "g10"};
enum { POOL_N = sizeof g_pool / sizeof g_pool[0] };

/*
 * A random job: its result and numbers the same for a position in every
 * frame, its estimates and best move (pool points) read in the frame of the
 * node's path.
 */
static void run_random(const JtJob *job, JtOutcome *o)
{
    Board b = node_frame(job);
    memset(o, 0, sizeof *o);
    o->nodes = job->budget;
    o->best = POINT_NONE;
    uint64_t h = pos_hash(&b, 1);
    if (b.to_move == BLACK && h % 6 == 0)
        o->result = RESULT_PROVEN;
    else if (b.to_move == WHITE && h % 16 == 0)
        o->result = RESULT_DISPROVEN;
    else if (b.to_move == WHITE && h % 16 == 1)
        o->result = RESULT_PROVEN;
    else
        o->result = RESULT_UNKNOWN;
    if (o->result != RESULT_UNKNOWN)
        return;
    o->pn = 1 + (ProofNum)(h >> 8) % 30;
    o->dn = 1 + (ProofNum)(h >> 16) % 30;
    for (int i = 0; i < POOL_N; i++) {
        Point p = pt(g_pool[i]);
        if (board_at(&b, p) != EMPTY)
            continue;
        uint64_t e = pos_hash(&b, 100 + (uint64_t)p);
        o->est[o->nest++] = (JtEst){sym_apply(job->sym, p), 1 + (ProofNum)e % 20, 1 + (ProofNum)(e >> 8) % 20};
        if (b.to_move == BLACK && o->best == POINT_NONE)
            o->best = sym_apply(job->sym, p);
    }
}

static int rnd_lookup(void *ctx, const Board *b, Result *res)
{
    (void)ctx, (void)b, (void)res;
    return RJ_ENOTFOUND;
}

static int rnd_load(void *ctx, const Board *b, JtState *st)
{
    (void)ctx, (void)b, (void)st;
    return RJ_ENOTFOUND;
}

static int rnd_solved(void *ctx, const Board *b, Result r, const JtMoves *m)
{
    (void)b, (void)r, (void)m;
    ++*(int *)ctx;
    return 0;
}

/* A borrowed or simulated proof holds for a third of the positions (by their hash). */
static int rnd_borrow(void *ctx, const Board *b, const Board *donor)
{
    (void)ctx, (void)donor;
    return pos_hash(b, 7) % 3 == 0 ? 0 : RJ_EBADDATA;
}

/*
 * The incremental updates on a random tree whose lines transpose (nodes with
 * several parents) and whose white-to-move nodes prove children by borrowing
 * during a pass, with probes, simulation and reruns on: after every job the
 * numbers agree with a full recomputation.  (Without the mark of a
 * borrowed child only this test fails.  The stale-child case of update()'s
 * child loop needs a borrowed node two of whose ancestors lie on lines
 * that both hold a pass: this tree does not reach it.)
 */
static void test_random_dag(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9"); /* white to move */
    int composed = 0;
    JtSource src = {&composed, rnd_lookup, rnd_load, NULL, rnd_solved, rnd_borrow, NULL, NULL};
    JtConfig cfg = {.goal = JT_GOAL_WIN,
                    .rules = RULE_RENJU,
                    .job_nodes = 1000,
                    .max_stones = 13,
                    .fail_weight = 100,
                    .unlisted_pn = 1000,
                    .rerun = 1,
                    .rerun_pn = 3,
                    .borrow_pass = true,
                    .probe_permille = 40,
                    .probe_black_permille = 40,
                    .sim_donors = 3};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    int k = 0;
    JtJob job;
    while (k < 800 && jt_next(t, &job) == 0) {
        JtOutcome o;
        run_random(&job, &o);
        assert_int_equal(jt_done(t, &job, &o), 0);
        assert_int_equal(jt_check_updates(t), 0);
        k++;
    }
    const JtStats *st = jt_stats(t);
    print_message("random tree: %d jobs, %llu nodes, %llu extra parent links, %llu borrowed of %llu, %llu simulated, "
                  "%d composed\n",
                  k, (unsigned long long)st->tree_nodes, (unsigned long long)st->links,
                  (unsigned long long)st->borrowed, (unsigned long long)st->borrow_tries,
                  (unsigned long long)st->simulated, composed);
    assert_true(st->links > 100); /* lines transposed */
    assert_true(st->borrowed > 50);
    assert_true(st->simulated > 10);
    assert_true(composed > 5);
    jt_free(t);
}

/* ---- the random tree over a store: save and reload ---- */

/* A hashed store of results and states (the random tree outgrows Mem's scan). */
enum { HS_SLOTS = 1 << 13 };

typedef struct {
    MemEntry *e; /* HS_SLOTS entries, open addressing; key byte 0 never 0xff, so 0xff marks empty */
    int n;
    int composed;
} HStore;

static void hs_init(HStore *h)
{
    h->e = malloc(sizeof *h->e * HS_SLOTS);
    assert_non_null(h->e);
    for (int i = 0; i < HS_SLOTS; i++)
        h->e[i].key.b[0] = 0xff;
    h->n = 0;
    h->composed = 0;
}

static MemEntry *hs_find(HStore *h, const Board *b, bool add, int *t)
{
    SymKey k;
    sym_canonical(b, RULE_RENJU, &k, t);
    assert_true(k.b[0] != 0xff);
    uint64_t x = UINT64_C(0xcbf29ce484222325);
    for (int i = 0; i < SYMKEY_LEN; i++)
        x = (x ^ k.b[i]) * UINT64_C(0x100000001b3);
    for (size_t i = (size_t)(x ^ x >> 29) & (HS_SLOTS - 1);; i = (i + 1) & (HS_SLOTS - 1)) {
        MemEntry *e = &h->e[i];
        if (e->key.b[0] == 0xff) {
            if (!add)
                return NULL;
            assert_true(2 * (h->n + 1) < HS_SLOTS);
            h->n++;
            memset(e, 0, sizeof *e);
            e->key = k;
            return e;
        }
        if (!memcmp(e->key.b, k.b, SYMKEY_LEN))
            return e;
    }
}

static void hs_result(HStore *h, const Board *b, Result r)
{
    MemEntry *e = hs_find(h, b, true, NULL);
    e->has_result = true;
    e->res = r;
}

static int hs_lookup(void *ctx, const Board *b, Result *res)
{
    MemEntry *e = hs_find(ctx, b, false, NULL);
    if (!e || !e->has_result)
        return RJ_ENOTFOUND;
    *res = e->res;
    return 0;
}

/* States as mem_load / mem_save keep them. */
static int hs_load(void *ctx, const Board *b, JtState *st)
{
    int t;
    MemEntry *e = hs_find(ctx, b, false, &t);
    if (!e || !e->has_state)
        return RJ_ENOTFOUND;
    entry_load(e, t, st);
    return 0;
}

static int hs_save(void *ctx, const Board *b, const JtState *st)
{
    int t;
    MemEntry *e = hs_find(ctx, b, true, &t);
    entry_save(e, t, st);
    return 0;
}

static int hs_solved(void *ctx, const Board *b, Result r, const JtMoves *m)
{
    (void)m;
    HStore *h = ctx;
    hs_result(h, b, r);
    h->composed++;
    return 0;
}

/* rnd_borrow's verdict; an accepted proof is stored for the position, as the database does. */
static int hs_borrow(void *ctx, const Board *b, const Board *donor)
{
    int rc = rnd_borrow(ctx, b, donor);
    if (rc == 0) {
        Board sb;
        board_setup_copy(b, &sb);
        hs_result(ctx, &sb, RESULT_PROVEN);
    }
    return rc;
}

static JtConfig random_cfg(void)
{
    return (JtConfig){.goal = JT_GOAL_WIN,
                      .rules = RULE_RENJU,
                      .job_nodes = 1000,
                      .max_stones = 13,
                      .fail_weight = 100,
                      .unlisted_pn = 1000,
                      .rerun = 1,
                      .rerun_pn = 3,
                      .borrow_pass = true,
                      .probe_permille = 40,
                      .probe_black_permille = 40,
                      .sim_donors = 3};
}

/* Up to max random jobs, results stored as the job runner stores them; job keys to keys. */
static int run_random_jobs(JobTree *t, HStore *h, int max, SymKey *keys)
{
    int k = 0;
    JtJob job;
    while (k < max && jt_next(t, &job) == 0) {
        sym_canonical(&job.board, RULE_RENJU, &keys[k], NULL);
        JtOutcome o;
        run_random(&job, &o);
        if (o.result != RESULT_UNKNOWN)
            hs_result(h, &job.board, o.result);
        assert_int_equal(jt_done(t, &job, &o), 0);
        k++;
    }
    return k;
}

/* b's canonical key, as the store sees it (the setup position right after a pass). */
static void store_key(const Board *b, SymKey *k)
{
    Board sb = *b;
    if (board_last_move(b) == POINT_PASS)
        board_setup_copy(b, &sb);
    sym_canonical(&sb, RULE_RENJU, k, NULL);
}

/*
 * Up to max jobs of run on t, jt_line checked before each: it is no error,
 * its moves are legal from root, and when it ends at a leaf that never had a
 * job, the next job is that leaf's (*fresh counts them; *longest: the longest
 * line).  open_line: also every step unsolved, and all but the last with open
 * children.
 */
static void run_checking_lines(JobTree *t, const Board *root, void (*run)(const JtJob *, JtOutcome *), int max,
                               bool open_line, int *fresh, int *longest)
{
    JtLineStep line[JT_MAX_PATH];
    *fresh = *longest = 0;
    for (int k = 0; k < max; k++) {
        int n = jt_line(t, line, JT_MAX_PATH);
        assert_true(n >= 0);
        Board b = *root;
        for (int i = 0; i < n; i++) {
            assert_true(line[i].mv == POINT_PASS || board_at(&b, line[i].mv) == EMPTY);
            if (open_line) {
                assert_int_equal(line[i].status, RESULT_UNKNOWN);
                assert_true(i == n - 1 || line[i].open > 0);
            }
            board_play(&b, line[i].mv);
        }
        *longest = n > *longest ? n : *longest;
        JtJob job;
        if (jt_next(t, &job) != 0)
            break;
        if (n > 0 && line[n - 1].effort == 0) {
            SymKey kj, kl;
            sym_canonical(&job.board, RULE_RENJU, &kj, NULL);
            store_key(&b, &kl);
            assert_memory_equal(kj.b, kl.b, SYMKEY_LEN);
            ++*fresh;
        }
        JtOutcome o;
        run(&job, &o);
        assert_int_equal(jt_done(t, &job, &o), 0);
    }
}

/*
 * jt_line leads to where the next job goes: on the random tree (without
 * simulation, which proves a leaf in jt_next itself), the line's moves are legal from the root in
 * its frame, every step but the last has open children, and when the
 * line ends at a leaf that never had a job, the next job is that leaf's.
 * (A leaf that had its job is expanded by jt_next, and the selection starts
 * again over the new numbers.)
 */
static void test_line(void **state)
{
    (void)state;
    Board root = pos("h8 i9 i7 i8 g9");
    JtSource src = {NULL, rnd_lookup, rnd_load, NULL, NULL, rnd_borrow, NULL, NULL};
    JtConfig cfg = random_cfg(); /* borrowing proves many white moves, so lines go below the first */
    cfg.sim_donors = 0;
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    int fresh, longest;
    run_checking_lines(t, &root, run_random, 400, true, &fresh, &longest);
    print_message("line: %d jobs at a fresh leaf the line ended at; longest line %d\n", fresh, longest);
    assert_true(fresh > 100 && longest >= 3); /* (the random tree is wide: its jobs reach 8 stones) */
    jt_free(t);
}

/* ---- a narrow tree with every symmetry: lines through transpositions in other frames ---- */

/* Points around h8 that every symmetry of the board maps among themselves. */
static const char *const g_sympool[] = {"g7", "h7", "i7", "g8", "i8", "g9", "h9", "i9", "h6", "f8", "j8", "h10"};
enum { SYMPOOL_N = sizeof g_sympool / sizeof g_sympool[0] };

static bool in_sympool(Point p)
{
    for (int i = 0; i < SYMPOOL_N; i++)
        if (p == pt(g_sympool[i]))
            return true;
    return false;
}

/* Every white stone on a pool point. */
static bool white_in_pool(const Board *b)
{
    for (int p = 0; p < BOARD_POINTS; p++)
        if (board_at(b, (Point)p) == WHITE && !in_sympool((Point)p))
            return false;
    return true;
}

/*
 * Jobs of the narrow tree (root h8): black wins unless white has played
 * only pool points (and not passed); the open positions list the pool points
 * as the promising moves, so the tree goes down lines among them.
 */
static void run_sympool(const JtJob *job, JtOutcome *o)
{
    Board b = node_frame(job); /* the pool and the root are symmetric: any frame reads the same */
    memset(o, 0, sizeof *o);
    o->nodes = job->budget;
    o->best = POINT_NONE;
    bool passed = b.stones[0] > b.stones[1] && b.to_move == BLACK;
    if (b.to_move == BLACK && (passed || !white_in_pool(&b))) {
        o->result = RESULT_PROVEN;
        return;
    }
    o->result = RESULT_UNKNOWN;
    uint64_t h = pos_hash(&b, 3);
    o->pn = 2 + (ProofNum)(h >> 8) % 20;
    o->dn = 2 + (ProofNum)(h >> 16) % 20;
    for (int i = 0; i < SYMPOOL_N; i++) {
        Point p = pt(g_sympool[i]);
        if (board_at(&b, p) != EMPTY)
            continue;
        Board c = b;
        board_play(&c, p);
        uint64_t e = pos_hash(&c, 5); /* the same for every image */
        o->est[o->nest++] = (JtEst){sym_apply(job->sym, p), 1 + (ProofNum)e % 9, 1 + (ProofNum)(e >> 8) % 9};
    }
}

/* White's pass proves every white move off the pool (the checker's relevance zone, in effect). */
static int sympool_borrow(void *ctx, const Board *b, const Board *donor)
{
    (void)ctx, (void)donor;
    return white_in_pool(b) ? RJ_EBADDATA : 0;
}

/*
 * jt_line through nodes first reached by another image of the line's
 * position (h8 g8 g9 h9 and h8 h9 g9 g8 are one node, in frames a
 * reflection apart; rotations too): every line maps those nodes' moves back
 * into the root's frame (jt_line checks each step's position and fails
 * otherwise; the identity, the inverse or the reversed composition in its
 * place all fail here), and a fresh leaf at a line's end is where the next
 * job goes.
 */
static void test_line_frames(void **state)
{
    (void)state;
    Board root = pos("h8"); /* every symmetry fixes it; white to move */
    JtSource src = {NULL, rnd_lookup, rnd_load, NULL, NULL, sympool_borrow, NULL, NULL};
    JtConfig cfg = {.goal = JT_GOAL_WIN,
                    .rules = RULE_RENJU,
                    .job_nodes = 1000,
                    .max_stones = 12,
                    .unlisted_pn = 1000,
                    .borrow_pass = true};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    int fresh, longest;
    run_checking_lines(t, &root, run_sympool, 1500, false, &fresh, &longest);
    const JtStats *st = jt_stats(t);
    print_message("symmetric tree: %d fresh leaves at a line's end, longest line %d, %llu links\n", fresh, longest,
                  (unsigned long long)st->links);
    assert_true(fresh > 50 && longest >= 6 && st->links > 10);
    jt_free(t);
}

/*
 * The random tree saved and reloaded: the tree a new JobTree builds from the
 * store has the nodes, parent links and numbers of the tree that was saved,
 * and it goes on with the jobs the uninterrupted run had next; also where
 * the nodes of fewer than expand_below stones below the root get their
 * probe only and are expanded without a job (JtConfig.expand_below).
 */
static void random_dag_reload(int expand_below)
{
    enum { TOTAL = 600, PART = 200 };
    static SymKey a[TOTAL], b[TOTAL];
    Board root = pos("h8 i9 i7 i8 g9");
    JtConfig cfg = random_cfg();
    cfg.expand_below = expand_below;
    if (expand_below)
        cfg.job_nodes = 100000; /* probes of 4000 (a probe under 1000 nodes would be the whole job) */
    HStore h1, h2;
    hs_init(&h1);
    hs_init(&h2);
    JtSource src1 = {&h1, hs_lookup, hs_load, hs_save, hs_solved, hs_borrow, NULL, NULL};
    JtSource src2 = {&h2, hs_lookup, hs_load, hs_save, hs_solved, hs_borrow, NULL, NULL};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src1), 0);
    assert_int_equal(run_random_jobs(t, &h1, TOTAL, a), TOTAL);
    jt_free(t);

    /* The same run stopped every PART jobs and taken up by a new tree over the store. */
    uint64_t links = 0;
    assert_int_equal(jt_create(&t, &root, &cfg, &src2), 0);
    for (int done = 0; done < TOTAL; done += PART) {
        assert_int_equal(run_random_jobs(t, &h2, PART, b + done), PART);
        if (done + PART == TOTAL)
            break;
        JtStats before = *jt_stats(t);
        ProofNum pn0, dn0, pn1, dn1;
        jt_root_pn(t, &pn0, &dn0);
        jt_free(t);
        assert_int_equal(jt_create(&t, &root, &cfg, &src2), 0);
        const JtStats *after = jt_stats(t);
        jt_root_pn(t, &pn1, &dn1);
        print_message("reloaded after %d jobs: %llu nodes, %llu links -> %llu, %llu; root pn %u dn %u -> %u %u\n",
                      done + PART, (unsigned long long)before.tree_nodes, (unsigned long long)before.links,
                      (unsigned long long)after->tree_nodes, (unsigned long long)after->links, (unsigned)pn0,
                      (unsigned)dn0, (unsigned)pn1, (unsigned)dn1);
        assert_int_equal(after->tree_nodes, before.tree_nodes);
        assert_int_equal(after->links, before.links);
        links = after->links;
        assert_int_equal(pn1, pn0);
        assert_int_equal(dn1, dn0);
        assert_int_equal(jt_check_updates(t), 0);
    }
    jt_free(t);
    int same = 0;
    while (same < TOTAL && !memcmp(a[same].b, b[same].b, SYMKEY_LEN))
        same++;
    print_message("the same jobs as the uninterrupted run: the first %d of %d\n", same, TOTAL);
    assert_true(links > 10); /* lines transposed before the last reload */
    assert_int_equal(same, TOTAL);
    free(h1.e);
    free(h2.e);
}

/* Without expand_below, and with 7: the 6-stone nodes below the 5-stone root get their probe only. */
static void test_random_dag_reload(void **state)
{
    (void)state;
    random_dag_reload(0);
    random_dag_reload(7);
}

/* Bad input: goals that do not fit the side to move, a zero budget, a foreign job. */
static void test_bad_input(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    JobTree *t = NULL;
    Board op = pos("I7"), four = pos("h8 i9 i7 i8");
    JtConfig cfg = {.goal = JT_GOAL_COUNT, .rules = RULE_RENJU, .job_nodes = 1000};
    assert_int_equal(jt_create(&t, &op, &cfg, &src), RJ_EBADARG);
    cfg.goal = JT_GOAL_FAIR_N;
    assert_int_equal(jt_create(&t, &four, &cfg, &src), RJ_EBADARG);
    cfg.goal = JT_GOAL_WIN;
    cfg.job_nodes = 0;
    assert_int_equal(jt_create(&t, &four, &cfg, &src), RJ_EBADARG);
    cfg.job_nodes = 10;
    assert_int_equal(jt_create(&t, &four, &cfg, &src), 0);
    JtJob job = {.node = 12345};
    JtOutcome o = {0};
    assert_int_equal(jt_done(t, &job, &o), RJ_EBADARG);
    job.node = 0; /* not running */
    assert_int_equal(jt_done(t, &job, &o), RJ_EBADARG);
    jt_free(t);
}

/*
 * A leaf that two expanded parents reach before its first job starts from the least of
 * their estimates.  With white's pass first (borrow_pass), R = h8 i9 i7 i8 reaches
 * C = R g9 pass j10 (white to move) through P1 = R g9 pass and P2 = R j10 pass.  Both of
 * R's moves are cheap; every white reply is proven at once, so each pass position is left
 * alone under its move.  P1 is expanded first (the g9 class comes first) and rates C at 500
 * with k11 dearer still, so its job goes to k11 and P1 stays dear; then P2 is expanded and
 * rates C at 5: C's first job must see pn 5, the least (the greatest, 500, would not).
 */
static void test_transposed_leaf_least(void **state)
{
    (void)state;
    static Mem m;
    memset(&m, 0, sizeof m);
    JtSource src = mem_source(&m);
    Board root = pos("h8 i9 i7 i8");
    JtConfig cfg = {.goal = JT_GOAL_WIN,
                    .rules = RULE_RENJU,
                    .job_nodes = 1000,
                    .borrow_pass = true,
                    .fail_weight = 100,
                    .unlisted_pn = 100000};
    JobTree *t;
    assert_int_equal(jt_create(&t, &root, &cfg, &src), 0);
    Script s = {.est_mv = {pt("g9"), pt("j10")},
                .est_pn = {5, 5},
                .nest = 2,
                .fail_pn = 1000,
                .prove_replies = true,
                .pest_mv = {pt("j10"), pt("k11"), pt("g9")},
                .pest_pn = {500, 200, 5},
                .npest = 3};
    Board p1 = pos("h8 i9 i7 i8 g9 pass"), p2 = pos("h8 i9 i7 i8 j10 pass"), c = pos("h8 i9 i7 i8 g9 pass j10");
    SymKey kc;
    sym_canonical(&c, RULE_RENJU, &kc, NULL);
    int k = 0;
    for (;; k++) {
        assert_true(k < 2000);
        JtJob job;
        assert_int_equal(jt_next(t, &job), 0);
        SymKey kj;
        sym_canonical(&job.board, RULE_RENJU, &kj, NULL);
        if (!memcmp(kj.b, kc.b, SYMKEY_LEN))
            break;
        JtOutcome o;
        run_job(&s, &job, &o);
        assert_int_equal(jt_done(t, &job, &o), 0);
    }
    JtNodeInfo a, b, x;
    assert_int_equal(jt_node_info(t, &p1, &a), 0);
    assert_int_equal(jt_node_info(t, &p2, &b), 0);
    assert_int_equal(jt_node_info(t, &c, &x), 0);
    printf("C's first job after %d jobs: P1 %u/%u, P2 %u/%u, C %u/%u\n", k, a.pn, a.dn, b.pn, b.dn, x.pn, x.dn);
    assert_true(a.expanded && b.expanded); /* both parents rated C */
    assert_int_equal(x.jobs, 0);
    assert_int_equal(x.pn, 5);
    assert_int_equal(x.dn, 10);
    jt_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_best_move_first_and_or_proof),
        cmocka_unit_test(test_estimates_order_expansion),
        cmocka_unit_test(test_count_bounds),
        cmocka_unit_test(test_and_node_proof_moves),
        cmocka_unit_test(test_and_node_disproof),
        cmocka_unit_test(test_or_node_disproof),
        cmocka_unit_test(test_root_after_pass),
        cmocka_unit_test(test_fair_n_closed),
        cmocka_unit_test(test_symmetric_classes),
        cmocka_unit_test(test_fair_n_first_jobs),
        cmocka_unit_test(test_expand_below),
        cmocka_unit_test(test_resume_same_sequence),
        cmocka_unit_test(test_fail_weight),
        cmocka_unit_test(test_unlisted_pn),
        cmocka_unit_test(test_rerun),
        cmocka_unit_test(test_root_rerun),
        cmocka_unit_test(test_rerun_in_job),
        cmocka_unit_test(test_borrow_pass),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_probe_black),
        cmocka_unit_test(test_view_white_root),
        cmocka_unit_test(test_sim_siblings),
        cmocka_unit_test(test_repair_leaf),
        cmocka_unit_test(test_borrow_repair_root),
        cmocka_unit_test(test_borrow_repair_members),
        cmocka_unit_test(test_repair_donor_families),
        cmocka_unit_test(test_pass_root),
        cmocka_unit_test(test_sim_after_probe),
        cmocka_unit_test(test_sim_after_probe_expand),
        cmocka_unit_test(test_fair_n_balance),
        cmocka_unit_test(test_fair_n_balance_resume),
        cmocka_unit_test(test_random_dag),
        cmocka_unit_test(test_random_dag_reload),
        cmocka_unit_test(test_transposed_leaf_least),
        cmocka_unit_test(test_line),
        cmocka_unit_test(test_line_frames),
        cmocka_unit_test(test_and_pn_dn),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
