/* test_dfpn.c - the df-pn solver: known wins (agreeing with the threat search
 * and with exhaustive minimax), exact disproofs, candidate-only refutations,
 * determinism; every proof is checked by the independent proof_check(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "dfpn.h"
#include "error.h"
#include "nodegen.h"
#include "notation.h"
#include "position.h"
#include "proof.h"
#include "proof_extract.h"
#include "rules.h"
#include "sym.h"
#include "test_util.h"
#include "vcf.h"

typedef struct {
    DfpnResult r;
    uint64_t proof_nodes;
    uint32_t proof_depth;
    uint64_t tt_buckets; /* the TT's size after the solve */
    uint64_t researched; /* gaps the proof's extraction filled by searching */
} Solved;

/* Solve b; when proven, extract the proof and check it independently. */
static Solved solve_cfg(const Board *b, const DfpnConfig *cfg)
{
    Dfpn *s;
    Solved out;
    memset(&out, 0, sizeof out);
    assert_int_equal(dfpn_create(&s, cfg), 0);
    assert_int_equal(dfpn_solve(s, b, &out.r), 0);
    out.tt_buckets = dfpn_tt(s)->nbuckets;
    if (out.r.result == RESULT_PROVEN) {
        ProofWriter w = { 0 };
        ExtractStats es;
        int rc = proof_extract(s, b, out.r.attacker, 0, 0, &w, &es);
        if (rc)
            fail_msg("proof_extract: %s", rj_strerror(rc));
        char why[512] = "";
        ProofStats st;
        rc = proof_check(b, w.data, w.len, &st, why, sizeof why);
        if (rc)
            fail_msg("proof rejected by proof_check: %s", why);
        assert_int_equal(st.nodes, es.nodes);
        out.proof_nodes = st.nodes;
        out.proof_depth = st.depth;
        out.researched = es.researched;
        free(w.data);
    }
    dfpn_free(s);
    return out;
}

/* Black attacking, tt_mb MiB, at most nodes of work, the other settings default. */
static DfpnConfig black_cfg(size_t tt_mb, uint64_t nodes)
{
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.attacker = BLACK;
    cfg.tt_mb = tt_mb;
    cfg.max_nodes = nodes;
    return cfg;
}

static Solved solve(const char *pos, Color to_move, Color attacker, uint64_t nodes)
{
    Board b = parse_pos(pos, to_move);
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.attacker = attacker;
    cfg.max_nodes = nodes;
    cfg.tt_mb = 16;
    return solve_cfg(&b, &cfg);
}

/* Wins the threat search also finds (VCF / short VCT shapes). */
static void test_known_wins(void **state)
{
    (void)state;
    static const struct {
        const char *pos;
        Color to_move;
    } cases[] = {
        { "h8 h9 i8 i9 j8 j9", EMPTY },                                     /* open three: straight four */
        { "B:h8,i8,j8,k8 W:a1,d1,g1,j1", EMPTY },                           /* five at once */
        { "B:c5,d5,e5,h10,h11,h12,f9,g9 W:b5,h13,a1,d1,g1,j1,m1,o4", EMPTY }, /* four, then four-three */
        { "B:b12,e10,f11,g10,g11 W:c12,d12,e12,o1", WHITE },                /* black's block is forbidden */
        { "B:a1,a15,o1 W:h8,i9,h10,i7", WHITE },                            /* white threes */
        { "B:a1,a15,o1,o15 W:h8,i9,j8", WHITE },                            /* white VCT, several levels */
    };
    for (int vct = 0; vct <= 2; vct++) /* without the leaf VCT, with the strict one, with the wide one (order 2) */
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            Board b = parse_pos(cases[i].pos, cases[i].to_move);
            DfpnConfig cfg;
            dfpn_config_default(&cfg);
            cfg.max_nodes = 20000;
            cfg.tt_mb = 16;
            cfg.vct_budget = vct ? 1000 : 0;
            cfg.vct_order = vct == 2 ? 2 : 0;
            Solved s = solve_cfg(&b, &cfg);
            if (s.r.result != RESULT_PROVEN)
                fail_msg("case %zu (%s) not proven (leaf VCT %d)", i, cases[i].pos, vct);
            assert_true(s.proof_nodes >= 1);
            /* The last case is a strict VCT: with that leaf VCT the root is proven by it at once. */
            if (vct == 1 && i == sizeof cases / sizeof cases[0] - 1)
                assert_int_equal(s.r.dfpn_nodes, 1);
        }
    /* A threat order the VCT does not know is refused. */
    DfpnConfig bad;
    dfpn_config_default(&bad);
    bad.vct_order = 5;
    Dfpn *d = NULL;
    assert_int_equal(dfpn_create(&d, &bad), RJ_EBADARG);
    assert_null(d);
}

