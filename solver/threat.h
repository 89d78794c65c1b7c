/*
 * threat.h - fast threat primitives shared by VCF and VCT search.
 *
 * Everything here works on the incremental line bit masks of the board
 * (board.h) and is purely geometric: "five point", "four move" and "double
 * win move" ignore whether a black stone there would be forbidden, except
 * thr_legal() and thr_double_wins(), which ask the rules module (rules.h) for
 * that.  Tests check these against rules.h on random positions.
 *
 * Vocabulary (colour c, rule set rs):
 *   - five point: an empty point where a c stone wins at once (five that
 *     counts: exactly five for black under renju and everyone under standard,
 *     five or more otherwise);
 *   - four move: an empty point where a c stone leaves c at least one new
 *     five point through it (geometric, forbidden or not);
 *   - double-win move: a legal move for c that leaves c two or more five
 *     points (a straight four, or for white also a double four).  These are
 *     the moves of the proof format's short loss (b) (proof.h).
 *
 * Thread safety: no state; safe on distinct boards.  Functions that take a
 * non-const Board only call the rules module, which restores the board.
 */
#ifndef RJ_THREAT_H
#define RJ_THREAT_H

#include "board.h"
#include "types.h"

/* Does colour c need exactly five (black under renju, everyone under standard)? */
static inline bool thr_exact(Color c, RuleSet rs)
{
    assert(c == BLACK || c == WHITE);
    return rs == RULE_STANDARD || (rs == RULE_RENJU && c == BLACK);
}

/*
 * Population count of a 16-bit line mask.  Portable SWAR: the default x86-64
 * target has no popcnt instruction and __builtin_popcount would call a slow
 * library routine.
 */
static inline int thr_pop16(unsigned x)
{
    x &= 0xffffu;
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0f0fu;
    return (int)((x + (x >> 8)) & 0x1fu);
}

/* Number of distinct points among pts[0..n) (n is small: a few fours' points). */
static inline int thr_distinct(const Point *pts, int n)
{
    assert(n >= 0);
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= pts[j] == pts[i];
        k += !seen;
    }
    return k;
}

/* Point at position pos of line idx in direction dir (pos must be on the board). */
static inline Point thr_line_point(int dir, int idx, int pos)
{
    assert(dir >= 0 && dir < NUM_DIRS && pos >= 0 && pos < BOARD_SIZE);
    switch (dir) {
    case DIR_E:
        return point_make(pos, idx);
    case DIR_N:
        return point_make(idx, pos);
    case DIR_NE:
        return point_make(pos, pos - (idx - (BOARD_SIZE - 1)));
    default:
        return point_make(pos, idx - pos);
    }
}

/*
 * Five points of one line: own = c's stones, blk = opponent stones and
 * off-board positions, windows starting at lo..hi (clamped to 0..10).
 * Returns the mask of empty positions completing a five that counts.
 */
uint16_t thr_line_fives(uint16_t own, uint16_t blk, bool exact, int lo, int hi);

/* Is p (empty) a five point of c? */
bool thr_is_five(const Board *b, Point p, Color c, RuleSet rs);

/* All five points of c, distinct; writes up to BOARD_POINTS to out, returns the count. */
int thr_five_points(const Board *b, Color c, RuleSet rs, Point *out);

/*
 * The five points a c stone on empty p would create through p (distinct, at
 * most 8), written to out; returns the count (0: p is no four move).
 */
int thr_fives_after(const Board *b, Point p, Color c, RuleSet rs, Point *out);

/*
 * Five points of c in the five-windows through the occupied point p (the
 * five points a c stone just played on p made, when c had none before);
 * distinct, at most 8, returns the count.
 */
int thr_fives_through(const Board *b, Point p, Color c, RuleSet rs, Point *out);

/* All four moves of c (distinct, geometric), written to out; returns the count. */
int thr_four_moves(const Board *b, Color c, RuleSet rs, Point *out);

