/* threat.c - see threat.h. */
#include "threat.h"

#include <string.h>

#include "rules.h"

/* Own stones and blockers (opponent stones, off-board positions: bits 0..15 not on the board) of one line. */
static inline void line_masks(const Board *b, Color c, int dir, int idx, uint16_t *own, uint16_t *blk)
{
    *own = b->line[c - 1][dir][idx];
    *blk = (uint16_t)(b->line[2 - c][dir][idx] | (uint16_t)~board_line_valid(dir, idx));
}

/* The number of c stones on line idx of direction dir (kept by the board). */
static inline int line_count(const Board *b, Color c, int dir, int idx)
{
    return b->count[c - 1][dir * NUM_LINES + idx];
}

/* Bit-sliced sum of own's five shifted copies: bit s of t0 + 2*t1 + 4*t2 counts own stones in s..s+4. */
static inline void window_sums(unsigned own, unsigned *t0, unsigned *t1, unsigned *t2)
{
    unsigned a = own, b = own >> 1, c = own >> 2, d = own >> 3, e = own >> 4;
    unsigned s1 = a ^ b ^ c, k1 = (a & b) | (c & (a ^ b));
    unsigned s2 = d ^ e, k2 = d & e;
    unsigned kc = s1 & s2;
    *t0 = s1 ^ s2;
    *t1 = k1 ^ k2 ^ kc;
    *t2 = (k1 & k2) | (kc & (k1 ^ k2));
}

/*
 * Window classification of one line, bit-parallel over the 11 window starts:
 * bit s of the result is set when the five-window s..s+4 holds exactly `k`
 * own stones, no blocker, and (exact rules) no own stone just outside it, so
 * that filling the window makes a five that counts.
 */
static inline unsigned line_windows(unsigned own, unsigned blk, bool exact, int k)
{
    unsigned t0, t1, t2;
    window_sums(own, &t0, &t1, &t2);
    unsigned eq = k == 4 ? (t2 & ~t1 & ~t0) : k == 3 ? (~t2 & t1 & t0) : 0;
    unsigned nb = ~(blk | blk >> 1 | blk >> 2 | blk >> 3 | blk >> 4);
    unsigned m = eq & nb & 0x7ffu;
    if (exact)
        m &= ~((own << 1) | (own >> 5));
    return m;
}

/* Union of the empty points of the windows whose starts are in m. */
static inline uint16_t window_empties(unsigned m, unsigned own)
{
    unsigned r = 0;
    while (m) {
        int st = __builtin_ctz(m);
        m &= m - 1;
        r |= 0x1fu << st;
    }
    return (uint16_t)(r & ~own);
}

/*
 * The lines of colour c holding `need` (1..15) or more stones, in order of
 * their flat slots dir * NUM_LINES + idx, each as dir << 5 | idx (LINE_DIR,
 * LINE_IDX: no division where they are read); returns the count.  Eight lines at
 * a time from the board's per-line stone counts (bytes 0..15: adding
 * 128 - need sets the top bit exactly when count >= need, with no carry).
 */
#define SLOT_PACK(s) (uint8_t)(((s) / NUM_LINES) << 5 | ((s) % NUM_LINES))
#define SLOT_PACK8(s)                                                                                                  \
    SLOT_PACK(s), SLOT_PACK(s + 1), SLOT_PACK(s + 2), SLOT_PACK(s + 3), SLOT_PACK(s + 4), SLOT_PACK(s + 5),            \
        SLOT_PACK(s + 6), SLOT_PACK(s + 7)
static const uint8_t SLOT_LINE[120] = {SLOT_PACK8(0),  SLOT_PACK8(8),   SLOT_PACK8(16), SLOT_PACK8(24),
                                       SLOT_PACK8(32), SLOT_PACK8(40),  SLOT_PACK8(48), SLOT_PACK8(56),
                                       SLOT_PACK8(64), SLOT_PACK8(72),  SLOT_PACK8(80), SLOT_PACK8(88),
                                       SLOT_PACK8(96), SLOT_PACK8(104), SLOT_PACK8(112)};
