/* test_oprules.c - the opening procedures as games over proven facts (oprules.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "oprules.h"

enum { MAXF = 8 };

/* Facts built in a test: arrays owned here, f points into them. */
typedef struct {
    int nfifth[MAXF], lo[MAXF], hi[MAXF], open9[MAXF];
    Result fourth[MAXF];
    bool in7[MAXF];
    OpeningFacts f;
} Built;

/* Facts with n 4th classes, class i having nfifth[i] 5th classes and W in [lo[i], hi[i]]. */
static void build(Built *b, Result noswap, int n, const int *nfifth, const int *lo, const int *hi)
{
    memset(b, 0, sizeof *b);
    for (int i = 0; i < n; i++) {
        b->nfifth[i] = nfifth[i];
        b->lo[i] = lo[i];
        b->hi[i] = hi[i];
        b->fourth[i] = RESULT_UNKNOWN;
        b->in7[i] = true;
    }
    b->f.noswap = noswap;
    b->f.nfourth = n;
    b->f.nfifth = b->nfifth;
    b->f.wins_min = b->lo;
    b->f.wins_max = b->hi;
}

static OpruleVerdict eval(const Built *b, OpruleId rule, int n)
{
    OpruleVerdict v;
    assert_int_equal(oprules_evaluate_rule(&b->f, rule, n, &v), RJ_OK);
    assert_int_equal(v.rule, rule);
    assert_non_null(v.why);
    assert_true(v.verdict != OPRULE_FIRST); /* no modelled procedure is decided for the opener */
    return v;
}

static void test_names(void **state)
{
    (void)state;
    const char *want[] = {"no-swap", "rif", "yamaguchi", "soosorv", "taraguchi", "tarannikov", "jonsson"};
    for (int r = 0; r < OPRULE_COUNT; r++) {
        assert_string_equal(oprules_name((OpruleId)r), want[r]);
        assert_int_equal(oprules_from_name(want[r]), r);
    }
    assert_string_equal(oprules_name(OPRULE_COUNT), "?");
    assert_int_equal(oprules_from_name("RIF"), RJ_ENOTFOUND);
    assert_int_equal(oprules_from_name(NULL), RJ_ENOTFOUND);
    assert_string_equal(oprules_outcome_name(OPRULE_OPEN), "open");
    assert_string_equal(oprules_outcome_name(OPRULE_BLACK), "black");
    assert_string_equal(oprules_outcome_name(OPRULE_WHITE), "white");
    assert_string_equal(oprules_outcome_name(OPRULE_FIRST), "first-player");
    assert_string_equal(oprules_outcome_name(OPRULE_SECOND), "second-player");
    assert_int_equal(oprules_default_n(OPRULE_RIF), 2);
    assert_int_equal(oprules_default_n(OPRULE_SOOSORV), 8);
    assert_int_equal(oprules_default_n(OPRULE_TARAGUCHI), 10);
    assert_int_equal(oprules_default_n(OPRULE_JONSSON), 3);
    assert_int_equal(oprules_default_n(OPRULE_YAMAGUCHI), -1);
    assert_int_equal(oprules_default_n(OPRULE_NOSWAP), -1);
}

