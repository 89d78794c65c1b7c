/*
 * test_rules_agree.c - core/rules.c against the reference tests/ref_rules.c
 * over random tactical positions.
 *
 * Usage: test_rules_agree [POSITIONS [SEED]] (default 20000 positions).
 * Positions are clustered stones, many of them on a few lines through the
 * cluster, so threes, fours, fake threes and nested recursion are common;
 * every 4th is a random legal game near the centre instead.
 * For every empty point the forbidden kind must agree; for a sample of points
 * the five points, four points and three points (both colours, every rule
 * set) must agree as sets.  Counts of what was seen are printed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "notation.h"
#include "ref_rules.h"
#include "rules.h"
#include "test_util.h"

static long g_positions = 20000;
static uint64_t g_seed = 0x5eed;

/* A random clustered position; black to move. */
static void random_position(Board *b, uint64_t *s)
{
    board_init(b);
    int c0 = rng_int(s, BOARD_SIZE), r0 = rng_int(s, BOARD_SIZE);
    int nb = 4 + rng_int(s, 22), nw = rng_int(s, nb + 1);
    int nlines = 1 + rng_int(s, 4);
    int lc[4], lr[4], ld[4];
    for (int i = 0; i < nlines; i++) {
        lc[i] = c0 + rng_int(s, 5) - 2, lr[i] = r0 + rng_int(s, 5) - 2, ld[i] = rng_int(s, NUM_DIRS);
    }
    int tries = 0;
    for (int placed = 0; placed < nb + nw && tries < 2000; tries++) {
        int c, r;
        if (rng_int(s, 3) < 2) { /* on one of the lines */
            int i = rng_int(s, nlines), k = rng_int(s, 11) - 5;
            c = lc[i] + k * DIR_DC[ld[i]], r = lr[i] + k * DIR_DR[ld[i]];
        } else {
            c = c0 + rng_int(s, 5) + rng_int(s, 5) - 4, r = r0 + rng_int(s, 5) + rng_int(s, 5) - 4;
        }
        if (!point_on_board(c, r) || board_at(b, point_make(c, r)) != EMPTY)
            continue;
        board_setup_stone(b, point_make(c, r), placed < nb ? BLACK : WHITE);
        placed++;
    }
}

/*
 * Per position: reach[p] is set when a black stone lies within 5 points of p
 * along one of p's lines; near[p] when any stone lies within 2 steps.
 */
static void mark_maps(const Board *b, bool *reach, bool *near)
{
    memset(reach, 0, BOARD_POINTS);
    memset(near, 0, BOARD_POINTS);
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (b->cell[p] == EMPTY)
            continue;
        int c0 = point_col((Point)p), r0 = point_row((Point)p);
        for (int dc = -2; dc <= 2; dc++)
            for (int dr = -2; dr <= 2; dr++)
                if (point_on_board(c0 + dc, r0 + dr))
                    near[point_make(c0 + dc, r0 + dr)] = true;
        if (b->cell[p] != BLACK)
            continue;
        for (int d = 0; d < NUM_DIRS; d++)
            for (int k = -5; k <= 5; k++)
                if (point_on_board(c0 + k * DIR_DC[d], r0 + k * DIR_DR[d]))
                    reach[point_make(c0 + k * DIR_DC[d], r0 + k * DIR_DR[d])] = true;
    }
}

static void dump(const Board *b, Point p, const char *what)
{
    char buf[8];
    printf("disagreement on %s at %s; board (row 15 first):\n", what, notation_point_str(p, buf));
    for (int r = BOARD_SIZE - 1; r >= 0; r--) {
        for (int c = 0; c < BOARD_SIZE; c++)
            putchar(".XO"[b->cell[point_make(c, r)]]);
        putchar('\n');
    }
}

