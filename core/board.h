/*
 * board.h - the 15x15 board with incremental state and make/undo.
 *
 * The board keeps, incrementally:
 *   - the colour of every point;
 *   - per colour and direction, a bit mask of each line (bit i = the point at
 *     "line position" i), so a line's pattern around a point is a shift away;
 *   - the 64-bit Zobrist key (stones, side to move, and "last move was a pass");
 *   - the move history (passes included) as a per-ply stack for undo.
 *
 * Line geometry.  Directions: DIR_E (+1 col), DIR_N (+1 row), DIR_NE (+1 col,
 * +1 row), DIR_SE (+1 col, -1 row).  The line index of point (col,row) is
 * row for DIR_E, col for DIR_N, col-row+14 for DIR_NE and col+row for DIR_SE.
 * Its position along the line is row for DIR_N and col otherwise; so moving
 * one step in the direction always increases the position by one.  Bits of a
 * line outside the board are never set; board_line_valid() gives the mask of
 * on-board positions.
 *
 * Thread safety: a Board is a plain value; one thread per Board.  Copy it
 * (memcpy) to give each search thread its own.
 */
#ifndef RJ_BOARD_H
#define RJ_BOARD_H

#include <assert.h>

#include "types.h"

enum { DIR_E = 0, DIR_N = 1, DIR_NE = 2, DIR_SE = 3 };

/* Column and row steps of each direction. */
static const int DIR_DC[NUM_DIRS] = {1, 0, 1, 1};
static const int DIR_DR[NUM_DIRS] = {0, 1, 1, -1};

/* Flat line slots dir * NUM_LINES + line, padded to whole 64-bit words (the padding stays 0). */
enum { BOARD_LINE_SLOTS = (NUM_DIRS * NUM_LINES + 7) / 8 * 8 };

struct Board {
    uint8_t cell[BOARD_POINTS];            /* Color of each point */
    uint16_t line[2][NUM_DIRS][NUM_LINES]; /* [colour-1][dir][line] bit masks */
    uint8_t count[2][BOARD_LINE_SLOTS];    /* [colour-1][dir * NUM_LINES + line]: its stones */
    Key key;                               /* Zobrist key, see zobrist.h */
    Color to_move;                         /* side to move */
    int ply;                               /* moves made since setup (passes count) */
    int base_ply;                          /* plies that cannot be undone (setup) */
    int stones[2];                         /* stones of BLACK, WHITE */
    Point hist[MAX_PLY];                   /* moves made, POINT_PASS for a pass */
};

/* Line index of point p in direction dir. */
static inline int board_line_index(Point p, int dir)
{
    assert(p < BOARD_POINTS && dir >= 0 && dir < NUM_DIRS);
    int c = point_col(p), r = point_row(p);
    switch (dir) {
    case DIR_E:
        return r;
    case DIR_N:
        return c;
    case DIR_NE:
        return c - r + BOARD_SIZE - 1;
    default:
        return c + r;
    }
}

/* Position of point p along its line in direction dir. */
static inline int board_line_pos(Point p, int dir)
{
    assert(p < BOARD_POINTS && dir >= 0 && dir < NUM_DIRS);
    return dir == DIR_N ? point_row(p) : point_col(p);
}

/* Number of lines in direction dir (15 or 29). */
static inline int board_num_lines(int dir) { return dir < 2 ? BOARD_SIZE : NUM_LINES; }

/* The on-board masks of board_line_valid(): constant, defined in board.c. */
extern const uint16_t BOARD_LINE_VALID[NUM_DIRS][NUM_LINES];

/*
 * Mask of the on-board positions of line `index` in direction dir (bits
 * 0..14; bit 15 is never set).  Precondition: 0 <= index < board_num_lines(dir).
 */
static inline uint16_t board_line_valid(int dir, int index)
{
    assert(dir >= 0 && dir < NUM_DIRS && index >= 0 && index < board_num_lines(dir));
    return BOARD_LINE_VALID[dir][index];
}

/* Bit mask of colour c's stones on the line through p in direction dir. */
static inline uint16_t board_line_bits(const Board *b, Color c, Point p, int dir)
{
    assert(c == BLACK || c == WHITE);
    return b->line[c - 1][dir][board_line_index(p, dir)];
}

/* Colour at point p. */
static inline Color board_at(const Board *b, Point p)
{
    assert(p < BOARD_POINTS);
    return (Color)b->cell[p];
}

/* Colour at (col,row), or -1 if off the board. */
static inline int board_at_cr(const Board *b, int col, int row)
{
    return point_on_board(col, row) ? b->cell[point_make(col, row)] : -1;
}

/* The last move (POINT_PASS for a pass), or POINT_NONE at the setup position. */
static inline Point board_last_move(const Board *b) { return b->ply > b->base_ply ? b->hist[b->ply - 1] : POINT_NONE; }

/* Total stones on the board. */
static inline int board_stone_count(const Board *b) { return b->stones[0] + b->stones[1]; }

/* Make the board empty with black to move. */
void board_init(Board *b);

/*
 * Place a setup stone of colour c on empty point p (not undoable, not a move;
 * the side to move is unchanged).  Used for stone-set positions.  Call only
 * before any board_play().
 */
void board_setup_stone(Board *b, Point p, Color c);

/*
 * Take the stone off p (not an undo: the move history is left as it is): the
 * stone set without it, for checks of how it could have been placed.
 * Precondition: p holds a stone.
 */
void board_lift_stone(Board *b, Point p);

/* Set the side to move at setup time (before any board_play()). */
void board_set_to_move(Board *b, Color c);

/* dst = the stones and side to move of src as a setup position (no history, no pending pass). */
void board_setup_copy(const Board *src, Board *dst);

/*
 * Play a move for the side to move: a stone on empty point p, or POINT_PASS.
 * No rule is checked here (see rules.h).  Precondition: p is empty or a pass,
 * and ply < MAX_PLY.
 */
void board_play(Board *b, Point p);

/* Undo the last board_play().  Precondition: ply > base_ply. */
void board_undo(Board *b);

/* Zobrist key computed from scratch (for checks). */
Key board_compute_key(const Board *b);

/*
 * Recompute every incremental field from the cells and the history and compare.
 * Returns true when consistent.  Debug check: cheap enough for tests, not for search.
 */
bool board_check(const Board *b);

/* True when the last two moves were both passes (the game is drawn). */
bool board_two_passes(const Board *b);

/* Chebyshev distance from p to the nearest stone of b (9 when none is within 8). */
int board_stone_dist(const Board *b, Point p);

#endif /* RJ_BOARD_H */
