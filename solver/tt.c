/* tt.c - see tt.h. */
#include "tt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "error.h"

enum { TT_ALIGN = 2 << 20 }; /* 2 MiB: one huge page */

/*
 * Make the fresh (zero, unused) bytes [p, p + n) of the table writable now:
 * see "Growth" in tt.h.  p and n are multiples of 64 KiB at least.
 */
static void populate(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
    if (madvise(p, n, MADV_POPULATE_WRITE) == 0)
        return;
#endif
    memset(p, 0, n); /* kernels before 5.14: writing the zeros faults the pages in */
}

/* The buckets of a table of at most `bytes` (at least 1): a power of two. */
static uint64_t pow2_buckets(uint64_t bytes)
{
    uint64_t nb = 1;
    while (nb * 2 * TT_BUCKET_BYTES <= bytes)
        nb *= 2;
    return nb;
}

int tt_create(TT *tt, size_t mb)
{
    if (mb < 1) {
        memset(tt, 0, sizeof *tt);
        return RJ_EBADARG;
    }
    return tt_create_bytes(tt, (uint64_t)mb << 20, TT_START_BYTES);
}

int tt_create_bytes(TT *tt, uint64_t bytes, size_t start_bytes)
{
    memset(tt, 0, sizeof *tt);
    if (bytes < (64 << 10) || start_bytes < (64 << 10)) /* populate() works in pages */
        return RJ_EBADARG;
    uint64_t nb = pow2_buckets(bytes);
    size_t size = (size_t)(nb * TT_BUCKET_BYTES);
    size_t alloc = (size + TT_ALIGN - 1) / TT_ALIGN * TT_ALIGN;
    /*
     * Anonymous memory is zero and its pages are only touched (and zeroed by
     * the kernel) when first used, so a short search on a big table does not
     * pay for zeroing all of it.  Over-allocate by one huge page to align.
     */
    size_t span = alloc + TT_ALIGN;
    char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return RJ_ENOMEM;
    uintptr_t at = ((uintptr_t)raw + TT_ALIGN - 1) / TT_ALIGN * TT_ALIGN;
    char *mem = (char *)at;
    size_t head = (size_t)(mem - raw), tail = span - head - alloc;
    if (head)
        munmap(raw, head);
    if (tail)
        munmap(mem + alloc, tail);
#ifdef MADV_HUGEPAGE
    madvise(mem, alloc, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
    tt->entries = (void *)mem;
    tt->max_buckets = nb;
    uint64_t sb = pow2_buckets(start_bytes);
    tt->start_buckets = sb < nb ? sb : nb;
    tt->nbuckets = tt->start_buckets;
    tt->bytes = alloc;
    populate(mem, (size_t)(tt->nbuckets * TT_BUCKET_BYTES));
    atomic_store(&tt->ready, tt->nbuckets);
    atomic_store(&tt->preparing, false);
    atomic_store(&tt->used, 0);
    return 0;
}

void tt_free(TT *tt)
{
    if (tt->entries)
        munmap(tt->entries, tt->bytes);
    memset(tt, 0, sizeof *tt);
}

void tt_clear(TT *tt)
{
    if (!tt->entries)
        return;
    /* Only the buckets in use were ever written: the rest is still zero. */
    memset(tt->entries, 0, (size_t)(tt->nbuckets * TT_BUCKET_BYTES));
    tt->nbuckets = tt->start_buckets;
    atomic_store(&tt->used, 0);
}

/* Populate the buckets [ready, upto) (fresh, unused memory: see "Growth" in tt.h). */
static void populate_upto(TT *tt, uint64_t upto)
{
    uint64_t from = atomic_load_explicit(&tt->ready, memory_order_relaxed);
    if (from >= upto)
        return;
    populate(&tt->entries[from * TT_WAYS], (size_t)((upto - from) * TT_BUCKET_BYTES));
    atomic_store_explicit(&tt->ready, upto, memory_order_relaxed);
}

bool tt_add_used(TT *tt, uint64_t n)
{
    uint64_t used = atomic_fetch_add_explicit(&tt->used, n, memory_order_relaxed) + n;
    return tt->nbuckets < tt->max_buckets && used * 4 > tt->nbuckets * TT_WAYS;
}

void tt_prepare_growth(TT *tt, size_t max_bytes)
{
    /* nbuckets is stable here: tt_grow runs only while no other call is in the table. */
    uint64_t nb = tt->nbuckets, from = atomic_load_explicit(&tt->ready, memory_order_relaxed);
    uint64_t n = max_bytes / TT_BUCKET_BYTES;
    if (nb >= tt->max_buckets || from >= 2 * nb || n == 0)
        return;
    bool idle = false;
    if (atomic_compare_exchange_strong(&tt->preparing, &idle, true)) {
        from = atomic_load_explicit(&tt->ready, memory_order_relaxed);
        populate_upto(tt, from + n < 2 * nb ? from + n : 2 * nb);
        atomic_store(&tt->preparing, false);
    }
}

enum {
    SH_DN = TT_PN_BITS,
    SH_BEST = 2 * TT_PN_BITS,
    SH_WORK = 56,
    SH_EXACT = 62,
    SH_USED = 63
};
#define PN_MASK ((UINT64_C(1) << TT_PN_BITS) - 1)

void tt_grow(TT *tt)
{
    uint64_t old = tt->nbuckets, nb = old * 2;
    if (old >= tt->max_buckets)
        return;
    populate_upto(tt, nb); /* usually done ahead by tt_add_used */
    /*
     * An entry of bucket b (= key mod old) belongs in b or b + old under the
     * new mask; the upper bucket is fresh (zero) and receives at most the
     * TT_WAYS entries that leave b, so nothing is lost.  Both buckets keep
     * their entries in front (see "Buckets" in tt.h).
     */
    for (uint64_t bi = 0; bi < old; bi++) {
        TTEntry *src = &tt->entries[bi * TT_WAYS], *dst = &tt->entries[(bi + old) * TT_WAYS];
        int k = 0, j = 0, used = 0;
        for (; used < TT_WAYS; used++) {
            uint64_t data = atomic_load_explicit(&src[used].data, memory_order_relaxed);
            uint64_t lock = atomic_load_explicit(&src[used].lock, memory_order_relaxed);
            if (!(data >> SH_USED))
                break;
            TTEntry *to = ((lock ^ data) & (nb - 1)) == bi ? &src[j++] : &dst[k++];
            atomic_store_explicit(&to->data, data, memory_order_relaxed);
            atomic_store_explicit(&to->lock, lock, memory_order_relaxed);
        }
        for (int i = j; i < used; i++) { /* the slots the packing left */
            atomic_store_explicit(&src[i].data, 0, memory_order_relaxed);
            atomic_store_explicit(&src[i].lock, 0, memory_order_relaxed);
        }
    }
    tt->nbuckets = nb;
}


static uint64_t pack_pn(ProofNum v)
{
    if (v >= PN_INF)
        return TT_PN_INF;
    return v > TT_PN_MAX ? TT_PN_MAX : v;
}

static ProofNum unpack_pn(uint64_t v)
{
    v &= PN_MASK;
    return v == TT_PN_INF ? PN_INF : (ProofNum)v;
}

static uint64_t pack(const TTData *d)
{
    return pack_pn(d->pn) | pack_pn(d->dn) << SH_DN | (uint64_t)d->best << SH_BEST |
           (uint64_t)(d->work & 63) << SH_WORK | (uint64_t)d->exact << SH_EXACT | UINT64_C(1) << SH_USED;
}

static void unpack(uint64_t data, TTData *d)
{
    d->pn = unpack_pn(data);
    d->dn = unpack_pn(data >> SH_DN);
    d->best = (Point)(data >> SH_BEST);
    d->work = (uint8_t)((data >> SH_WORK) & 63);
    d->exact = (data >> SH_EXACT) & 1;
}

bool tt_probe(const TT *tt, Key key, TTData *out)
{
    TTEntry *b = &tt->entries[(key & (tt->nbuckets - 1)) * TT_WAYS];
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t data = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t lock = atomic_load_explicit(&b[i].lock, memory_order_relaxed);
        if (!(data >> SH_USED))
            return false; /* the entries lie in front: none further on */
        if ((lock ^ data) == key) {
            unpack(data, out);
            return true;
        }
    }
    return false;
}

