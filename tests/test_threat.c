/* test_threat.c - threat primitives (solver/threat.c) against the rules module. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "notation.h"
#include "position.h"
#include "threat.h"
#include "threat_util.h"
#include "vct.h"

static const RuleSet RULESETS[3] = {RULE_RENJU, RULE_FREESTYLE, RULE_STANDARD};

static bool in_list(const Point *l, int n, Point p)
{
    for (int i = 0; i < n; i++)
        if (l[i] == p)
            return true;
    return false;
}

/* The line-by-line four list, updated through plays and undos, lists thr_four_moves()' points in its order. */
static void test_four_lines_incremental(void **state)
{
    (void)state;
    uint64_t s = 0xf0e1d2c3;
    Board b;
    Point a[BOARD_POINTS], r[BOARD_POINTS];
    long compared = 0, points = 0;
    for (int it = 0; it < 400; it++) {
        RuleSet rs = RULESETS[it % 3];
        tu_random_position(&b, &s, rs, 4 + (int)(tu_rng(&s) % 60), 9);
        for (Color c = BLACK; c <= WHITE; c++) {
            ThrFourLines fl;
            thr_four_lines_init(&b, c, rs, &fl);
            int played = 0;
            for (int step = 0; step < 40; step++) {
                Point p;
                if (played > 0 && tu_rng(&s) % 4 == 0) {
                    p = board_last_move(&b);
                    board_undo(&b);
                    played--;
                } else {
                    do
                        p = (Point)(tu_rng(&s) % BOARD_POINTS);
                    while (board_at(&b, p) != EMPTY);
                    board_play(&b, p);
                    played++;
                }
                thr_four_lines_touch(&b, c, rs, &fl, p);
                int na = thr_four_lines_points(&fl, a), nr = thr_four_moves(&b, c, rs, r);
                assert_int_equal(na, nr);
                for (int i = 0; i < na; i++)
                    assert_int_equal(a[i], r[i]);
                compared++;
                points += na;
            }
            while (played--)
                board_undo(&b);
        }
    }
    assert_true(compared == 400 * 2 * 40 && points > 10000); /* the positions do have fours */
}

/* Five points, fours and their five points agree with rules.h on random positions. */
static void test_primitives_vs_rules(void **state)
{
    (void)state;
    uint64_t s = 0x7e57ab1e;
    Board b;
    Point a[BOARD_POINTS], r[BOARD_POINTS], fa[8], fr[8], mv[BOARD_POINTS];
    long checked = 0;
    for (int it = 0; it < 600; it++) {
        RuleSet rs = RULESETS[it % 3];
        tu_random_position(&b, &s, rs, 10 + (int)(tu_rng(&s) % 40), 9);
        for (Color c = BLACK; c <= WHITE; c++) {
            int na = thr_five_points(&b, c, rs, a);
            int nr = rules_five_points(&b, c, rs, r);
            assert_int_equal(na, nr);
            for (int i = 0; i < na; i++)
                assert_true(in_list(r, nr, a[i]));
            int nm = thr_four_moves(&b, c, rs, mv);
            for (int p = 0; p < BOARD_POINTS; p++) {
                if (board_at(&b, (Point)p) != EMPTY)
                    continue;
                assert_int_equal(thr_is_five(&b, (Point)p, c, rs), in_list(r, nr, (Point)p));
                if (in_list(r, nr, (Point)p))
                    continue; /* a five itself: "new fours through p" is moot */
                int n1 = thr_fives_after(&b, (Point)p, c, rs, fa);
                int n2 = rules_four_points_after(&b, (Point)p, c, rs, fr);
                /* rules.h lists the five points of the new fours; compare as sets. */
                int d2 = 0;
                for (int i = 0; i < n2; i++)
                    d2 += !in_list(fr, i, fr[i]);
                if (n1 != d2) {
                    char txt[2048];
                    fprintf(stderr, "rs %d colour %d point %d: %s\n", rs, c, p, position_str(&b, txt, sizeof txt));
                    for (int i = 0; i < n2; i++)
                        fprintf(stderr, " r%d", fr[i]);
                    for (int i = 0; i < n1; i++)
                        fprintf(stderr, " t%d", fa[i]);
                    fprintf(stderr, "\n");
                }
                assert_int_equal(n1, d2);
                for (int i = 0; i < n1; i++)
                    assert_true(in_list(fr, n2, fa[i]));
                assert_int_equal(in_list(mv, nm, (Point)p), n1 > 0);
                assert_int_equal(thr_legal(&b, (Point)p, c, rs),
                                 !(rs == RULE_RENJU && c == BLACK && rules_is_forbidden(&b, (Point)p)));
                checked++;
            }
        }
        assert_true(board_check(&b));
    }
    assert_true(checked > 100000);
}

