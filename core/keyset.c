/* keyset.c - see keyset.h. */
#include "keyset.h"

#include <stdlib.h>

#include "error.h"

enum { KEYSET_START = 1024 };

static uint64_t slot_key(uint64_t k) { return k ? k : UINT64_C(0x9e3779b97f4a7c15); }

static size_t slot_of(uint64_t k, size_t cap) { return (size_t)(k * UINT64_C(0xff51afd7ed558ccd) >> 20) & (cap - 1); }

bool keyset_has(const KeySet *s, uint64_t key)
{
    if (!s->cap)
        return false;
    uint64_t k = slot_key(key);
    for (size_t i = slot_of(k, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->k[i] == k)
            return true;
        if (!s->k[i])
            return false;
    }
}

/* Put slot key k (not 0) in a table with room. */
static int put_slot(uint64_t *tab, size_t cap, uint64_t k)
{
    for (size_t i = slot_of(k, cap);; i = (i + 1) & (cap - 1)) {
        if (tab[i] == k)
            return 0;
        if (!tab[i]) {
            tab[i] = k;
            return 1;
        }
    }
}

int keyset_put(KeySet *s, uint64_t key)
{
    if ((s->n + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : KEYSET_START;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t)
            return RJ_ENOMEM;
        for (size_t i = 0; i < s->cap; i++)
            if (s->k[i])
                put_slot(t, cap, s->k[i]);
        free(s->k);
        s->k = t;
        s->cap = cap;
    }
    int added = put_slot(s->k, s->cap, slot_key(key));
    s->n += (size_t)added;
    return added;
}

void keyset_free(KeySet *s)
{
    free(s->k);
    s->k = NULL;
    s->cap = s->n = 0;
}