_Static_assert(BOARD_LINE_SLOTS == 120, "SLOT_LINE covers every slot");
#define LINE_DIR(v) ((v) >> 5)
#define LINE_IDX(v) ((v)&31)

static int lines_with(const Board *b, Color c, int need, uint8_t *list)
{
    const uint8_t *cnt = b->count[c - 1];
    const uint64_t bytes = UINT64_C(0x0101010101010101);
    uint64_t add = bytes * (uint64_t)(128 - need), top = bytes * 0x80u;
    int n = 0;
    _Static_assert(BOARD_LINE_SLOTS % 8 == 0, "whole 64-bit words of counts");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (int i = 0; i < BOARD_LINE_SLOTS; i += 8) {
        uint64_t x;
        memcpy(&x, cnt + i, sizeof x);
        for (uint64_t hit = (x + add) & top; hit; hit &= hit - 1)
            list[n++] = SLOT_LINE[i + __builtin_ctzll(hit) / 8]; /* byte k is bits 8k.. */
    }
#else
    (void)add, (void)top;
    for (int i = 0; i < BOARD_LINE_SLOTS; i++)
        if (cnt[i] >= need)
            list[n++] = SLOT_LINE[i];
#endif
    return n;
}

static inline uint16_t line_fives(uint16_t own, uint16_t blk, bool exact, int lo, int hi)
{
    if (lo < 0)
        lo = 0;
    if (hi > BOARD_SIZE - 5)
        hi = BOARD_SIZE - 5;
    if (lo > hi)
        return 0;
    unsigned range = ((2u << hi) - 1) & ~((1u << lo) - 1);
    return window_empties(line_windows(own, blk, exact, 4) & range, own);
}

uint16_t thr_line_fives(uint16_t own, uint16_t blk, bool exact, int lo, int hi)
{
    return line_fives(own, blk, exact, lo, hi);
}

bool thr_is_five(const Board *b, Point p, Color c, RuleSet rs)
{
    assert(p < BOARD_POINTS && board_at(b, p) == EMPTY);
    bool exact = thr_exact(c, rs);
#pragma GCC unroll 4
    for (int d = 0; d < NUM_DIRS; d++) {
        int idx = board_line_index(p, d), pos = board_line_pos(p, d);
        if (line_count(b, c, d, idx) < 4) /* a five at p needs four c stones on its line */
            continue;
        uint16_t own, blk;
        line_masks(b, c, d, idx, &own, &blk);
        if (line_fives(own, blk, exact, pos - 4, pos) & (1u << pos))
            return true;
    }
    return false;
}

/* A small set of points for de-duplication. */
typedef struct {
    uint64_t bits[4];
} PointSet;

static inline bool set_add(PointSet *s, Point p)
{
    uint64_t m = UINT64_C(1) << (p & 63);
    if (s->bits[p >> 6] & m)
        return false;
    s->bits[p >> 6] |= m;
    return true;
}

/* What line_points() collects from one line. */
enum { LP_FIVES, LP_FOURS, LP_WINDOWS };

/*
 * The distinct points, over the lines holding `need` or more c stones, of
 * one kind: five points (LP_FIVES), points making a four (LP_FOURS), or
 * empty points of a blocker-free window holding `need` c stones
 * (LP_WINDOWS).  Inlined with a constant kind.
 */
static inline __attribute__((always_inline)) int line_points(const Board *b, Color c, RuleSet rs, int kind, int need,
                                                             Point *out)
{
    bool exact = thr_exact(c, rs);
    PointSet seen = {{0, 0, 0, 0}};
    int n = 0;
    uint8_t lines[BOARD_LINE_SLOTS];
    int nl = lines_with(b, c, need, lines);
    for (int k = 0; k < nl; k++) {
        int d = LINE_DIR(lines[k]), idx = LINE_IDX(lines[k]);
        uint16_t own, blk;
        line_masks(b, c, d, idx, &own, &blk);
        unsigned e = 0;
        if (kind == LP_FIVES) {
            e = line_fives(own, blk, exact, 0, BOARD_SIZE - 5);
        } else if (kind == LP_FOURS) {
            e = window_empties(line_windows(own, blk, exact, 3), own);
        } else {
            for (int s = 0; s <= BOARD_SIZE - 5; s++) {
                unsigned w = 0x1fu << s;
                if (!(blk & w) && thr_pop16(own & w) >= need)
                    e |= w & ~own;
            }
        }
        for (; e; e &= e - 1) {
            Point p = thr_line_point(d, idx, __builtin_ctz(e));
            if (set_add(&seen, p))
                out[n++] = p;
        }
    }
    return n;
}

