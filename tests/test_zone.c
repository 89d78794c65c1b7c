/*
 * test_zone.c - the relevance zone of a threat proof (solver/zone.h) against
 * the proof checker: on random positions with the defender to move and a VCT
 * for the attacker after a defender pass, the same proof tree must be a
 * proof after every legal defender move outside the zone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "dfpn.h"
#include "error.h"
#include "notation.h"
#include "position.h"
#include "proof_extract.h"
#include "threat_util.h"
#include "vct.h"
#include "zone.h"

typedef struct {
    int positions, zones, gave_up, outside, inside, failures;
} ZoneStats;

/* One position, defender to move on b: the zone of the VCT after a pass, checked move by move. */
static void check_position(VctCtx *ctx, Board *b, RuleSet rs, uint64_t budget, ZoneStats *zs)
{
    Color def = b->to_move, att = color_other(def);
    Point buf[BOARD_POINTS];
    if (rules_five_points(b, att, rs, buf) || rules_five_points(b, def, rs, buf) || board_last_move(b) == POINT_PASS)
        return;
    board_play(b, POINT_PASS);
    ThreatOpts o = {.max_nodes = budget};
    VctResult vr;
    assert_int_equal(vct_search(ctx, b, att, rs, &o, &vr), 0);
    if (vr.result != RESULT_PROVEN) {
        board_undo(b);
        return;
    }
    zs->positions++;
    ProofWriter w = {0};
    pw_header(&w, rs, att);
    assert_int_equal(vct_write_proof(ctx, b, &w), 0);
    uint64_t zone[4];
    Key k = b->key;
    bool ok = zone_of_proof(b, att, rs, w.data + PROOF_HEADER_LEN, w.len - PROOF_HEADER_LEN, zone);
    assert_int_equal(b->key, k);
    board_undo(b);
    if (!ok) {
        zs->gave_up++;
        free(w.data);
        return;
    }
    zs->zones++;
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (!rules_is_legal(b, (Point)p, rs))
            continue;
        if (zone_has(zone, (Point)p)) {
            zs->inside++;
            continue;
        }
        zs->outside++;
        board_play(b, (Point)p);
        char why[256];
        if (proof_check(b, w.data, w.len, NULL, why, sizeof why)) {
            if (zs->failures++ < 5) {
                char txt[2048], pt[8];
                print_message("zone miss at %s (%s attacks): %s: %s\n", notation_point_str((Point)p, pt),
                              att == BLACK ? "black" : "white", why, position_str(b, txt, sizeof txt));
            }
        }
        board_undo(b);
    }
    free(w.data);
}

static void run(uint64_t seed, int iters, int min_stones, int span, int box, ZoneStats *zs)
{
    VctCtx *ctx = vct_new(18, 1u << 18);
    assert_non_null(ctx);
    uint64_t s = seed;
    Board b;
    for (int it = 0; it < iters; it++) {
        RuleSet rs = it % 5 == 4 ? RULE_FREESTYLE : RULE_RENJU;
        tu_random_position(&b, &s, rs, min_stones + (int)(tu_rng(&s) % (uint64_t)span), box);
        check_position(ctx, &b, rs, 5000, zs);
    }
    vct_free(ctx);
}

static void report(const char *what, const ZoneStats *zs)
{
    print_message("%s: %d VCT wins after a pass, %d zones (%d gave up); defender moves: %d outside (checked), "
                  "%d inside; %d not confirmed\n",
                  what, zs->positions, zs->zones, zs->gave_up, zs->outside, zs->inside, zs->failures);
}

/* Opening-like positions: few stones near the centre. */
static void test_zone_openings(void **state)
{
    (void)state;
    ZoneStats zs = {0};
    run(0x2a0e, 400, 5, 10, 7, &zs);
    report("zone, 5-14 stones", &zs);
    assert_true(zs.zones >= 30);
    assert_true(zs.outside > zs.inside); /* the zone prunes most replies */
    assert_int_equal(zs.failures, 0);
}

/* Middle-game positions. */
static void test_zone_random(void **state)
{
    (void)state;
    ZoneStats zs = {0};
    run(0x51de, 200, 12, 30, 11, &zs);
    report("zone, 12-41 stones", &zs);
    assert_true(zs.zones >= 30);
    assert_int_equal(zs.failures, 0);
}

/*
 * Zone pruning inside df-pn (DfpnConfig.vct_prune_zone) on random positions
 * with the defender to move and a VCT after a pass: every solve that prunes
 * stays proven, and its extracted proof (the pruned replies proven again)
 * passes proof_check.
 */
static void test_zone_dfpn(void **state)
{
    (void)state;
    VctCtx *ctx = vct_new(18, 1u << 18);
    assert_non_null(ctx);
    uint64_t s = 0x70e5;
    Board b;
    int solved = 0, pruning = 0;
    uint64_t pruned = 0;
    for (int it = 0; it < 3000 && pruning < 4; it++) {
        tu_random_position(&b, &s, RULE_RENJU, 6 + (int)(tu_rng(&s) % 12), 9);
        Color def = b.to_move, att = color_other(def);
        Point buf[BOARD_POINTS];
        if (rules_five_points(&b, att, RULE_RENJU, buf) || rules_five_points(&b, def, RULE_RENJU, buf))
            continue;
        board_play(&b, POINT_PASS);
        ThreatOpts o = {.max_nodes = 2000};
        VctResult vr;
        assert_int_equal(vct_search(ctx, &b, att, RULE_RENJU, &o, &vr), 0);
        board_undo(&b);
        if (vr.result != RESULT_PROVEN)
            continue;
        DfpnConfig cfg;
        dfpn_config_default(&cfg);
        cfg.attacker = att;
        cfg.tt_mb = 16;
        cfg.max_nodes = 150000;
        cfg.vct_prune_budget = 2000;
        cfg.vct_prune_zone = true;
        Dfpn *d;
        DfpnResult r;
        assert_int_equal(dfpn_create(&d, &cfg), 0);
        assert_int_equal(dfpn_solve(d, &b, &r), 0);
        if (r.result == RESULT_PROVEN) {
            solved++;
            pruning += r.vct_pruned > 0;
            pruned += r.vct_pruned;
            ProofWriter w = {0};
            ExtractStats es;
            int rc = proof_extract(d, &b, att, 0, 0, &w, &es);
            if (rc)
                fail_msg("proof_extract: %s", rj_strerror(rc));
            char why[512] = "";
            if (proof_check(&b, w.data, w.len, NULL, why, sizeof why)) {
                char txt[2048];
                fail_msg("proof rejected by proof_check: %s: %s", why, position_str(&b, txt, sizeof txt));
            }
            free(w.data);
        }
        dfpn_free(d);
    }
    vct_free(ctx);
    print_message("zone in df-pn: %d proven, %d of them pruned %llu replies; every proof checked\n", solved, pruning,
                  (unsigned long long)pruned);
    assert_true(pruning >= 4);
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zone_openings),
        cmocka_unit_test(test_zone_random),
        cmocka_unit_test(test_zone_dfpn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
