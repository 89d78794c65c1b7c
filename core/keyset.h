/*
 * keyset.h - a growing set of 64-bit keys (Zobrist keys of positions):
 * open addressing with linear probing, kept at most half full.  Key 0 is
 * stored as a fixed odd constant, so it and that constant are one key.
 *
 * Thread safety: none (one owner).
 */
#ifndef RJ_KEYSET_H
#define RJ_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *k;
    size_t cap, n; /* cap: 0 or a power of two */
} KeySet;

/* An empty set: zero it ({0}); free with keyset_free. */
bool keyset_has(const KeySet *s, uint64_t key);
/* 1 added, 0 already there, or RJ_ENOMEM (the set unchanged). */
int keyset_put(KeySet *s, uint64_t key);
void keyset_free(KeySet *s);

#endif /* RJ_KEYSET_H */