/* Every proof of a VCF position agrees with the threat module's VCF. */
static void test_agrees_with_vcf(void **state)
{
    (void)state;
    static const char *cases[] = {
        "B:c5,d5,e5,h10,h11,h12,f9,g9 W:b5,h13,a1,d1,g1,j1,m1,o4",
        "B:h8,i8,j8,b12,c12,d12 W:g8,a1,a3,a5,o1,o3", /* e12: open four */
        "B:h8,i8,j8,c3,d4,e5 W:g8,a1,a3,a5,o1,o3",    /* no VCF: g7 would be an overline */
        "B:f5,g6,h7,f8,f9,f10 W:e4,f11,a1,a3,a5,o1",
    };
    VcfCtx *v = vcf_new(16);
    assert_non_null(v);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Board b = parse_pos(cases[i], EMPTY);
        ThreatOpts o;
        memset(&o, 0, sizeof o);
        VcfResult vr;
        assert_int_equal(vcf_search(v, &b, b.to_move, RULE_RENJU, &o, &vr), 0);
        Solved s = solve(cases[i], EMPTY, EMPTY, 3000);
        if (vr.result == RESULT_PROVEN && s.r.result != RESULT_PROVEN)
            fail_msg("case %zu: VCF wins but df-pn did not prove it", i);
        if (i == 1)
            assert_int_equal(vr.result, RESULT_PROVEN);
        if (i == 2)
            assert_int_not_equal(vr.result, RESULT_PROVEN);
    }
    vcf_free(v);
}

/* Exact disproofs: the defender wins first whatever the attacker does. */
static void test_exact_disproofs(void **state)
{
    (void)state;
    /* Black has an open four; white to move has no five: white cannot win. */
    Solved s = solve("B:h8,i8,j8,k8 W:a1,a3,a5", EMPTY, EMPTY, 10000);
    assert_int_equal(s.r.result, RESULT_DISPROVEN);
    /* White must block l8 (forced), then black wins by VCF (e12: open four). */
    s = solve("B:h8,i8,j8,k8,b12,c12,d12 W:g8,a1,a3,a5,o1,o3", EMPTY, EMPTY, 10000);
    assert_int_equal(s.r.result, RESULT_DISPROVEN);
    /* White as attacker while black is to move and has a four-three. */
    s = solve("B:c5,d5,e5,h10,h11,h12,f9,g9 W:b5,h13,a1,d1,g1,j1,m1,o4", EMPTY, WHITE, 10000);
    assert_int_equal(s.r.result, RESULT_DISPROVEN);
}

/*
 * A board where nobody can make five: filled in the pattern "black where
 * (col + 2 row) mod 4 < 2", so no row, column or diagonal holds three stones
 * of a colour, except six isolated empty points (no stone placed there joins
 * runs longer than two).  110 black and 109 white stones: white to move.
 */
static Board drawn_board(void)
{
    static const char *const empty[] = { "h8", "l4", "d12", "b2", "n14", "j6" };
    bool skip[BOARD_POINTS] = { false };
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        Point p;
        int used;
        assert_int_equal(notation_parse_point(empty[i], &p, &used), 0);
        skip[p] = true;
    }
    Board b;
    board_init(&b);
    for (int p = 0; p < BOARD_POINTS; p++)
        if (!skip[p])
            board_setup_stone(&b, (Point)p, (point_col((Point)p) + 2 * point_row((Point)p)) % 4 < 2 ? BLACK : WHITE);
    board_set_to_move(&b, WHITE);
    return b;
}

/* A refutation of the candidate moves only is never reported as a disproof. */
static void test_candidates_only(void **state)
{
    (void)state;
    /* Nobody can win: every candidate is refuted, yet only candidates were searched. */
    Board b = drawn_board();
    DfpnConfig cfg = black_cfg(16, 100000);
    cfg.attacker = WHITE;
    Solved s = solve_cfg(&b, &cfg);
    assert_int_equal(s.r.result, RESULT_UNKNOWN);
    assert_true(s.r.candidates_refuted);
    assert_false(s.r.stopped);
    /* A sparse position in a small budget: the budget ends it, unknown, not refuted. */
    s = solve("h8 h9", EMPTY, EMPTY, 3000);
    assert_int_equal(s.r.result, RESULT_UNKNOWN);
    assert_true(s.r.stopped);
    assert_false(s.r.candidates_refuted);
}

/*
 * Exhaustive minimax over every legal move (pass included): does the
 * attacker (to move) win within three plies?
 */
static bool wins_in3(Board *b, RuleSet rs)
{
    Color a = b->to_move, d = color_other(a);
    Point pts[BOARD_POINTS];
    if (rules_five_points(b, a, rs, pts) > 0)
        return true;
    for (int m = 0; m <= BOARD_POINTS; m++) {
        Point mv = m == BOARD_POINTS ? POINT_PASS : (Point)m;
        if (!rules_is_legal(b, mv, rs))
            continue;
        board_play(b, mv);
        bool all = rules_five_points(b, d, rs, pts) == 0 && !board_two_passes(b);
        for (int r = 0; r <= BOARD_POINTS && all; r++) {
            Point rv = r == BOARD_POINTS ? POINT_PASS : (Point)r;
            if (!rules_is_legal(b, rv, rs))
                continue;
            board_play(b, rv);
            all = !board_two_passes(b) && rules_five_points(b, a, rs, pts) > 0;
            board_undo(b);
        }
        board_undo(b);
        if (all)
            return true;
    }
    return false;
}