static void test_bad_facts(void **state)
{
    (void)state;
    const int nf[] = {5, 5}, lo[] = {1, 2}, hi[] = {3, 4};
    Built b;
    OpruleVerdict v[OPRULE_COUNT];
    build(&b, RESULT_UNKNOWN, 2, nf, lo, hi);
    assert_int_equal(oprules_evaluate(NULL, v, OPRULE_COUNT), RJ_EBADARG);
    assert_int_equal(oprules_evaluate(&b.f, NULL, 1), RJ_EBADARG);
    assert_int_equal(oprules_evaluate(&b.f, v, -1), RJ_EBADARG);
    assert_int_equal(oprules_evaluate_rule(&b.f, OPRULE_COUNT, 0, v), RJ_EBADARG);
    assert_int_equal(oprules_evaluate_rule(&b.f, OPRULE_RIF, 0, NULL), RJ_EBADARG);
    b.f.nfourth = 0;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_EBADARG);
    b.f.nfourth = BOARD_POINTS + 1;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_EBADARG);
    b.f.nfourth = 2;
    b.f.wins_max = NULL;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_EBADARG);
    b.f.wins_max = b.hi;
    b.lo[0] = 4; /* wins_min > wins_max */
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_EBADARG);
    b.lo[0] = -1;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_EBADARG);
    b.lo[0] = 1;
    b.hi[1] = 6; /* more wins than classes */
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_EBADARG);
    b.hi[1] = 4;
    b.f.noswap = (Result)7;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_EBADARG);
    b.f.noswap = RESULT_UNKNOWN;
    b.f.open_in_9x9 = b.open9;
    b.open9[0] = 3; /* only hi - lo = 2 classes are unknown */
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_EBADARG);
    b.open9[0] = 2;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), OPRULE_COUNT);
    b.f.fourth_in_7x7 = b.in7;
    b.in7[0] = b.in7[1] = false; /* move 4 must have a class in the 7x7 */
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_EBADARG);
    b.in7[1] = true;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), OPRULE_COUNT);
    /* Contradictions: a disproven 4th move with a proven winning 5th, or under a proven opening. */
    b.f.fourth = b.fourth;
    b.fourth[0] = RESULT_DISPROVEN;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_ECONFLICT);
    b.lo[0] = 0;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), OPRULE_COUNT);
    b.f.noswap = RESULT_PROVEN;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_ECONFLICT);
    b.fourth[0] = (Result)3;
    b.f.noswap = RESULT_UNKNOWN;
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT), RJ_EBADARG);
}

static void test_evaluate_count(void **state)
{
    (void)state;
    const int nf[] = {4}, lo[] = {1}, hi[] = {3};
    Built b;
    build(&b, RESULT_UNKNOWN, 1, nf, lo, hi);
    OpruleVerdict v[OPRULE_COUNT + 2];
    memset(v, 0xff, sizeof v);
    assert_int_equal(oprules_evaluate(&b.f, NULL, 0), 0);
    assert_int_equal(oprules_evaluate(&b.f, v, 3), 3);
    assert_int_equal(v[2].rule, OPRULE_YAMAGUCHI);
    assert_int_equal((int)v[3].rule, -1); /* untouched */
    assert_int_equal(oprules_evaluate(&b.f, v, OPRULE_COUNT + 2), OPRULE_COUNT);
    for (int r = 0; r < OPRULE_COUNT; r++) {
        assert_int_equal(v[r].rule, r);
        assert_int_equal(v[r].n, oprules_default_n((OpruleId)r));
    }
}

/* All W known: N_fair exact, every N decided, yamaguchi decided. */
static void test_exact_w(void **state)
{
    (void)state;
    const int nf[] = {20, 18, 25}, w[] = {6, 4, 9};
    Built b;
    build(&b, RESULT_UNKNOWN, 3, nf, w, w);
    OpruleVerdict v = eval(&b, OPRULE_YAMAGUCHI, 0);
    assert_int_equal(v.n_fair_min, 5);
    assert_int_equal(v.n_fair_max, 5);
    assert_int_equal(v.black_wins_n_max, 4);
    assert_int_equal(v.black_fails_n_min, 5);
    assert_int_equal(v.verdict, OPRULE_SECOND);
    assert_int_equal(v.chooser, OPRULE_SECOND);
    assert_true(v.draw_possible); /* the opener can declare N = 5 */
    assert_int_equal(v.open_fourth, 0);
    assert_int_equal(v.n, -1);
    assert_int_equal(v.stage, OPRULE_NONE);
    assert_non_null(strstr(v.note, "26 openings"));
    /* RIF N=2 (min W 4 >= 2): a black stage; every N up to 4 too. */
    v = eval(&b, OPRULE_RIF, 0);
    assert_int_equal(v.n, 2);
    assert_int_equal(v.stage, OPRULE_BLACK);
    assert_int_equal(v.verdict, OPRULE_SECOND);
    assert_false(v.draw_possible);
    v = eval(&b, OPRULE_RIF, 5);
    assert_int_equal(v.stage, OPRULE_WHITE);
    assert_int_equal(v.verdict, OPRULE_SECOND);
    assert_true(v.draw_possible);
    /* Soosorv-8: every declaration decided; some k (5) is no black win: draw not excluded. */
    v = eval(&b, OPRULE_SOOSORV, 0);
    assert_int_equal(v.n, 8);
    assert_int_equal(v.verdict, OPRULE_SECOND);
    assert_int_equal(v.stage, OPRULE_WHITE);
    assert_true(v.draw_possible);
    /* Soosorv-4 (the 1-4 version): every k <= 4 wins for black after every 4th move. */
    v = eval(&b, OPRULE_SOOSORV, 4);
    assert_int_equal(v.n, 4);
    assert_int_equal(v.stage, OPRULE_BLACK);
    assert_int_equal(v.verdict, OPRULE_SECOND);
    assert_false(v.draw_possible);
}