int thr_five_points(const Board *b, Color c, RuleSet rs, Point *out) { return line_points(b, c, rs, LP_FIVES, 4, out); }

int thr_fives_after(const Board *b, Point p, Color c, RuleSet rs, Point *out)
{
    assert(p < BOARD_POINTS && board_at(b, p) == EMPTY);
    bool exact = thr_exact(c, rs);
    int n = 0;
#pragma GCC unroll 4
    for (int d = 0; d < NUM_DIRS; d++) {
        int idx = board_line_index(p, d), pos = board_line_pos(p, d);
        if (line_count(b, c, d, idx) < 3) /* with p, four c stones at least */
            continue;
        uint16_t own, blk;
        line_masks(b, c, d, idx, &own, &blk);
        uint16_t f = line_fives((uint16_t)(own | (1u << pos)), blk, exact, pos - 4, pos);
        while (f) {
            int q = __builtin_ctz(f);
            f &= (uint16_t)(f - 1);
            Point pt = thr_line_point(d, idx, q);
            bool dup = false;
            for (int i = 0; i < n; i++)
                dup |= out[i] == pt;
            if (!dup)
                out[n++] = pt;
        }
    }
    return n;
}

int thr_fives_through(const Board *b, Point p, Color c, RuleSet rs, Point *out)
{
    assert(p < BOARD_POINTS && board_at(b, p) == c);
    bool exact = thr_exact(c, rs);
    int n = 0;
#pragma GCC unroll 4
    for (int d = 0; d < NUM_DIRS; d++) {
        int idx = board_line_index(p, d), pos = board_line_pos(p, d);
        if (line_count(b, c, d, idx) < 4) /* a five point needs four c stones on the line */
            continue;
        uint16_t own, blk;
        line_masks(b, c, d, idx, &own, &blk);
        uint16_t f = line_fives(own, blk, exact, pos - 4, pos);
        while (f) {
            int q = __builtin_ctz(f);
            f &= (uint16_t)(f - 1);
            Point pt = thr_line_point(d, idx, q);
            bool dup = false;
            for (int i = 0; i < n; i++)
                dup |= out[i] == pt;
            if (!dup)
                out[n++] = pt;
        }
    }
    return n;
}

int thr_four_moves(const Board *b, Color c, RuleSet rs, Point *out) { return line_points(b, c, rs, LP_FOURS, 3, out); }

/* The four-move positions of one line slot (0 when the line holds fewer than three c stones). */
static inline uint16_t slot_fours(const Board *b, Color c, bool exact, int slot)
{
    if (b->count[c - 1][slot] < 3)
        return 0;
    int d = slot / NUM_LINES, idx = slot % NUM_LINES;
    uint16_t own, blk;
    line_masks(b, c, d, idx, &own, &blk);
    return window_empties(line_windows(own, blk, exact, 3), own);
}

static inline void slot_set(ThrFourLines *fl, int slot, uint16_t e)
{
    uint64_t bit = UINT64_C(1) << (slot & 63);
    fl->e[slot] = e;
    if (e)
        fl->nz[slot >> 6] |= bit;
    else
        fl->nz[slot >> 6] &= ~bit;
}

void thr_four_lines_init(const Board *b, Color c, RuleSet rs, ThrFourLines *fl)
{
    bool exact = thr_exact(c, rs);
    memset(fl, 0, sizeof *fl);
    uint8_t lines[BOARD_LINE_SLOTS];
    int nl = lines_with(b, c, 3, lines);
    for (int k = 0; k < nl; k++) {
        int slot = LINE_DIR(lines[k]) * NUM_LINES + LINE_IDX(lines[k]);
        slot_set(fl, slot, slot_fours(b, c, exact, slot));
    }
}