/* Random crowded positions: a win in three plies found by minimax is proven; proofs check. */
static void test_minimax_agreement(void **state)
{
    (void)state;
    uint64_t seed = 0x5eed;
    int agreed = 0, wins = 0;
    for (int t = 0; t < 30; t++) {
        Board b;
        board_init(&b);
        int stones = 14 + t % 10;
        for (int k = 0; k < stones; k++) {
            for (;;) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                int c = 3 + (int)((seed >> 33) % 9), r = 3 + (int)((seed >> 45) % 9);
                Point p = point_make(c, r);
                Color winner;
                if (board_at(&b, p) != EMPTY || !rules_is_legal(&b, p, RULE_RENJU))
                    continue;
                board_play(&b, p);
                if (rules_game_over(&b, RULE_RENJU, &winner)) {
                    board_undo(&b);
                    continue;
                }
                break;
            }
        }
        Point pts[BOARD_POINTS];
        if (rules_five_points(&b, color_other(b.to_move), RULE_RENJU, pts) > 1)
            continue; /* lost at once: not interesting */
        bool w3 = wins_in3(&b, RULE_RENJU);
        DfpnConfig cfg;
        dfpn_config_default(&cfg);
        cfg.max_nodes = 3000;
        cfg.tt_mb = 8;
        Solved s = solve_cfg(&b, &cfg);
        if (w3) {
            wins++;
            if (s.r.result != RESULT_PROVEN)
                fail_msg("position %d: minimax wins in 3 plies, df-pn says %d", t, s.r.result);
        }
        if (s.r.result == RESULT_DISPROVEN && w3)
            fail_msg("position %d: disproven but minimax wins", t);
        agreed++;
    }
    assert_true(agreed >= 20);
    assert_true(wins >= 3);
}

/* One thread is deterministic; two threads agree on the result. */
static void test_determinism_and_threads(void **state)
{
    (void)state;
    const char *pos = "B:a1,a15,o1,o15 W:h8,i9,j8";
    Solved a = solve(pos, WHITE, EMPTY, 20000), b = solve(pos, WHITE, EMPTY, 20000);
    assert_int_equal(a.r.result, RESULT_PROVEN);
    assert_int_equal(a.r.nodes, b.r.nodes);
    assert_int_equal(a.proof_nodes, b.proof_nodes);
    Board bd = parse_pos(pos, WHITE);
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.threads = 2;
    cfg.tt_mb = 16;
    cfg.max_nodes = 40000;
    Solved p = solve_cfg(&bd, &cfg);
    assert_int_equal(p.r.result, RESULT_PROVEN);
    /* A real opening position with 2 threads: proven, and the proof passes the checker (solve_cfg). */
    Board op = parse_pos("h8 h9 i9 e5 k9 e11", EMPTY);
    cfg.attacker = BLACK;
    cfg.tt_mb = 32;
    cfg.max_nodes = 5000000;
    Solved q = solve_cfg(&op, &cfg);
    assert_int_equal(q.r.result, RESULT_PROVEN);
    assert_true(q.proof_nodes >= 10);
}

/*
 * A solver keeps its threads' memory (child-list cache, leaf VCF tables)
 * between solves, but each solve starts as if it were new: after other
 * solves and dfpn_clear, a 1-thread solve repeats a fresh solver's work
 * exactly; a 2-thread solver solves one position after another and each
 * proof passes the checker.
 */
static void test_solver_reuse(void **state)
{
    (void)state;
    Board a, b;
    a = parse_pos("h8 i9 i7 i8 g7 f8", EMPTY);
    b = parse_pos("h8 h9 i9 e5 k9 e11", EMPTY);
    DfpnConfig cfg = black_cfg(32, 5000000);
    Solved fresh = solve_cfg(&a, &cfg);
    assert_int_equal(fresh.r.result, RESULT_PROVEN);
    Dfpn *s;
    assert_int_equal(dfpn_create(&s, &cfg), 0);
    DfpnResult r;
    for (int round = 0; round < 2; round++) {
        assert_int_equal(dfpn_solve(s, &b, &r), 0);
        assert_int_equal(r.result, RESULT_PROVEN);
        dfpn_clear(s);
        assert_int_equal(dfpn_solve(s, &a, &r), 0);
        assert_int_equal(r.result, RESULT_PROVEN);
        assert_int_equal(r.nodes, fresh.r.nodes);
        assert_int_equal(r.dfpn_nodes, fresh.r.dfpn_nodes);
        dfpn_clear(s);
    }
    dfpn_free(s);
    cfg.threads = 2;
    assert_int_equal(dfpn_create(&s, &cfg), 0);
    const Board *seq[] = { &a, &b, &a };
    for (int i = 0; i < 3; i++) {
        dfpn_clear(s);
        assert_int_equal(dfpn_solve(s, seq[i], &r), 0);
        assert_int_equal(r.result, RESULT_PROVEN);
        ProofWriter w = { 0 };
        ExtractStats es;
        assert_int_equal(proof_extract(s, seq[i], BLACK, 0, 0, &w, &es), 0);
        char why[512] = "";
        ProofStats st;
        if (proof_check(seq[i], w.data, w.len, &st, why, sizeof why))
            fail_msg("proof %d rejected by proof_check: %s", i, why);
        free(w.data);
    }
    dfpn_free(s);
}