static void test_rif(void **state)
{
    (void)state;
    Built b;
    const int nf[] = {10, 10, 10};
    {
        /* min wins_min = 2: black wins the N=2 stage; the second player swaps to black. */
        const int lo[] = {2, 5, 3}, hi[] = {9, 10, 7};
        build(&b, RESULT_UNKNOWN, 3, nf, lo, hi);
        OpruleVerdict v = eval(&b, OPRULE_RIF, 0);
        assert_int_equal(v.stage, OPRULE_BLACK);
        assert_int_equal(v.verdict, OPRULE_SECOND);
        assert_int_equal(v.chooser, OPRULE_SECOND);
        assert_false(v.draw_possible);
        assert_int_equal(v.black_wins_n_max, 2);
        assert_int_equal(v.black_fails_n_min, 8);
        assert_int_equal(v.n_fair_min, 3);
        assert_int_equal(v.n_fair_max, 8);
        assert_int_equal(v.open_fourth, 0);
    }
    {
        /* min wins_max = 1: black cannot win the N=2 stage; the second player keeps white. */
        const int lo[] = {0, 5, 0}, hi[] = {9, 10, 1};
        build(&b, RESULT_UNKNOWN, 3, nf, lo, hi);
        OpruleVerdict v = eval(&b, OPRULE_RIF, 0);
        assert_int_equal(v.stage, OPRULE_WHITE);
        assert_int_equal(v.verdict, OPRULE_SECOND);
        assert_true(v.draw_possible);
        assert_int_equal(v.black_wins_n_max, 0);
        assert_int_equal(v.black_fails_n_min, 2);
        assert_int_equal(v.open_fourth, 0);
    }
    {
        /* min wins_min 1, min wins_max 4: open; two classes still below 2 proven wins. */
        const int lo[] = {1, 5, 0}, hi[] = {4, 10, 6};
        build(&b, RESULT_UNKNOWN, 3, nf, lo, hi);
        OpruleVerdict v = eval(&b, OPRULE_RIF, 0);
        assert_int_equal(v.stage, OPRULE_OPEN);
        assert_int_equal(v.verdict, OPRULE_OPEN);
        assert_int_equal(v.chooser, OPRULE_SECOND);
        assert_true(v.draw_possible);
        assert_int_equal(v.open_fourth, 2);
        assert_int_equal(v.n_fair_min, 1);
        assert_int_equal(v.n_fair_max, 5);
        /* Yamaguchi: N in 1..4 open (the two classes with lo < 4 and class 2 hold it open). */
        v = eval(&b, OPRULE_YAMAGUCHI, 0);
        assert_int_equal(v.verdict, OPRULE_OPEN);
        assert_int_equal(v.black_wins_n_max, 0);
        assert_int_equal(v.black_fails_n_min, 5);
        assert_int_equal(v.open_fourth, 2);
    }
}

