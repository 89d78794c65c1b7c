/*
 * test_jobrun.c - the worker side of the opening-level search
 * (solver/jobrun.h): what a job writes to the results store, and the early
 * stop of white-to-move jobs whose root dn stays low.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "dfpn.h"
#include "error.h"
#include "jobrun.h"
#include "position.h"
#include "proof.h"
#include "rules.h"
#include "sym.h"
#include "test_util.h"

/* An in-memory ResultStore that keeps the boards and proofs it is given. */
enum { MEM_MAX = 64 };

typedef struct {
    int n;
    Board b[MEM_MAX];
    StoredResult r[MEM_MAX];
    uint8_t *proof[MEM_MAX];
    size_t len[MEM_MAX];
} MemStore;

static int mem_lookup(void *ctx, const Board *b, Color attacker, RuleSet rs, StoredResult *out)
{
    (void)ctx, (void)b, (void)attacker, (void)rs, (void)out;
    return RJ_ENOTFOUND;
}

static int mem_store(void *ctx, const Board *b, RuleSet rs, const StoredResult *r, const uint8_t *proof, size_t len)
{
    MemStore *m = ctx;
    assert_int_equal(rs, RULE_RENJU);
    assert_true(m->n < MEM_MAX);
    int i = m->n++;
    m->b[i] = *b;
    m->r[i] = *r;
    m->proof[i] = NULL;
    m->len[i] = 0;
    if (proof && len) {
        m->proof[i] = malloc(len);
        assert_non_null(m->proof[i]);
        memcpy(m->proof[i], proof, len);
        m->len[i] = len;
    }
    return 0;
}

static void mem_clear(MemStore *m)
{
    for (int i = 0; i < m->n; i++)
        free(m->proof[i]);
    memset(m, 0, sizeof *m);
}

static MemStore g_m;
static ResultStore g_rs = {&g_m, mem_lookup, mem_store};

static Dfpn *make_dfpn(void)
{
    DfpnConfig c;
    dfpn_config_default(&c);
    c.attacker = BLACK;
    c.tt_mb = 64;
    Dfpn *s;
    assert_int_equal(dfpn_create(&s, &c), 0);
    return s;
}

/*
 * Two white-to-move positions of the I7 g7-h7 tree (results/solver-bench.md,
 * session 13): after 1e5 work black's attack in the first has root dn 119
 * (white refutes it easily; its whole 5e5-node job ends at dn 666), in the
 * second 1,588 (the tree expanded it; 15,121 after 5e5).
 */
static const char *DEAD_END = "B:g7,h8,g9,i11 W:g8,h9,i9";
static const char *PROMISING = "B:g7,i7,h8,i9 W:i8,g9,h9";

static void run(Dfpn *s, const char *pos, int permille, ProofNum dn, uint64_t budget, JtOutcome *o, JobRunner *r)
{
    Board b = parse_pos(pos, WHITE);
    *r = (JobRunner){.dfpn = s, .rules = RULE_RENJU, .store = &g_rs, .early_permille = permille, .early_dn = dn};
    assert_int_equal(jobrun_run(r, &b, budget, 0, 0, JT_LOOK, o), 0);
}

static void test_early_stop(void **state)
{
    (void)state;
    mem_clear(&g_m);
    Dfpn *s = make_dfpn();
    JtOutcome o;
    JobRunner r;
    /* Off: the whole budget. */
    run(s, DEAD_END, 0, 300, 500000, &o, &r);
    assert_int_equal(o.result, RESULT_UNKNOWN);
    assert_true(o.nodes >= 500000);
    uint64_t whole_pn = o.pn;
    assert_int_equal(r.stopped_early, 0);
    /* On: stopped after a fifth of it, with the numbers of that point. */
    run(s, DEAD_END, 200, 300, 500000, &o, &r);
    assert_int_equal(o.result, RESULT_UNKNOWN);
    assert_int_equal(r.stopped_early, 1);
    assert_true(o.nodes >= 100000 && o.nodes < 110000);
    assert_true(o.dn < 300);
    assert_true(o.pn > 0 && o.pn <= whole_pn);
    assert_true(o.nest > 0); /* the child estimates are there for the tree */
    /* A promising line goes on to the whole budget. */
    run(s, PROMISING, 200, 300, 500000, &o, &r);
    assert_int_equal(o.result, RESULT_UNKNOWN);
    assert_int_equal(r.stopped_early, 0);
    assert_true(o.nodes >= 500000 && o.nodes < 510000);
    assert_true(o.dn >= 300);
    /* JT_LOOK_NONE (a probe): the whole budget, the same numbers as with the look off. */
    Board dead = parse_pos(DEAD_END, WHITE);
    r = (JobRunner){.dfpn = s, .rules = RULE_RENJU, .store = &g_rs, .early_permille = 200, .early_dn = 300};
    assert_int_equal(jobrun_run(&r, &dead, 500000, 0, 0, JT_LOOK_NONE, &o), 0);
    assert_int_equal(r.stopped_early, 0);
    assert_false(o.early);
    assert_int_equal(o.pn, whole_pn);
    /* JT_LOOK_ROOT (the root of goal win): the root's threshold, here below the dn at the look: it goes on. */
    r = (JobRunner){
        .dfpn = s, .rules = RULE_RENJU, .store = &g_rs, .early_permille = 200, .early_dn = 300, .early_dn_root = 10};
    assert_int_equal(jobrun_run(&r, &dead, 500000, 0, 0, JT_LOOK_ROOT, &o), 0);
    assert_int_equal(r.stopped_early, 0);
    assert_true(o.nodes >= 500000);
    r.early_dn_root = 300; /* and at the plain threshold, it stops */
    assert_int_equal(jobrun_run(&r, &dead, 500000, 0, 0, JT_LOOK_ROOT, &o), 0);
    assert_int_equal(r.stopped_early, 1);
    /* Black to move: never stopped early. */
    Board b = parse_pos("h8 i9 i7 i8 g7 h7", BLACK);
    r = (JobRunner){.dfpn = s, .rules = RULE_RENJU, .store = &g_rs, .early_permille = 200, .early_dn = 1u << 30};
    assert_int_equal(jobrun_run(&r, &b, 200000, 0, 0, JT_LOOK, &o), 0);
    assert_int_equal(o.result, RESULT_UNKNOWN);
    assert_int_equal(r.stopped_early, 0);
    assert_true(o.nodes >= 200000);
    assert_int_equal(g_m.n, 0); /* unknown jobs store nothing */
    dfpn_free(s);
}

