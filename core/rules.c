/*
 * rules.c - see rules.h.
 *
 * Everything works on one line at a time, read from the board's per colour /
 * direction bit masks: bit i of a mask is the point at line position i
 * (0..14).  Runs of stones are found with count-leading/trailing-zero steps.
 * Stones placed "in mind" during the recursive double-three check touch only
 * the cells and line masks (never the key or history) and are removed again
 * before returning.
 */
#include "rules.h"

#include "board.h"

/* On-board positions of line idx in direction dir (see board.h geometry). */
static inline uint32_t line_valid(int dir, int idx)
{
    if (dir < 2)
        return 0x7fffu;
    int lo = idx > BOARD_SIZE - 1 ? idx - (BOARD_SIZE - 1) : 0;
    int hi = idx < BOARD_SIZE - 1 ? idx : BOARD_SIZE - 1;
    return ((2u << hi) - 1) & ~((1u << lo) - 1);
}

/* One line through a point: a colour's stones and the empty on-board points. */
typedef struct {
    uint32_t own;
    uint32_t empty;
} Line;

/* Line through p in direction dir as seen by colour c (p itself as it is now). */
static inline Line line_get(const Board *b, Point p, Color c, int dir)
{
    int idx = board_line_index(p, dir);
    uint32_t own = b->line[c - 1][dir][idx], opp = b->line[2 - c][dir][idx];
    Line l = { own, line_valid(dir, idx) & ~own & ~opp };
    return l;
}

/* First position above i not in m (15 at most: m has no bits above 14). */
static inline int run_hi(uint32_t m, int i)
{
    assert(i >= 0 && i < BOARD_SIZE);
    return i + 1 + __builtin_ctz(~(m >> (i + 1)));
}

/* Last position below i not in m, or -1. */
static inline int run_lo(uint32_t m, int i)
{
    assert(i >= 0 && i < BOARD_SIZE);
    uint32_t z = ~m & ((1u << i) - 1);
    return z ? 31 - __builtin_clz(z) : -1;
}

/* Does a five of length len count for the rules in force (exact or five-or-more)? */
static inline bool five_ok(int len, bool exact) { return exact ? len == 5 : len >= 5; }

/* Must colour c make exactly five under rs? */
static inline bool needs_exact(Color c, RuleSet rs)
{
    return rs == RULE_STANDARD || (rs == RULE_RENJU && c == BLACK);
}

/* Length of the run through i in m (i in m). */
static inline int run_len(uint32_t m, int i) { return run_hi(m, i) - run_lo(m, i) - 1; }

/*
 * Five points of a line whose own mask already holds the stone at i: the
 * empty ends of the run through i that complete a counting five.  Writes
 * their positions to q and returns how many (0..2).
 */
static inline int line_five_points(Line l, int i, bool exact, int *q)
{
    int lo = run_lo(l.own, i), hi = run_hi(l.own, i), n = 0;
    if (lo >= 0 && (l.empty >> lo & 1) && five_ok(hi - run_lo(l.own, lo) - 1, exact))
        q[n++] = lo;
    if ((l.empty >> hi & 1) && five_ok(run_hi(l.own, hi) - lo - 1, exact))
        q[n++] = hi;
    return n;
}

/*
 * Straight-four points of a line whose own mask already holds the stone at
 * i: empty q (within 3 of i) such that the run through i and q is exactly
 * four with both ends empty and each end completing a counting five.
 * Writes positions to q and returns how many.
 */
static inline int line_straight_points(Line l, int i, bool exact, int *q)
{
    int n = 0;
    int from = i - 3 < 0 ? 0 : i - 3, to = i + 3 > BOARD_SIZE - 1 ? BOARD_SIZE - 1 : i + 3;
    for (int j = from; j <= to; j++) {
        if (!(l.empty >> j & 1))
            continue;
        uint32_t own = l.own | 1u << j;
        int lo = run_lo(own, i), hi = run_hi(own, i);
        if (hi - lo - 1 != 4 || j <= lo || j >= hi)
            continue;
        if (lo < 0 || !(l.empty >> lo & 1) || !(l.empty >> hi & 1))
            continue;
        if (exact && ((lo >= 1 && (own >> (lo - 1) & 1)) || (own >> (hi + 1) & 1)))
            continue;
        q[n++] = j;
    }
    return n;
}

/* The point at position pos of the line through p in direction dir. */
static inline Point line_point(Point p, int dir, int pos)
{
    int d = pos - board_line_pos(p, dir);
    return point_make(point_col(p) + d * DIR_DC[dir], point_row(p) + d * DIR_DR[dir]);
}

/* Place / remove a stone in mind: cells and line masks only. */
static inline void put_mind(Board *b, Point p, Color c)
{
    b->cell[p] = (uint8_t)c;
    for (int d = 0; d < NUM_DIRS; d++)
        b->line[c - 1][d][board_line_index(p, d)] |= (uint16_t)(1u << board_line_pos(p, d));
}

static inline void remove_mind(Board *b, Point p, Color c)
{
    b->cell[p] = EMPTY;
    for (int d = 0; d < NUM_DIRS; d++)
        b->line[c - 1][d][board_line_index(p, d)] &= (uint16_t) ~(1u << board_line_pos(p, d));
}

void rules_init(void) {}

bool rules_makes_five(const Board *b, Point p, Color c, RuleSet rs)
{
    assert(p < BOARD_POINTS && b->cell[p] == EMPTY);
    bool exact = needs_exact(c, rs);
    for (int d = 0; d < NUM_DIRS; d++) {
        Line l = line_get(b, p, c, d);
        int i = board_line_pos(p, d);
        if (five_ok(run_len(l.own | 1u << i, i), exact))
            return true;
    }
    return false;
}

