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
 * A bucket is TT_WAYS = 8 entries = 128 bytes = two cache lines (see
 * "Buckets"); the table is 2 MiB aligned so that madvise(MADV_HUGEPAGE) can
 * back it with huge pages.
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
 * Buckets: TT_WAYS = 8 entries, 128 bytes (two cache lines, both
 * prefetched), their entries always in front: a store fills the first
 * empty slot, nothing is removed but by tt_grow, which packs what stays, so
 * probes and stores stop at the first empty slot and a bucket holding at
 * most four entries costs one line.  Eight ways rather than four because a
 * bucket that fills makes the table grow (below the cap): 4-way buckets
 * filled while the table was mostly empty, 8-way ones fill at about twice
 * the load, at the same speed (measurements: results/solver-bench.md).
 *
 * Replacement: a store for a key already in the bucket overwrites it;
 * otherwise the victim is the entry of lowest priority, where an empty slot is
 * lowest, then unsolved entries by work invested, and solved entries (pn or
 * dn zero) rank above every unsolved one, so proven and disproven results are
 * kept preferentially.
 *
 * With solved_elsewhere set (the table's owner keeps the solved entries it
 * evicts: dfpn.c's solved store) entries rank by work alone, a solved one
 * first of equals: a table at its cap full of cheap solved entries would
 * leave no room for the search's unsolved ones.
 *
 * Growth: the table starts small (TT_START_BYTES, or the cap when that is
 * smaller) and doubles up to the cap given to tt_create when more than a
 * quarter of its slots are in use or a store had to evict an entry of
 * another key, so a short search does not pay the kernel for zeroing (first
 * touch of) a big table, and below the cap the table keeps what a table of
 * the cap would keep: a 1-thread search is the same as with the whole table
 * from the start (same `renju bench` signature), except for the rare entry
 * whose eviction asked for the growth.  (Growing for solved evictions only
 * saves memory but loses unsolved entries some searches need badly:
 * results/solver-bench.md.)  Its memory is reserved at the cap and populated
 * (written, page tables filled) as it grows: the part in use is made
 * writable up front (tt_create, tt_grow) rather than at the first store.  A
 * probe of an untouched page maps the kernel's zero page, and the store
 * after it replaces that mapping, which in a process whose other threads
 * run on other CPUs costs a TLB-shootdown interrupt to each of them (counts:
 * results/solver-bench.md).  The next doubling's
 * memory can be populated ahead, a little at a time (tt_prepare_growth:
 * the memory beyond the part in use, which nobody reads), so a parallel
 * search's threads do not all wait for the kernel's page zeroing while one
 * of them grows the table.  Doubling splits bucket b into b and
 * b + the old bucket count, so every entry is kept (tt_grow).  The caller
 * counts the slots its stores fill (tt_store's return value) with
 * tt_add_used, which says when to grow.
 *
 * Thread safety: tt_probe/tt_store/tt_prefetch/tt_add_used are safe from
 * any number of threads at once; tt_create/tt_free/tt_clear/tt_grow are not
 * (no other thread may use the table meanwhile: a parallel search stops its
 * threads while one grows it, dfpn.c's park()).
 */
#ifndef RJ_TT_H
#define RJ_TT_H

#include <stdatomic.h>

#include "types.h"

enum {
    TT_PN_BITS = 24,
    TT_PN_INF = (1 << TT_PN_BITS) - 1, /* stored PN_INF */
    TT_PN_MAX = TT_PN_INF - 1,          /* largest finite stored value */
    TT_WAYS = 8,                        /* entries per bucket */
    TT_BUCKET_BYTES = 16 * TT_WAYS,     /* two cache lines */
    TT_START_BYTES = 2 << 20            /* a new or cleared table's size: one huge page */
};

typedef struct {
    _Atomic uint64_t lock; /* key ^ data */
    _Atomic uint64_t data;
} TTEntry;
_Static_assert(sizeof(TTEntry) == 16, "TT entry must be 16 bytes");
_Static_assert(sizeof(TTEntry) * TT_WAYS == TT_BUCKET_BYTES, "a bucket is TT_WAYS entries");

/* What a probe returns (pn/dn as ProofNum, PN_INF for infinity). */
typedef struct {
    ProofNum pn, dn;
    Point best;
    uint8_t work; /* log2 of nodes invested */
    bool exact;   /* see the layout above */
} TTData;

typedef struct {
    TTEntry *entries;      /* 2 MiB aligned, max_buckets reserved */
    uint64_t nbuckets;     /* buckets in use now: a power of two <= max_buckets */
    uint64_t max_buckets;  /* the cap: a power of two */
    uint64_t start_buckets; /* the size of a new or cleared table */
    /*
     * Solved entries are kept elsewhere when this one evicts them (dfpn.c's
     * solved store): replacement then goes by work alone (see "Replacement").
     */
    bool solved_elsewhere;
    size_t bytes;          /* allocation size */
    /* The counters, written as the table fills, apart from what every probe reads. */
    char pad[64];
    _Atomic uint64_t used; /* slots in use, as counted by tt_add_used */
    _Atomic uint64_t ready; /* buckets populated (writable), >= nbuckets: see "Growth" */
    atomic_bool preparing;  /* a tt_add_used call is populating the next doubling */
    char pad_end[64];       /* and apart from what follows the TT */
} TT;

/*
 * Reserve a table of at most mb MiB (rounded down to a power of two of
 * buckets, at least 1 MiB), zeroed, 2 MiB aligned, with huge pages requested;
 * it starts at min(TT_START_BYTES, cap) and grows with tt_grow.
 * Returns 0 or RJ_ENOMEM / RJ_EBADARG (mb < 1).
 */
int tt_create(TT *tt, size_t mb);

/*
 * tt_create with a cap of `bytes` (rounded down to a power of two of
 * buckets), starting at min(start_bytes rounded the same way, cap);
 * RJ_EBADARG when either is below 64 KiB.
 */
int tt_create_bytes(TT *tt, uint64_t bytes, size_t start_bytes);

/* Free the table (safe on a zeroed TT). */
void tt_free(TT *tt);

/* Empty every entry and shrink back to the starting size. */
void tt_clear(TT *tt);

/*
 * Count n more slots in use (stores that returned TT_FILLED); true when the
 * table is more than a quarter full and below its cap, i.e. tt_grow is due.
 */
bool tt_add_used(TT *tt, uint64_t n);

/*
 * Populate at most max_bytes more of the memory of the table's next
 * doubling (see "Growth" above), unless that is done, the table is at its
 * cap or another call is doing it: tt_grow then finds it (partly) ready.
 * Safe with probes and stores running in other threads (the memory is
 * beyond the part in use), not with tt_grow.
 */
void tt_prepare_growth(TT *tt, size_t max_bytes);

/* True when tt_prepare_growth has memory left to populate (a cheap test). */
static inline bool tt_growth_unprepared(const TT *tt)
{
    return tt->nbuckets < tt->max_buckets &&
           atomic_load_explicit(&tt->ready, memory_order_relaxed) < 2 * tt->nbuckets;
}

/* Double the table (no-op at the cap), moving the entries whose bucket changes. */
void tt_grow(TT *tt);


/* Prefetch the bucket of key (a hint; no effect on results). */
static inline void tt_prefetch(const TT *tt, Key key)
{
    const char *b = (const char *)&tt->entries[(key & (tt->nbuckets - 1)) * TT_WAYS];
    __builtin_prefetch(b);
    __builtin_prefetch(b + 64);
}

/* Look key up: true and *out filled when present (a torn entry is absent). */
bool tt_probe(const TT *tt, Key key, TTData *out);

/* What a store did (for growth: see the header comment). */
typedef enum {
    TT_KEPT,           /* the key's own entry was overwritten (or a solved one kept) */
    TT_FILLED,         /* an empty slot was filled */
    TT_EVICTED,        /* an unsolved entry of another key was replaced (grow if below the cap) */
    TT_EVICTED_SOLVED  /* a solved entry of another key was replaced (the same; tt_store_ev reports it) */
} TTStoreResult;

/*
 * Store d for key (pn/dn are saturated into the 24-bit fields; PN_INF stays
 * infinite).  Replacement policy in the header comment.
 */
TTStoreResult tt_store(TT *tt, Key key, const TTData *d);

/*
 * tt_store, and when it evicts a solved entry (TT_EVICTED_SOLVED) and ev is
 * not NULL, that entry's key and data in *ev_key / *ev (for a store that
 * keeps them: dfpn.c's solved store).  With other threads storing into the
 * same bucket the victim can change as it is read; a torn read gives a key
 * no position has, which a probe never finds.
 */
TTStoreResult tt_store_ev(TT *tt, Key key, const TTData *d, Key *ev_key, TTData *ev);

/* Permille of the cap's slots in use (as counted by tt_add_used). */
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
