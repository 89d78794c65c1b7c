/* test_board.c - board make/undo, line masks and Zobrist keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "board.h"
#include "test_util.h"
#include "zobrist.h"

static void test_empty_board(void **state)
{
    (void)state;
    Board b;
    board_init(&b);
    assert_true(board_check(&b));
    assert_int_equal(b.to_move, BLACK);
    assert_int_equal(board_stone_count(&b), 0);
    assert_int_equal(board_last_move(&b), POINT_NONE);
}

static void test_line_geometry(void **state)
{
    (void)state;
    /* Stepping along a direction increases the line position by 1 and keeps the line. */
    for (int p = 0; p < BOARD_POINTS; p++)
        for (int d = 0; d < NUM_DIRS; d++) {
            int c = point_col((Point)p) + DIR_DC[d], r = point_row((Point)p) + DIR_DR[d];
            assert_true(board_line_valid(d, board_line_index((Point)p, d)) & (1u << board_line_pos((Point)p, d)));
            if (!point_on_board(c, r))
                continue;
            Point q = point_make(c, r);
            assert_int_equal(board_line_index(q, d), board_line_index((Point)p, d));
            assert_int_equal(board_line_pos(q, d), board_line_pos((Point)p, d) + 1);
        }
    /* Every line's valid positions count the points on it. */
    int total[NUM_DIRS] = {0};
    for (int d = 0; d < NUM_DIRS; d++)
        for (int i = 0; i < board_num_lines(d); i++)
            total[d] += __builtin_popcount(board_line_valid(d, i));
    for (int d = 0; d < NUM_DIRS; d++)
        assert_int_equal(total[d], BOARD_POINTS);
}

/* The constant on-board masks against the points themselves and against threat.c's former off-board table. */
static void test_line_valid_table(void **state)
{
    (void)state;
    uint16_t valid[NUM_DIRS][NUM_LINES];
    memset(valid, 0, sizeof valid);
    for (int p = 0; p < BOARD_POINTS; p++)
        for (int d = 0; d < NUM_DIRS; d++)
            valid[d][board_line_index((Point)p, d)] |= (uint16_t)(1u << board_line_pos((Point)p, d));
    for (int d = 0; d < NUM_DIRS; d++)
        for (int i = 0; i < NUM_LINES; i++) {
            assert_int_equal(BOARD_LINE_VALID[d][i], valid[d][i]);
            if (i >= board_num_lines(d))
                continue;
            assert_int_equal(board_line_valid(d, i), valid[d][i]);
            /* Formerly DIAG_OFFBOARD / line_offboard(): rows and columns 0x8000, a diagonal
             * line i all bits but max(0, i - 14) .. min(i, 14). */
            uint16_t off = 0x8000u;
            if (d >= 2) {
                int lo = i > BOARD_SIZE - 1 ? i - (BOARD_SIZE - 1) : 0, hi = i < BOARD_SIZE - 1 ? i : BOARD_SIZE - 1;
                off = 0xffffu;
                for (int k = lo; k <= hi; k++)
                    off &= (uint16_t) ~(1u << k);
            }
            assert_int_equal((uint16_t)~board_line_valid(d, i), off);
        }
}

static void test_random_make_undo(void **state)
{
    (void)state;
    uint64_t s = 0x1234567;
    Board b;
    board_init(&b);
    Key start = b.key;
    Key keys[MAX_PLY]; /* key before each ply: undo must restore it exactly */
    long moves = 0;
    while (moves < 100000) {
        int r = (int)(rng_next(&s) % 100);
        if (b.ply > 0 && (r < 40 || b.ply >= 200)) {
            board_undo(&b);
            assert_int_equal(b.key, keys[b.ply]);
        } else {
            Point p;
            if (r > 95) {
                p = POINT_PASS;
            } else {
                do
                    p = (Point)(rng_next(&s) % BOARD_POINTS);
                while (board_at(&b, p) != EMPTY);
            }
            keys[b.ply] = b.key;
            board_play(&b, p);
            assert_int_equal(board_last_move(&b), p);
        }
        moves++;
        assert_int_equal(b.key, board_compute_key(&b));
        assert_true(board_check(&b));
    }
    while (b.ply > 0)
        board_undo(&b);
    assert_int_equal(b.key, start);
    assert_true(board_check(&b));
}

