/* test_fifth.c - 4th- and 5th-move equivalence classes and the W / fair-N bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "fifth.h"
#include "openings.h"
#include "position.h"
#include "rules.h"
#include "test_util.h"

static int setup(void **state)
{
    (void)state;
    rules_init();
    return 0;
}

/* Independent oracle: does transform t map b's stones onto themselves (checked point by point)? */
static bool fixes(const Board *b, int t)
{
    for (int p = 0; p < BOARD_POINTS; p++)
        if (board_at(b, sym_apply(t, (Point)p)) != board_at(b, (Point)p))
            return false;
    return true;
}

/*
 * Check the classes of b against the oracle: every legal move in exactly one
 * class; two moves share a class iff some transform fixing b maps one onto the
 * other; members ascending.  Returns the number of classes.
 */
static int check_classes(Board *b, const MoveClass *cls, int n)
{
    int owner[BOARD_POINTS];
    for (int p = 0; p < BOARD_POINTS; p++)
        owner[p] = -1;
    for (int i = 0; i < n; i++) {
        assert_true(cls[i].n >= 1 && cls[i].n <= NUM_SYMS);
        if (i > 0)
            assert_true(cls[i].moves[0] > cls[i - 1].moves[0]);
        for (int j = 0; j < cls[i].n; j++) {
            Point p = cls[i].moves[j];
            assert_true(p < BOARD_POINTS);
            assert_int_equal(owner[p], -1);
            assert_true(rules_is_legal(b, p, RULE_RENJU));
            owner[p] = i;
            if (j > 0)
                assert_true(p > cls[i].moves[j - 1]);
        }
    }
    bool fix[NUM_SYMS];
    for (int t = 0; t < NUM_SYMS; t++)
        fix[t] = fixes(b, t);
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (board_at(b, (Point)p) != EMPTY || !rules_is_legal(b, (Point)p, RULE_RENJU)) {
            assert_int_equal(owner[p], -1);
            continue;
        }
        assert_int_not_equal(owner[p], -1);
        /* The class of p is exactly the orbit of p under the transforms fixing b. */
        bool in_orbit[BOARD_POINTS] = {false};
        int size = 0;
        for (int t = 0; t < NUM_SYMS; t++)
            if (fix[t] && !in_orbit[sym_apply(t, (Point)p)]) {
                in_orbit[sym_apply(t, (Point)p)] = true;
                size++;
            }
        assert_int_equal(cls[owner[p]].n, size);
        for (int j = 0; j < cls[owner[p]].n; j++)
            assert_true(in_orbit[cls[owner[p]].moves[j]]);
    }
    return n;
}

static void test_asymmetric_p4(void **state)
{
    (void)state;
    Board b;
    MoveClass cls[BOARD_POINTS];
    b = parse_pos("D4 j10", EMPTY);
    int n = fifth_classes(&b, RULE_RENJU, cls);
    assert_int_equal(check_classes(&b, cls, n), BOARD_POINTS - 4);
    for (int i = 0; i < n; i++)
        assert_int_equal(cls[i].n, 1);
}

static void test_d1_axis(void **state)
{
    (void)state;
    Board b;
    MoveClass cls[BOARD_POINTS];
    /* D1 (h8 h9 h10) + white h11 on the axis: the mirror in the h file fixes it. */
    b = parse_pos("D1 h11", EMPTY);
    int n = fifth_classes(&b, RULE_RENJU, cls);
    check_classes(&b, cls, n);
    int singles = 0;
    for (int i = 0; i < n; i++) {
        if (cls[i].n == 1) {
            assert_int_equal(point_col(cls[i].moves[0]), 7); /* on the h file */
            singles++;
            continue;
        }
        assert_int_equal(cls[i].n, 2);
        Point a = cls[i].moves[0], c = cls[i].moves[1];
        assert_int_equal(point_row(a), point_row(c));
        assert_int_equal(point_col(a) + point_col(c), 14); /* mirror images */
    }
    assert_int_equal(singles, 15 - 4);
    assert_int_equal(n, 11 + (BOARD_POINTS - 15) / 2);
    /* Off the axis the 4th move breaks the symmetry. */
    b = parse_pos("D1 i11", EMPTY);
    assert_int_equal(fifth_classes(&b, RULE_RENJU, cls), BOARD_POINTS - 4);
}

/* An asymmetric opening can give a symmetric P4: D4 + i8 is fixed by the
 * mirror in the h8-i9 diagonal, which swaps the white stones h9 and i8. */
static void test_symmetric_p4_from_asymmetric_opening(void **state)
{
    (void)state;
    Board b;
    MoveClass cls[BOARD_POINTS];
    b = parse_pos("D4 i8", EMPTY);
    assert_int_equal(__builtin_popcount(sym_stabiliser(&b)), 2);
    int n = fifth_classes(&b, RULE_RENJU, cls);
    check_classes(&b, cls, n);
    assert_int_equal(n, 13 + (BOARD_POINTS - 4 - 13) / 2);
}