/* A ProofSource that knows one position (by its TT key for black) and answers with the proof given. */
typedef struct {
    Key key;
    const uint8_t *proof;
    size_t len;
    int asked; /* answers given */
} OneProof;

static int one_proof_get(void *ctx, const Board *b, Color attacker, uint8_t **proof, size_t *len)
{
    OneProof *o = ctx;
    if (attacker != BLACK || dfpn_tt_key(b, BLACK) != o->key)
        return RJ_ENOTFOUND;
    *proof = malloc(o->len);
    assert_non_null(*proof);
    memcpy(*proof, o->proof, o->len);
    *len = o->len;
    o->asked++;
    return 0;
}

/* Solve b (black to move) after preloading k; extract with src; return the proof's checker verdict. */
static int warm_solve(const Board *b, const DfpnConfig *cfg, const DfpnKnown *k, size_t n, OneProof *src_ctx,
                      DfpnResult *r, ExtractStats *es, ProofStats *ps)
{
    Dfpn *s;
    assert_int_equal(dfpn_create(&s, cfg), 0);
    assert_int_equal(dfpn_preload(s, k, n), 0);
    assert_int_equal(dfpn_solve(s, b, r), 0);
    assert_int_equal(r->result, RESULT_PROVEN);
    ProofSource src = {src_ctx, one_proof_get};
    ProofWriter w = {0};
    assert_int_equal(proof_extract_from(s, b, BLACK, 0, 0, &src, &w, es), 0);
    char why[512] = "";
    int rc = proof_check(b, w.data, w.len, ps, why, sizeof why);
    free(w.data);
    dfpn_free(s);
    return rc;
}

/*
 * Warm start (dfpn_preload, proof_extract_from): a position preloaded as
 * proven is taken as solved where the search meets it, and its proof comes
 * from the ProofSource; the whole proof passes the checker, with 1 and 2
 * threads, for less work than a cold solve.  A wrong preload (a move that
 * does not win, given another position's proof) yields a proof the checker
 * refuses: the caller's check, not the preload, decides.
 */
static void test_warm_start(void **state)
{
    (void)state;
    Board p = parse_pos("h8 i9 i7 i8 g7 f8", EMPTY);
    DfpnConfig cfg = black_cfg(32, 5000000);
    Dfpn *s;
    assert_int_equal(dfpn_create(&s, &cfg), 0);
    DfpnResult cold;
    assert_int_equal(dfpn_solve(s, &p, &cold), 0);
    assert_int_equal(cold.result, RESULT_PROVEN);
    dfpn_free(s);
    /* The child after black's winning move, solved on its own, and its checked proof. */
    Board c = p;
    board_play(&c, cold.best);
    assert_int_equal(dfpn_create(&s, &cfg), 0);
    DfpnResult cr;
    assert_int_equal(dfpn_solve(s, &c, &cr), 0);
    assert_int_equal(cr.result, RESULT_PROVEN);
    ProofWriter cw = {0};
    ExtractStats ces;
    assert_int_equal(proof_extract(s, &c, BLACK, 0, 0, &cw, &ces), 0);
    dfpn_free(s);
    ProofStats cps;
    assert_int_equal(proof_check(&c, cw.data, cw.len, &cps, NULL, 0), 0);

    DfpnKnown k = {dfpn_tt_key(&c, BLACK), RESULT_PROVEN};
    for (int threads = 1; threads <= 2; threads++) {
        cfg.threads = threads;
        OneProof op = {k.key, cw.data, cw.len, 0};
        DfpnResult r;
        ExtractStats es;
        ProofStats ps;
        assert_int_equal(warm_solve(&p, &cfg, &k, 1, &op, &r, &es, &ps), 0);
        assert_true(r.nodes < cold.nodes);
        assert_int_equal(es.spliced, 1);
        assert_int_equal(op.asked, 1);
        assert_int_equal(ps.nodes, es.nodes);
        assert_int_equal(ps.nodes, cps.nodes + 1); /* the root's A-node and the child's tree */
    }
    cfg.threads = 1;

    /*
     * Another move next to the stones preloaded as a win, with a "proof"
     * that frames (a D-node listing no white move: every reply a short
     * loss) but is false: the search proves the root through it at once,
     * extraction takes it, and the checker refuses the whole.
     */
    Board d = p;
    Point other = POINT_NONE;
    for (int i = 0; i < 9 && other == POINT_NONE; i++) {
        Point q = (Point)(p.hist[0] + (i / 3 - 1) * BOARD_SIZE + (i % 3 - 1));
        if (q != cold.best && board_at(&d, q) == EMPTY && rules_is_legal(&d, q, RULE_RENJU))
            other = q;
    }
    assert_int_not_equal(other, POINT_NONE);
    board_play(&d, other);
    ProofWriter fw = {0};
    pw_header(&fw, RULE_RENJU, BLACK);
    pw_u16(&fw, 0);
    DfpnKnown bad = {dfpn_tt_key(&d, BLACK), RESULT_PROVEN};
    OneProof op = {bad.key, fw.data, fw.len, 0};
    DfpnResult r;
    ExtractStats es;
    ProofStats ps;
    assert_int_not_equal(warm_solve(&p, &cfg, &bad, 1, &op, &r, &es, &ps), 0);
    assert_int_equal(r.best, other);
    assert_int_equal(es.spliced, 1);
    free(fw.data);

    DfpnKnown odd = {1, RESULT_UNKNOWN};
    assert_int_equal(dfpn_create(&s, &cfg), 0);
    assert_int_equal(dfpn_preload(s, &odd, 1), RJ_EBADARG);
    dfpn_free(s);
    free(cw.data);
}

