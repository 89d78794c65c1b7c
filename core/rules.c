/*
 * rules.c - see rules.h.
 *
 * Everything works on one line at a time, read from the board's per colour /
 * direction bit masks: bit i of a mask is the point at line position i
 * (0..14).  For a black stone under renju one base-3 table lookup per line
 * (core/pattern.h) gives five / overline / fours / straight-four points; a
 * point is decided by its four lookups unless it has threes on two lines, and
 * only then are the threes checked one by one, recursively (RIF 9.3).  The
 * other queries (five points, four points, three points of any colour and
 * rule set) find runs with count-leading/trailing-zero steps.  Stones placed
 * "in mind" during the recursive check touch only the cells and line masks
 * (never the key or history) and are removed again before returning.
 */
#include "rules.h"

#include <stdatomic.h>
#include <threads.h>

#include "board.h"
#include "pattern.h"

/* Line index and position of every point in every direction (read-only after init). */
static uint8_t geo_idx[BOARD_POINTS][NUM_DIRS], geo_pos[BOARD_POINTS][NUM_DIRS];
static uint8_t geo_point[NUM_DIRS][NUM_LINES][BOARD_SIZE]; /* point at (dir, line, position) */
static once_flag init_once = ONCE_FLAG_INIT;
static atomic_bool init_done;

static void build_tables(void)
{
    pattern_init();
    for (int p = 0; p < BOARD_POINTS; p++)
        for (int d = 0; d < NUM_DIRS; d++) {
            geo_idx[p][d] = (uint8_t)board_line_index((Point)p, d);
            geo_pos[p][d] = (uint8_t)board_line_pos((Point)p, d);
            geo_point[d][geo_idx[p][d]][geo_pos[p][d]] = (uint8_t)p;
        }
    atomic_store(&init_done, true);
}

void rules_init(void) { call_once(&init_once, build_tables); }

/* Entry points build the tables themselves if a caller forgot rules_init(). */
static inline void ensure_init(void)
{
    if (__builtin_expect(!atomic_load_explicit(&init_done, memory_order_acquire), 0))
        rules_init();
}

/* One line through a point: a colour's stones and the empty on-board points. */
typedef struct {
    uint32_t own;
    uint32_t empty;
} Line;

/* Line through p in direction dir as seen by colour c (p itself as it is now). */
static inline Line line_get(const Board *b, Point p, Color c, int dir)
{
    int idx = geo_idx[p][dir];
    uint32_t own = b->line[c - 1][dir][idx], opp = b->line[2 - c][dir][idx];
    Line l = {own, board_line_valid(dir, idx) & ~own & ~opp};
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
static inline bool needs_exact(Color c, RuleSet rs) { return rs == RULE_STANDARD || (rs == RULE_RENJU && c == BLACK); }

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
    assert(pos >= 0 && pos < BOARD_SIZE);
    return geo_point[dir][geo_idx[p][dir]][pos];
}

/* Place / remove a stone in mind: cells and line masks only. */
static inline void put_mind(Board *b, Point p, Color c)
{
    b->cell[p] = (uint8_t)c;
    for (int d = 0; d < NUM_DIRS; d++)
        b->line[c - 1][d][geo_idx[p][d]] |= (uint16_t)(1u << geo_pos[p][d]);
}

static inline void remove_mind(Board *b, Point p, Color c)
{
    b->cell[p] = EMPTY;
    for (int d = 0; d < NUM_DIRS; d++)
        b->line[c - 1][d][geo_idx[p][d]] &= (uint16_t) ~(1u << geo_pos[p][d]);
}

/* rules_makes_five() once the tables are built. */
static inline bool makes_five(const Board *b, Point p, Color c, bool exact)
{
    assert(p < BOARD_POINTS && b->cell[p] == EMPTY);
    for (int d = 0; d < NUM_DIRS; d++) {
        int i = geo_pos[p][d];
        if (five_ok(run_len(b->line[c - 1][d][geo_idx[p][d]] | 1u << i, i), exact))
            return true;
    }
    return false;
}

bool rules_makes_five(const Board *b, Point p, Color c, RuleSet rs)
{
    ensure_init();
    return makes_five(b, p, c, needs_exact(c, rs));
}

/* Pattern entry of the line through empty p in direction d for a black stone on p. */
static inline uint16_t black_entry(const Board *b, Point p, int d)
{
    int idx = geo_idx[p][d], i = geo_pos[p][d];
    uint32_t bl = b->line[0][d][idx], wb = (bl << 5 >> i) & 0x7ff;
    if (!(wb & (wb - 1)))
        return 0; /* fewer than two black stones within reach: nothing (skip the table) */
    return pattern_black[pattern_index(bl, board_line_valid(d, idx) & ~(bl | b->line[1][d][idx]), i)];
}