void thr_four_lines_touch(const Board *b, Color c, RuleSet rs, ThrFourLines *fl, Point p)
{
    assert(p < BOARD_POINTS);
    bool exact = thr_exact(c, rs);
#pragma GCC unroll 4
    for (int d = 0; d < NUM_DIRS; d++) {
        int slot = d * NUM_LINES + board_line_index(p, d);
        slot_set(fl, slot, slot_fours(b, c, exact, slot));
    }
}

int thr_four_lines_points(const ThrFourLines *fl, Point *out)
{
    PointSet seen = {{0, 0, 0, 0}};
    int n = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t z = fl->nz[w]; z; z &= z - 1) {
            int slot = w * 64 + __builtin_ctzll(z);
            int d = LINE_DIR(SLOT_LINE[slot]), idx = LINE_IDX(SLOT_LINE[slot]);
            for (unsigned e = fl->e[slot]; e; e &= e - 1) {
                Point p = thr_line_point(d, idx, __builtin_ctz(e));
                if (set_add(&seen, p))
                    out[n++] = p;
            }
        }
    return n;
}

int thr_window_points(const Board *b, Color c, int need, Point *out)
{
    assert(need >= 1 && need <= 5);
    return line_points(b, c, RULE_FREESTYLE, LP_WINDOWS, need, out); /* windows ignore the rule set */
}

bool thr_legal(Board *b, Point p, Color c, RuleSet rs)
{
    if (board_at(b, p) != EMPTY)
        return false;
    return !(rs == RULE_RENJU && c == BLACK && rules_is_forbidden(b, p));
}

int thr_double_wins(Board *b, Color c, RuleSet rs, Point *out, bool first)
{
    Point mv[BOARD_POINTS], f[8];
    int nm = thr_four_moves(b, c, rs, mv), n = 0;
    for (int i = 0; i < nm; i++) {
        if (thr_fives_after(b, mv[i], c, rs, f) < 2 || !thr_legal(b, mv[i], c, rs))
            continue;
        out[n++] = mv[i];
        if (first)
            break;
    }
    return n;
}

bool thr_short_loss(Board *b, Point x, RuleSet rs)
{
    Color def = b->to_move, att = color_other(def);
    Point buf[BOARD_POINTS], f[8];
    bool loss;
    board_play(b, x);
    if (thr_five_points(b, att, rs, buf) > 0) {
        loss = true;
    } else {
        int nd = thr_five_points(b, def, rs, buf);
        if (nd >= 2)
            loss = false;
        else if (nd == 1)
            loss = thr_fives_after(b, buf[0], att, rs, f) >= 2 && thr_legal(b, buf[0], att, rs);
        else
            loss = thr_double_wins(b, att, rs, buf, true) > 0;
    }
    board_undo(b);
    return loss;
}

int thr_double_wins_near(Board *b, Point p, Color c, RuleSet rs, Point *out, bool first)
{
    Point f[8];
    int n = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        int idx = board_line_index(p, d), pos = board_line_pos(p, d);
        uint16_t own, blk;
        line_masks(b, c, d, idx, &own, &blk);
        unsigned cand = 0;
        for (int s = pos - 4; s <= pos; s++) {
            if (s < 0 || s > BOARD_SIZE - 5)
                continue;
            unsigned w = 0x1fu << s;
            if (!(blk & w) && thr_pop16(own & w) == 3)
                cand |= w & ~own;
        }
        while (cand) {
            int q = __builtin_ctz(cand);
            cand &= cand - 1;
            Point w = thr_line_point(d, idx, q);
            bool dup = false;
            for (int i = 0; i < n; i++)
                dup |= out[i] == w;
            if (dup || thr_fives_after(b, w, c, rs, f) < 2 || !thr_legal(b, w, c, rs))
                continue;
            out[n++] = w;
            if (first)
                return n;
        }
    }
    return n;
}

void thr_mark_lines_r(Point p, int r, uint64_t set[4])
{
    int col = point_col(p), row = point_row(p);
    set[p >> 6] |= UINT64_C(1) << (p & 63);
    for (int d = 0; d < NUM_DIRS; d++)
        for (int k = -r; k <= r; k++) {
            int cc = col + k * DIR_DC[d], rr = row + k * DIR_DR[d];
            if (!point_on_board(cc, rr))
                continue;
            Point q = point_make(cc, rr);
            set[q >> 6] |= UINT64_C(1) << (q & 63);
        }
}

