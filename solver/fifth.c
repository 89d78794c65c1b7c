/* fifth.c - see fifth.h. */
#include "fifth.h"

#include <assert.h>

#include "board.h"
#include "error.h"
#include "rules.h"

int fifth_move_classes(Board *b, RuleSet rs, MoveClass *out)
{
    unsigned stab = sym_stabiliser(b);
    bool done[BOARD_POINTS] = {false};
    int n = 0;
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (done[p] || board_at(b, (Point)p) != EMPTY || !rules_is_legal(b, (Point)p, rs))
            continue;
        /* The orbit of p under the stabiliser; the stabiliser keeps the stone set,
         * so every image is empty, and legal too (the rules are symmetric). */
        MoveClass *c = &out[n++];
        c->n = 0;
        for (int t = 0; t < NUM_SYMS; t++) {
            if (!(stab & (1u << t)))
                continue;
            Point q = sym_apply(t, (Point)p);
            if (done[q])
                continue;
            done[q] = true;
            assert(q >= p && board_at(b, q) == EMPTY);
            /* Insert q keeping members ascending (at most 8: insertion sort). */
            int i = c->n++;
            while (i > 0 && c->moves[i - 1] > q) {
                c->moves[i] = c->moves[i - 1];
                i--;
            }
            c->moves[i] = q;
        }
    }
    return n;
}

int fifth_classes(Board *b, RuleSet rs, MoveClass *out)
{
    if (b->stones[0] != 2 || b->stones[1] != 2 || b->to_move != BLACK)
        return RJ_EBADPOS;
    return fifth_move_classes(b, rs, out);
}

int fifth_fourth_classes(Board *b, RuleSet rs, MoveClass *out)
{
    if (b->stones[0] != 2 || b->stones[1] != 1 || b->to_move != WHITE)
        return RJ_EBADPOS;
    return fifth_move_classes(b, rs, out);
}

void fifth_w_bounds(const Result *status, int n, int *wins_min, int *wins_max)
{
    int lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        lo += status[i] == RESULT_PROVEN;
        hi += status[i] != RESULT_DISPROVEN;
    }
    *wins_min = lo;
    *wins_max = hi;
}

void fifth_fair_n_bounds(const int *wins_min, const int *wins_max, int n, int *n_fair_min, int *n_fair_max)
{
    assert(n >= 1);
    int lo = wins_min[0], hi = wins_max[0];
    for (int i = 1; i < n; i++) {
        if (wins_min[i] < lo)
            lo = wins_min[i];
        if (wins_max[i] < hi)
            hi = wins_max[i];
    }
    *n_fair_min = 1 + lo;
    *n_fair_max = 1 + hi;
}
