/* test_sym.c - the 8 board symmetries, canonical keys, stabilisers, the 26 openings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "board.h"
#include "openings.h"
#include "sym.h"
#include "test_util.h"

/* Board b seen through transform t: the same moves, each mapped by t. */
static void board_transform(const Board *b, int t, Board *out)
{
    board_init(out);
    for (int p = 0; p < BOARD_POINTS; p++)
        if (b->ply == 0 && board_at(b, (Point)p) != EMPTY)
            board_setup_stone(out, sym_apply(t, (Point)p), board_at(b, (Point)p));
    if (b->ply == 0)
        board_set_to_move(out, b->to_move);
    for (int i = 0; i < b->ply; i++)
        board_play(out, sym_apply(t, b->hist[i]));
}

static void opening_board(const Opening *o, Board *b)
{
    board_init(b);
    for (int i = 0; i < 3; i++)
        board_play(b, o->moves[i]);
}

static bool same_map(int a, int b)
{
    for (int p = 0; p < BOARD_POINTS; p++)
        if (sym_apply(a, (Point)p) != sym_apply(b, (Point)p))
            return false;
    return true;
}

/* Chebyshev and taxicab distances between two points (preserved by every symmetry). */
static int dist(Point a, Point b, bool cheb)
{
    int dx = point_col(a) - point_col(b), dy = point_row(a) - point_row(b);
    dx = dx < 0 ? -dx : dx;
    dy = dy < 0 ? -dy : dy;
    return cheb ? (dx > dy ? dx : dy) : dx + dy;
}

static void test_group(void **state)
{
    (void)state;
    const Point h8 = point_make(7, 7);
    /* Each transform is a bijection of the board fixing h8 and preserving distances. */
    for (int t = 0; t < NUM_SYMS; t++) {
        int seen[BOARD_POINTS] = {0};
        for (int p = 0; p < BOARD_POINTS; p++) {
            Point q = sym_apply(t, (Point)p);
            assert_true(q < BOARD_POINTS);
            seen[q]++;
            assert_int_equal(dist((Point)p, h8, true), dist(q, h8, true));
            assert_int_equal(dist((Point)p, h8, false), dist(q, h8, false));
            Point r = point_make((p * 7 + 3) % BOARD_SIZE, (p * 11 + 5) % BOARD_SIZE);
            assert_int_equal(dist((Point)p, r, false), dist(q, sym_apply(t, r), false));
        }
        for (int p = 0; p < BOARD_POINTS; p++)
            assert_int_equal(seen[p], 1);
        assert_int_equal(sym_apply(t, h8), h8);
        assert_int_equal(sym_apply(t, POINT_PASS), POINT_PASS);
    }
    /* The 8 maps are distinct; 0 is the identity. */
    for (int p = 0; p < BOARD_POINTS; p++)
        assert_int_equal(sym_apply(0, (Point)p), p);
    for (int a = 0; a < NUM_SYMS; a++)
        for (int b = a + 1; b < NUM_SYMS; b++)
            assert_false(same_map(a, b));
    /* Closure (the composition is one of the 8, pointwise), identity, inverses, associativity. */
    for (int a = 0; a < NUM_SYMS; a++) {
        int inv = sym_inverse(a);
        assert_true(inv >= 0 && inv < NUM_SYMS);
        assert_int_equal(sym_compose(a, inv), 0);
        assert_int_equal(sym_compose(inv, a), 0);
        assert_int_equal(sym_compose(a, 0), a);
        assert_int_equal(sym_compose(0, a), a);
        for (int b = 0; b < NUM_SYMS; b++) {
            int ab = sym_compose(a, b);
            assert_true(ab >= 0 && ab < NUM_SYMS);
            for (int p = 0; p < BOARD_POINTS; p++)
                assert_int_equal(sym_apply(ab, (Point)p), sym_apply(a, sym_apply(b, (Point)p)));
            for (int c = 0; c < NUM_SYMS; c++)
                assert_int_equal(sym_compose(sym_compose(a, b), c), sym_compose(a, sym_compose(b, c)));
        }
    }
    /* The group is dihedral of order 8, not abelian: some pair does not commute. */
    bool noncommuting = false;
    for (int a = 0; a < NUM_SYMS; a++)
        for (int b = 0; b < NUM_SYMS; b++)
            noncommuting |= sym_compose(a, b) != sym_compose(b, a);
    assert_true(noncommuting);
}

/* sym_key straight from its definition (sym.h): side to move, rule set, 2 bits per point, the pass byte. */
static void key_ref(const Board *b, RuleSet rs, SymKey *out)
{
    memset(out, 0, sizeof *out);
    out->b[0] = (uint8_t)b->to_move;
    out->b[1] = (uint8_t)rs;
    out->b[SYMKEY_PASS_BYTE] = board_last_move(b) == POINT_PASS;
    for (int p = 0; p < BOARD_POINTS; p++)
        out->b[2 + p / 4] |= (uint8_t)(board_at(b, (Point)p) << (2 * (p % 4)));
}