/*
 * The TT grows while the search runs: the proofs still pass the checker, a
 * 1-thread search stays deterministic across growths, and several threads
 * grow it as well.
 */
static void test_tt_growth(void **state)
{
    (void)state;
    Board b = parse_pos("h8 i9 i7 i8 g7 f11", EMPTY);
    DfpnConfig cfg = black_cfg(64, 20000000);
    Solved one = solve_cfg(&b, &cfg), again = solve_cfg(&b, &cfg);
    assert_int_equal(one.r.result, RESULT_PROVEN);
    assert_true(one.tt_buckets >= 2 * (TT_START_BYTES / TT_BUCKET_BYTES));
    assert_int_equal(one.r.nodes, again.r.nodes);
    assert_int_equal(one.proof_nodes, again.proof_nodes);
    /*
     * Two threads: the work is not deterministic and has a heavy tail
     * (results/solver-bench.md: some runs take 10x the usual work); 2-thread
     * solves here took 0.57-1.13 M work in 6 runs, so the 20 M budget leaves
     * room for that tail and anything short of a proof is a failure (solve_cfg
     * checks the proof).
     */
    cfg.threads = 2;
    Solved two = solve_cfg(&b, &cfg);
    assert_int_equal(two.r.result, RESULT_PROVEN);
    /* Two threads grow the table too (park() in dfpn.c), never past the cap. */
    assert_true(two.tt_buckets >= 2 * (TT_START_BYTES / TT_BUCKET_BYTES));
    assert_true(two.tt_buckets <= ((uint64_t)64 << 20) / TT_BUCKET_BYTES);
    /*
     * Fewer threads than asked for (here: a nested parallel region, where
     * OpenMP starts one): the table still grows and the solve ends (it used
     * to wait forever for the missing thread).
     */
    Solved nested;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        nested = solve_cfg(&b, &cfg);
    }
    assert_int_equal(nested.r.result, RESULT_PROVEN);
    assert_true(nested.tt_buckets >= 2 * (TT_START_BYTES / TT_BUCKET_BYTES));
    /* A small solve stays in a small table with two threads as with one. */
    b = parse_pos("h8 h9 i9 e5 k9 e11", EMPTY);
    cfg.tt_mb = 256;
    Solved small = solve_cfg(&b, &cfg);
    assert_int_equal(small.r.result, RESULT_PROVEN);
    assert_true(small.tt_buckets <= ((uint64_t)16 << 20) / TT_BUCKET_BYTES);
}

/*
 * A TT at its cap keeps the solved entries it evicts in the solved store
 * and then ranks its entries by work alone.  Before, f11 with a 2 MiB TT
 * filled the table with solved entries and ran 20 M work without a result
 * (1 MiB proved it by luck); 4 MiB and up prove it in ~773k.  Each proof
 * here is extracted from both tables and checked.
 */
static void test_solved_store(void **state)
{
    (void)state;
    Board b = parse_pos("h8 i9 i7 i8 g7 f11", EMPTY);
    for (size_t mb = 1; mb <= 3; mb++) {
        DfpnConfig cfg = black_cfg(mb, 3000000);
        Solved one = solve_cfg(&b, &cfg);
        if (one.r.result != RESULT_PROVEN)
            fail_msg("--tt-mb %zu: not proven in %llu work", mb, (unsigned long long)one.r.nodes);
        assert_true(one.tt_buckets == ((uint64_t)mb << 20) / TT_BUCKET_BYTES || mb == 3); /* at its cap (3: 2 MiB) */
        /* Two threads race (not deterministic): 2-thread solves at 1-3 MiB took 0.62-1.11 M work in
         * 18 runs, so 20 M leaves room for the heavy tail and anything short of a proof fails. */
        cfg.threads = 2;
        cfg.max_nodes = 20000000;
        print_message("solved store: --tt-mb %zu, 2 threads\n", mb);
        Solved two = solve_cfg(&b, &cfg);
        assert_int_equal(two.r.result, RESULT_PROVEN);
    }    /* Cleared, the solver ranks its TT as a fresh one's again (the store is kept for the next cap). */
    DfpnConfig cfg = black_cfg(4, 3000000);
    Dfpn *s;
    DfpnResult r;
    assert_int_equal(dfpn_create(&s, &cfg), 0);
    assert_false(dfpn_tt(s)->solved_elsewhere);
    assert_int_equal(dfpn_solve(s, &b, &r), 0);
    assert_int_equal(r.result, RESULT_PROVEN);
    assert_int_equal(dfpn_tt(s)->nbuckets, dfpn_tt(s)->max_buckets);
    assert_true(dfpn_tt(s)->solved_elsewhere);
    dfpn_clear(s);
    assert_true(dfpn_tt(s)->nbuckets < dfpn_tt(s)->max_buckets);
    assert_false(dfpn_tt(s)->solved_elsewhere);
    dfpn_free(s);
}