/* Internal verdict: a ForbidKind, or VERDICT_FIVE when the stone makes exactly five. */
enum { VERDICT_FIVE = -1 };

static int verdict(Board *b, Point p);

/*
 * With black on p (placed in mind by the caller): is the three of direction d
 * (straight-four offsets in mask) real, i.e. is one of its straight-four
 * points a legal black move that makes no five?
 */
static bool real_three(Board *b, Point p, int d, unsigned mask)
{
    for (int k = -3; k <= 3; k++)
        if (mask >> (k + 3) & 1) {
            Point q = (Point)(p + k * (DIR_DC[d] + BOARD_SIZE * DIR_DR[d]));
            if (verdict(b, q) == FORBID_NONE)
                return true;
        }
    return false;
}

static int verdict(Board *b, Point p)
{
    assert(p < BOARD_POINTS && b->cell[p] == EMPTY);
    uint16_t e[NUM_DIRS];
    unsigned any = 0;
    int fours = 0, threes = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        e[d] = black_entry(b, p, d);
        any |= e[d];
        fours += pattern_fours(e[d]);
        threes += (e[d] & PAT_THREE_MASK) != 0;
    }
    if (any & PAT_FIVE)
        return VERDICT_FIVE;
    if (any & PAT_OVER)
        return FORBID_OVERLINE;
    if (fours >= 2)
        return FORBID_DOUBLE_FOUR;
    if (threes < 2)
        return FORBID_NONE;
    /* A double-three candidate: check the threes one by one (RIF 9.3). */
    int real = 0;
    put_mind(b, p, BLACK);
    for (int d = 0; d < NUM_DIRS && real < 2 && real + threes >= 2; d++) {
        unsigned mask = (e[d] & PAT_THREE_MASK) >> PAT_THREE_SHIFT;
        if (!mask)
            continue;
        threes--;
        real += real_three(b, p, d, mask);
    }
    remove_mind(b, p, BLACK);
    return real >= 2 ? FORBID_DOUBLE_THREE : FORBID_NONE;
}

bool rules_double_three_candidate(const Board *b, Point p)
{
    ensure_init();
    unsigned any = 0;
    int fours = 0, threes = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        uint16_t e = black_entry(b, p, d);
        any |= e;
        fours += pattern_fours(e);
        threes += (e & PAT_THREE_MASK) != 0;
    }
    return !(any & (PAT_FIVE | PAT_OVER)) && fours < 2 && threes >= 2;
}

ForbidKind rules_forbidden(Board *b, Point p)
{
    ensure_init();
    int v = verdict(b, p);
    return v == VERDICT_FIVE ? FORBID_NONE : (ForbidKind)v;
}

int rules_forbidden_points(Board *b, Point *out, ForbidKind *kind)
{
    ensure_init();
    /* Per point: bits 0-3 fours, 4-7 lines with a three, 8-11 fives, 12-15 overlines. */
    uint16_t acc[BOARD_POINTS];
    uint64_t touched[4] = {0, 0, 0, 0};
    for (int d = 0; d < NUM_DIRS; d++)
        for (int idx = 0; idx < board_num_lines(d); idx++) {
            uint32_t bl = b->line[0][d][idx];
            if (!(bl & (bl - 1)))
                continue; /* a line needs two black stones besides p to matter */
            uint32_t em = board_line_valid(d, idx) & ~(bl | b->line[1][d][idx]);
            uint32_t near = bl;
            near |= near << 1 | near >> 1;
            near |= near << 2 | near >> 2;
            near |= near << 2 | near >> 2; /* within 5 of a black stone */
            for (uint32_t m = near & em; m; m &= m - 1) {
                int i = __builtin_ctz(m);
                uint16_t e = pattern_black[pattern_index(bl, em, i)];
                if (!e)
                    continue;
                unsigned p = geo_point[d][idx][i], inc = pattern_fours(e) | ((e & PAT_THREE_MASK) != 0) << 4 |
                                                         (e & PAT_FIVE) << 8 | (e & PAT_OVER) << 11;
                if (touched[p >> 6] >> (p & 63) & 1) {
                    acc[p] = (uint16_t)(acc[p] + inc);
                } else {
                    touched[p >> 6] |= UINT64_C(1) << (p & 63);
                    acc[p] = (uint16_t)inc;
                }
            }
        }
    int n = 0;
    for (int w = 0; w < 4; w++)
        for (uint64_t t = touched[w]; t; t &= t - 1) {
            int p = w * 64 + __builtin_ctzll(t);
            unsigned a = acc[p];
            if (a < 2 || (a & 0x0f00))
                continue;
            ForbidKind k = FORBID_NONE;
            if (a & 0xf000)
                k = FORBID_OVERLINE;
            else if ((a & 0xf) >= 2)
                k = FORBID_DOUBLE_FOUR;
            else if ((a >> 4 & 0xf) >= 2)
                k = rules_forbidden(b, (Point)p);
            if (k == FORBID_NONE)
                continue;
            if (kind)
                kind[n] = k;
            out[n++] = (Point)p;
        }
    return n;
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
    ensure_init();
    bool exact = needs_exact(c, rs);
    uint64_t set[4] = {0, 0, 0, 0};
    for (int d = 0; d < NUM_DIRS; d++)
        for (int idx = 0; idx < board_num_lines(d); idx++) {
            uint32_t own = b->line[c - 1][d][idx], x = own;
            x &= x - 1, x &= x - 1, x &= x - 1;
            if (!x)
                continue; /* a five needs four stones on the line already */
            uint32_t em = board_line_valid(d, idx) & ~(own | b->line[2 - c][d][idx]);
            uint32_t near = own << 1 | own >> 1; /* a five point touches a stone */
            for (uint32_t m = near & em; m; m &= m - 1) {
                int i = __builtin_ctz(m);
                if (five_ok(run_len(own | 1u << i, i), exact)) {
                    unsigned p = geo_point[d][idx][i];
                    set[p >> 6] |= UINT64_C(1) << (p & 63);
                }
            }
        }
    int n = 0;
    for (int w = 0; w < 4; w++)
        for (uint64_t t = set[w]; t; t &= t - 1)
            out[n++] = (Point)(w * 64 + __builtin_ctzll(t));
    return n;
}