static bool is_solved(uint64_t data) { return (data & PN_MASK) == 0 || ((data >> SH_DN) & PN_MASK) == 0; }

/* Replacement priority of a stored data word (higher is kept): see "Replacement" in tt.h. */
static unsigned priority(const TT *tt, uint64_t data)
{
    if (!(data >> SH_USED))
        return 0;
    unsigned work = (unsigned)((data >> SH_WORK) & 63) + 1;
    if (tt->solved_elsewhere) /* by work, and a solved entry first of equals */
        return 2 * work + !is_solved(data);
    return is_solved(data) ? 128 + work : work;
}

TTStoreResult tt_store(TT *tt, Key key, const TTData *d) { return tt_store_ev(tt, key, d, NULL, NULL); }

TTStoreResult tt_store_ev(TT *tt, Key key, const TTData *d, Key *ev_key, TTData *ev)
{
    TTEntry *b = &tt->entries[(key & (tt->nbuckets - 1)) * TT_WAYS];
    uint64_t data = pack(d);
    int victim = 0;
    unsigned low = ~0u;
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t od = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        if (!(od >> SH_USED)) { /* the first empty slot: the key is not further on */
            low = 0;
            victim = i;
            break;
        }
        uint64_t ol = atomic_load_explicit(&b[i].lock, memory_order_relaxed);
        if ((ol ^ od) == key) {
            /* Never overwrite a solved result with a stale unsolved one (another thread). */
            if (is_solved(od) && !is_solved(data))
                return TT_KEPT;
            atomic_store_explicit(&b[i].data, data, memory_order_relaxed);
            atomic_store_explicit(&b[i].lock, key ^ data, memory_order_relaxed);
            return TT_KEPT;
        }
        unsigned pr = priority(tt, od);
        if (pr < low) {
            low = pr;
            victim = i;
        }
    }
    /* The victim as read again (another thread may have changed it: a torn read has a garbage key). */
    uint64_t vd = atomic_load_explicit(&b[victim].data, memory_order_relaxed);
    uint64_t vl = atomic_load_explicit(&b[victim].lock, memory_order_relaxed);
    TTStoreResult r = low == 0 || !(vd >> SH_USED) ? TT_FILLED : is_solved(vd) ? TT_EVICTED_SOLVED : TT_EVICTED;
    if (r == TT_EVICTED_SOLVED && ev) {
        *ev_key = vl ^ vd;
        unpack(vd, ev);
    }
    atomic_store_explicit(&b[victim].data, data, memory_order_relaxed);
    atomic_store_explicit(&b[victim].lock, key ^ data, memory_order_relaxed);
    return r;
}

int tt_fill_permille(const TT *tt)
{
    uint64_t used = atomic_load_explicit(&tt->used, memory_order_relaxed), cap = tt->max_buckets * TT_WAYS;
    return (int)(used >= cap ? 1000 : used * 1000 / cap);
}