static void test_noswap(void **state)
{
    (void)state;
    const int nf[] = {6, 6}, lo[] = {0, 1}, hi[] = {3, 6};
    Built b;
    build(&b, RESULT_PROVEN, 2, nf, lo, hi);
    OpruleVerdict v = eval(&b, OPRULE_NOSWAP, 0);
    assert_int_equal(v.verdict, OPRULE_BLACK);
    assert_int_equal(v.stage, OPRULE_BLACK);
    assert_int_equal(v.chooser, OPRULE_NONE);
    assert_false(v.draw_possible);
    assert_int_equal(v.n, -1);
    assert_int_equal(v.black_wins_n_max, -1);
    assert_int_equal(v.open_fourth, -1);
    b.f.noswap = RESULT_DISPROVEN;
    v = eval(&b, OPRULE_NOSWAP, 0);
    assert_int_equal(v.verdict, OPRULE_WHITE);
    assert_true(v.draw_possible);
    b.f.noswap = RESULT_UNKNOWN;
    v = eval(&b, OPRULE_NOSWAP, 0);
    assert_int_equal(v.verdict, OPRULE_OPEN);
    /* Every 4th move proven for black still leaves white's pass at move 4: open. */
    b.f.fourth = b.fourth;
    b.fourth[0] = b.fourth[1] = RESULT_PROVEN;
    v = eval(&b, OPRULE_NOSWAP, 0);
    assert_int_equal(v.verdict, OPRULE_OPEN);
    /* A disproven 4th move decides game (a) and makes W = 0 there (RIF: white stage). */
    b.fourth[0] = RESULT_DISPROVEN;
    v = eval(&b, OPRULE_NOSWAP, 0);
    assert_int_equal(v.verdict, OPRULE_WHITE);
    assert_non_null(strstr(v.why, "after some 4th move"));
    v = eval(&b, OPRULE_RIF, 0);
    assert_int_equal(v.stage, OPRULE_WHITE);
    assert_int_equal(v.black_fails_n_min, 1);
    assert_int_equal(v.n_fair_max, 1);
}

static void test_soosorv_jonsson(void **state)
{
    (void)state;
    Built b;
    const int nf[] = {30, 30};
    {
        /* lo = 8 everywhere: every declaration 1..8 is a black win whatever hi is. */
        const int lo[] = {8, 12}, hi[] = {30, 20};
        build(&b, RESULT_UNKNOWN, 2, nf, lo, hi);
        OpruleVerdict v = eval(&b, OPRULE_SOOSORV, 0);
        assert_int_equal(v.verdict, OPRULE_SECOND);
        assert_int_equal(v.stage, OPRULE_BLACK);
        assert_false(v.draw_possible);
        assert_int_equal(v.open_fourth, 0);
        /* Yamaguchi is still open (N 9..20 undecided). */
        assert_int_equal(eval(&b, OPRULE_YAMAGUCHI, 0).verdict, OPRULE_OPEN);
    }
    {
        /* lo 7, hi 30: k = 8 after class 0 is open. */
        const int lo[] = {7, 12}, hi[] = {30, 20};
        build(&b, RESULT_UNKNOWN, 2, nf, lo, hi);
        OpruleVerdict v = eval(&b, OPRULE_SOOSORV, 0);
        assert_int_equal(v.verdict, OPRULE_OPEN);
        assert_int_equal(v.stage, OPRULE_OPEN);
        assert_int_equal(v.open_fourth, 1);
        /* Jonsson (k <= 3) is decided: every k a black win. */
        v = eval(&b, OPRULE_JONSSON, 0);
        assert_int_equal(v.n, 3);
        assert_int_equal(v.verdict, OPRULE_SECOND);
        assert_int_equal(v.stage, OPRULE_BLACK);
        assert_false(v.draw_possible);
    }
    {
        /* Class 1 exact W = 2 < 8: the declarer can force "take white"; class 0 keeps k 4..8 open. */
        const int lo[] = {3, 2}, hi[] = {30, 2};
        build(&b, RESULT_UNKNOWN, 2, nf, lo, hi);
        OpruleVerdict v = eval(&b, OPRULE_SOOSORV, 0);
        assert_int_equal(v.stage, OPRULE_WHITE);
        assert_int_equal(v.verdict, OPRULE_OPEN);
        assert_int_equal(v.open_fourth, 1);
        /* Jonsson: k = 1..3 after class 0 are black wins, after class 1 k = 3 is not: all decided. */
        v = eval(&b, OPRULE_JONSSON, 0);
        assert_int_equal(v.verdict, OPRULE_SECOND);
        assert_int_equal(v.stage, OPRULE_WHITE);
        assert_true(v.draw_possible);
        /* Jonsson with class 0 at lo 1, hi 3: k = 2, 3 open. */
        b.lo[0] = 1;
        b.hi[0] = 3;
        v = eval(&b, OPRULE_JONSSON, 0);
        assert_int_equal(v.verdict, OPRULE_OPEN);
        assert_int_equal(v.stage, OPRULE_WHITE);
        /* ... but lo 1, hi 1: exact, decided. */
        b.hi[0] = 1;
        assert_int_equal(eval(&b, OPRULE_JONSSON, 0).verdict, OPRULE_SECOND);
    }
    {
        /* W = 0 everywhere (no 5th move wins): every k is a white stage, decided. */
        const int lo[] = {0, 0}, hi[] = {0, 0};
        build(&b, RESULT_UNKNOWN, 2, nf, lo, hi);
        OpruleVerdict v = eval(&b, OPRULE_SOOSORV, 0);
        assert_int_equal(v.verdict, OPRULE_SECOND);
        assert_int_equal(v.stage, OPRULE_WHITE);
        assert_true(v.draw_possible);
        assert_int_equal(v.black_wins_n_max, 0);
        assert_int_equal(v.n_fair_max, 1);
    }
}