void thr_mark_lines(Point p, uint64_t set[4]) { thr_mark_lines_r(p, 5, set); }

int thr_three_dirs(const Board *b, Point p, Color c, RuleSet rs)
{
    bool exact = thr_exact(c, rs);
    int n = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        int idx = board_line_index(p, d), pos = board_line_pos(p, d);
        uint16_t own, blk;
        line_masks(b, c, d, idx, &own, &blk);
        uint16_t own2 = (uint16_t)(own | (1u << pos));
        if (line_fives(own2, blk, exact, pos - 4, pos))
            continue;
        for (int s = pos - 4; s <= pos; s++) {
            if (s < 0 || s > BOARD_SIZE - 5)
                continue;
            unsigned w = 0x1fu << s;
            if (!(blk & w) && thr_pop16(own & w) >= 2) {
                n++;
                break;
            }
        }
    }
    return n;
}

/*
 * The most own stones in a five-window free of blockers, over the five
 * windows of a nine-point stretch (bits 0..8) centred on an empty point: the
 * window counts are summed bit-parallel (bit s = window s..s+4, as
 * t0 + 2*t1 + 4*t2) and the best clean one read off.  (A 256 KiB lookup
 * table did the same but missed the cache on most calls.)
 */
static inline int window_best(unsigned own, unsigned blk)
{
    unsigned t0, t1, t2;
    window_sums(own, &t0, &t1, &t2);
    unsigned nb = ~(blk | blk >> 1 | blk >> 2 | blk >> 3 | blk >> 4) & 0x1fu;
    if (t2 & nb)
        return 4; /* the centre is empty: at most four */
    if (t1 & t0 & nb)
        return 3;
    if (t1 & nb)
        return 2;
    return (t0 & nb) ? 1 : 0;
}

/* window_best() of the nine-point stretch of direction d centred on empty p, for c. */
static inline int dir_best(const Board *b, Point p, Color c, int d)
{
    int idx = board_line_index(p, d), pos = board_line_pos(p, d);
    uint16_t own, blk;
    line_masks(b, c, d, idx, &own, &blk);
    /* Positions pos-4 .. pos+4 as bits 0..8; beyond the line counts as blocked. */
    uint32_t o = ((uint32_t)own << 4) >> pos & 0x1ffu;
    uint32_t k = (((uint32_t)blk << 4) | 0xfu | ~((1u << 19) - 1)) >> pos & 0x1ffu;
    return window_best(o, k);
}

int thr_potential(const Board *b, Point p, Color c)
{
    assert(board_at(b, p) == EMPTY);
    int t = 0;
#pragma GCC unroll 4
    for (int d = 0; d < NUM_DIRS; d++)
        t += dir_best(b, p, c, d);
    return t;
}

/* Bits s..s+4 for every bit s of x (the points of the windows starting at x's bits). */
static inline uint64_t spread5(uint64_t x) { return (x | x << 1 | x << 2 | x << 3 | x << 4) & 0x7fffu; }

void thr_windows_scan_min(const Board *b, Color c, int min_stones, ThrWindows *w)
{
    assert(min_stones >= 1 && min_stones <= 4);
    w->c = c;
    memset(w->cov, 0, sizeof w->cov);
    memset(w->many, 0, sizeof w->many);
    uint8_t lines[BOARD_LINE_SLOTS];
    int nl = lines_with(b, c, min_stones, lines);
    for (int k = 0; k < nl; k++) {
        int d = LINE_DIR(lines[k]), idx = LINE_IDX(lines[k]);
        unsigned own = b->line[c - 1][d][idx];
        w->many[d] |= (uint32_t)(line_count(b, c, d, idx) >= 4) << idx;
        /* Bit s: the window s..s+4 (beyond bit 15 is off the line: blocked). */
        unsigned blk = (unsigned)b->line[2 - c][d][idx] | (uint16_t)~board_line_valid(d, idx) | 0xffff0000u;
        unsigned t0, t1, t2;
        window_sums(own, &t0, &t1, &t2);
        unsigned nb = ~(blk | blk >> 1 | blk >> 2 | blk >> 3 | blk >> 4) & 0x7ffu;
        unsigned ge4 = t2 & nb, ge3 = (t2 | (t1 & t0)) & nb, ge2 = (t2 | t1) & nb, ge1 = (t2 | t1 | t0) & nb;
        w->cov[d][idx] = spread5(ge1) | spread5(ge2) << 16 | spread5(ge3) << 32 | spread5(ge4) << 48;
    }
    w->line4 = (w->many[0] | w->many[1] | w->many[2] | w->many[3]) != 0;
}