/*
 * The four moves of c kept line by line, so that a search playing a few
 * stones at a time updates only the lines through them (the VCF's four and
 * block): e[slot] holds the positions of line slot (dir * NUM_LINES + idx,
 * board.h) where a c stone makes a four through that line, nz the slots
 * with any.  thr_four_lines_points() lists exactly thr_four_moves()' points
 * in its order (line slots in order, positions along a line in order, each
 * point at its first line).
 */
typedef struct {
    uint16_t e[BOARD_LINE_SLOTS];
    uint64_t nz[2];
} ThrFourLines;

/* fl for b, every line. */
void thr_four_lines_init(const Board *b, Color c, RuleSet rs, ThrFourLines *fl);

/* Recompute the four lines through p: fl becomes b's after a stone (of either colour) on p or its removal. */
void thr_four_lines_touch(const Board *b, Color c, RuleSet rs, ThrFourLines *fl, Point p);

/* The points of fl, distinct, in thr_four_moves()' order; returns the count. */
int thr_four_lines_points(const ThrFourLines *fl, Point *out);

/*
 * Empty points that share a five-window free of opponent stones with at least
 * `need` stones of c (so a c stone there has need+1 stones in that window).
 * need = 2 gives the candidates for three-making moves.  Distinct; returns
 * the count.
 */
int thr_window_points(const Board *b, Color c, int need, Point *out);

/* Is p a legal move for c (empty; not a forbidden black point under renju)? */
bool thr_legal(Board *b, Point p, Color c, RuleSet rs);

/*
 * Double-win moves of c (see above), written to out; returns the count.
 * When `first` is true, stops at the first one found.
 */
int thr_double_wins(Board *b, Color c, RuleSet rs, Point *out, bool first);

/*
 * Double-win moves of c that use the c stone on p: four moves on the lines
 * through p in five-windows containing p (the moves a new three or four at p
 * creates).  Same output as thr_double_wins().
 */
int thr_double_wins_near(Board *b, Point p, Color c, RuleSet rs, Point *out, bool first);

/*
 * Points whose occupation can change whether p is a five point, a four move
 * or a double-win move of either colour: p and the points within five steps
 * of p along its four lines.  Sets bit q of set (4 x 64-bit words).
 */
void thr_mark_lines(Point p, uint64_t set[4]);

/* p and the points within `r` steps of p along its four lines, as thr_mark_lines(). */
void thr_mark_lines_r(Point p, int r, uint64_t set[4]);

/*
 * Number of directions through empty p in which a c stone on p would lie in
 * a five-window free of opponent stones with at least two other c stones, not
 * counting directions where p makes a four.  A black point with a count of
 * 0 or 1 cannot become a double-three through distant stones (RIF 9.3
 * recursion), which bounds the defences of a black three (vct.c).
 */
int thr_three_dirs(const Board *b, Point p, Color c, RuleSet rs);

/*
 * Move-ordering potential of empty p for c: over the four directions, the sum
 * of the most c stones in one five-window through p free of opponent stones
 * (0..16).
 */
int thr_potential(const Board *b, Point p, Color c);

/*
 * Move-ordering shape of empty p for c: *wmax = the most c stones in one
 * five-window through p free of opponent stones (0..4) over the four
 * directions, *ntwo = the directions whose best such window holds two or more.
 */
void thr_window_max(const Board *b, Point p, Color c, int *wmax, int *ntwo);

/*
 * thr_window_max() for every empty point at once: thr_windows_scan() reads
 * each line once, and thr_windows_at() answers a point in four lookups.
 * cov[dir][line] bit 16*(k-1) + pos is set when position pos of the line lies
 * in a five-window free of opponent stones (and of the board's edge) holding
 * k or more c stones (k = 1..4).  Only empty points are meaningful.  The
 * levels nest (a point's level-k bit implies its lower levels' bits, or a
 * line is left all 0): thr_windows_at() relies on it.
 */
typedef struct {
    uint64_t cov[NUM_DIRS][NUM_LINES];
    uint32_t many[NUM_DIRS]; /* bit idx: line idx holds four or more c stones */
    bool line4;              /* some line does */
    Color c;                 /* the colour scanned */
} ThrWindows;