int rules_double_win_points(Board *b, Color c, RuleSet rs, Point *out)
{
    Point q[8];
    int n = 0;
    for (int p = 0; p < BOARD_POINTS; p++)
        if (b->cell[p] == EMPTY && rules_four_points_after(b, (Point)p, c, rs, q) >= 2)
            out[n++] = (Point)p;
    return n;
}

/*
 * With no winning point on the board for c, every winning point after c's stone
 * p lies on a line through p and is a five point of p (rules_four_points_after:
 * the lines not through p are unchanged, and a stone only lengthens a row).
 * The stone at p removes at most one winning point of the other side, the one
 * at p, and creates none for it.  A stone of the other side removes the five
 * points it covers and creates none for c, hence the candidates' contract.
 */
bool rules_short_win_among(Board *b, RuleSet rs, const Point *five, int nfive, const Point *cand, int ncand)
{
    Color c = b->to_move;
    for (int i = 0; i < nfive; i++)
        if (b->cell[five[i]] == EMPTY && rules_makes_five(b, five[i], c, rs))
            return true;
    Point fp[BOARD_POINTS], q[8];
    int nd = -1; /* the other side's winning points, counted when first needed */
    for (int i = 0; i < ncand; i++) {
        Point p = cand[i];
        if (b->cell[p] != EMPTY || rules_four_points_after(b, p, c, rs, q) < 2)
            continue;
        if (nd < 0)
            nd = rules_five_points(b, color_other(c), rs, fp);
        if (nd >= 2)
            return false;
        if (nd == 1 && p != fp[0])
            continue; /* only the stone on the other side's winning point can leave it none */
        if (rules_is_legal(b, p, rs))
            return true;
    }
    return false;
}

bool rules_short_win(Board *b, RuleSet rs)
{
    Point five[BOARD_POINTS], cand[BOARD_POINTS];
    if (rules_five_points(b, b->to_move, rs, five) > 0)
        return true;
    int n = rules_double_win_points(b, b->to_move, rs, cand);
    return rules_short_win_among(b, rs, NULL, 0, cand, n);
}

int rules_four_points_after(Board *b, Point p, Color c, RuleSet rs, Point *out)
{
    assert(p < BOARD_POINTS && b->cell[p] == EMPTY);
    ensure_init();
    bool exact = needs_exact(c, rs);
    int n = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        int i = geo_pos[p][d], q[2];
        uint32_t w = ((uint32_t)b->line[c - 1][d][geo_idx[p][d]] << 5 >> i) & 0x7ff;
        w &= w - 1, w &= w - 1;
        if (!w)
            continue; /* a four needs three more stones within 4 (+1) points */
        Line l = line_get(b, p, c, d);
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
    ensure_init();
    bool exact = needs_exact(c, rs);
    int i = geo_pos[p][dir], q[7];
    uint32_t w = ((uint32_t)b->line[c - 1][dir][geo_idx[p][dir]] << 5 >> i) & 0x7ff;
    if (!(w & (w - 1)))
        return 0; /* a three needs two more stones within 3 (+1) points */
    Line l = line_get(b, p, c, dir);
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
        if (renju_black && verdict(b, s) != FORBID_NONE)
            continue; /* makes five (literal RIF: does not count) or forbidden */
        out[n++] = s;
    }
    if (renju_black)
        remove_mind(b, p, c);
    return n;
}