void thr_windows_scan(const Board *b, Color c, ThrWindows *w) { thr_windows_scan_min(b, c, 1, w); }

/* Row and column of position pos of line idx in direction d. */
static inline void line_cr(int d, int idx, int pos, int *col, int *row)
{
    *col = d == DIR_N ? idx : pos;
    *row = d == DIR_E ? idx : d == DIR_N ? pos : d == DIR_NE ? pos - idx + BOARD_SIZE - 1 : idx - pos;
}

void thr_windows_rows(const Board *b, const ThrWindows *w, ThrRows *out)
{
    uint16_t dirs[NUM_DIRS][BOARD_SIZE];
    memset(dirs, 0, sizeof dirs);
    memset(out->u3, 0, sizeof out->u3);
    memset(out->m4, 0, sizeof out->m4);
    for (int d = 0; d < NUM_DIRS; d++)
        for (uint32_t many = w->many[d]; many; many &= many - 1) {
            int idx = __builtin_ctz(many);
            unsigned line = b->line[w->c - 1][d][idx];
            for (int pos = 0; pos < BOARD_SIZE; pos++)
                if (thr_pop16((line << 5 >> pos) & 0x7ffu) >= 4) { /* positions pos-5 .. pos+5 */
                    int col, row;
                    line_cr(d, idx, pos, &col, &row);
                    if (col >= 0 && col < BOARD_SIZE && row >= 0 && row < BOARD_SIZE)
                        out->m4[row] |= (uint16_t)(1u << col);
                }
        }
    for (int d = 0; d < NUM_DIRS; d++)
        for (int idx = 0; idx < board_num_lines(d); idx++) {
            uint64_t cv = w->cov[d][idx];
            unsigned two = (unsigned)(cv >> 16) & 0x7fffu, three = (unsigned)(cv >> 32) & 0x7fffu;
            if (two == 0)
                continue;
            if (d == DIR_E) { /* the line is row idx, positions are columns */
                dirs[d][idx] = (uint16_t)two;
                out->u3[idx] |= (uint16_t)three;
                continue;
            }
            for (; two; two &= two - 1) {
                int pos = __builtin_ctz(two), col, row;
                line_cr(d, idx, pos, &col, &row);
                dirs[d][row] |= (uint16_t)(1u << col);
                if (three >> pos & 1)
                    out->u3[row] |= (uint16_t)(1u << col);
            }
        }
    for (int r = 0; r < BOARD_SIZE; r++) {
        unsigned e = dirs[DIR_E][r], n = dirs[DIR_N][r], ne = dirs[DIR_NE][r], se = dirs[DIR_SE][r];
        unsigned s = e ^ n, two = e & n; /* at least two of the four, by a running carry */
        two |= s & ne, s ^= ne;
        two |= s & se, s ^= se;
        out->a2[r] = (uint16_t)two;
        out->u2[r] = (uint16_t)(e | n | ne | se);
    }
}

bool thr_forbid_screen(const Board *b, const ThrWindows *wb, Point p)
{
    int wmax, ntwo;
    thr_windows_at(wb, p, &wmax, &ntwo);
    return ntwo >= 2 || thr_forbid_line_screen(b, wb, point_col(p), point_row(p));
}

void thr_window_max(const Board *b, Point p, Color c, int *wmax, int *ntwo)
{
    assert(board_at(b, p) == EMPTY);
    int mx = 0, two = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        int best = dir_best(b, p, c, d);
        if (best > mx)
            mx = best;
        two += best >= 2;
    }
    *wmax = mx;
    *ntwo = two;
}
