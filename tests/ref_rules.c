/* ref_rules.c - see ref_rules.h.  Plain cell scans, written from the definitions. */
#include "ref_rules.h"

#include <string.h>

/* A copy of the board's cells, cell[row * 15 + col]. */
typedef struct {
    uint8_t cell[BOARD_POINTS];
} Grid;

static void grid_from(const Board *b, Grid *g) { memcpy(g->cell, b->cell, sizeof g->cell); }

/* Put colour v on (c,r), which is on the board. */
static void set(Grid *g, int c, int r, int v) { g->cell[r * BOARD_SIZE + c] = (uint8_t)v; }

/* Colour at (c,r), or -1 off the board. */
static int get(const Grid *g, int c, int r)
{
    if (c < 0 || c >= BOARD_SIZE || r < 0 || r >= BOARD_SIZE)
        return -1;
    return g->cell[r * BOARD_SIZE + c];
}

/* Does colour col need exactly five under rs (else five or more)? */
static bool exact_for(Color col, RuleSet rs)
{
    if (rs == RULE_STANDARD)
        return true;
    if (rs == RULE_FREESTYLE)
        return false;
    return col == BLACK;
}

static bool is_win_len(int n, bool exact) { return exact ? n == 5 : n >= 5; }

/*
 * The unbroken row of colour col through (c,r) (which holds col) in
 * direction d: its first and last offsets, *lo <= 0 <= *hi.
 */
static void row_extent(const Grid *g, int c, int r, int d, int col, int *lo, int *hi)
{
    int dc = DIR_DC[d], dr = DIR_DR[d];
    int k = 0;
    while (get(g, c + (k + 1) * dc, r + (k + 1) * dr) == col)
        k++;
    *hi = k;
    k = 0;
    while (get(g, c - (k + 1) * dc, r - (k + 1) * dr) == col)
        k++;
    *lo = -k;
}

static int row_len(const Grid *g, int c, int r, int d, int col)
{
    int lo, hi;
    row_extent(g, c, r, d, col, &lo, &hi);
    return hi - lo + 1;
}

/* Does the stone of colour col at (c,r) stand in a winning five (any direction)? */
static bool in_five(const Grid *g, int c, int r, int col, bool exact)
{
    for (int d = 0; d < NUM_DIRS; d++)
        if (is_win_len(row_len(g, c, r, d, col), exact))
            return true;
    return false;
}

/*
 * With a stone of colour col at (c,r): the offsets k (along d) of empty points
 * that complete a winning five containing both (c,r) and the new point.
 * Stores the offsets in ks and, for each, the set of the other stones of
 * that row as a bit mask of offsets (bit k+14) in sets.  Returns the count.
 */
static int five_points_dir(Grid *g, int c, int r, int d, int col, bool exact, int *ks, uint32_t *sets)
{
    /* An exact five holding both points spans at most 4 steps; a longer row may not. */
    int n = 0, reach = exact ? 4 : BOARD_SIZE - 1;
    for (int k = -reach; k <= reach; k++) {
        int qc = c + k * DIR_DC[d], qr = r + k * DIR_DR[d];
        if (k == 0 || get(g, qc, qr) != EMPTY)
            continue;
        set(g, qc, qr, col);
        int lo, hi;
        row_extent(g, c, r, d, col, &lo, &hi);
        if (lo <= k && k <= hi && is_win_len(hi - lo + 1, exact)) {
            uint32_t set = 0;
            for (int j = lo; j <= hi; j++)
                if (j != k)
                    set |= 1u << (j + BOARD_SIZE - 1);
            ks[n] = k;
            sets[n] = set;
            n++;
        }
        set(g, qc, qr, EMPTY);
    }
    return n;
}

/*
 * With stones of colour col at (c,r) and at offset k along d: is there a
 * straight four through both, i.e. an unbroken row of exactly four holding
 * them whose two neighbours are empty and each complete a winning five?
 */
static bool straight_four(Grid *g, int c, int r, int d, int k, int col, bool exact)
{
    int lo, hi;
    row_extent(g, c, r, d, col, &lo, &hi);
    if (hi - lo + 1 != 4 || k < lo || k > hi)
        return false;
    int ends[2] = {lo - 1, hi + 1};
    for (int e = 0; e < 2; e++) {
        int ec = c + ends[e] * DIR_DC[d], er = r + ends[e] * DIR_DR[d];
        if (get(g, ec, er) != EMPTY)
            return false;
        set(g, ec, er, col);
        bool five = is_win_len(row_len(g, ec, er, d, col), exact);
        set(g, ec, er, EMPTY);
        if (!five)
            return false;
    }
    return true;
}

static ForbidKind forbidden_grid(Grid *g, int c, int r);

/*
 * With a stone of colour col at (c,r): offsets of the straight-four points of
 * direction d.  When renju_black, only points that make no five and are not
 * forbidden count.  Stops after the first when first_only.  Returns the count.
 */
