/*
 * test_vct.c - VCT: golden positions, consistency with VCF, and every proof
 * found on random positions walked with the rules module only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "error.h"
#include "notation.h"
#include "position.h"
#include "threat_util.h"
#include "vct.h"

static VctCtx *ctx;
static VcfCtx *vcf;
static VctResult res;
static VcfResult vres;
static int checked; /* proofs accepted by proof_check */

static void walk(Board *b, Color att, RuleSet rs)
{
    ProofWriter w = {0};
    Key k = b->key;
    pw_header(&w, rs, att);
    assert_int_equal(vct_write_proof(ctx, b, &w), 0);
    assert_int_equal(w.err, 0);
    /* The independent checker of proof/checker.c, then our own rules-only walk. */
    char why2[256];
    ProofStats st;
    if (proof_check(b, w.data, w.len, &st, why2, sizeof why2)) {
        char txt[2048];
        fail_msg("proof_check: %s for %s: %s", why2, att == BLACK ? "black" : "white",
                 position_str(b, txt, sizeof txt));
    }
    checked++;
    memmove(w.data, w.data + PROOF_HEADER_LEN, w.len - PROOF_HEADER_LEN);
    w.len -= PROOF_HEADER_LEN;
    const char *why = tu_walk_proof(b, att, rs, w.data, w.len);
    assert_int_equal(b->key, k);
    if (why) {
        char txt[2048];
        fail_msg("VCT proof walk: %s (%zu bytes) for %s: %s", why, w.len, att == BLACK ? "black" : "white",
                 position_str(b, txt, sizeof txt));
    }
    free(w.data);
}

static void test_golden(void **state)
{
    (void)state;
    TuGolden g[64];
    int n = tu_read_golden("vct", g, 64);
    assert_true(n >= 4);
    for (int i = 0; i < n; i++) {
        Board b;
        char err[256];
        if (position_parse(g[i].pos, g[i].rs, g[i].to_move, &b, err, sizeof err))
            fail_msg("golden line %d: %s", g[i].line_no, err);
        ThreatOpts o = {.max_nodes = 200000};
        assert_int_equal(vct_search(ctx, &b, g[i].att, g[i].rs, &o, &res), 0);
        if (res.result == RESULT_UNKNOWN || (res.result == RESULT_PROVEN) != g[i].win)
            fail_msg("golden line %d: result %d", g[i].line_no, res.result);
        if (g[i].win)
            walk(&b, g[i].att, g[i].rs);
    }
}

/*
 * Random positions: a VCF win is never a VCT "none"; every VCT win comes with
 * a proof that walks; the principal line replays legally.
 */
static void test_random(void **state)
{
    (void)state;
    uint64_t s = 0x7c7;
    Board b;
    int wins = 0, nones = 0, unknown = 0, walked = 0, beyond_vcf = 0;
    for (int it = 0; it < 400; it++) {
        RuleSet rs = it % 4 == 3 ? RULE_FREESTYLE : RULE_RENJU;
        tu_random_position(&b, &s, rs, 12 + (int)(tu_rng(&s) % 40), 9 + (int)(tu_rng(&s) % 2) * 2);
        Color att = tu_rng(&s) % 6 ? b.to_move : color_other(b.to_move);
        ThreatOpts o = {.max_nodes = 3000};
        assert_int_equal(vcf_search(vcf, &b, att, rs, NULL, &vres), 0);
        if (vres.result == RESULT_PROVEN && it % 4) {
            it--; /* mostly look at positions without a VCF; keep the count */
            continue;
        }
        assert_int_equal(vct_search(ctx, &b, att, rs, &o, &res), 0);
        if (vres.result == RESULT_PROVEN)
            assert_int_not_equal(res.result, RESULT_DISPROVEN);
        if (res.result == RESULT_PROVEN) {
            wins++;
            beyond_vcf += vres.result != RESULT_PROVEN;
            if (walked < 150) {
                walk(&b, att, rs);
                walked++;
            }
            /* The principal line: legal moves, the last one wins for the attacker. */
            int k = 0;
            for (; k < res.len; k++) {
                Point m = res.line[k];
                assert_true(m == POINT_PASS || rules_is_legal(&b, m, rs));
                board_play(&b, m);
            }
            assert_true(res.len > 0);
            assert_int_equal(rules_last_move_wins(&b, rs), att);
            while (k--)
                board_undo(&b);
        } else {
            nones += res.result == RESULT_DISPROVEN;
            unknown += res.result == RESULT_UNKNOWN;
        }
    }
    print_message("vct random: %d wins (%d without a VCF), %d none, %d unknown; %d proofs walked\n", wins, beyond_vcf,
                  nones, unknown, walked);
    assert_true(beyond_vcf >= 10);
    assert_true(checked >= 50);
    assert_true(walked >= 50);
}