/* Fewer than max_moves random moves on empty points from the empty board, one in pass_one_in of them a pass
 * (unlike test_util.h's random_game: any point, passes included). */
static Board random_moves(uint64_t *s, int max_moves, int pass_one_in)
{
    Board b;
    board_init(&b);
    int n = (int)(rng_next(s) % (uint64_t)max_moves);
    for (int i = 0; i < n; i++) {
        Point p;
        if (rng_next(s) % (uint64_t)pass_one_in == 0)
            p = POINT_PASS;
        else
            do
                p = (Point)(rng_next(s) % BOARD_POINTS);
            while (board_at(&b, p) != EMPTY);
        board_play(&b, p);
    }
    return b;
}

/* sym_canonical_after agrees with sym_canonical of the board after the move (pass included). */
static void test_canonical_after(void **state)
{
    (void)state;
    uint64_t s = 7;
    int passes = 0, moves = 0;
    for (int round = 0; round < 200; round++) {
        Board b = random_moves(&s, 30, 10);
        SymKey imgs[NUM_SYMS];
        sym_images(&b, RULE_RENJU, imgs);
        for (int p = 0; p <= BOARD_POINTS; p++) {
            Point m = p == BOARD_POINTS ? POINT_PASS : (Point)p;
            if (m != POINT_PASS && board_at(&b, m) != EMPTY)
                continue;
            Board a = b;
            board_play(&a, m);
            SymKey want, got;
            int tw, tg;
            sym_canonical(&a, RULE_RENJU, &want, &tw);
            sym_canonical_after(imgs, b.to_move, m, &got, &tg);
            assert_memory_equal(got.b, want.b, SYMKEY_LEN);
            assert_int_equal(tg, tw);
            passes += m == POINT_PASS;
            moves++;
        }
    }
    assert_int_equal(passes, 200);
    assert_true(moves > 200 * 190);
}

static void test_canonical_invariant(void **state)
{
    (void)state;
    uint64_t s = 42;
    int asymmetric = 0;
    for (int round = 0; round < 300; round++) {
        Board b = random_moves(&s, 40, 20);
        SymKey canon, k, ref;
        int t0;
        sym_key(&b, RULE_RENJU, &k);
        key_ref(&b, RULE_RENJU, &ref);
        assert_memory_equal(k.b, ref.b, SYMKEY_LEN);
        sym_canonical(&b, RULE_RENJU, &canon, &t0);
        /* The returned transform maps b onto the canonical frame. */
        Board img;
        board_transform(&b, t0, &img);
        sym_key(&img, RULE_RENJU, &k);
        assert_memory_equal(k.b, canon.b, SYMKEY_LEN);
        for (int t = 0; t < NUM_SYMS; t++) {
            board_transform(&b, t, &img);
            assert_true(board_check(&img));
            SymKey c2;
            int t2;
            sym_canonical(&img, RULE_RENJU, &c2, &t2);
            assert_memory_equal(c2.b, canon.b, SYMKEY_LEN);
            /* A stored best move maps back: p on b -> canonical via t0, and via t2 from img
             * (unique when no symmetry fixes the position). */
            if (sym_stabiliser(&b) == 1u) {
                asymmetric++;
                for (int p = 0; p < BOARD_POINTS; p += 13)
                    assert_int_equal(sym_apply(t0, (Point)p), sym_apply(t2, sym_apply(t, (Point)p)));
            }
            /* The canonical key is the minimum over the images. */
            sym_key(&img, RULE_RENJU, &k);
            key_ref(&img, RULE_RENJU, &ref);
            assert_memory_equal(k.b, ref.b, SYMKEY_LEN);
            assert_true(memcmp(canon.b, k.b, SYMKEY_LEN) <= 0);
        }
        /* Side to move and rule set are part of the key. */
        SymKey other;
        sym_canonical(&b, RULE_FREESTYLE, &other, NULL);
        assert_memory_not_equal(other.b, canon.b, SYMKEY_LEN);
    }
    assert_true(asymmetric > 8 * 200);
    Board a, b;
    board_init(&a);
    board_init(&b);
    board_setup_stone(&a, point_make(7, 7), BLACK);
    board_setup_stone(&b, point_make(7, 7), BLACK);
    board_set_to_move(&b, WHITE);
    SymKey ka, kb;
    sym_canonical(&a, RULE_RENJU, &ka, NULL);
    sym_canonical(&b, RULE_RENJU, &kb, NULL);
    assert_memory_not_equal(ka.b, kb.b, SYMKEY_LEN);
}

/* A pending pass is part of the key: another pass would end the game. */
static void test_pass_in_key(void **state)
{
    (void)state;
    Board a, b;
    board_init(&a);
    board_init(&b);
    board_play(&a, point_make(7, 7));
    board_play(&a, POINT_PASS); /* black h8, white passes: black to move */
    board_setup_stone(&b, point_make(7, 7), BLACK);
    SymKey ka, kb;
    sym_canonical(&a, RULE_RENJU, &ka, NULL);
    sym_canonical(&b, RULE_RENJU, &kb, NULL);
    assert_int_equal(ka.b[0], kb.b[0]);
    assert_int_equal(ka.b[SYMKEY_PASS_BYTE], 1);
    assert_int_equal(kb.b[SYMKEY_PASS_BYTE], 0);
    assert_memory_not_equal(ka.b, kb.b, SYMKEY_LEN);
}