static void test_tarannikov_taraguchi(void **state)
{
    (void)state;
    Built b;
    const int nf[] = {40, 40, 40}, lo[] = {12, 3, 10}, hi[] = {12, 3, 30};
    build(&b, RESULT_UNKNOWN, 3, nf, lo, hi);
    /* Without 9x9 / 7x7 data, class 2's 20 unknown 5th classes all count. */
    OpruleVerdict v = eval(&b, OPRULE_TARANNIKOV, 0);
    assert_int_equal(v.verdict, OPRULE_OPEN);
    assert_int_equal(v.open_fourth, 1);
    assert_int_equal(v.n, -1);
    assert_int_equal(v.black_wins_n_max, -1);
    /* Taraguchi-10: class 0 (W 12) black, class 1 (W 3, all known) white, class 2 lo 10 black. */
    v = eval(&b, OPRULE_TARAGUCHI, 0);
    assert_int_equal(v.n, 10);
    assert_int_equal(v.verdict, OPRULE_SECOND);
    assert_true(v.draw_possible); /* after class 1 the black holder can take option 2 and lose only */
    /* The unknowns of class 2 lie outside the 9x9: tarannikov decided too. */
    b.f.open_in_9x9 = b.open9;
    v = eval(&b, OPRULE_TARANNIKOV, 0);
    assert_int_equal(v.verdict, OPRULE_SECOND);
    assert_true(v.draw_possible);
    /* Taraguchi-5 (the seed's other version): classes 0 and 2 black, class 1 (W 3 < 5) white. */
    v = eval(&b, OPRULE_TARAGUCHI, 5);
    assert_int_equal(v.n, 5);
    assert_int_equal(v.verdict, OPRULE_SECOND);
    /* Taraguchi-11: class 2 (lo 10 < 11 <= hi 30) with unknowns in the 9x9 is open. */
    b.open9[2] = 4;
    v = eval(&b, OPRULE_TARAGUCHI, 11);
    assert_int_equal(v.verdict, OPRULE_OPEN);
    assert_int_equal(v.open_fourth, 1);
    assert_int_equal(eval(&b, OPRULE_TARANNIKOV, 0).verdict, OPRULE_OPEN);
    /* ... unless class 2's 4th move lies outside the 7x7 (move 4 may not go there). */
    b.f.fourth_in_7x7 = b.in7;
    b.in7[2] = false;
    assert_int_equal(eval(&b, OPRULE_TARAGUCHI, 11).verdict, OPRULE_SECOND);
    assert_int_equal(eval(&b, OPRULE_TARANNIKOV, 0).verdict, OPRULE_SECOND);
    /* Taraguchi with only class 0 in the 7x7: black holder always wins option 2, no draw. */
    b.in7[1] = false;
    v = eval(&b, OPRULE_TARAGUCHI, 0);
    assert_int_equal(v.verdict, OPRULE_SECOND);
    assert_false(v.draw_possible);
    /* Tarannikov with class 0 all proven (lo = nfifth): no draw either. */
    b.nfifth[0] = 12;
    v = eval(&b, OPRULE_TARANNIKOV, 0);
    assert_int_equal(v.verdict, OPRULE_SECOND);
    assert_false(v.draw_possible);
}

/* A small deterministic generator (xorshift), state passed explicitly. */
static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/*
 * Oracle: enumerate every exact completion W_i in [lo_i, hi_i] (statuses of
 * different 4th classes are independent) and check the N-choice verdicts
 * against what all completions agree on.
 */
