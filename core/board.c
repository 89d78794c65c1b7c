/* board.c - see board.h. */
#include "board.h"

#include <stdlib.h>
#include <string.h>

#include "zobrist.h"

/*
 * On-board positions of every line (board.h geometry): rows and columns hold
 * positions 0..14; a diagonal line i holds max(0, i - 14) .. min(i, 14) in
 * both diagonal directions.  Rows and columns have no lines 15..28 (0 there).
 */
#define LV_STRAIGHT(i) (uint16_t)((i) < BOARD_SIZE ? (1u << BOARD_SIZE) - 1 : 0)
#define LV_DIAG_LO(i) ((i) > BOARD_SIZE - 1 ? (i) - (BOARD_SIZE - 1) : 0)
#define LV_DIAG_HI(i) ((i) < BOARD_SIZE - 1 ? (i) : BOARD_SIZE - 1)
#define LV_DIAG(i) (uint16_t)(((2u << LV_DIAG_HI(i)) - 1) & ~((1u << LV_DIAG_LO(i)) - 1))
#define LV_LINES(F)                                                                                                    \
    F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), F(10), F(11), F(12), F(13), F(14), F(15), F(16),       \
        F(17), F(18), F(19), F(20), F(21), F(22), F(23), F(24), F(25), F(26), F(27), F(28)
_Static_assert(NUM_LINES == 29 && DIR_E == 0 && DIR_N == 1 && DIR_NE == 2 && DIR_SE == 3, "line table layout");

const uint16_t BOARD_LINE_VALID[NUM_DIRS][NUM_LINES] = {
    {LV_LINES(LV_STRAIGHT)}, {LV_LINES(LV_STRAIGHT)}, {LV_LINES(LV_DIAG)}, {LV_LINES(LV_DIAG)}};

void board_init(Board *b)
{
    memset(b, 0, sizeof *b);
    b->to_move = BLACK;
}

static void put_stone(Board *b, Point p, Color c)
{
    b->cell[p] = (uint8_t)c;
#pragma GCC unroll 4
    for (int d = 0; d < NUM_DIRS; d++) {
        int idx = board_line_index(p, d);
        b->line[c - 1][d][idx] |= (uint16_t)(1u << board_line_pos(p, d));
        b->count[c - 1][d * NUM_LINES + idx]++;
    }
    b->key ^= zob_stone(c, p);
    b->stones[c - 1]++;
}

static void remove_stone(Board *b, Point p)
{
    Color c = (Color)b->cell[p];
    b->cell[p] = EMPTY;
#pragma GCC unroll 4
    for (int d = 0; d < NUM_DIRS; d++) {
        int idx = board_line_index(p, d);
        b->line[c - 1][d][idx] &= (uint16_t) ~(1u << board_line_pos(p, d));
        b->count[c - 1][d * NUM_LINES + idx]--;
    }
    b->key ^= zob_stone(c, p);
    b->stones[c - 1]--;
}

void board_setup_stone(Board *b, Point p, Color c)
{
    assert(p < BOARD_POINTS && b->cell[p] == EMPTY && b->ply == 0);
    put_stone(b, p, c);
}

void board_lift_stone(Board *b, Point p)
{
    assert(p < BOARD_POINTS && b->cell[p] != EMPTY);
    remove_stone(b, p);
}

void board_set_to_move(Board *b, Color c)
{
    assert(b->ply == 0 && (c == BLACK || c == WHITE));
    if (c != b->to_move)
        b->key ^= zob_side();
    b->to_move = c;
}

void board_setup_copy(const Board *src, Board *dst)
{
    board_init(dst);
    for (int p = 0; p < BOARD_POINTS; p++)
        if (src->cell[p] != EMPTY)
            board_setup_stone(dst, (Point)p, (Color)src->cell[p]);
    board_set_to_move(dst, src->to_move);
}

void board_play(Board *b, Point p)
{
    assert(b->ply < MAX_PLY);
    if (board_last_move(b) == POINT_PASS)
        b->key ^= zob_pass();
    if (p == POINT_PASS) {
        b->key ^= zob_pass();
    } else {
        assert(p < BOARD_POINTS && b->cell[p] == EMPTY);
        put_stone(b, p, b->to_move);
    }
    b->hist[b->ply++] = p;
    b->to_move = color_other(b->to_move);
    b->key ^= zob_side();
}

void board_undo(Board *b)
{
    assert(b->ply > b->base_ply);
    Point p = b->hist[--b->ply];
    b->to_move = color_other(b->to_move);
    b->key ^= zob_side();
    if (p == POINT_PASS)
        b->key ^= zob_pass();
    else
        remove_stone(b, p);
    if (board_last_move(b) == POINT_PASS)
        b->key ^= zob_pass();
}

Key board_compute_key(const Board *b)
{
    Key k = 0;
    for (int p = 0; p < BOARD_POINTS; p++)
        if (b->cell[p] != EMPTY)
            k ^= zob_stone((Color)b->cell[p], (Point)p);
    if (b->to_move == WHITE)
        k ^= zob_side();
    if (board_last_move(b) == POINT_PASS)
        k ^= zob_pass();
    return k;
}

bool board_two_passes(const Board *b)
{
    return b->ply - b->base_ply >= 2 && b->hist[b->ply - 1] == POINT_PASS && b->hist[b->ply - 2] == POINT_PASS;
}

bool board_check(const Board *b)
{
    uint16_t line[2][NUM_DIRS][NUM_LINES];
    int stones[2] = {0, 0};
    memset(line, 0, sizeof line);
    for (int p = 0; p < BOARD_POINTS; p++) {
        Color c = (Color)b->cell[p];
        if (c == EMPTY)
            continue;
        if (c != BLACK && c != WHITE)
            return false;
        stones[c - 1]++;
        for (int d = 0; d < NUM_DIRS; d++)
            line[c - 1][d][board_line_index((Point)p, d)] |= (uint16_t)(1u << board_line_pos((Point)p, d));
    }
    if (memcmp(line, b->line, sizeof line) != 0)
        return false;
    for (int c = 0; c < 2; c++)
        for (int s = 0; s < BOARD_LINE_SLOTS; s++) {
            int d = s / NUM_LINES, i = s % NUM_LINES;
            unsigned bits = d < NUM_DIRS ? line[c][d][i] : 0;
            if (b->count[c][s] != (unsigned)__builtin_popcount(bits))
                return false;
        }
    if (stones[0] != b->stones[0] || stones[1] != b->stones[1])
        return false;
    if (b->to_move != BLACK && b->to_move != WHITE)
        return false;
    /* Every move in the history stands on the board in the colour of the side that made it. */
    Color mover = color_other(b->to_move);
    for (int i = b->ply - 1; i >= b->base_ply; i--, mover = color_other(mover)) {
        Point p = b->hist[i];
        if (p != POINT_PASS && (p >= BOARD_POINTS || b->cell[p] != mover))
            return false;
    }
    for (int d = 0; d < NUM_DIRS; d++)
        for (int i = 0; i < board_num_lines(d); i++)
            for (int c = 0; c < 2; c++)
                if (b->line[c][d][i] & ~board_line_valid(d, i))
                    return false;
    return board_compute_key(b) == b->key;
}

int board_stone_dist(const Board *b, Point p)
{
    int c = point_col(p), r = point_row(p);
    for (int d = 1; d <= 8; d++)
        for (int dc = -d; dc <= d; dc++)
            for (int dr = -d; dr <= d; dr++) {
                if (abs(dc) != d && abs(dr) != d)
                    continue;
                if (board_at_cr(b, c + dc, r + dr) > 0)
                    return d;
            }
    return 9;
}