static void sort_points(Point *a, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            Point t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

static bool same_set(Point *a, int na, Point *b, int nb)
{
    sort_points(a, na);
    sort_points(b, nb);
    return na == nb && !memcmp(a, b, (size_t)na);
}

/* Counters printed at the end. */
typedef struct {
    long positions, points, kind[4], sampled, fake_threes, fake_by_33;
    long short_checked, short_a, short_b, short_b_block, short_changed; /* rules_short_win: cases seen */
} Stats;

/* Compare fours / threes / fives of point p (empty) in every colour and rule set. */
static void compare_threats(Board *b, Point p, Stats *st)
{
    Point fa[32], fb[32];
    for (int rs = 0; rs < 3; rs++)
        for (Color c = BLACK; c <= WHITE; c++) {
            if (rules_makes_five(b, p, c, (RuleSet)rs) != ref_makes_five(b, p, c, (RuleSet)rs)) {
                dump(b, p, "makes_five");
                fail();
            }
            int na = rules_four_points_after(b, p, c, (RuleSet)rs, fa);
            int nb = ref_four_points_after(b, p, c, (RuleSet)rs, fb);
            if (!same_set(fa, na, fb, nb)) {
                dump(b, p, "four points");
                fail_msg("rs %d colour %d: fast %d ref %d", rs, c, na, nb);
            }
            for (int d = 0; d < NUM_DIRS; d++) {
                na = rules_three_points_after(b, p, c, d, (RuleSet)rs, fa);
                nb = ref_three_points_after(b, p, c, d, (RuleSet)rs, fb);
                if (!same_set(fa, na, fb, nb)) {
                    dump(b, p, "three points");
                    fail_msg("rs %d colour %d dir %d: fast %d ref %d", rs, c, d, na, nb);
                }
                if (rs == RULE_RENJU && c == BLACK) {
                    /* A fake three: straight-four points exist, none is legal. */
                    int nall = ref_three_points_after(b, p, BLACK, d, RULE_STANDARD, fb);
                    if (na == 0 && nall > 0) {
                        st->fake_threes++;
                        Board t = *b; /* t: b with a black stone on p */
                        if (t.to_move != BLACK)
                            board_play(&t, POINT_PASS);
                        board_play(&t, p);
                        for (int i = 0; i < nall; i++)
                            if (ref_forbidden(&t, fb[i]) == FORBID_DOUBLE_THREE) {
                                st->fake_by_33++;
                                break;
                            }
                    }
                }
            }
        }
    st->sampled++;
}

/*
 * rules_short_win against the reference for both sides to move under rs (the
 * stones of b set up afresh), counting the cases: a win at once, a short win
 * by two winning points, and one of those that also blocks the other side's
 * only winning point.
 */
static void compare_short_win(const Board *b, RuleSet rs, Stats *st)
{
    for (int k = 0; k < 2; k++) {
        Color c = k ? WHITE : BLACK;
        Board t;
        board_setup_copy(b, &t);
        board_set_to_move(&t, c);
        Board before = t;
        bool fast = rules_short_win(&t, rs), ref = ref_short_win(&t, c, rs);
        if (fast != ref) {
            dump(&t, 0, "short win");
            fail_msg("rs %d colour %d: fast %d ref %d", rs, c, fast, ref);
        }
        if (memcmp(&t, &before, sizeof t) != 0)
            fail_msg("board changed by rules_short_win");
        /* The candidates of the board before a stone of the other side. */
        Point cand[BOARD_POINTS], empty[BOARD_POINTS];
        Point five[BOARD_POINTS];
        int nfive = rules_five_points(&t, c, rs, five);
        int ncand = rules_double_win_points(&t, c, rs, cand), nempty = 0;
        for (int p = 0; p < BOARD_POINTS; p++)
            if (t.cell[p] == EMPTY)
                empty[nempty++] = (Point)p;
        if (nempty > 1) {
            Board u;
            board_setup_copy(&t, &u);
            /* On one of the candidates half the time: there it changes most. */
            Point m = ncand && st->short_checked % 3 == 1   ? cand[st->short_checked % ncand]
                      : nfive && st->short_checked % 3 == 2 ? five[st->short_checked % nfive]
                                                            : empty[(st->short_checked * 7919) % nempty];
            board_setup_stone(&u, m, color_other(c));
            board_set_to_move(&u, c);
            bool among = rules_short_win_among(&u, rs, five, nfive, cand, ncand), want = ref_short_win(&u, c, rs);
            if (among != want) {
                dump(&u, 0, "short win among candidates");
                fail_msg("rs %d colour %d: among %d ref %d", rs, c, among, want);
            }
            st->short_changed += want != ref;
        }
        st->short_checked++;
        Point fp[BOARD_POINTS];
        if (rules_five_points(&t, c, rs, fp) > 0)
            st->short_a++;
        else if (fast) {
            st->short_b++;
            st->short_b_block += rules_five_points(&t, color_other(c), rs, fp) == 1;
        }
    }
}

static void test_agree(void **state)
{
    (void)state;
    uint64_t s = g_seed;
    Stats st;
    memset(&st, 0, sizeof st);
    Board b;
    for (long i = 0; i < g_positions; i++) {
        if (i % 4 == 3)
            random_game(&b, &s);
        else
            random_position(&b, &s);
        Board before = b;
        int sample = rng_int(&s, BOARD_POINTS);
        /* And one empty point within two steps of a stone. */
        bool reach[BOARD_POINTS], isnear[BOARD_POINTS];
        mark_maps(&b, reach, isnear);
        int near[BOARD_POINTS], nnear = 0;
        for (int p = 0; p < BOARD_POINTS; p++)
            if (b.cell[p] == EMPTY && isnear[p])
                near[nnear++] = p;
        int sample2 = nnear ? near[rng_int(&s, nnear)] : -1;
        for (int p = 0; p < BOARD_POINTS; p++) {
            if (b.cell[p] != EMPTY)
                continue;
            /* No black stone within 5 on p's lines: nothing to form, so NONE
             * without asking the (slow) reference. */
            ForbidKind fast = rules_forbidden(&b, (Point)p);
            ForbidKind ref = reach[p] ? ref_forbidden(&b, (Point)p) : FORBID_NONE;
            if (fast != ref) {
                dump(&b, (Point)p, "forbidden kind");
                fail_msg("position %ld: fast %d ref %d", i, (int)fast, (int)ref);
            }
            st.points++;
            st.kind[fast]++;
            /* Threat functions on a few points per position (the costly part). */
            if (p == sample || p == sample2 || (fast != FORBID_NONE && rng_int(&s, 4) == 0))
                compare_threats(&b, (Point)p, &st);
        }
        /* Five points of one colour under one rule set (rotating). */
        {
            RuleSet rs = (RuleSet)(i % 3);
            Color c = (i / 3) % 2 ? WHITE : BLACK;
            Point fa[BOARD_POINTS], fb[BOARD_POINTS];
            int na = rules_five_points(&b, c, rs, fa), nb = 0;
            for (int p = 0; p < BOARD_POINTS; p++)
                if (b.cell[p] == EMPTY && ref_makes_five(&b, (Point)p, c, rs))
                    fb[nb++] = (Point)p;
            if (na != nb || memcmp(fa, fb, (size_t)na) != 0) {
                dump(&b, fa[0], "five points");
                fail_msg("position %ld rs %d colour %d: fast %d ref %d", i, rs, c, na, nb);
            }
        }
        /* The short win of either side to move, every 5th position of the first 20,000, then every
         * 50th (the reference is slow: a third of the whole comparison at every 5th). */
        if (i % (i < 20000 ? 5 : 50) == 0)
            compare_short_win(&b, (RuleSet)(i / 5 % 3), &st);
        /* The whole-board screen gives the same verdicts. */
        Point fp[BOARD_POINTS];
        ForbidKind fk[BOARD_POINTS];
        int nf = rules_forbidden_points(&b, fp, fk), j = 0;
        for (int p = 0; p < BOARD_POINTS; p++) {
            ForbidKind want = b.cell[p] == EMPTY ? rules_forbidden(&b, (Point)p) : FORBID_NONE;
            ForbidKind got = j < nf && fp[j] == p ? fk[j++] : FORBID_NONE;
            if (got != want) {
                dump(&b, (Point)p, "rules_forbidden_points");
                fail_msg("position %ld: bulk %d per point %d", i, (int)got, (int)want);
            }
        }
        assert_int_equal(j, nf);
        if (memcmp(&b, &before, sizeof b) != 0)
            fail_msg("board changed by the rules functions (position %ld)", i);
        st.positions++;
    }
    printf("positions %ld, empty points %ld: overline %ld, double-four %ld, double-three %ld, none %ld\n", st.positions,
           st.points, st.kind[FORBID_OVERLINE], st.kind[FORBID_DOUBLE_FOUR], st.kind[FORBID_DOUBLE_THREE],
           st.kind[FORBID_NONE]);
    printf("threat checks on %ld points: fake threes %ld (%ld of them fake through a real double-three)\n", st.sampled,
           st.fake_threes, st.fake_by_33);
    printf("short wins on %ld boards: at once %ld, by two winning points %ld (%ld of them blocking the other side's "
           "only one), none %ld; with a stone of the other side added, the answer changed on %ld\n",
           st.short_checked, st.short_a, st.short_b, st.short_b_block, st.short_checked - st.short_a - st.short_b,
           st.short_changed);
    assert_true(st.short_a > 0 && st.short_b > 0 && st.short_b_block > 0 &&
                st.short_checked - st.short_a - st.short_b > 0 && st.short_changed > 0);
    assert_true(st.kind[FORBID_OVERLINE] > 0 && st.kind[FORBID_DOUBLE_FOUR] > 0 && st.kind[FORBID_DOUBLE_THREE] > 0);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        g_positions = atol(argv[1]);
    if (argc > 2)
        g_seed = strtoull(argv[2], NULL, 0);
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