static void check_against_completions(const Built *b, int N)
{
    int n = b->f.nfourth, w[MAXF];
    int mmin = 1 << 30, mmax = -1;
    bool all_black = true, all_white = true; /* RIF stage at N over all completions */
    bool all_have_white_decl = true;         /* soosorv stage: some i with W_i < N in every completion */
    for (int i = 0; i < n; i++)
        w[i] = b->lo[i];
    for (;;) {
        int m = w[0];
        bool has = false;
        for (int i = 0; i < n; i++) {
            if (w[i] < m)
                m = w[i];
            has |= w[i] < N;
        }
        mmin = m < mmin ? m : mmin;
        mmax = m > mmax ? m : mmax;
        all_black &= N <= m;
        all_white &= N > m;
        all_have_white_decl &= has;
        int i = 0;
        while (i < n && w[i] == b->hi[i])
            w[i] = b->lo[i], i++;
        if (i == n)
            break;
        w[i]++;
    }
    OpruleVerdict v = eval(b, OPRULE_RIF, N);
    assert_int_equal(v.stage, all_black ? OPRULE_BLACK : all_white ? OPRULE_WHITE : OPRULE_OPEN);
    assert_int_equal(v.verdict, v.stage == OPRULE_OPEN ? OPRULE_OPEN : OPRULE_SECOND);
    assert_int_equal(v.black_wins_n_max, mmin);
    assert_int_equal(v.black_fails_n_min, mmax + 1);
    v = eval(b, OPRULE_YAMAGUCHI, 0);
    assert_int_equal(v.verdict, mmin == mmax ? OPRULE_SECOND : OPRULE_OPEN);
    /* Soosorv-N: decided iff every (i, k <= N) has the same outcome in all completions. */
    bool decided = true;
    for (int i = 0; i < n; i++)
        for (int k = 1; k <= N; k++)
            for (int x = b->lo[i]; x <= b->hi[i]; x++)
                decided &= (k <= x) == (k <= b->lo[i]);
    v = eval(b, OPRULE_SOOSORV, N);
    assert_int_equal(v.verdict, decided ? OPRULE_SECOND : OPRULE_OPEN);
    assert_int_equal(v.stage, mmin >= N ? OPRULE_BLACK : all_have_white_decl ? OPRULE_WHITE : OPRULE_OPEN);
    assert_int_equal(v.open_fourth == 0, decided);
}

static void test_random_against_oracle(void **state)
{
    (void)state;
    uint32_t s = 0x2545f491u;
    for (int t = 0; t < 3000; t++) {
        int n = 1 + (int)(rnd(&s) % 3), nf[MAXF], lo[MAXF], hi[MAXF];
        for (int i = 0; i < n; i++) {
            nf[i] = (int)(rnd(&s) % 6);
            int a = (int)(rnd(&s) % (unsigned)(nf[i] + 1)), c = (int)(rnd(&s) % (unsigned)(nf[i] + 1));
            lo[i] = a < c ? a : c;
            hi[i] = a < c ? c : a;
        }
        Built b;
        build(&b, RESULT_UNKNOWN, n, nf, lo, hi);
        check_against_completions(&b, 1 + (int)(rnd(&s) % 5));
    }
}

static void test_explain(void **state)
{
    (void)state;
    const int nf[] = {10, 10}, lo[] = {1, 3}, hi[] = {6, 4};
    Built b;
    build(&b, RESULT_UNKNOWN, 2, nf, lo, hi);
    OpruleVerdict v = eval(&b, OPRULE_YAMAGUCHI, 0);
    char buf[512];
    int len = oprules_explain(&v, buf, sizeof buf);
    assert_int_equal(len, (int)strlen(buf));
    assert_non_null(strstr(buf, "yamaguchi: open: "));
    assert_non_null(strstr(buf, "black wins the 5th-move stage for N <= 1, cannot for N >= 5, N_fair in [2, 5]"));
    assert_non_null(strstr(buf, "; 2 4th-move classes open"));
    /* snprintf style: truncated but terminated, full length returned. */
    char small[8];
    assert_int_equal(oprules_explain(&v, small, sizeof small), len);
    assert_string_equal(small, "yamaguc");
    assert_int_equal(oprules_explain(&v, NULL, 0), len);
    assert_int_equal(oprules_explain(NULL, buf, sizeof buf), RJ_EBADARG);
    v = eval(&b, OPRULE_RIF, 0); /* Lm 1 < 2 <= Hm 4: open */
    oprules_explain(&v, buf, sizeof buf);
    assert_non_null(strstr(buf, "rif N=2: open: "));
    b.lo[1] = 0;
    b.hi[1] = 1;
    v = eval(&b, OPRULE_RIF, 0);
    oprules_explain(&v, buf, sizeof buf);
    assert_non_null(strstr(buf, "rif N=2: second-player: "));
    assert_non_null(strstr(buf, "; a draw is not excluded"));
}

