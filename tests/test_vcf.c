/*
 * test_vcf.c - VCF: golden endings, agreement with a brute-force search on
 * random tactical positions (results and fewest moves), line replay and
 * proof walks with the rules module only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "error.h"
#include "position.h"
#include "threat_util.h"
#include "vcf.h"

static VcfCtx *ctx;
static VcfResult res; /* large: keep off the stack */

/* ---- the brute-force checker: plain exhaustive search over fours, rules.h only ---- */

static long bf_nodes, bf_cap;

static int bf_def(Board *b, Color att, RuleSet rs, int d);

/* Attacker to move: 1 when it wins within d attacker moves, 0 when not, -1 over the node cap. */
static int bf_att(Board *b, Color att, RuleSet rs, int d)
{
    Point buf[BOARD_POINTS];
    if (++bf_nodes > bf_cap)
        return -1;
    if (d <= 0)
        return 0;
    if (rules_five_points(b, att, rs, buf) > 0)
        return 1;
    if (d == 1)
        return 0;
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (board_at(b, (Point)p) != EMPTY || rules_four_points_after(b, (Point)p, att, rs, buf) == 0 ||
            !rules_is_legal(b, (Point)p, rs))
            continue;
        board_play(b, (Point)p);
        int r = bf_def(b, att, rs, d - 1);
        board_undo(b);
        if (r)
            return r;
    }
    return 0;
}

/* Defender to move (after an attacker four, or at the root): 1 when the attacker wins. */
static int bf_def(Board *b, Color att, RuleSet rs, int d)
{
    Point q[BOARD_POINTS];
    if (rules_five_points(b, color_other(att), rs, q) > 0)
        return 0; /* the defender makes five first */
    int n = rules_five_points(b, att, rs, q);
    if (n == 0)
        return 0; /* no four: the defender is free */
    /* Any move but a block lets the attacker make five; try every legal block. */
    for (int i = 0; i < n; i++) {
        if (!rules_is_legal(b, q[i], rs))
            continue;
        board_play(b, q[i]);
        int r = bf_att(b, att, rs, d);
        board_undo(b);
        if (r <= 0)
            return r;
    }
    return 1;
}

/* Fewest attacker moves to win within dmax (0: none), or -1 over the cap. */
static int bf_min(Board *b, Color att, RuleSet rs, int dmax)
{
    for (int d = 1; d <= dmax; d++) {
        int r = b->to_move == att ? bf_att(b, att, rs, d) : bf_def(b, att, rs, d);
        if (r)
            return r < 0 ? -1 : d;
    }
    return 0;
}

/* ---- helpers ---- */

static void check_line(Board *b, Color att, RuleSet rs, const VcfResult *r)
{
    const char *why = tu_replay_vcf(b, att, rs, r->line, r->len);
    if (why)
        fail_msg("line does not replay: %s", why);
}

static void check_proof(Board *b, Color att, RuleSet rs, const VcfResult *r)
{
    ProofWriter w = {0};
    pw_header(&w, rs, att);
    assert_int_equal(vcf_line_to_proof(b, att, rs, r, &w), 0);
    /* The independent checker of proof/checker.c. */
    char why2[256];
    ProofStats st;
    if (proof_check(b, w.data, w.len, &st, why2, sizeof why2))
        fail_msg("proof_check: %s", why2);
    memmove(w.data, w.data + PROOF_HEADER_LEN, w.len - PROOF_HEADER_LEN);
    w.len -= PROOF_HEADER_LEN;
    Key k = b->key;
    const char *why = tu_walk_proof(b, att, rs, w.data, w.len);
    assert_int_equal(b->key, k);
    if (why)
        fail_msg("proof walk: %s", why);
    free(w.data);
}

/* ---- tests ---- */

static void test_golden(void **state)
{
    (void)state;
    TuGolden g[64];
    int n = tu_read_golden("vcf", g, 64);
    assert_true(n >= 15);
    for (int i = 0; i < n; i++) {
        Board b;
        char err[256];
        if (position_parse(g[i].pos, g[i].rs, g[i].to_move, &b, err, sizeof err))
            fail_msg("golden line %d: %s", g[i].line_no, err);
        if (b.to_move != g[i].to_move)
            fail_msg("golden line %d: side to move", g[i].line_no);
        ThreatOpts o = {.shortest = true};
        assert_int_equal(vcf_search(ctx, &b, g[i].att, g[i].rs, &o, &res), 0);
        if ((res.result == RESULT_PROVEN) != g[i].win || res.result == RESULT_UNKNOWN)
            fail_msg("golden line %d: result %d", g[i].line_no, res.result);
        int bf;
        bf_nodes = 0, bf_cap = 2000000;
        bf = bf_min(&b, g[i].att, g[i].rs, 4);
        if (bf != (g[i].win ? g[i].len : 0))
            fail_msg("golden line %d: brute force %d", g[i].line_no, bf);
        if (g[i].win) {
            if (res.attacker_moves != g[i].len)
                fail_msg("golden line %d: %d moves, expected %d", g[i].line_no, res.attacker_moves, g[i].len);
            check_line(&b, g[i].att, g[i].rs, &res);
            check_proof(&b, g[i].att, g[i].rs, &res);
        }
    }
}

