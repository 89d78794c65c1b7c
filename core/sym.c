/* sym.c - see sym.h. */
#include "sym.h"

#include <string.h>

#include "board.h"

Point sym_apply(int t, Point p)
{
    assert(t >= 0 && t < NUM_SYMS);
    if (p >= BOARD_POINTS)
        return p;
    int c = BOARD_SIZE / 2;
    int x = point_col(p) - c, y = point_row(p) - c;
    if (t & 1)
        x = -x;
    if (t & 2)
        y = -y;
    if (t & 4) {
        int s = x;
        x = y;
        y = s;
    }
    return point_make(x + c, y + c);
}

/* Two probe points whose images identify a transform uniquely. */
static bool same_transform(int a, int b)
{
    const Point probe = point_make(8, 10); /* offset (1,3): no symmetry fixes it */
    return sym_apply(a, probe) == sym_apply(b, probe);
}

int sym_compose(int a, int b)
{
    const Point probe = point_make(8, 10);
    Point target = sym_apply(a, sym_apply(b, probe));
    for (int t = 0; t < NUM_SYMS; t++)
        if (sym_apply(t, probe) == target)
            return t;
    assert(!"transforms are closed under composition");
    return 0;
}

int sym_inverse(int t)
{
    for (int u = 0; u < NUM_SYMS; u++)
        if (same_transform(sym_compose(u, t), 0))
            return u;
    assert(!"every transform has an inverse");
    return 0;
}

/*
 * The stones of b as a list, each as its offsets from the centre
 * (canonicalisation then costs 8 x stones, not 8 x 225, and a transform is
 * sign changes and a swap, as in sym_apply).
 */
typedef struct {
    int n;
    int8_t x[BOARD_POINTS], y[BOARD_POINTS];
    uint8_t c[BOARD_POINTS];
} StoneList;

static void stone_list(const Board *b, StoneList *l)
{
    const int c = BOARD_SIZE / 2;
    l->n = 0;
    for (int p = 0; p < BOARD_POINTS; p++)
        if (b->cell[p] != EMPTY) {
            l->x[l->n] = (int8_t)(point_col((Point)p) - c);
            l->y[l->n] = (int8_t)(point_row((Point)p) - c);
            l->c[l->n++] = b->cell[p];
        }
}

/* Key of the stones seen through transform t (sym_apply's, point by point). */
static void key_under(const StoneList *l, Color to_move, RuleSet rs, bool pass_pending, int t, SymKey *out)
{
    const int c = BOARD_SIZE / 2;
    memset(out, 0, sizeof *out);
    out->b[0] = (uint8_t)to_move;
    out->b[1] = (uint8_t)rs;
    out->b[SYMKEY_PASS_BYTE] = pass_pending;
    int sx = t & 1 ? -1 : 1, sy = t & 2 ? -1 : 1;
    for (int i = 0; i < l->n; i++) {
        int x = sx * l->x[i], y = sy * l->y[i];
        if (t & 4) {
            int s = x;
            x = y;
            y = s;
        }
        unsigned q = (unsigned)((y + c) * BOARD_SIZE + x + c);
        out->b[2 + q / 4] |= (uint8_t)(l->c[i] << (2 * (q % 4)));
    }
}

void sym_key(const Board *b, RuleSet rs, SymKey *out)
{
    StoneList l;
    stone_list(b, &l);
    key_under(&l, b->to_move, rs, board_last_move(b) == POINT_PASS, 0, out);
}

void sym_canonical(const Board *b, RuleSet rs, SymKey *out, int *t)
{
    int best_t = 0;
    StoneList l;
    stone_list(b, &l);
    key_under(&l, b->to_move, rs, board_last_move(b) == POINT_PASS, 0, out);
    for (int u = 1; u < NUM_SYMS; u++) {
        SymKey k;
        key_under(&l, b->to_move, rs, board_last_move(b) == POINT_PASS, u, &k);
        if (memcmp(k.b, out->b, SYMKEY_LEN) < 0) {
            *out = k;
            best_t = u;
        }
    }
    if (t)
        *t = best_t;
}

void sym_images(const Board *b, RuleSet rs, SymKey keys[NUM_SYMS])
{
    StoneList l;
    stone_list(b, &l);
    for (int t = 0; t < NUM_SYMS; t++)
        key_under(&l, b->to_move, rs, board_last_move(b) == POINT_PASS, t, &keys[t]);
}

void sym_canonical_after(const SymKey keys[NUM_SYMS], Color mover, Point m, SymKey *out, int *t)
{
    assert(mover == keys[0].b[0]);
    assert(m == POINT_PASS || (m < BOARD_POINTS && !(keys[0].b[2 + m / 4] >> (2 * (m % 4)) & 3)));
    int best_t = 0;
    for (int u = 0; u < NUM_SYMS; u++) {
        SymKey k = keys[u];
        k.b[0] = (uint8_t)color_other(mover);
        k.b[SYMKEY_PASS_BYTE] = m == POINT_PASS;
        if (m != POINT_PASS) {
            Point q = sym_apply(u, m);
            k.b[2 + q / 4] |= (uint8_t)(mover << (2 * (q % 4)));
        }
        if (u == 0 || memcmp(k.b, out->b, SYMKEY_LEN) < 0) {
            *out = k;
            best_t = u;
        }
    }
    if (t)
        *t = best_t;
}

unsigned sym_stabiliser(const Board *b)
{
    unsigned mask = 0;
    for (int t = 0; t < NUM_SYMS; t++) {
        bool fixed = true;
        for (int p = 0; p < BOARD_POINTS && fixed; p++) {
            Color c = board_at(b, (Point)p);
            if (c != EMPTY && board_at(b, sym_apply(t, (Point)p)) != c)
                fixed = false;
        }
        if (fixed)
            mask |= 1u << t;
    }
    return mask;
}
