/*
 * test_repair.c - proof repair (solver/repair.h) against the proof checker:
 * on random positions whose df-pn proof is known, the proof mended for the
 * same position with one more defender stone must pass proof_check whenever
 * proof_repair says it is done; nodes it keeps, drops, adds and proves afresh
 * are all exercised (counted, and asserted to happen).
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
#include "repair.h"
#include "threat_util.h"

typedef struct {
    Dfpn *dfpn;
    int calls, proven;
} TestProver;

/* A df-pn solve of b (the attacker to move), its proof's A-node appended. */
static int dfpn_prover(void *ctx, Board *b, int depth, ProofWriter *w)
{
    TestProver *p = ctx;
    p->calls++;
    assert_true(depth >= 0 && depth <= b->ply);
    assert_int_equal(b->to_move, dfpn_config(p->dfpn)->attacker);
    Key k = b->key;
    DfpnResult res;
    assert_int_equal(dfpn_solve(p->dfpn, b, &res), 0);
    if (res.result != RESULT_PROVEN)
        return RJ_ENOTFOUND;
    ProofWriter pw = {0};
    ExtractStats es;
    int rc = proof_extract(p->dfpn, b, b->to_move, 0, 0, &pw, &es);
    assert_int_equal(b->key, k);
    if (rc == 0)
        rc = pw_bytes(w, pw.data + PROOF_HEADER_LEN, pw.len - PROOF_HEADER_LEN);
    free(pw.data);
    if (rc == 0)
        p->proven++;
    return rc ? RJ_ENOTFOUND : 0;
}

static int never_prover(void *ctx, Board *b, int depth, ProofWriter *w)
{
    (void)b, (void)depth, (void)w;
    ((TestProver *)ctx)->calls++;
    return RJ_ENOTFOUND;
}

static Dfpn *new_solver(Color att, RuleSet rs, uint64_t nodes)
{
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.attacker = att;
    cfg.rules = rs;
    cfg.max_nodes = nodes;
    cfg.tt_mb = 16;
    Dfpn *s = NULL;
    assert_int_equal(dfpn_create(&s, &cfg), 0);
    return s;
}

/* The proof (header included) of b for the side to move, or NULL when not proven within the budget. */
static uint8_t *solve_proof(Board *b, RuleSet rs, size_t *len)
{
    Dfpn *s = new_solver(b->to_move, rs, 20000);
    DfpnResult res;
    assert_int_equal(dfpn_solve(s, b, &res), 0);
    uint8_t *out = NULL;
    if (res.result == RESULT_PROVEN) {
        ProofWriter w = {0};
        ExtractStats es;
        if (proof_extract(s, b, b->to_move, 0, 0, &w, &es) == 0 && proof_check(b, w.data, w.len, NULL, NULL, 0) == 0) {
            out = w.data;
            *len = w.len;
        } else {
            free(w.data);
        }
    }
    dfpn_free(s);
    return out;
}

typedef struct {
    int sources, repaired, unchanged, with_failures, not_repaired, bad;
    uint64_t kept, dropped, added, wide, escalated, failures;
} RepStats;

/*
 * Random positions with a proof for the side to move; each gets a defender
 * stone on a random empty point (a point that makes no defender five), and
 * the source proof is mended for it.
 */