/*
 * The parallel search races thread 0's 1-thread search against other
 * tie-breaks: thread 0 is steered by the others only through the root's
 * solved children, so it does about what one thread alone does (thread 0 of
 * the old shared-numbers scheme took up to 20x on e11); where thread 1's ordering is far cheaper (k7: about 30k nodes
 * against 956k) it wins, and its proof is extracted from its own entries.
 */
static void test_portfolio(void **state)
{
    (void)state;
    /* The last is a defender root: the threads split its defences (shared root children). */
    const char *lines[] = { "h8 h9 i9 e5 k9 e11", "h8 i9 i7 i8 g7 f8", "h8 i9 i7 i8 g7 k7", "h8 i9 i7 i8 g7 f8 h7" };
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.attacker = BLACK;
    cfg.tt_mb = 64;
    /*
     * Without the effort term: with it, thread 0 alone proves k7 in 51,799
     * nodes (955,775 without), and the race below needs a position where
     * thread 1's tie-break is far ahead.
     */
    cfg.effort_shift = -1;
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
        Board b = parse_pos(lines[k], EMPTY);
        cfg.threads = 1;
        Solved one = solve_cfg(&b, &cfg);
        assert_int_equal(one.r.result, RESULT_PROVEN);
        cfg.threads = 2;
        int thread1_wins = 0;
        for (int run = 0; run < 3; run++) {
            Solved two = solve_cfg(&b, &cfg);
            assert_int_equal(two.r.result, RESULT_PROVEN);
            /*
             * Thread 0 stops at the 1-thread count or earlier (a leaf search
             * may overrun the stop a little, and thread 1's stores share the
             * table's slots).
             */
            if (two.r.thread0_nodes > one.r.nodes + one.r.nodes / 8 + 4000)
                fail_msg("%s: thread 0 did %llu nodes, one thread alone %llu", lines[k],
                         (unsigned long long)two.r.thread0_nodes, (unsigned long long)one.r.nodes);
            if (k == 2 && two.r.thread0_nodes * 4 < one.r.nodes) { /* thread 1 won: its entries hold the proof */
                thread1_wins++;
                assert_int_equal(two.researched, 0);
            }
        }
        /*
         * On k7 thread 1 needs ~3% of thread 0's work, so it wins unless it
         * is starved of its CPU (the race runs on the clock): one win in
         * three runs is asked for.
         */
        if (k == 2 && thread1_wins == 0)
            fail_msg("%s: thread 1 never won the race", lines[k]);
    }
}

/*
 * ng_order's tie-break by a transform t (the parallel search's threads) is the
 * order of the transformed board: ordering b with tie order t and mapping the
 * moves by t gives the order of t(b) with the point order, at attacker and
 * defender nodes.  Tie orders 8 and up (threads beyond the 8 transforms) are
 * permutations, the same for the same t, and differ from each other and from
 * the transforms.
 */
static void test_tie_transform(void **state)
{
    (void)state;
    const char *lines[] = { "h8 i9 i7 i8 g7", "h8 i9 i7 i8 g7 f11", "h8 h9 i9 e5 k9" };
    NodeRules nr = { .rules = RULE_RENJU }; /* node rules alone (no leaf search): candidate moves */
    static Children c0, c1;
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
        Board b = parse_pos(lines[k], EMPTY);
        for (int t = 1; t < NUM_SYMS; t++) {
            Board tb;
            board_init(&tb);
            for (int i = b.base_ply; i < b.ply; i++)
                board_play(&tb, sym_apply(t, b.hist[i]));
            ng_generate(&nr, &b, BLACK, &c0, false, NULL);
            ng_generate(&nr, &tb, BLACK, &c1, false, NULL);
            if (c0.n < 3)
                fail_msg("%s: %d children", lines[k], c0.n);
            assert_int_equal(c0.n, c1.n);
            TieOrder tie;
            ng_tie_order(t, &tie);
            ng_order(&b, BLACK, dfpn_tt_key(&b, BLACK), &c0, &tie);
            ng_order(&tb, BLACK, dfpn_tt_key(&tb, BLACK), &c1, NULL);
            for (int i = 0; i < c0.n; i++)
                if (sym_apply(t, c0.mv[i]) != c1.mv[i])
                    fail_msg("%s, transform %d: child %d is %d, transformed %d", lines[k], t, i, c0.mv[i], c1.mv[i]);
            /* The identity's order differs: the tie really changes the search. */
            ng_generate(&nr, &b, BLACK, &c1, false, NULL);
            ng_order(&b, BLACK, dfpn_tt_key(&b, BLACK), &c1, NULL);
            bool same = true;
            for (int i = 0; i < c0.n; i++)
                same &= c0.mv[i] == c1.mv[i];
            assert_false(same);
        }
    }
}