/*
 * Random tactical positions: VCF (shortest, depth limit D) agrees with the
 * brute force on the result and the fewest moves; every line replays.
 */
static void test_brute_force(void **state)
{
    (void)state;
    static const RuleSet rsets[3] = {RULE_RENJU, RULE_FREESTYLE, RULE_STANDARD};
    enum { D = 5 };
    uint64_t s = 0xbf0c4e;
    Board b;
    int agree = 0, wins = 0, skipped = 0, proofs = 0, by_len[D + 1] = {0};
    for (int it = 0; it < 6000; it++) {
        RuleSet rs = rsets[it % 5 == 4 ? 1 + (it / 5) % 2 : 0];
        tu_random_position(&b, &s, rs, 20 + (int)(tu_rng(&s) % 50), 9 + (int)(tu_rng(&s) % 3) * 2);
        Color att = tu_rng(&s) % 5 ? b.to_move : color_other(b.to_move);
        Point tmp[BOARD_POINTS];
        if (att == b.to_move && rules_five_points(&b, att, rs, tmp) > 0 && it % 10) {
            it--; /* mostly skip trivial fives: keep the count of positions */
            continue;
        }
        bf_nodes = 0, bf_cap = 200000;
        int bf = bf_min(&b, att, rs, D);
        if (bf < 0) {
            skipped++;
            continue;
        }
        ThreatOpts o = {.shortest = true, .max_depth = D};
        assert_int_equal(vcf_search(ctx, &b, att, rs, &o, &res), 0);
        assert_int_not_equal(res.result, RESULT_UNKNOWN);
        if ((res.result == RESULT_PROVEN ? res.attacker_moves : 0) != bf) {
            char txt[2048];
            fail_msg("brute force %d, vcf %d (%s) for %s, rules %d: %s", bf, res.attacker_moves,
                     res.result == RESULT_PROVEN ? "win" : "none", att == BLACK ? "black" : "white", rs,
                     position_str(&b, txt, sizeof txt));
        }
        agree++;
        by_len[bf]++;
        /* Unlimited VCF: a win within D stays a win; none stays none or is a longer win. */
        assert_int_equal(vcf_search(ctx, &b, att, rs, NULL, &res), 0);
        if (bf)
            assert_int_equal(res.result, RESULT_PROVEN);
        if (res.result == RESULT_PROVEN) {
            assert_true(bf == 0 ? res.attacker_moves > D : res.attacker_moves >= bf);
            wins++;
            check_line(&b, att, rs, &res);
            if (proofs < 150) {
                check_proof(&b, att, rs, &res);
                proofs++;
            }
        }
    }
    print_message("brute force agreement: %d positions (%d skipped over the cap); wins by length 1..%d:", agree,
                  skipped, D);
    for (int i = 1; i <= D; i++)
        print_message(" %d", by_len[i]);
    print_message("; %d unlimited wins replayed, %d proofs walked\n", wins, proofs);
    assert_true(agree >= 5000);
    for (int i = 1; i <= D; i++)
        assert_true(by_len[i] >= 10);
}

/*
 * Carrying a threat line over to the defender's moves (vcf_line_holds and the
 * distant-move shortcut of vcf_line_zone), as the df-pn defender nodes do:
 * on random positions where the attacker would win by VCF after a defender
 * pass, every defender move the line still beats is confirmed a win by the
 * brute force (rules.h only), and every move the shortcut calls irrelevant is
 * one the full replay agrees the line beats.
 */