static void run(uint64_t seed, int iters, int min_stones, int span, RepStats *rs_out)
{
    uint64_t s = seed;
    for (int it = 0; it < iters; it++) {
        RuleSet rs = it % 4 == 3 ? RULE_FREESTYLE : RULE_RENJU;
        Board b;
        tu_random_position(&b, &s, rs, min_stones + (int)(tu_rng(&s) % (uint64_t)span), 9);
        Point fp[BOARD_POINTS];
        Color att = b.to_move, def = color_other(att);
        if (rules_five_points(&b, att, rs, fp) || rules_five_points(&b, def, rs, fp))
            continue; /* wins or forced blocks at once: nothing to mend */
        size_t len = 0;
        uint8_t *src = solve_proof(&b, rs, &len);
        if (!src)
            continue;
        rs_out->sources++;
        for (int k = 0; k < 3; k++) {
            Board t;
            board_setup_copy(&b, &t);
            Point p;
            int tries = 0;
            do {
                p = (Point)(tu_rng(&s) % BOARD_POINTS);
            } while (++tries < 100 && (board_at(&t, p) != EMPTY || rules_makes_five(&t, p, def, rs)));
            if (tries >= 100)
                continue;
            board_setup_stone(&t, p, def);
            board_set_to_move(&t, att);
            TestProver tp = {new_solver(att, rs, 20000), 0, 0};
            RepairConfig cfg = {rs, dfpn_prover, &tp, 0, 200};
            ProofWriter w = {0};
            RepairStats st;
            Key kb = b.key, kt = t.key;
            int rc = proof_repair(&b, src, len, &t, &cfg, &w, &st);
            assert_int_equal(b.key, kb);
            assert_int_equal(t.key, kt);
            assert_true(rc == 0 || rc == RJ_ENOTFOUND);
            assert_int_equal((int)st.failures, tp.calls);
            if (rc == 0) {
                char why[256] = "";
                if (proof_check(&t, w.data, w.len, NULL, why, sizeof why)) {
                    char txt[2048], pt[8];
                    if (rs_out->bad++ < 5)
                        print_message("mended proof fails (stone %s): %s: %s\n", notation_point_str(p, pt), why,
                                      position_str(&t, txt, sizeof txt));
                }
                rs_out->repaired++;
                if (st.failures == 0)
                    rs_out->unchanged++;
                else
                    rs_out->with_failures++;
            } else {
                assert_true(st.why[0] != 0);
                rs_out->not_repaired++;
            }
            rs_out->kept += st.kept;
            rs_out->dropped += st.dropped;
            rs_out->added += st.added;
            rs_out->wide += st.wide;
            rs_out->escalated += st.escalated;
            rs_out->failures += st.failures;
            free(w.data);
            dfpn_free(tp.dfpn);
        }
        free(src);
    }
}

static void report(const char *what, const RepStats *r)
{
    print_message("%s: %d proofs, %d mended (%d with nothing to prove afresh, %d with), %d not; nodes kept %llu, "
                  "replies dropped %llu, added %llu; wide %llu, escalated %llu, prover calls %llu; %d failed the "
                  "checker\n",
                  what, r->sources, r->repaired, r->unchanged, r->with_failures, r->not_repaired,
                  (unsigned long long)r->kept, (unsigned long long)r->dropped, (unsigned long long)r->added,
                  (unsigned long long)r->wide, (unsigned long long)r->escalated, (unsigned long long)r->failures,
                  r->bad);
}

static void test_repair_random(void **state)
{
    (void)state;
    RepStats r = {0};
    run(0x3e9a1, 500, 8, 14, &r);
    report("repair, 8-21 stones", &r);
    assert_int_equal(r.bad, 0);
    assert_true(r.sources >= 50);
    assert_true(r.unchanged >= 20);     /* a stone that changes nothing: the proof as it was */
    assert_true(r.with_failures >= 20); /* nodes proven afresh, then the whole checked */
    assert_true(r.not_repaired >= 1);
    assert_true(r.added >= 10);
    assert_true(r.wide >= 5);
    assert_true(r.escalated >= 1);
}

/* The proof on its own root: nothing to prove afresh, and the same bytes. */
static void test_repair_identity(void **state)
{
    (void)state;
    uint64_t s = 0x77;
    int done = 0;
    for (int it = 0; it < 300 && done < 20; it++) {
        Board b;
        tu_random_position(&b, &s, RULE_RENJU, 10 + (int)(tu_rng(&s) % 10), 9);
        size_t len = 0;
        uint8_t *src = solve_proof(&b, RULE_RENJU, &len);
        if (!src)
            continue;
        TestProver tp = {NULL, 0, 0};
        RepairConfig cfg = {RULE_RENJU, never_prover, &tp, 0, 0};
        ProofWriter w = {0};
        RepairStats st;
        assert_int_equal(proof_repair(&b, src, len, &b, &cfg, &w, &st), 0);
        assert_int_equal(tp.calls, 0);
        assert_int_equal(st.added + st.dropped + st.wide + st.escalated, 0);
        assert_int_equal(w.len, len);
        assert_memory_equal(w.data, src, len);
        free(w.data);
        free(src);
        done++;
    }
    assert_int_equal(done, 20);
}