/* Straight from the definition: the best clean five-window through empty p for c, per direction. */
static void ref_window_max(const Board *b, Point p, Color c, int *wmax, int *ntwo, int *sum)
{
    int mx = 0, two = 0, total = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        int best = 0;
        for (int s = -4; s <= 0; s++) {
            int own = 0;
            bool clean = true;
            for (int k = s; k < s + 5 && clean; k++) {
                int col = point_col(p) + k * DIR_DC[d], row = point_row(p) + k * DIR_DR[d];
                int v = board_at_cr(b, col, row);
                if (v < 0 || v == (int)color_other(c))
                    clean = false;
                else
                    own += v == (int)c;
            }
            if (clean && own > best)
                best = own;
        }
        mx = best > mx ? best : mx;
        two += best >= 2;
        total += best;
    }
    *wmax = mx;
    *ntwo = two;
    *sum = total;
}

/* thr_window_max(), thr_potential(), the whole-board thr_windows_scan() and its row masks agree with the definition;
 * black's forbidden screen misses no forbidden point. */
static void test_window_max(void **state)
{
    (void)state;
    uint64_t s = 0x3a11d0e5;
    Board b;
    long checked = 0, fours = 0, forbidden = 0, screened = 0;
    for (int it = 0; it < 400; it++) {
        RuleSet rs = RULESETS[it % 3];
        tu_random_position(&b, &s, rs, 2 + (int)(tu_rng(&s) % 80), 9);
        for (Color c = BLACK; c <= WHITE; c++) {
            ThrWindows w, w2;
            ThrRows wr, wr2;
            thr_windows_scan(&b, c, &w);
            thr_windows_rows(&b, &w, &wr);
            thr_windows_scan_min(&b, c, 2, &w2); /* levels 2 and up only: the same row masks */
            thr_windows_rows(&b, &w2, &wr2);
            assert_memory_equal(&wr, &wr2, sizeof wr);
            assert_memory_equal(w.many, w2.many, sizeof w.many);
            assert_int_equal(w.line4, w2.line4);
            for (int p = 0; p < BOARD_POINTS; p++) {
                if (board_at(&b, (Point)p) != EMPTY)
                    continue;
                int rw, rn, rsum, tw, tn, sw, sn;
                ref_window_max(&b, (Point)p, c, &rw, &rn, &rsum);
                assert_int_equal(thr_potential(&b, (Point)p, c), rsum);
                thr_window_max(&b, (Point)p, c, &tw, &tn);
                thr_windows_at(&w, (Point)p, &sw, &sn);
                assert_int_equal(tw, rw);
                assert_int_equal(tn, rn);
                assert_int_equal(sw, rw);
                assert_int_equal(sn, rn);
                int col = point_col((Point)p), row = point_row((Point)p);
                assert_int_equal(wr.u2[row] >> col & 1, rw >= 2);
                assert_int_equal(wr.u3[row] >> col & 1, rw >= 3);
                assert_int_equal(wr.a2[row] >> col & 1, rn >= 2);
                if (c == BLACK) /* the row masks make up black's forbidden screen */
                    assert_int_equal((wr.a2[row] | wr.m4[row]) >> col & 1, thr_forbid_screen(&b, &w, (Point)p));
                fours += rw == 4;
                checked++;
                if (c == BLACK && rs == RULE_RENJU && rules_is_forbidden(&b, (Point)p)) {
                    assert_true(thr_forbid_screen(&b, &w, (Point)p)); /* the screen never misses one */
                    forbidden++;
                }
                screened += c == BLACK && thr_forbid_screen(&b, &w, (Point)p);
            }
        }
    }
    print_message("window scan: %ld points, %ld black forbidden, %ld pass black's screen\n", checked, forbidden,
                  screened);
    assert_true(checked > 100000);
    assert_true(fours > 100);
    assert_true(forbidden > 300 && screened < checked / 4);
}

/* The short-loss test of threat.c agrees with the rules-only one. */
static void test_short_loss_vs_rules(void **state)
{
    (void)state;
    uint64_t s = 0x5107;
    Board b;
    long losses = 0, checked = 0;
    for (int it = 0; it < 60; it++) {
        RuleSet rs = RULESETS[it % 3];
        tu_random_position(&b, &s, rs, 14 + (int)(tu_rng(&s) % 30), 9);
        for (int p = 0; p < BOARD_POINTS; p += 1 + (int)(tu_rng(&s) % 3)) {
            if (board_at(&b, (Point)p) != EMPTY || !rules_is_legal(&b, (Point)p, rs))
                continue;
            bool mine = thr_short_loss(&b, (Point)p, rs);
            assert_int_equal(mine, tu_short_loss(&b, (Point)p, rs));
            losses += mine;
            checked++;
        }
    }
    assert_true(checked > 1000);
    assert_true(losses > 10);
}