static void test_asymmetric_images(void **state)
{
    (void)state;
    Board b;
    opening_board(opening_find("D4"), &b);
    SymKey k[NUM_SYMS];
    for (int t = 0; t < NUM_SYMS; t++) {
        Board img;
        board_transform(&b, t, &img);
        sym_key(&img, RULE_RENJU, &k[t]);
        for (int u = 0; u < t; u++)
            assert_memory_not_equal(k[t].b, k[u].b, SYMKEY_LEN);
    }
}

static void test_opening_stabilisers(void **state)
{
    (void)state;
    const char *symmetric[] = {"D1", "D8", "D11", "I1", "I11", "I13"};
    int nsym = 0;
    for (int i = 0; i < NUM_OPENINGS; i++) {
        const Opening *o = opening_get(i);
        Board b;
        opening_board(o, &b);
        unsigned st = sym_stabiliser(&b);
        bool expect = false;
        for (size_t j = 0; j < sizeof symmetric / sizeof symmetric[0]; j++)
            expect |= !strcmp(o->code, symmetric[j]);
        assert_true(st & 1u);
        if (expect) {
            /* Exactly identity + one mirror, and the mirror really fixes the stones. */
            assert_int_equal(__builtin_popcount(st), 2);
            int m = __builtin_ctz(st & ~1u);
            for (int j = 0; j < 3; j++)
                assert_int_equal(board_at(&b, sym_apply(m, o->moves[j])), board_at(&b, o->moves[j]));
            assert_int_equal(sym_apply(m, o->moves[1]), o->moves[1]);
            assert_int_equal(sym_apply(m, o->moves[2]), o->moves[2]);
            nsym++;
        } else {
            if (st != 1u)
                fail_msg("%s has stabiliser 0x%x", o->code, st);
        }
    }
    assert_int_equal(nsym, 6);
}

static void test_openings_distinct(void **state)
{
    (void)state;
    SymKey k[NUM_OPENINGS];
    for (int i = 0; i < NUM_OPENINGS; i++) {
        Board b;
        opening_board(opening_get(i), &b);
        sym_canonical(&b, RULE_RENJU, &k[i], NULL);
        for (int j = 0; j < i; j++)
            if (!memcmp(k[i].b, k[j].b, SYMKEY_LEN))
                fail_msg("%s and %s are equivalent", opening_get(i)->code, opening_get(j)->code);
    }
}

/* The 26 openings are exactly the symmetry classes of
 * (black h8, white adjacent to h8, black in the central 5x5 on an empty point). */
static void test_openings_are_all_classes(void **state)
{
    (void)state;
    enum { MAXC = 256 };
    SymKey cls[MAXC];
    int ncls = 0, shapes = 0;
    SymKey open[NUM_OPENINGS];
    int hits[NUM_OPENINGS] = {0};
    for (int i = 0; i < NUM_OPENINGS; i++) {
        Board b;
        opening_board(opening_get(i), &b);
        sym_canonical(&b, RULE_RENJU, &open[i], NULL);
    }
    const Point h8 = point_make(7, 7);
    for (int dc = -1; dc <= 1; dc++)
        for (int dr = -1; dr <= 1; dr++) {
            if (!dc && !dr)
                continue;
            Point w = point_make(7 + dc, 7 + dr);
            for (int c = 5; c <= 9; c++)
                for (int r = 5; r <= 9; r++) {
                    Point bl = point_make(c, r);
                    if (bl == h8 || bl == w)
                        continue;
                    shapes++;
                    Board b;
                    board_init(&b);
                    board_play(&b, h8);
                    board_play(&b, w);
                    board_play(&b, bl);
                    SymKey k;
                    sym_canonical(&b, RULE_RENJU, &k, NULL);
                    int j;
                    for (j = 0; j < ncls; j++)
                        if (!memcmp(k.b, cls[j].b, SYMKEY_LEN))
                            break;
                    if (j == ncls) {
                        assert_true(ncls < MAXC);
                        cls[ncls++] = k;
                        int found = 0;
                        for (int i = 0; i < NUM_OPENINGS; i++)
                            if (!memcmp(k.b, open[i].b, SYMKEY_LEN))
                                hits[i]++, found++;
                        assert_int_equal(found, 1);
                    }
                }
        }
    assert_int_equal(shapes, 8 * 23);
    assert_int_equal(ncls, NUM_OPENINGS);
    for (int i = 0; i < NUM_OPENINGS; i++)
        assert_int_equal(hits[i], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_group),
        cmocka_unit_test(test_canonical_invariant),
        cmocka_unit_test(test_canonical_after),
        cmocka_unit_test(test_pass_in_key),
        cmocka_unit_test(test_asymmetric_images),
        cmocka_unit_test(test_opening_stabilisers),
        cmocka_unit_test(test_openings_distinct),
        cmocka_unit_test(test_openings_are_all_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
