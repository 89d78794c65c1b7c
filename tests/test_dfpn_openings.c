/* test_dfpn_openings.c - real opening positions (tests/data/dfpn_openings.txt):
 * df-pn proves each black win, the extracted proof passes proof_check, and
 * its size and depth match the recorded ones (1 thread is deterministic). */
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

static void test_openings(void **state)
{
    (void)state;
    FILE *f = fopen(RJ_TEST_DATA "/dfpn_openings.txt", "r");
    assert_non_null(f);
    char line[512];
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = 0;
        unsigned long long want_nodes = 0;
        unsigned want_depth = 0;
        assert_int_equal(sscanf(tab + 1, "%llu %u", &want_nodes, &want_depth), 2);
        Board b;
        char err[256];
        if (position_parse(line, RULE_RENJU, EMPTY, &b, err, sizeof err))
            fail_msg("%s: %s", line, err);
        DfpnConfig cfg;
        dfpn_config_default(&cfg);
        cfg.attacker = BLACK;
        cfg.tt_mb = 128;
        cfg.max_nodes = 2000000;
        Dfpn *s;
        assert_int_equal(dfpn_create(&s, &cfg), 0);
        DfpnResult r;
        assert_int_equal(dfpn_solve(s, &b, &r), 0);
        if (r.result != RESULT_PROVEN)
            fail_msg("%s: not proven (%llu nodes)", line, (unsigned long long)r.nodes);
        ProofWriter w = { 0 };
        ExtractStats es;
        int rc = proof_extract(s, &b, BLACK, 0, 0, &w, &es);
        if (rc)
            fail_msg("%s: proof_extract: %s", line, rj_strerror(rc));
        ProofStats st;
        char why[512] = "";
        if (proof_check(&b, w.data, w.len, &st, why, sizeof why))
            fail_msg("%s: proof rejected: %s", line, why);
        print_message("%-32s dfpn nodes %8llu  proof nodes %6llu depth %3u\n", line, (unsigned long long)r.nodes,
                      (unsigned long long)st.nodes, st.depth);
        if (st.nodes != want_nodes || st.depth != want_depth)
            fail_msg("%s: proof %llu nodes depth %u, recorded %llu / %u", line, (unsigned long long)st.nodes,
                     st.depth, want_nodes, want_depth);
        free(w.data);
        dfpn_free(s);
        count++;
    }
    fclose(f);
    assert_true(count >= 10);
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_openings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