static void test_fourth_classes(void **state)
{
    (void)state;
    Board b;
    MoveClass cls[BOARD_POINTS];
    int total = 0;
    for (int i = 0; i < NUM_OPENINGS; i++) {
        const Opening *o = opening_get(i);
        b = parse_pos(o->code, EMPTY);
        int n = fifth_fourth_classes(&b, RULE_RENJU, cls);
        check_classes(&b, cls, n);
        bool sym = sym_stabiliser(&b) != 1u;
        /* Symmetric: 12 points on the axis alone, the other 210 in mirror pairs. */
        assert_int_equal(n, sym ? 12 + 210 / 2 : BOARD_POINTS - 3);
        total += n;
    }
    assert_int_equal(total, 20 * 222 + 6 * 117);
}

/* Every 4th-move class of every opening: the 5th-move classes agree with the oracle. */
static void test_all_fifth_classes(void **state)
{
    (void)state;
    Board b;
    MoveClass c4[BOARD_POINTS], c5[BOARD_POINTS];
    long p4 = 0, total = 0, symmetric = 0;
    for (int i = 0; i < NUM_OPENINGS; i++) {
        b = parse_pos(opening_get(i)->code, EMPTY);
        int n4 = fifth_fourth_classes(&b, RULE_RENJU, c4);
        for (int j = 0; j < n4; j++) {
            board_play(&b, c4[j].moves[0]);
            int n5 = fifth_classes(&b, RULE_RENJU, c5);
            total += check_classes(&b, c5, n5);
            symmetric += sym_stabiliser(&b) != 1u;
            p4++;
            board_undo(&b);
        }
    }
    assert_int_equal(p4, 5142);
    /*
     * Derived by hand: a symmetry of P4 fixes h8, hence black 3, so it is the
     * reflection whose axis holds black 3.  (a) The 6 symmetric openings with
     * the 4th move on the axis: 6 x 12 = 72 P4, each with 4 stones on the axis:
     * 11 + 210/2 = 116 classes.  (b) An asymmetric opening whose black 3 lies on
     * an axis (D3 D4 D6 D7 D9 D13, I3 I5 I6 I7 I9 I10) with white 4 the mirror
     * image of white 2: 12 P4, 2 stones on the axis: 13 + 208/2 = 117 classes.
     * Every other P4 has 221 classes.
     */
    assert_int_equal(symmetric, 72 + 12);
    assert_int_equal(total, (5142 - 84) * 221 + 72 * 116 + 12 * 117);
    print_message("P4 classes: %ld, symmetric P4: %ld, 5th-move classes: %ld\n", p4, symmetric, total);
}

static void test_wrong_shapes(void **state)
{
    (void)state;
    Board b;
    MoveClass cls[BOARD_POINTS];
    b = parse_pos("D4", EMPTY);
    assert_int_equal(fifth_classes(&b, RULE_RENJU, cls), RJ_EBADPOS);
    b = parse_pos("D4 j10", EMPTY);
    assert_int_equal(fifth_fourth_classes(&b, RULE_RENJU, cls), RJ_EBADPOS);
    b = parse_pos("D4 j10 i10", EMPTY);
    assert_int_equal(fifth_classes(&b, RULE_RENJU, cls), RJ_EBADPOS);
    b = parse_pos("h8 pass h9 pass", EMPTY); /* 2 black stones, 0 white */
    assert_int_equal(fifth_classes(&b, RULE_RENJU, cls), RJ_EBADPOS);
    /* The empty board: the 8 symmetries, 1 + 7 + 7 + 21 classes in the 1/8 wedge. */
    b = parse_pos("B: W:", EMPTY);
    assert_int_equal(fifth_move_classes(&b, RULE_RENJU, cls), 36);
}

static void test_bounds(void **state)
{
    (void)state;
    const Result st[] = {RESULT_PROVEN, RESULT_UNKNOWN, RESULT_DISPROVEN, RESULT_PROVEN, RESULT_UNKNOWN};
    int lo, hi;
    fifth_w_bounds(st, 5, &lo, &hi);
    assert_int_equal(lo, 2);
    assert_int_equal(hi, 4);
    fifth_w_bounds(st, 0, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 0);
    const int wmin[] = {3, 1, 5}, wmax[] = {9, 7, 6};
    int nmin, nmax;
    fifth_fair_n_bounds(wmin, wmax, 3, &nmin, &nmax);
    assert_int_equal(nmin, 2);
    assert_int_equal(nmax, 7);
    fifth_fair_n_bounds(wmin, wmax, 1, &nmin, &nmax);
    assert_int_equal(nmin, 4);
    assert_int_equal(nmax, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_asymmetric_p4),
        cmocka_unit_test(test_d1_axis),
        cmocka_unit_test(test_symmetric_p4_from_asymmetric_opening),
        cmocka_unit_test(test_fourth_classes),
        cmocka_unit_test(test_all_fifth_classes),
        cmocka_unit_test(test_wrong_shapes),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
