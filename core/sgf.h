/*
 * sgf.h - SGF (Smart Game Format, FF[4]) game records of gomoku / renju
 * (GM[4]): read the main line of a file, write a game or a proof line.
 *
 * Coordinates: a point is two lower-case letters, the column then the row,
 * both counted from the TOP-left corner 'aa'.  On the 15x15 board the
 * letters run a..o, so SGF "aa" is a15, "ao" is a1, "hh" is h8 and "oo" is
 * o1 (row letter r means rank 15 - (r - 'a')).  A pass is an empty value
 * B[] / W[], or "tt" (the FF[3] spelling).  Conversion happens here only.
 *
 * Reading (sgf_parse): the first game tree of the collection; its main line
 * is the first variation at every fork.  Understood properties: B, W
 * (moves), AB, AW (setup stones, point lists and "aa:cc" rectangles
 * included), AE (removes setup stones), PL (side to move after the setup),
 * GM (must be 4 when present), SZ (must be 15 when present), C (the root's
 * comment is kept), RE (result).  Other properties are skipped.  Setup
 * properties after the first move, two moves in one node, a point off the
 * board, unbalanced brackets or parentheses, variations nested deeper than
 * SGF_MAX_DEPTH, more than MAX_PLY - 1 moves: RJ_EBADDATA with a one-line
 * message that names the line of the file.
 *
 * Thread safety: no shared state; an SgfGame is a plain value (large: keep
 * it off small stacks, e.g. static or malloc'd).
 */
#ifndef RJ_SGF_H
#define RJ_SGF_H

#include "types.h"

enum {
    SGF_MAX_DEPTH = 1000,   /* deepest nesting of '(' accepted */
    SGF_MAX_TEXT = 1024,    /* bytes kept of a comment (with the NUL) */
    SGF_MAX_BYTES = 1 << 24 /* callers should refuse larger files */
};

typedef struct {
    Point setup[2][BOARD_POINTS]; /* AB (index 0) and AW (index 1) stones, no duplicates */
    int nsetup[2];
    Color first;                /* PL[]: the side to move after the setup, EMPTY when not given */
    int nmoves;                 /* moves of the main line (passes included) */
    Point moves[MAX_PLY];       /* POINT_PASS for a pass */
    Color color[MAX_PLY];       /* BLACK or WHITE: who played moves[i] */
    char comment[SGF_MAX_TEXT]; /* the root node's C[] (read: cut to fit, UTF-8 kept as is) */
    char result[64];            /* RE[] */
    /* Writing only: a comment on the node of move note_at (0: the root), ignored when note[0] is 0. */
    int note_at;
    char note[SGF_MAX_TEXT];
    const char *rules;       /* writing only: RU[] value, or NULL */
    const char *application; /* writing only: AP[] value ("renju:0.1.0"), or NULL */
} SgfGame;

/* Empty the game: no stones, no moves, no texts. */
void sgf_init(SgfGame *g);

/*
 * Read the main line of the SGF text data[0..len) (need not be NUL-terminated)
 * into g (initialised here).  Returns 0, or RJ_EBADDATA with a one-line
 * message in err (errlen bytes, err may be NULL).  Never reads past len.
 */
int sgf_parse(const char *data, size_t len, SgfGame *g, char *err, size_t errlen);

/*
 * Write g as an SGF collection of one game: a root node with
 * GM[4]FF[4]CA[UTF-8]SZ[15], AP, RU, RE, C and the setup stones, then one node
 * per move.  Into buf (len bytes); *outlen gets the text length (without the
 * NUL).  Returns 0, or RJ_ENOMEM when buf is too small (then *outlen is the
 * length needed).  Text values are escaped as FF[4] requires.
 */
int sgf_write(const SgfGame *g, char *buf, size_t len, size_t *outlen);

/*
 * The board after g's setup and moves, with every check of a position
 * (position.h): colours must alternate from the side to move after the setup
 * (PL, else the first move's colour, else the stone counts), no move may be
 * illegal under rs, the game must not be over.  to_move (EMPTY: as the
 * record says) forces the side to move at the end.  Returns 0 or
 * RJ_EBADPOS with a one-line message.  Needs rules_init().
 */
int sgf_board(const SgfGame *g, RuleSet rs, Color to_move, Board *b, char *err, size_t errlen);

/*
 * g = the record of board b: the stones b started from (its setup) as AB/AW
 * with PL, then the moves b played.  Texts are left empty.
 */
void sgf_from_board(const Board *b, SgfGame *g);

/* Append move p (POINT_PASS allowed) for colour c.  Returns 0 or RJ_EBADARG when full. */
int sgf_add_move(SgfGame *g, Point p, Color c);

#endif /* RJ_SGF_H */