/* Runs the JSON writer into a memory buffer; the caller frees the text. */
static char *json_of(const OpruleVerdict *v, int n)
{
    char *text = NULL;
    size_t size = 0;
    FILE *fp = open_memstream(&text, &size);
    assert_non_null(fp);
    assert_int_equal(oprules_write_jsonl(fp, v, n), RJ_OK);
    assert_int_equal(fclose(fp), 0);
    return text;
}

static void test_json(void **state)
{
    (void)state;
    const int nf[] = {10, 10}, lo[] = {2, 3}, hi[] = {6, 4};
    Built b;
    build(&b, RESULT_UNKNOWN, 2, nf, lo, hi);
    OpruleVerdict v = eval(&b, OPRULE_RIF, 0);
    char why[512];
    oprules_explain(&v, why, sizeof why);
    char want[1024];
    snprintf(want, sizeof want,
             "{\"rule\":\"rif\",\"n\":2,\"verdict\":\"second-player\",\"stage\":\"black\","
             "\"chooser\":\"second-player\",\"draw_possible\":false,\"black_wins_n_max\":2,"
             "\"black_fails_n_min\":5,\"n_fair_min\":3,\"n_fair_max\":5,\"open_fourth\":0,"
             "\"why\":\"%s\",\"note\":null}\n",
             why);
    char *text = json_of(&v, 1);
    assert_string_equal(text, want);
    free(text);

    v = eval(&b, OPRULE_NOSWAP, 0);
    text = json_of(&v, 1);
    assert_non_null(strstr(text, "{\"rule\":\"no-swap\",\"n\":null,\"verdict\":\"open\",\"stage\":\"open\","
                                 "\"chooser\":null,\"draw_possible\":true,\"black_wins_n_max\":null,"
                                 "\"black_fails_n_min\":null,\"n_fair_min\":null,\"n_fair_max\":null,"
                                 "\"open_fourth\":null,\"why\":\"no-swap: open: "));
    assert_non_null(strstr(text, "\"note\":\"Wen 2007"));
    free(text);

    /* All rules: one line each, the rule names in order, balanced quotes (no raw quote in a string). */
    OpruleVerdict all[OPRULE_COUNT];
    assert_int_equal(oprules_evaluate(&b.f, all, OPRULE_COUNT), OPRULE_COUNT);
    text = json_of(all, OPRULE_COUNT);
    char *line = text;
    for (int r = 0; r < OPRULE_COUNT; r++) {
        char *end = strchr(line, '\n');
        assert_non_null(end);
        *end = '\0';
        char head[64];
        snprintf(head, sizeof head, "{\"rule\":\"%s\",", oprules_name((OpruleId)r));
        assert_int_equal(strncmp(line, head, strlen(head)), 0);
        assert_int_equal(line[strlen(line) - 1], '}');
        int quotes = 0;
        for (char *p = line; *p; p++)
            quotes += *p == '"' && p[-1] != '\\';
        assert_int_equal(quotes % 2, 0);
        line = end + 1;
    }
    assert_int_equal(*line, '\0');
    free(text);

    assert_int_equal(oprules_write_json(NULL, &v), RJ_EBADARG);
    assert_int_equal(oprules_write_jsonl(stdout, NULL, 1), RJ_EBADARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_bad_facts),
        cmocka_unit_test(test_evaluate_count),
        cmocka_unit_test(test_exact_w),
        cmocka_unit_test(test_rif),
        cmocka_unit_test(test_noswap),
        cmocka_unit_test(test_soosorv_jonsson),
        cmocka_unit_test(test_tarannikov_taraguchi),
        cmocka_unit_test(test_random_against_oracle),
        cmocka_unit_test(test_explain),
        cmocka_unit_test(test_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