/* Black's open four f8-i8 (black to move, a five at e8 or j8) and its proof. */
static uint8_t *open_four_proof(Board *s, size_t *len)
{
    char err[128];
    assert_int_equal(position_parse("B:f8,g8,h8,i8 W:f9,g9,h9,a1", RULE_RENJU, BLACK, s, err, sizeof err), 0);
    uint8_t *src = solve_proof(s, RULE_RENJU, len);
    assert_non_null(src);
    return src;
}

/* A known position: black's five after white's stone is blocked where it matters. */
static void test_repair_blocked_five(void **state)
{
    (void)state;
    Board s, t;
    size_t len = 0;
    uint8_t *src = open_four_proof(&s, &len);
    /* white on the winning point the proof plays (its first move): that node is proven afresh */
    Point first = src[PROOF_HEADER_LEN];
    board_setup_copy(&s, &t);
    board_setup_stone(&t, first, WHITE);
    board_set_to_move(&t, BLACK);
    TestProver tp = {new_solver(BLACK, RULE_RENJU, 20000), 0, 0};
    RepairConfig cfg = {RULE_RENJU, dfpn_prover, &tp, 0, 0};
    ProofWriter w = {0};
    RepairStats st;
    assert_int_equal(proof_repair(&s, src, len, &t, &cfg, &w, &st), 0);
    assert_int_equal(st.failures, 1); /* the root itself */
    assert_int_equal(proof_check(&t, w.data, w.len, NULL, NULL, 0), 0);
    assert_int_not_equal(w.data[PROOF_HEADER_LEN], first);
    free(w.data);
    /* with a prover that proves nothing, the same repair gives up and says where */
    TestProver np = {NULL, 0, 0};
    RepairConfig ncfg = {RULE_RENJU, never_prover, &np, 0, 0};
    w = (ProofWriter){0};
    assert_int_equal(proof_repair(&s, src, len, &t, &ncfg, &w, &st), RJ_ENOTFOUND);
    assert_string_equal(st.why, "not proven at []");
    free(w.data);
    dfpn_free(tp.dfpn);
    free(src);
}

static void test_repair_bad_input(void **state)
{
    (void)state;
    Board s, t;
    size_t len = 0;
    uint8_t *src = open_four_proof(&s, &len);
    TestProver np = {NULL, 0, 0};
    RepairConfig cfg = {RULE_RENJU, never_prover, &np, 0, 0};
    ProofWriter w = {0};
    RepairStats st;
    /* truncated source */
    assert_int_equal(proof_repair(&s, src, len - 1, &s, &cfg, &w, &st), RJ_EBADDATA);
    free(w.data);
    /* the other side to move */
    board_setup_copy(&s, &t);
    board_set_to_move(&t, WHITE);
    w = (ProofWriter){0};
    assert_int_equal(proof_repair(&s, src, len, &t, &cfg, &w, &st), RJ_EBADARG);
    free(w.data);
    /* another rule set than the proof's */
    RepairConfig fcfg = {RULE_FREESTYLE, never_prover, &np, 0, 0};
    w = (ProofWriter){0};
    assert_int_equal(proof_repair(&s, src, len, &s, &fcfg, &w, &st), RJ_EBADARG);
    free(w.data);
    assert_int_equal(np.calls, 0);
    free(src);
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repair_identity),
        cmocka_unit_test(test_repair_blocked_five),
        cmocka_unit_test(test_repair_bad_input),
        cmocka_unit_test(test_repair_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