/*
 * The wide order against brute force: on random positions with the defender
 * to move and a threat on the board, vct_wide_defences() must return exactly
 * the legal defender moves after which a depth-limited VCF (order + 1
 * attacker moves, searched exhaustively by a fresh VCF context) fails.
 */
static void test_wide_defences(void **state)
{
    (void)state;
    uint64_t s = 0x31d3;
    Board b;
    VcfCtx *fresh = vcf_new(16);
    assert_non_null(fresh);
    int positions = 0, moves = 0, refutations = 0, pruned = 0;
    for (int it = 0; it < 3000 && positions < 120; it++) {
        RuleSet rs = it % 4 == 3 ? RULE_FREESTYLE : RULE_RENJU;
        int order = 2 + (int)(tu_rng(&s) % 2);
        tu_random_position(&b, &s, rs, 12 + (int)(tu_rng(&s) % 30), 9 + (int)(tu_rng(&s) % 2) * 2);
        Color def = b.to_move, att = color_other(def);
        Point buf[BOARD_POINTS], out[BOARD_POINTS];
        if (rules_five_points(&b, att, rs, buf) || rules_five_points(&b, def, rs, buf))
            continue;
        int n = vct_wide_defences(ctx, &b, rs, order, out);
        assert_true(n >= -1);
        if (n < 0)
            continue;
        positions++;
        bool in[BOARD_POINTS];
        memset(in, 0, sizeof in);
        for (int i = 0; i < n; i++) {
            assert_true(out[i] < BOARD_POINTS && !in[out[i]]);
            in[out[i]] = true;
        }
        ThreatOpts o = {.max_depth = order + 1};
        for (int p = 0; p < BOARD_POINTS; p++) {
            if (!rules_is_legal(&b, (Point)p, rs)) {
                assert_false(in[p]);
                continue;
            }
            board_play(&b, (Point)p);
            assert_int_equal(vcf_search(fresh, &b, att, rs, &o, &vres), 0);
            board_undo(&b);
            assert_int_not_equal(vres.result, RESULT_UNKNOWN);
            bool refutes = vres.result != RESULT_PROVEN;
            if (refutes != in[p]) {
                char txt[2048], pt[8];
                fail_msg("wide defences (order %d) wrong at %s (%s): %s", order, notation_point_str((Point)p, pt),
                         refutes ? "missing" : "not a refutation", position_str(&b, txt, sizeof txt));
            }
            moves++;
            refutations += refutes;
            pruned += !refutes;
        }
    }
    vcf_free(fresh);
    print_message("wide defences: %d positions, %d moves: %d refutations, %d confirmed lost\n", positions, moves,
                  refutations, pruned);
    assert_true(positions >= 100);
    assert_true(refutations > 0 && pruned > refutations);
}

/*
 * The wide orders on random positions: every win comes with a proof the
 * checker accepts (the covered defender replies included, each with its
 * short VCF); a strict win is never a wide "none" (the wide threat space
 * holds the strict one); some wins are beyond the strict order.
 */