/* Is the line through p in direction dir a real black three after p (p placed)? */
static bool real_three(Board *b, Point p, int dir, const int *q, int nq);

ForbidKind rules_forbidden(Board *b, Point p)
{
    assert(p < BOARD_POINTS && b->cell[p] == EMPTY);
    Line l[NUM_DIRS];
    int pos[NUM_DIRS];
    bool over = false;
    for (int d = 0; d < NUM_DIRS; d++) {
        l[d] = line_get(b, p, BLACK, d);
        pos[d] = board_line_pos(p, d);
        l[d].own |= 1u << pos[d];
        l[d].empty &= ~(1u << pos[d]);
        int len = run_len(l[d].own, pos[d]);
        if (len == 5)
            return FORBID_NONE;
        over |= len > 5;
    }
    if (over)
        return FORBID_OVERLINE;
    int fours = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        int q[2];
        int n = line_five_points(l[d], pos[d], true, q);
        fours += (n == 2 && q[1] - q[0] == 5) ? 1 : n; /* a straight four counts once */
    }
    if (fours >= 2)
        return FORBID_DOUBLE_FOUR;
    int sq[NUM_DIRS][7], ns[NUM_DIRS], cand = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        ns[d] = line_straight_points(l[d], pos[d], true, sq[d]);
        cand += ns[d] > 0;
    }
    if (cand < 2)
        return FORBID_NONE;
    int threes = 0;
    put_mind(b, p, BLACK);
    for (int d = 0; d < NUM_DIRS; d++) {
        if (ns[d] == 0)
            continue;
        cand--;
        threes += real_three(b, p, d, sq[d], ns[d]);
        if (threes >= 2 || threes + cand < 2)
            break;
    }
    remove_mind(b, p, BLACK);
    return threes >= 2 ? FORBID_DOUBLE_THREE : FORBID_NONE;
}

static bool real_three(Board *b, Point p, int dir, const int *q, int nq)
{
    for (int k = 0; k < nq; k++) {
        Point s = line_point(p, dir, q[k]);
        if (rules_makes_five(b, s, BLACK, RULE_RENJU))
            continue; /* literal RIF: the straight-four stone must not make five */
        if (rules_forbidden(b, s) == FORBID_NONE)
            return true;
    }
    return false;
}

bool rules_is_forbidden(Board *b, Point p) { return rules_forbidden(b, p) != FORBID_NONE; }

bool rules_is_legal(Board *b, Point p, RuleSet rs)
{
    if (p == POINT_PASS)
        return true;
    if (p >= BOARD_POINTS || board_at(b, p) != EMPTY)
        return false;
    return !(rs == RULE_RENJU && b->to_move == BLACK && rules_is_forbidden(b, p));
}

Color rules_last_move_wins(const Board *b, RuleSet rs)
{
    Point p = board_last_move(b);
    if (p == POINT_NONE || p == POINT_PASS)
        return EMPTY;
    Color c = board_at(b, p);
    bool exact = needs_exact(c, rs);
    for (int d = 0; d < NUM_DIRS; d++)
        if (five_ok(run_len(board_line_bits(b, c, p, d), board_line_pos(p, d)), exact))
            return c;
    return EMPTY;
}

bool rules_game_over(const Board *b, RuleSet rs, Color *winner)
{
    *winner = rules_last_move_wins(b, rs);
    return *winner != EMPTY || board_two_passes(b) || board_stone_count(b) == BOARD_POINTS;
}

int rules_five_points(const Board *b, Color c, RuleSet rs, Point *out)
{
    int n = 0;
    for (int p = 0; p < BOARD_POINTS; p++)
        if (b->cell[p] == EMPTY && rules_makes_five(b, (Point)p, c, rs))
            out[n++] = (Point)p;
    return n;
}

int rules_four_points_after(Board *b, Point p, Color c, RuleSet rs, Point *out)
{
    assert(p < BOARD_POINTS && b->cell[p] == EMPTY);
    bool exact = needs_exact(c, rs);
    int n = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        Line l = line_get(b, p, c, d);
        int i = board_line_pos(p, d), q[2];
        l.own |= 1u << i;
        l.empty &= ~(1u << i);
        int k = line_five_points(l, i, exact, q);
        for (int j = 0; j < k; j++)
            out[n++] = line_point(p, d, q[j]);
    }
    return n;
}

int rules_three_points_after(Board *b, Point p, Color c, int dir, RuleSet rs, Point *out)
{
    assert(p < BOARD_POINTS && b->cell[p] == EMPTY && dir >= 0 && dir < NUM_DIRS);
    bool exact = needs_exact(c, rs);
    Line l = line_get(b, p, c, dir);
    int i = board_line_pos(p, dir), q[7];
    l.own |= 1u << i;
    l.empty &= ~(1u << i);
    int k = line_straight_points(l, i, exact, q), n = 0;
    if (k == 0)
        return 0;
    bool renju_black = rs == RULE_RENJU && c == BLACK;
    if (renju_black)
        put_mind(b, p, c);
    for (int j = 0; j < k; j++) {
        Point s = line_point(p, dir, q[j]);
        if (renju_black &&
            (rules_makes_five(b, s, BLACK, RULE_RENJU) || rules_forbidden(b, s) != FORBID_NONE))
            continue;
        out[n++] = s;
    }
    if (renju_black)
        remove_mind(b, p, c);
    return n;
}
