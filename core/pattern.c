/* pattern.c - see pattern.h.  The table is built by plain simulation of each window. */
#include "pattern.h"

uint16_t pattern_black[PAT_WINDOWS];
uint16_t pattern_tern[2048];

enum { W_BLOCKED = 0, W_BLACK = 1, W_EMPTY = 2, REACH = 5 };

/* Window cells at offsets -5..5 (index k + REACH); the centre holds the new stone. */
typedef struct {
    int cell[2 * REACH + 1];
} Window;

static int at(const Window *w, int k) { return k < -REACH || k > REACH ? W_BLOCKED : w->cell[k + REACH]; }

/* The unbroken black row through offset k (black): first and last offsets. */
static void row(const Window *w, int k, int *lo, int *hi)
{
    *lo = *hi = k;
    while (at(w, *lo - 1) == W_BLACK)
        (*lo)--;
    while (at(w, *hi + 1) == W_BLACK)
        (*hi)++;
}

static uint16_t classify(Window *w)
{
    int lo, hi;
    row(w, 0, &lo, &hi);
    if (hi - lo + 1 == 5)
        return PAT_FIVE;
    if (hi - lo + 1 >= 6)
        return PAT_OVER;
    /* Five points: an empty q that makes exactly five together with the stone. */
    int q5[2 * REACH + 1], n5 = 0;
    for (int q = -4; q <= 4; q++) {
        if (q == 0 || at(w, q) != W_EMPTY)
            continue;
        w->cell[q + REACH] = W_BLACK;
        row(w, 0, &lo, &hi);
        if (lo <= q && q <= hi && hi - lo + 1 == 5)
            q5[n5++] = q;
        w->cell[q + REACH] = W_EMPTY;
    }
    /* Two five points of one unbroken four (q apart by 5) are one straight four. */
    int fours = n5 == 2 && q5[1] - q5[0] == 5 ? 1 : n5;
    uint16_t e = (uint16_t)((fours > 2 ? 2 : fours) << PAT_FOUR_SHIFT);
    /* Straight-four points: q making an unbroken four with both ends making exactly five. */
    for (int q = -3; q <= 3; q++) {
        if (q == 0 || at(w, q) != W_EMPTY)
            continue;
        w->cell[q + REACH] = W_BLACK;
        row(w, 0, &lo, &hi);
        bool straight = lo <= q && q <= hi && hi - lo + 1 == 4 && at(w, lo - 1) == W_EMPTY &&
                        at(w, hi + 1) == W_EMPTY && at(w, lo - 2) != W_BLACK && at(w, hi + 2) != W_BLACK;
        w->cell[q + REACH] = W_EMPTY;
        if (straight)
            e |= (uint16_t)(1u << (PAT_THREE_SHIFT + q + 3));
    }
    return e;
}

void pattern_init(void)
{
    for (unsigned m = 0; m < 2048; m++) {
        unsigned v = 0, p3 = 1;
        for (int j = 0; j < 11; j++) {
            if (j == REACH)
                continue;
            if (m >> j & 1)
                v += p3;
            p3 *= 3;
        }
        pattern_tern[m] = (uint16_t)v;
    }
    for (unsigned idx = 0; idx < PAT_WINDOWS; idx++) {
        Window w;
        unsigned v = idx;
        /* Digit k is window bit k: offsets -5..-1 then 1..5. */
        for (int k = 0; k < 10; k++, v /= 3)
            w.cell[k < 5 ? k : k + 1] = (int)(v % 3);
        w.cell[REACH] = W_BLACK;
        pattern_black[idx] = classify(&w);
    }
}