static void test_wide_random(void **state)
{
    (void)state;
    uint64_t s = 0x9a7e;
    Board b;
    int wins = 0, beyond = 0, nones = 0, unknown = 0;
    int before = checked;
    for (int it = 0; it < 300; it++) {
        RuleSet rs = it % 4 == 3 ? RULE_FREESTYLE : RULE_RENJU;
        tu_random_position(&b, &s, rs, 12 + (int)(tu_rng(&s) % 40), 9 + (int)(tu_rng(&s) % 2) * 2);
        Color att = tu_rng(&s) % 6 ? b.to_move : color_other(b.to_move);
        int order = 2 + it % 2;
        assert_int_equal(vcf_search(vcf, &b, att, rs, NULL, &vres), 0);
        if (vres.result == RESULT_PROVEN) {
            it--;
            continue;
        }
        ThreatOpts strict = {.max_nodes = 3000}, wide = {.max_nodes = 100000, .order = order};
        assert_int_equal(vct_search(ctx, &b, att, rs, &strict, &res), 0);
        Result rstrict = res.result;
        assert_int_equal(vct_search(ctx, &b, att, rs, &wide, &res), 0);
        if (rstrict == RESULT_PROVEN)
            assert_int_not_equal(res.result, RESULT_DISPROVEN);
        if (res.result == RESULT_PROVEN) {
            wins++;
            beyond += rstrict != RESULT_PROVEN;
            walk(&b, att, rs);
            int k = 0;
            for (; k < res.len; k++) {
                Point m = res.line[k];
                assert_true(m == POINT_PASS || rules_is_legal(&b, m, rs));
                board_play(&b, m);
            }
            assert_true(res.len > 0);
            assert_int_equal(rules_last_move_wins(&b, rs), att);
            while (k--)
                board_undo(&b);
        } else {
            nones += res.result == RESULT_DISPROVEN;
            unknown += res.result == RESULT_UNKNOWN;
        }
    }
    print_message("vct wide random: %d wins (%d beyond the strict order), %d none, %d unknown; %d proofs checked\n",
                  wins, beyond, nones, unknown, checked - before);
    assert_true(beyond >= 4);
    assert_true(checked - before == wins);
}

static void test_limits(void **state)
{
    (void)state;
    Board b;
    char err[256];
    assert_int_equal(position_parse("B:a1,a3,o15,o13 W:h8,i8,j9,j10", RULE_RENJU, WHITE, &b, err, sizeof err), 0);
    atomic_bool stop = true;
    ThreatOpts o = {.stop = &stop};
    assert_int_equal(vct_search(ctx, &b, WHITE, RULE_RENJU, &o, &res), 0);
    assert_int_equal(res.result, RESULT_UNKNOWN);
    ProofWriter w = {0};
    assert_int_equal(vct_write_proof(ctx, &b, &w), RJ_ENOTFOUND);
    assert_int_equal(vct_search(ctx, &b, EMPTY, RULE_RENJU, NULL, &res), RJ_EBADARG);
    free(w.data);
    /* A tiny tree runs out: unknown, never a wrong answer. */
    VctCtx *small = vct_new(12, 16);
    assert_non_null(small);
    Board c;
    assert_int_equal(position_parse("h8 h9 j10 i9 g7 j8 k7", RULE_RENJU, EMPTY, &c, err, sizeof err), 0);
    assert_int_equal(vct_search(small, &c, WHITE, RULE_RENJU, NULL, &res), 0);
    assert_int_equal(res.result, RESULT_UNKNOWN);
    vct_free(small);
}

static int setup(void **state)
{
    (void)state;
    ctx = vct_new(16, 1u << 18);
    vcf = vcf_new(16);
    return ctx && vcf ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    vct_free(ctx);
    vcf_free(vcf);
    return 0;
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),      cmocka_unit_test(test_random), cmocka_unit_test(test_wide_defences),
        cmocka_unit_test(test_wide_random), cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