void thr_windows_scan(const Board *b, Color c, ThrWindows *w);

/*
 * thr_windows_scan() over the lines holding at least min_stones (1..4) c
 * stones only: the levels k >= min_stones (and `many`, `line4`) are exact,
 * lower ones may be missing.  Cheaper for the row masks (levels 2 and 3).
 */
void thr_windows_scan_min(const Board *b, Color c, int min_stones, ThrWindows *w);

static inline void thr_windows_at_cr(const ThrWindows *w, int col, int row, int *wmax, int *ntwo)
{
    /* Bit 16*(k-1) of each shifted word: level k at the point.  The levels nest (a window of k+1 stones
     * holds k), so a direction's levels are its lowest lanes, and over the directions the most stones
     * is the number of lanes set in any of them (summed into the top lane by the multiply). */
    const uint64_t lanes = UINT64_C(0x0001000100010001);
    uint64_t e = w->cov[DIR_E][row] >> col, n = w->cov[DIR_N][col] >> row;
    uint64_t ne = w->cov[DIR_NE][col - row + BOARD_SIZE - 1] >> col, se = w->cov[DIR_SE][col + row] >> col;
    *wmax = (int)(((e | n | ne | se) & lanes) * lanes >> 48);
    *ntwo = (int)((e >> 16 & 1) + (n >> 16 & 1) + (ne >> 16 & 1) + (se >> 16 & 1));
}

static inline void thr_windows_at(const ThrWindows *w, Point p, int *wmax, int *ntwo)
{
    thr_windows_at_cr(w, point_col(p), point_row(p), wmax, ntwo);
}

/*
 * A necessary condition for a black stone on empty p to be forbidden, given
 * wb = thr_windows_scan(b, BLACK): a three or a four through p lies in a
 * five-window free of white stones holding two other black stones (the
 * straight four it can become, the five it threatens), so a double-three or
 * a double-four across lines needs two such directions (ntwo >= 2); an
 * overline or a double-four on one line needs four other black stones within
 * five points on that line.  False means "certainly not forbidden".
 */
bool thr_forbid_screen(const Board *b, const ThrWindows *wb, Point p);

/*
 * The same facts as row masks (bit col of row r is point (col, r); occupied
 * points are meaningless): u2 / u3 = some direction's best window holds two /
 * three or more c stones, a2 = two or more directions hold two or more, m4 =
 * some line through the point has four or more c stones within five points
 * of it.  For c black, a2 | m4 is thr_forbid_screen().  b: the board scanned.
 */
typedef struct {
    uint16_t u2[BOARD_SIZE], u3[BOARD_SIZE], a2[BOARD_SIZE], m4[BOARD_SIZE];
} ThrRows;

void thr_windows_rows(const Board *b, const ThrWindows *w, ThrRows *out);

/* The single-line part of thr_forbid_screen(): some line through p with four other black stones within five points. */
static inline bool thr_forbid_line_screen(const Board *b, const ThrWindows *wb, int col, int row)
{
    if (!wb->line4)
        return false;
    int idx[NUM_DIRS] = {row, col, col - row + BOARD_SIZE - 1, col + row};
    for (int d = 0; d < NUM_DIRS; d++) {
        if (!(wb->many[d] >> idx[d] & 1))
            continue;
        unsigned line = b->line[0][d][idx[d]];
        unsigned near5 = (line << 5 >> (d == DIR_N ? row : col)) & 0x7ffu; /* positions pos-5 .. pos+5 */
        if (thr_pop16(near5) >= 4)
            return true;
    }
    return false;
}

/*
 * Is the defender move x (a legal move for the side to move, or POINT_PASS)
 * a "short loss" of the proof format (proof.h): after it, the attacker (the
 * other side) can win at once, or has a double-win move after which the
 * defender has no five point?  Plays x on b and undoes it.
 */
bool thr_short_loss(Board *b, Point x, RuleSet rs);

#endif /* RJ_THREAT_H */