static int three_points_dir(Grid *g, int c, int r, int d, int col, bool exact, bool renju_black, bool first_only,
                            int *ks)
{
    int n = 0;
    for (int k = -3; k <= 3; k++) { /* both in a row of four: at most 3 steps apart */
        int qc = c + k * DIR_DC[d], qr = r + k * DIR_DR[d];
        if (k == 0 || get(g, qc, qr) != EMPTY)
            continue;
        set(g, qc, qr, col);
        bool ok = straight_four(g, c, r, d, k, col, exact);
        if (ok && renju_black)
            ok = !in_five(g, qc, qr, col, true);
        set(g, qc, qr, EMPTY);
        if (ok && renju_black)
            ok = forbidden_grid(g, qc, qr) == FORBID_NONE;
        if (ok) {
            ks[n++] = k;
            if (first_only)
                break;
        }
    }
    return n;
}

/* Forbidden kind of a black stone on the empty point (c,r); g is restored. */
static ForbidKind forbidden_grid(Grid *g, int c, int r)
{
    ForbidKind kind = FORBID_NONE;
    set(g, c, r, BLACK);
    bool five = false, over = false;
    for (int d = 0; d < NUM_DIRS; d++) {
        int n = row_len(g, c, r, d, BLACK);
        five |= n == 5;
        over |= n >= 6;
    }
    if (five)
        goto done;
    if (over) {
        kind = FORBID_OVERLINE;
        goto done;
    }
    int fours = 0;
    for (int d = 0; d < NUM_DIRS; d++) {
        int ks[2 * BOARD_SIZE];
        uint32_t sets[2 * BOARD_SIZE];
        int n = five_points_dir(g, c, r, d, BLACK, true, ks, sets);
        /* Distinct sets of four stones are distinct fours. */
        for (int i = 0; i < n; i++) {
            bool seen = false;
            for (int j = 0; j < i; j++)
                seen |= sets[j] == sets[i];
            fours += !seen;
        }
    }
    if (fours >= 2) {
        kind = FORBID_DOUBLE_FOUR;
        goto done;
    }
    int threes = 0;
    for (int d = 0; d < NUM_DIRS && threes < 2; d++) {
        int ks[2 * BOARD_SIZE];
        threes += three_points_dir(g, c, r, d, BLACK, true, true, true, ks) > 0;
    }
    if (threes >= 2)
        kind = FORBID_DOUBLE_THREE;
done:
    set(g, c, r, EMPTY);
    return kind;
}

ForbidKind ref_forbidden(const Board *b, Point p)
{
    Grid g;
    grid_from(b, &g);
    return forbidden_grid(&g, point_col(p), point_row(p));
}

bool ref_makes_five(const Board *b, Point p, Color c, RuleSet rs)
{
    Grid g;
    grid_from(b, &g);
    set(&g, point_col(p), point_row(p), c);
    return in_five(&g, point_col(p), point_row(p), c, exact_for(c, rs));
}

static void sort_points(Point *a, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            Point t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

int ref_four_points_after(const Board *b, Point p, Color c, RuleSet rs, Point *out)
{
    Grid g;
    grid_from(b, &g);
    int pc = point_col(p), pr = point_row(p), n = 0;
    set(&g, pc, pr, c);
    for (int d = 0; d < NUM_DIRS; d++) {
        int ks[2 * BOARD_SIZE];
        uint32_t sets[2 * BOARD_SIZE];
        int k = five_points_dir(&g, pc, pr, d, c, exact_for(c, rs), ks, sets);
        for (int i = 0; i < k; i++)
            out[n++] = point_make(pc + ks[i] * DIR_DC[d], pr + ks[i] * DIR_DR[d]);
    }
    sort_points(out, n);
    return n;
}

int ref_three_points_after(const Board *b, Point p, Color c, int dir, RuleSet rs, Point *out)
{
    Grid g;
    grid_from(b, &g);
    int pc = point_col(p), pr = point_row(p), ks[2 * BOARD_SIZE];
    set(&g, pc, pr, c);
    int n = three_points_dir(&g, pc, pr, dir, c, exact_for(c, rs), rs == RULE_RENJU && c == BLACK, false, ks);
    for (int i = 0; i < n; i++)
        out[i] = point_make(pc + ks[i] * DIR_DC[dir], pr + ks[i] * DIR_DR[dir]);
    sort_points(out, n);
    return n;
}

/* How many empty points where a stone of colour col wins at once. */
static int wins_at_once(Grid *g, int col, RuleSet rs)
{
    int n = 0;
    for (int r = 0; r < BOARD_SIZE; r++)
        for (int c = 0; c < BOARD_SIZE; c++) {
            if (get(g, c, r) != EMPTY)
                continue;
            set(g, c, r, col);
            n += in_five(g, c, r, col, exact_for((Color)col, rs));
            set(g, c, r, EMPTY);
        }
    return n;
}

bool ref_short_win(const Board *b, Color col, RuleSet rs)
{
    Grid g;
    grid_from(b, &g);
    if (wins_at_once(&g, col, rs) > 0)
        return true;
    int other = col == BLACK ? WHITE : BLACK;
    for (int r = 0; r < BOARD_SIZE; r++)
        for (int c = 0; c < BOARD_SIZE; c++) {
            if (get(&g, c, r) != EMPTY)
                continue;
            bool legal = !(rs == RULE_RENJU && col == BLACK && forbidden_grid(&g, c, r) != FORBID_NONE);
            set(&g, c, r, col);
            bool two = wins_at_once(&g, col, rs) >= 2 && wins_at_once(&g, other, rs) == 0;
            set(&g, c, r, EMPTY);
            if (legal && two)
                return true;
        }
    return false;
}