/* board_check() notices every kind of inconsistency (so the test above can fail). */
static void test_check_detects_corruption(void **state)
{
    (void)state;
    Board b, c;
    board_init(&b);
    board_play(&b, point_make(7, 7));
    board_play(&b, point_make(7, 8));
    board_play(&b, point_make(8, 8));
    assert_true(board_check(&b));
    c = b;
    c.line[0][DIR_NE][3] ^= 1; /* a stray line bit */
    assert_false(board_check(&c));
    c = b;
    c.count[1][DIR_SE * NUM_LINES + 15]++; /* a line's stone count off by one */
    assert_false(board_check(&c));
    c = b;
    c.count[0][BOARD_LINE_SLOTS - 1] = 1; /* the padding is not zero */
    assert_false(board_check(&c));
    c = b;
    c.key ^= 1;
    assert_false(board_check(&c));
    c = b;
    c.stones[1]++;
    assert_false(board_check(&c));
    c = b;
    c.cell[point_make(7, 8)] = BLACK; /* cell disagrees with lines and with who moved */
    assert_false(board_check(&c));
    c = b;
    c.to_move = BLACK; /* the history says white moves next */
    c.key = board_compute_key(&c);
    assert_false(board_check(&c));
    c = b;
    c.hist[1] = point_make(0, 0); /* a move whose stone is missing */
    assert_false(board_check(&c));
}

/* Line masks agree with the cells after play: bit pos of line (dir, index). */
static void test_line_masks(void **state)
{
    (void)state;
    Board b;
    board_init(&b);
    Point p = point_make(3, 10); /* d11 */
    board_play(&b, p);
    for (int d = 0; d < NUM_DIRS; d++) {
        uint16_t m = board_line_bits(&b, BLACK, p, d);
        assert_int_equal(m, 1u << board_line_pos(p, d));
        assert_int_equal(board_line_bits(&b, WHITE, p, d), 0);
    }
    /* A neighbour on the NE diagonal shares the line, one position further. */
    Point q = point_make(4, 11);
    board_play(&b, POINT_PASS);
    board_play(&b, q);
    assert_int_equal(board_line_bits(&b, BLACK, p, DIR_NE),
                     (1u << board_line_pos(p, DIR_NE)) | (1u << (board_line_pos(p, DIR_NE) + 1)));
    assert_int_equal(board_line_bits(&b, BLACK, p, DIR_E), 1u << 3);
    assert_true(board_check(&b));
}

/* The generated stone-key table equals the seeded mixer, and all 450 keys differ. */
static void test_zobrist_table(void **state)
{
    (void)state;
    for (Color col = BLACK; col <= WHITE; col++)
        for (int p = 0; p < BOARD_POINTS; p++) {
            assert_true(zob_stone(col, (Point)p) == zob_stone_mixed(col, (Point)p));
            for (Color c2 = BLACK; c2 <= WHITE; c2++)
                for (int q = 0; q < BOARD_POINTS; q++)
                    if (c2 != col || q != p)
                        assert_true(zob_stone(col, (Point)p) != zob_stone(c2, (Point)q));
        }
}

static void test_side_and_pass_in_key(void **state)
{
    (void)state;
    Board a, b;
    board_init(&a);
    board_init(&b);
    board_play(&a, point_make(7, 7));
    board_play(&a, POINT_PASS);
    board_setup_stone(&b, point_make(7, 7), BLACK);
    /* Same stones, same side to move (black), but a pending pass differs. */
    assert_int_equal(a.to_move, b.to_move);
    assert_int_not_equal(a.key, b.key);
    assert_true(board_two_passes(&a) == false);
    board_play(&a, POINT_PASS);
    assert_true(board_two_passes(&a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_board),      cmocka_unit_test(test_line_geometry),
        cmocka_unit_test(test_random_make_undo), cmocka_unit_test(test_check_detects_corruption),
        cmocka_unit_test(test_line_masks),       cmocka_unit_test(test_side_and_pass_in_key),
        cmocka_unit_test(test_zobrist_table),    cmocka_unit_test(test_line_valid_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