static void test_line_carry(void **state)
{
    (void)state;
    uint64_t s = 0x11ca77;
    Board b;
    int positions = 0, held = 0, confirmed = 0, shortcut = 0, failed = 0, tries = 0;
    while (positions < 150 && tries++ < 20000) {
        RuleSet rs = tries % 5 == 4 ? RULE_FREESTYLE : RULE_RENJU;
        tu_random_position(&b, &s, rs, 20 + (int)(tu_rng(&s) % 40), 9 + (int)(tu_rng(&s) % 3) * 2);
        Color def = b.to_move, att = color_other(def);
        Point tmp[BOARD_POINTS];
        if (rules_five_points(&b, att, rs, tmp) > 0 || rules_five_points(&b, def, rs, tmp) > 0)
            continue;
        board_play(&b, POINT_PASS);
        ThreatOpts o = {.max_depth = 6};
        assert_int_equal(vcf_search(ctx, &b, att, rs, &o, &res), 0);
        uint64_t zone[4];
        bool far_ok = res.result == RESULT_PROVEN && vcf_line_zone(&b, att, rs, res.line, res.len, zone);
        board_undo(&b);
        if (res.result != RESULT_PROVEN)
            continue;
        positions++;
        VcfResult line = res;
        for (int p = 0; p < BOARD_POINTS; p++) {
            if (board_at(&b, (Point)p) != EMPTY || !rules_is_legal(&b, (Point)p, rs))
                continue;
            board_play(&b, (Point)p);
            bool holds = vcf_line_holds(&b, att, rs, (Point)p, line.line, line.len);
            board_undo(&b);
            Point fd[8];
            bool outside =
                far_ok && !(zone[p >> 6] >> (p & 63) & 1) && rules_four_points_after(&b, (Point)p, def, rs, fd) == 0;
            if (outside) {
                shortcut++;
                if (!holds) {
                    char txt[2048];
                    fail_msg("shortcut wrong for move %d: %s", p, position_str(&b, txt, sizeof txt));
                }
            }
            if (!holds) {
                failed++;
                continue;
            }
            held++;
            if (held % 7 == 0) { /* the brute force is slow: confirm a sample */
                board_play(&b, (Point)p);
                bf_nodes = 0, bf_cap = 400000;
                int bf = bf_att(&b, att, rs, line.attacker_moves + 1);
                board_undo(&b);
                if (bf == 0) {
                    char txt[2048];
                    fail_msg("line said win after move %d, brute force says none: %s", p,
                             position_str(&b, txt, sizeof txt));
                }
                confirmed += bf == 1;
            }
        }
    }
    print_message("line carry: %d positions, %d moves still beaten (%d confirmed by brute force, %d by the "
                  "distant-move shortcut), %d moves that break the line\n",
                  positions, held, confirmed, shortcut, failed);
    assert_true(positions >= 100);
    assert_true(confirmed >= 100 && shortcut >= 1000 && failed >= 100);
}

/* Budgets: a node limit gives unknown, never a wrong answer; a stop flag stops. */
static void test_limits(void **state)
{
    (void)state;
    Board b;
    char err[256];
    assert_int_equal(position_parse("B:h8,i8,j8,k9,k10 W:g8,a1,a3,o15,o13", RULE_RENJU, BLACK, &b, err, sizeof err), 0);
    vcf_clear(ctx);
    ThreatOpts o = {.max_nodes = 1};
    assert_int_equal(vcf_search(ctx, &b, BLACK, RULE_RENJU, &o, &res), 0);
    assert_int_equal(res.result, RESULT_UNKNOWN);
    atomic_bool stop = true;
    ThreatOpts o2 = {.stop = &stop};
    assert_int_equal(vcf_search(ctx, &b, BLACK, RULE_RENJU, &o2, &res), 0);
    assert_int_equal(res.result, RESULT_UNKNOWN);
    assert_int_equal(vcf_search(ctx, &b, EMPTY, RULE_RENJU, NULL, &res), RJ_EBADARG);
    Key k = b.key;
    assert_int_equal(vcf_search(ctx, &b, BLACK, RULE_RENJU, NULL, &res), 0);
    assert_int_equal(res.result, RESULT_PROVEN);
    assert_int_equal(b.key, k);
    assert_true(board_check(&b));
    ProofWriter w = {0};
    assert_int_equal(vcf_write_proof(ctx, &b, BLACK, RULE_RENJU, NULL, &w, NULL), 0);
    assert_true(w.len >= 4);
    assert_null(tu_walk_proof(&b, BLACK, RULE_RENJU, w.data, w.len));
    free(w.data);
    ProofWriter w2 = {0};
    assert_int_equal(vcf_write_proof(ctx, &b, WHITE, RULE_RENJU, NULL, &w2, NULL), RJ_ENOTFOUND);
    free(w2.data);
}

static int setup(void **state)
{
    (void)state;
    ctx = vcf_new(18);
    return ctx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    vcf_free(ctx);
    return 0;
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_brute_force),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_line_carry),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
