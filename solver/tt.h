/*
 * tt.h - the shared, lock-free transposition table of the proof-number search.
 *
 * Entry layout (16 bytes, _Static_assert below):
 *   word 0 : lock  = key ^ data        (64 bits)
 *   word 1 : data                      (64 bits):
 *       bits  0..23  pn     proof number of the attacker, saturated (see below)
 *       bits 24..47  dn     disproof number
 *       bits 48..55  best   best move (Point; POINT_NONE when none)
 *       bits 56..61  work   ceil(log2(nodes searched below the entry)), 0..63
 *       bit  62      exact  for a disproof: every legal attacker move was refuted
 *                           (not only the candidates); see dfpn.h
 *       bit  63      used   always 1 in a stored entry (an all-zero slot is empty)
 * A bucket is 4 entries = 64 bytes = one cache line (the table is 64-byte
 * aligned, in fact 2 MiB aligned so that madvise(MADV_HUGEPAGE) can back it
 * with huge pages).
 *
 * Proof numbers: the table stores 24 bits.  TT_PN_INF (all ones) means
 * PN_INF; finite values saturate at TT_PN_MAX, a large finite number, so a
 * finite value is never read back as infinite.
 *
 * Lock-free sharing: a writer stores data then key ^ data with relaxed atomic
 * 64-bit stores; a reader loads both and accepts the entry only when
 * lock ^ data == key.  A torn pair (two writers interleaving) fails that check
 * and reads as "absent", which the search tolerates.
 *
 * Replacement: a store for a key already in the bucket overwrites it;
 * otherwise the victim is the entry of lowest priority, where an empty slot is
 * lowest, then unsolved entries by work invested, and solved entries (pn or
 * dn zero) rank above every unsolved one, so proven and disproven results are
 * kept preferentially.
 *
 * Thread safety: tt_probe/tt_store/tt_prefetch are safe from any number of
 * threads at once; tt_create/tt_free/tt_clear are not.
 */
#ifndef RJ_TT_H
#define RJ_TT_H

#include <stdatomic.h>

#include "types.h"

enum {
    TT_PN_BITS = 24,
    TT_PN_INF = (1 << TT_PN_BITS) - 1, /* stored PN_INF */
    TT_PN_MAX = TT_PN_INF - 1,          /* largest finite stored value */
    TT_WAYS = 4                         /* entries per bucket */
};

typedef struct {
    _Atomic uint64_t lock; /* key ^ data */
    _Atomic uint64_t data;
} TTEntry;
_Static_assert(sizeof(TTEntry) == 16, "TT entry must be 16 bytes");
_Static_assert(sizeof(TTEntry) * TT_WAYS == 64, "a bucket must be one cache line");

/* What a probe returns (pn/dn as ProofNum, PN_INF for infinity). */
typedef struct {
    ProofNum pn, dn;
    Point best;
    uint8_t work; /* log2 of nodes invested */
    bool exact;   /* see the layout above */
} TTData;

typedef struct {
    TTEntry *entries;   /* 2 MiB aligned */
    uint64_t nbuckets;  /* a power of two */
    size_t bytes;       /* allocation size */
} TT;

/*
 * Allocate a table of at most mb MiB (rounded down to a power of two of
 * buckets, at least 1 MiB), zeroed, 2 MiB aligned, with huge pages requested.
 * Returns 0 or RJ_ENOMEM / RJ_EBADARG (mb < 1).
 */
int tt_create(TT *tt, size_t mb);

/* Free the table (safe on a zeroed TT). */
void tt_free(TT *tt);

/* Empty every entry. */
void tt_clear(TT *tt);

/* Prefetch the bucket of key (a hint; no effect on results). */
static inline void tt_prefetch(const TT *tt, Key key)
{
    __builtin_prefetch(&tt->entries[(key & (tt->nbuckets - 1)) * TT_WAYS]);
}

/* Look key up: true and *out filled when present (a torn entry is absent). */
bool tt_probe(const TT *tt, Key key, TTData *out);

/*
 * Store d for key (pn/dn are saturated into the 24-bit fields; PN_INF stays
 * infinite).  Replacement policy in the header comment.
 */
void tt_store(TT *tt, Key key, const TTData *d);

/* Permille of a sample of buckets' slots in use (cheap, approximate). */
int tt_fill_permille(const TT *tt);

/* log2 bucket of a node count, for TTData.work (0 for 0 or 1 node, at most 63). */
static inline uint8_t tt_work_log(uint64_t nodes)
{
    if (nodes <= 1)
        return 0;
    int l = 64 - __builtin_clzll(nodes - 1);
    return (uint8_t)(l > 63 ? 63 : l);
}

#endif /* RJ_TT_H */