/* A proven job stores its checked proof, also when it is proven after the early look. */
static void test_proven_after_early_look(void **state)
{
    (void)state;
    mem_clear(&g_m);
    Dfpn *s = make_dfpn();
    /* From the same tree: a job proved it in 35,211 work (a 2,625-node proof); a look after 1,000 does not stop it. */
    Board b = parse_pos("B:j6,i7,h8,g9,i9,i10 W:g7,g8,h9,f10,i11", WHITE);
    JobRunner r = {.dfpn = s, .rules = RULE_RENJU, .store = &g_rs, .early_permille = 2, .early_dn = 2};
    JtOutcome o;
    assert_int_equal(jobrun_run(&r, &b, 500000, 0, 0, JT_LOOK, &o), 0);
    assert_true(o.nodes > 1000);
    assert_int_equal(o.result, RESULT_PROVEN);
    assert_int_equal(r.stopped_early, 0);
    assert_true(g_m.n >= 1);
    ProofStats ps;
    assert_int_equal(proof_check(&g_m.b[0], g_m.proof[0], g_m.len[0], &ps, NULL, 0), 0);
    assert_int_equal(g_m.r[0].result, RESULT_PROVEN);
    mem_clear(&g_m);
    dfpn_free(s);
}

/*
 * Reruns in the job's own table (JtJob.extend), on a position one job proves
 * in 9,654 work: given 2,000 it is unknown; with the pn gate below its pn it
 * stays so; with one extension it goes on to 4x (8,000 in all) and is still
 * unknown; with two and no gate it is proven at about a single job's cost
 * (not 2,000 + 8,000 + its cost, as new jobs would spend), and its proof is
 * stored and checked.
 */
static void test_extend(void **state)
{
    (void)state;
    mem_clear(&g_m);
    Dfpn *s = make_dfpn();
    Board b = parse_pos("h8 h9 i9 e5 k9 e11", BLACK);
    JobRunner r = {.dfpn = s, .rules = RULE_RENJU, .store = &g_rs};
    JtOutcome o;
    assert_int_equal(jobrun_run(&r, &b, 100000, 0, 0, JT_LOOK, &o), 0);
    assert_int_equal(o.result, RESULT_PROVEN);
    uint64_t one_job = o.nodes;
    assert_true(one_job > 8100 && one_job < 12000);
    mem_clear(&g_m);
    assert_int_equal(jobrun_run(&r, &b, 2000, 0, 0, JT_LOOK, &o), 0);
    assert_int_equal(o.result, RESULT_UNKNOWN);
    assert_int_equal(o.extended, 0);
    assert_true(o.nodes >= 2000 && o.nodes < 2100);
    ProofNum pn = o.pn;
    assert_true(pn > 1);
    assert_int_equal(jobrun_run(&r, &b, 2000, 1, pn - 1, JT_LOOK, &o), 0); /* the gate: pn above it */
    assert_int_equal(o.extended, 0);
    assert_true(o.nodes >= 2000 && o.nodes < 2100);
    assert_int_equal(jobrun_run(&r, &b, 2000, 1, pn, JT_LOOK, &o), 0);
    assert_int_equal(o.extended, 1);
    assert_int_equal(o.result, RESULT_UNKNOWN);
    assert_true(o.nodes >= 8000 && o.nodes < 8100);
    assert_int_equal(g_m.n, 0);
    assert_int_equal(jobrun_run(&r, &b, 2000, 2, 0, JT_LOOK, &o), 0);
    assert_int_equal(o.result, RESULT_PROVEN);
    assert_int_equal(o.extended, 2);
    assert_true(o.nodes < one_job + one_job / 4);
    assert_true(g_m.n >= 1);
    ProofStats ps;
    assert_int_equal(proof_check(&g_m.b[0], g_m.proof[0], g_m.len[0], &ps, NULL, 0), 0);
    assert_int_equal(g_m.r[0].result, RESULT_PROVEN);
    mem_clear(&g_m);
    dfpn_free(s);
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_early_stop),
        cmocka_unit_test(test_proven_after_early_look),
        cmocka_unit_test(test_extend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