/*
 * Soundness of the VCT defences: on random positions where the defender is
 * to move and the attacker threatens a double-win move, every legal defender
 * move outside vct_defences() is a short loss, and every move inside is not.
 */
static void test_vct_defences_exact(void **state)
{
    (void)state;
    uint64_t s = 0xdefe;
    Board b;
    Point def[BOARD_POINTS], buf[BOARD_POINTS];
    int positions = 0;
    for (int it = 0; it < 4000 && positions < 60; it++) {
        RuleSet rs = it % 4 == 3 ? RULE_FREESTYLE : RULE_RENJU;
        tu_random_position(&b, &s, rs, 12 + (int)(tu_rng(&s) % 30), 9);
        Color d = b.to_move, att = color_other(d);
        if (rules_five_points(&b, att, rs, buf) || rules_five_points(&b, d, rs, buf))
            continue;
        int n = vct_defences(&b, rs, def);
        if (n < 0)
            continue;
        positions++;
        for (int p = 0; p < BOARD_POINTS; p++) {
            if (board_at(&b, (Point)p) != EMPTY || !rules_is_legal(&b, (Point)p, rs))
                continue;
            bool listed = in_list(def, n, (Point)p);
            bool loss = tu_short_loss(&b, (Point)p, rs);
            if (listed == loss)
                fprintf(stderr, "defence mismatch at point %d (listed %d, loss %d), %d stones\n", p, listed, loss,
                        board_stone_count(&b));
            assert_int_not_equal(listed, loss);
        }
        assert_false(tu_short_loss(&b, POINT_PASS, rs) == false);
    }
    assert_true(positions >= 30);
}

/*
 * Defences off the lines of the attacker's double-win moves (not on the
 * lines of all of them): a white stone that makes one of black's open-four
 * points a 4-3-3 by turning a fake three real (RIF 9.3).  Found by scanning random positions; each far point must be
 * listed, and the rules-only short-loss test must agree that it is no loss.
 */
static void test_far_defences(void **state)
{
    (void)state;
    static const struct {
        const char *far;
        const char *pos;
    } CASES[] = {
        {"j5", "k4 h10 i3 l6 i4 j10 h12 j12 g2 j11 m5 l12 h11 n10 l5 n8 h2 j6 k5 m4 j2"},
        {"k5", "l7 d8 m5 f7 c7 g9 e7 g6 j3 e10 k8 k13 n6 j11 k4 c10 j5 j8 l6 l15 n5"},
        {"n8", "k12 h7 j11 f6 j13 k7 l10 m8 l14 f11 m11 h5 l5 i7 o10 e10 m9 g13 j4 k6 g12 f8 j6 e7 d9 d7 m10 k9 "
               "k13 e12 n12 e11 n7 h4 m5 d11 l9"},
        {"h7", "h8 j12 f7 i10 d5 j10 g7 l9 k4 j11 c5 k9 d6 l12 h9 k11 e9 m9 b8 e6 f6 j4 d11 n7 d10 f12 i7 l8 m5 "
               "g12 k6"},
        {"h6", "g6 l6 g7 k8 f9 d6 e9 n4 f7 i8 d10 h8 b8 j12 l5 d11 g10 k6 e5 m9 g11 c11 m6 l4 e10 c12 d5 e6 j7 "
               "e14 c8"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Board b;
        char err[256];
        Point far, def[BOARD_POINTS], w[BOARD_POINTS];
        int used;
        assert_int_equal(position_parse(CASES[i].pos, RULE_RENJU, EMPTY, &b, err, sizeof err), 0);
        assert_int_equal(notation_parse_point(CASES[i].far, &far, &used), 0);
        assert_int_equal(b.to_move, WHITE);
        int nw = thr_double_wins(&b, BLACK, RULE_RENJU, w, false);
        assert_true(nw > 0);
        bool on_all = true; /* on the lines of every key point? */
        for (int k = 0; k < nw; k++) {
            uint64_t set[4] = {0, 0, 0, 0};
            thr_mark_lines(w[k], set);
            on_all &= (set[far >> 6] >> (far & 63) & 1) != 0;
        }
        assert_false(on_all);
        int n = vct_defences(&b, RULE_RENJU, def);
        assert_true(in_list(def, n, far));
        assert_false(tu_short_loss(&b, far, RULE_RENJU));
        /* After the far stone, one of black's other key points is forbidden. */
        board_play(&b, far);
        bool forb = false;
        for (int k = 0; k < nw; k++)
            forb |= w[k] != far && rules_is_forbidden(&b, w[k]);
        board_undo(&b);
        assert_true(forb);
    }
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_primitives_vs_rules), cmocka_unit_test(test_window_max),
        cmocka_unit_test(test_short_loss_vs_rules), cmocka_unit_test(test_vct_defences_exact),
        cmocka_unit_test(test_far_defences),        cmocka_unit_test(test_four_lines_incremental),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
