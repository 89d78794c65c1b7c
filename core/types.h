/*
 * types.h - the shared vocabulary of the renju solver.
 *
 * Every module includes this header.  It names the units the code talks in
 * (points, colours, keys, proof numbers) and holds the board geometry
 * constants.  Constants are enums, not macros.
 */
#ifndef RJ_TYPES_H
#define RJ_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    BOARD_SIZE = 15,                        /* 15x15 renju board */
    BOARD_POINTS = BOARD_SIZE * BOARD_SIZE, /* 225 points */
    MAX_PLY = 512,                          /* moves + passes in one game */
    NUM_DIRS = 4,                           /* E, N, NE, SE line directions */
    NUM_LINES = 2 * BOARD_SIZE - 1          /* most lines in one direction (diagonals: 29) */
};

/*
 * A point is an index row * 15 + col, row 0 = rank 1 (bottom), col 0 = file a.
 * So a1 = 0, o1 = 14, h8 = 7 * 15 + 7 = 112, o15 = 224.
 * POINT_PASS is the pass move; POINT_NONE means "no point".
 */
typedef uint8_t Point;
enum { POINT_PASS = 254, POINT_NONE = 255 };

/* Stone colours; EMPTY is also "nobody" where a side is asked for. */
typedef enum { EMPTY = 0, BLACK = 1, WHITE = 2 } Color;

/* The other side.  Precondition: c is BLACK or WHITE. */
static inline Color color_other(Color c) { return (Color)(3 - c); }

/* Rule sets: one parameter through the whole program. */
typedef enum {
    RULE_RENJU = 0,     /* black: exactly five, forbidden 3-3 / 4-4 / overline; white: five or more */
    RULE_FREESTYLE = 1, /* five or more wins for both, no forbidden moves */
    RULE_STANDARD = 2   /* exactly five wins for both, no forbidden moves */
} RuleSet;

/* Why a black move is forbidden (renju only); ordered as `renju forbidden` reports them (docs/cli.md). */
typedef enum { FORBID_NONE = 0, FORBID_OVERLINE = 1, FORBID_DOUBLE_FOUR = 2, FORBID_DOUBLE_THREE = 3 } ForbidKind;

/* Outcome of a search, from the attacker's point of view. */
typedef enum {
    RESULT_UNKNOWN = 0,
    RESULT_PROVEN = 1,   /* the attacker wins */
    RESULT_DISPROVEN = 2 /* the attacker cannot win */
} Result;

typedef uint64_t Key;      /* Zobrist hash of a position */
typedef uint32_t ProofNum; /* proof / disproof number, saturating at PN_INF */
enum { PN_INF = 0x7fffffff };

/* Saturating add of proof numbers: never overflows past PN_INF. */
static inline ProofNum pn_add(ProofNum a, ProofNum b)
{
    uint64_t s = (uint64_t)a + b;
    return s >= PN_INF ? PN_INF : (ProofNum)s;
}

/* Point helpers. */
static inline int point_row(Point p) { return p / BOARD_SIZE; }
static inline int point_col(Point p) { return p % BOARD_SIZE; }
static inline Point point_make(int col, int row) { return (Point)(row * BOARD_SIZE + col); }
static inline bool point_on_board(int col, int row)
{
    return col >= 0 && col < BOARD_SIZE && row >= 0 && row < BOARD_SIZE;
}

typedef struct Board Board;

#endif /* RJ_TYPES_H */