/*
 * Quiet attacker moves deep in the search (NodeRules.quiet_free): the same
 * node's quiet candidates start at 8 within quiet_free attacker moves of the
 * search's first attacker node and at quiet_deep_pn beyond; the threats keep
 * their numbers, and the candidate list is the same.
 */
static void test_quiet_deep_pn(void **state)
{
    (void)state;
    Board b = parse_pos("h8 h9 i9 h10 j10 k11", EMPTY); /* black to move */
    int st = board_stone_count(&b);
    static Children near, deep, off;
    NodeRules nr = {.rules = RULE_RENJU, .quiet_free = 2, .quiet_deep_pn = 64, .first_or_stones = st - 2};
    ng_generate(&nr, &b, BLACK, &near, false, NULL); /* the 2nd attacker move from the first: quiet 8 */
    nr.first_or_stones = st - 4;                     /* the 3rd: beyond quiet_free */
    ng_generate(&nr, &b, BLACK, &deep, false, NULL);
    nr.quiet_free = 0; /* off */
    ng_generate(&nr, &b, BLACK, &off, false, NULL);
    assert_int_equal(near.n, deep.n);
    assert_int_equal(near.n, off.n);
    int quiet = 0, threats = 0;
    for (int i = 0; i < near.n; i++) {
        assert_int_equal(near.mv[i], deep.mv[i]);
        assert_int_equal(near.init_pn[i], off.init_pn[i]);
        if (near.init_pn[i] == 8) {
            assert_int_equal(deep.init_pn[i], 64);
            quiet++;
        } else {
            assert_true(near.init_pn[i] < 8);
            assert_int_equal(deep.init_pn[i], near.init_pn[i]);
            threats++;
        }
    }
    assert_true(quiet > 10);
    assert_true(threats > 0);
}

static void test_tie_shuffles(void **state)
{
    (void)state;
    static TieOrder o[24];
    for (int t = 0; t < 24; t++) {
        ng_tie_order(t, &o[t]);
        bool seen[BOARD_POINTS] = { false };
        for (int p = 0; p < BOARD_POINTS; p++) {
            assert_true(o[t].rank[p] < BOARD_POINTS);
            assert_false(seen[o[t].rank[p]]);
            seen[o[t].rank[p]] = true;
            if (t < NUM_SYMS)
                assert_int_equal(o[t].rank[p], sym_apply(t, (Point)p));
        }
        for (int u = 0; u < t; u++)
            assert_memory_not_equal(o[t].rank, o[u].rank, BOARD_POINTS);
    }
    TieOrder again;
    ng_tie_order(17, &again);
    assert_memory_equal(again.rank, o[17].rank, BOARD_POINTS);
}

/* dfpn_set_config keeps the TT for the same rules and size and refuses anything else. */
static void test_set_config(void **state)
{
    (void)state;
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.tt_mb = 8;
    Dfpn *s;
    assert_int_equal(dfpn_create(&s, &cfg), 0);
    Board b = parse_pos("h8 h9 i8 i9 j8 j9", EMPTY);
    DfpnResult r1, r2;
    assert_int_equal(dfpn_solve(s, &b, &r1), 0);
    assert_int_equal(r1.result, RESULT_PROVEN);
    DfpnConfig c2 = cfg;
    c2.max_nodes = 1000;
    c2.attacker = BLACK;
    assert_int_equal(dfpn_set_config(s, &c2), 0);
    assert_int_equal(dfpn_solve(s, &b, &r2), 0); /* the TT still holds the proof */
    assert_int_equal(r2.result, RESULT_PROVEN);
    assert_true(r2.nodes <= r1.nodes);
    c2.rules = RULE_FREESTYLE;
    assert_int_equal(dfpn_set_config(s, &c2), RJ_EBADARG);
    c2.rules = cfg.rules;
    c2.tt_mb = 16;
    assert_int_equal(dfpn_set_config(s, &c2), RJ_EBADARG);
    c2.tt_mb = cfg.tt_mb;
    c2.full_width = true;
    assert_int_equal(dfpn_set_config(s, &c2), RJ_EBADARG);
    dfpn_free(s);
}

