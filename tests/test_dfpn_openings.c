/* test_dfpn_openings.c - real opening positions (tests/data/dfpn_openings.txt),
 * one test case each: df-pn proves each black win, the extracted proof passes proof_check, and
 * its size stays near the recorded one (1 thread is deterministic, but the
 * sizes change when the leaf threat search changes: the data file records
 * the sizes of the last regeneration, printed by this test). */
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
#include "position.h"
#include "proof.h"
#include "proof_extract.h"
#include "rules.h"

enum { MAX_CASES = 64 };

/* One line of the data file: a position and the recorded size of its proof. */
typedef struct {
    char pos[256];
    unsigned long long want_nodes;
    unsigned want_depth;
} Case;

static Case g_cases[MAX_CASES];
static int g_ncases;

/* Read the data file into g_cases; fails the test on a malformed line. */
static void load_cases(void **state)
{
    (void)state;
    FILE *f = fopen(RJ_TEST_DATA "/dfpn_openings.txt", "r");
    assert_non_null(f);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        assert_true(g_ncases < MAX_CASES);
        Case *c = &g_cases[g_ncases++];
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = 0;
        assert_true(strlen(line) < sizeof c->pos);
        strcpy(c->pos, line);
        assert_int_equal(sscanf(tab + 1, "%llu %u", &c->want_nodes, &c->want_depth), 2);
    }
    fclose(f);
}

/* The data file holds the positions: at least 10, each a case below. */
static void test_data_file(void **state)
{
    (void)state;
    assert_true(g_ncases >= 10);
}

/* df-pn proves the position (*state, a Case) for black; its proof checks and stays near the recorded size. */
static void test_opening(void **state)
{
    const Case *c = *state;
    Board b;
    char err[256];
    if (position_parse(c->pos, RULE_RENJU, EMPTY, &b, err, sizeof err))
        fail_msg("%s: %s", c->pos, err);
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.attacker = BLACK;
    cfg.tt_mb = 128;
    cfg.max_nodes = 100000000; /* work: df-pn plus leaf threat-search nodes */
    Dfpn *s;
    assert_int_equal(dfpn_create(&s, &cfg), 0);
    DfpnResult r;
    assert_int_equal(dfpn_solve(s, &b, &r), 0);
    if (r.result != RESULT_PROVEN)
        fail_msg("%s: not proven (%llu nodes)", c->pos, (unsigned long long)r.nodes);
    ProofWriter w = { 0 };
    ExtractStats es;
    int rc = proof_extract(s, &b, BLACK, 0, 0, &w, &es);
    if (rc)
        fail_msg("%s: proof_extract: %s", c->pos, rj_strerror(rc));
    ProofStats st;
    char why[512] = "";
    if (proof_check(&b, w.data, w.len, &st, why, sizeof why))
        fail_msg("%s: proof rejected: %s", c->pos, why);
    print_message("%-32s dfpn nodes %8llu  proof nodes %6llu depth %3u\n", c->pos, (unsigned long long)r.dfpn_nodes,
                  (unsigned long long)st.nodes, st.depth);
    /* The sizes move with the leaf threat search: fail only on a large regression. */
    if (st.nodes > 2 * c->want_nodes + 100)
        fail_msg("%s: proof %llu nodes depth %u, recorded %llu / %u", c->pos, (unsigned long long)st.nodes, st.depth,
                 c->want_nodes, c->want_depth);
    free(w.data);
    dfpn_free(s);
}

int main(void)
{
    rules_init();
    /* The cases come from the data file: read it first (a failure there is its own test). */
    const struct CMUnitTest load[] = { cmocka_unit_test(load_cases) };
    if (cmocka_run_group_tests_name("load", load, NULL, NULL))
        return 1;
    static struct CMUnitTest tests[MAX_CASES + 1];
    int n = 0;
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_data_file);
    for (int i = 0; i < g_ncases; i++)
        tests[n++] = (struct CMUnitTest){ .name = g_cases[i].pos, .test_func = test_opening,
                                          .initial_state = &g_cases[i] };
    /* The function behind cmocka_run_group_tests, which needs an array of a fixed size. */
    return _cmocka_run_group_tests("dfpn_openings", tests, (size_t)n, NULL, NULL);
}