/* The external stop flag ends the search with a partial result. */
/*
 * Simulation (DfpnConfig.sim_budget, on by default; dfpn_sim.c): at wide
 * defender nodes it proves defences by replaying a sibling's proof; the solve
 * stays proven and its proof passes proof_check (solve_cfg), with it and
 * without it.  (Determinism with it on: test_determinism_and_threads.)
 */
static void test_simulation(void **state)
{
    (void)state;
    Board b = parse_pos("h8 h9 i9 i11 j8 i8 j10", WHITE);
    DfpnConfig cfg = black_cfg(16, 10000000);
    assert_int_equal(cfg.sim_budget, DFPN_SIM_BUDGET);
    Solved with = solve_cfg(&b, &cfg);
    cfg.sim_budget = 0;
    Solved plain = solve_cfg(&b, &cfg);
    assert_int_equal(with.r.result, RESULT_PROVEN);
    assert_int_equal(plain.r.result, RESULT_PROVEN);
    assert_true(with.r.sim_proven > 0);
    assert_int_equal(plain.r.sim_proven, 0);
}

/*
 * VCT pruning (DfpnConfig.vct_prune_budget, off by default): on an opening
 * position where it proves defences by VCT, the solve stays proven and the
 * proof, whose pruned defences extraction proves again by VCT, passes
 * proof_check (solve_cfg); the pruning count is deterministic.  (Zone
 * mode: tests/test_zone.c.)
 */
static void test_vct_pruning(void **state)
{
    (void)state;
    Board b = parse_pos("h8 h9 i9 i11 j8 i8 j10", WHITE);
    DfpnConfig cfg = black_cfg(64, 10000000);
    Solved plain = solve_cfg(&b, &cfg);
    assert_int_equal(plain.r.result, RESULT_PROVEN);
    assert_int_equal(plain.r.vct_pruned, 0);
    cfg.vct_prune_budget = 2000;
    Solved a = solve_cfg(&b, &cfg), again = solve_cfg(&b, &cfg);
    assert_int_equal(a.r.result, RESULT_PROVEN);
    assert_true(a.r.vct_pruned > 0);
    assert_int_equal(a.r.vct_pruned, again.r.vct_pruned);
    assert_int_equal(a.r.nodes, again.r.nodes);
}

/*
 * Effort in the proof number (DfpnConfig.effort_shift, on by default): a
 * heuristic, so with it and without it the solve is proven and its proof
 * passes proof_check (solve_cfg); 0 means the default shift; the term is
 * live (the search differs without it: d4-h10.11 of results/opening-ladder.txt,
 * 157,600 work nodes with it and 583,550 without in session 42).
 */
static void test_effort_in_pn(void **state)
{
    (void)state;
    Board b = parse_pos("h8 h9 i9 h10 j10 k11 i7 i8 j6 k5 g7", EMPTY);
    DfpnConfig cfg = black_cfg(64, 5000000);
    assert_int_equal(cfg.effort_shift, 0);
    Solved dflt = solve_cfg(&b, &cfg);
    cfg.effort_shift = DFPN_EFFORT_SHIFT;
    Solved named = solve_cfg(&b, &cfg);
    cfg.effort_shift = -1;
    Solved off = solve_cfg(&b, &cfg);
    cfg.effort_shift = 8;
    Solved fine = solve_cfg(&b, &cfg);
    assert_int_equal(dflt.r.result, RESULT_PROVEN);
    assert_int_equal(off.r.result, RESULT_PROVEN);
    assert_int_equal(fine.r.result, RESULT_PROVEN);
    assert_int_equal(dflt.r.nodes, named.r.nodes);
    assert_int_equal(dflt.proof_nodes, named.proof_nodes);
    assert_int_not_equal(dflt.r.nodes, off.r.nodes);
    assert_int_not_equal(dflt.r.nodes, fine.r.nodes);
}

static void test_stop_flag(void **state)
{
    (void)state;
    Board b = parse_pos("h8 h9", EMPTY);
    atomic_bool stop = true;
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.stop = &stop;
    cfg.tt_mb = 4;
    Solved s = solve_cfg(&b, &cfg);
    assert_int_equal(s.r.result, RESULT_UNKNOWN);
    assert_true(s.r.interrupted);
    assert_true(s.r.nodes < 100000);
}

int main(void)
{
    rules_init();
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_wins),
        cmocka_unit_test(test_agrees_with_vcf),
        cmocka_unit_test(test_exact_disproofs),
        cmocka_unit_test(test_candidates_only),
        cmocka_unit_test(test_minimax_agreement),
        cmocka_unit_test(test_determinism_and_threads),
        cmocka_unit_test(test_solver_reuse),
        cmocka_unit_test(test_warm_start),
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_simulation),
        cmocka_unit_test(test_effort_in_pn),
        cmocka_unit_test(test_vct_pruning),
        cmocka_unit_test(test_tt_growth),
        cmocka_unit_test(test_solved_store),
        cmocka_unit_test(test_set_config),
        cmocka_unit_test(test_tie_transform),
        cmocka_unit_test(test_tie_shuffles),
        cmocka_unit_test(test_quiet_deep_pn),
        cmocka_unit_test(test_portfolio),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
