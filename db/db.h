/*
 * db.h - LMDB storage of solved positions keyed by the canonical position.
 *
 * File.  One LMDB environment in a single file (MDB_NOSUBDIR): PATH plus the
 * lock file PATH-lock.  Named sub-databases:
 *   "meta"    : ASCII keys -> values: "schema" (decimal DB_SCHEMA_VERSION),
 *               "creator" (solver version that created the file), "created"
 *               (unix time, decimal), "rules" (decimal bit mask, bit rs set
 *               when results under rule set rs were stored).
 *   "results" : DbKey -> packed DbRecord (record.h), best move in the
 *               canonical frame.
 *   "proofs"  : DbKey -> serialized proof (proof.h) in the canonical frame.
 *   "work"    : free-form resume state: caller-defined keys and values.
 *
 * Key (DbKey, DB_KEY_LEN = 65 bytes, compared with memcmp): the 64-byte
 * canonical SymKey of the position (sym.h: side to move, rule set, stone map
 * minimised over the 8 symmetries) followed by one byte, the attacker colour.
 * Never a hash: two positions share a key exactly when they are symmetric.
 *
 * Positions given to the API are in the caller's frame; the database maps
 * best moves and proofs to the canonical frame on write and back on read.
 * A result is about a setup position (stones + side to move): whether the
 * last move was a pass is not part of the key.
 *
 * Concurrency.  One Db handle per process, shared by its threads: every
 * function is thread-safe.  Reads use short read-only transactions
 * (MDB_NOTLS) and see committed data only.  Writes are queued (db_queue) and
 * committed in batches by whichever thread flushes, one write transaction at
 * a time; LMDB serialises writers across processes.  Never use a Db across
 * fork().  Stale reader slots of killed processes are cleared at open; the
 * map grows when full.  A read-only open of a file in a directory where the
 * lock file cannot be created, and does not exist, reads without locking
 * (read-only media: no writer can be active there).
 *
 * Errors (error.h): RJ_ENODB no file (read-only open); RJ_EDB foreign,
 * truncated or corrupt file; RJ_ESCHEMA schema version not supported (newer
 * file); RJ_ENOTFOUND an ordinary miss; RJ_ECONFLICT a proven/disproven
 * contradiction; RJ_EBADDATA a malformed record or proof; positive errno
 * values (EACCES, EROFS, ENOSPC, ...) from the file system.
 */
#ifndef RJ_DB_H
#define RJ_DB_H

#include "record.h"
#include "resultstore.h"
#include "sym.h"
#include "types.h"

typedef struct Db Db;

enum {
    DB_SCHEMA_VERSION = 1,
    DB_KEY_LEN = SYMKEY_LEN + 1,
    DB_RDONLY = 1, /* open read-only; the file must exist */
    DB_CREATE = 2, /* create the file when missing (ignored with DB_RDONLY) */
    DB_NOSYNC = 4  /* commits do not wait for the disk (MDB_NOSYNC): a killed process loses nothing
                      (the system has the pages), a system crash may undo the last commits but
                      not corrupt the file; db_sync and db_close write everything out */
};

typedef struct {
    uint8_t b[DB_KEY_LEN];
} DbKey;

/* What DbOptions' zero fields mean. */
enum { DB_DEFAULT_MAP_GIB = 16, DB_DEFAULT_BATCH = 4096 };

typedef struct {
    unsigned flags;   /* DB_RDONLY / DB_CREATE / DB_NOSYNC */
    size_t map_size;  /* initial map size in bytes (0: DB_DEFAULT_MAP_GIB GiB; grows when full) */
    size_t batch_max; /* queued entries that trigger a commit (0: DB_DEFAULT_BATCH) */
} DbOptions;

/*
 * Open (or create) the database at path.  opt may be NULL (read-write,
 * create).  On success *out owns the handle (db_close frees it).  why (may
 * be NULL) receives a one-line reason on failure.
 * Returns 0, RJ_ENODB, RJ_EDB, RJ_ESCHEMA, RJ_ENOMEM or an errno value.
 */
int db_open(const char *path, const DbOptions *opt, Db **out, char *why, size_t whylen);

/* Commit queued writes (errors are lost: call db_flush first to see them) and free db.  NULL is fine. */
void db_close(Db *db);

/* Key of position b (caller's frame) for attacker; *t (may be NULL) gets the transform to the canonical frame. */
void db_key(const Board *b, RuleSet rs, Color attacker, DbKey *key, int *t);

/*
 * Decode a key into the canonical position (setup stones, side to move),
 * its rule set and attacker.  Any out-parameter may be NULL.
 * Returns 0 or RJ_EBADDATA for a malformed key.
 */
int db_key_decode(const DbKey *key, Board *b, RuleSet *rs, Color *attacker);

/*
 * Look up position b for attacker.  On 0 *out is filled, best move in b's
 * frame.  Returns 0, RJ_ENOTFOUND, RJ_EBADDATA (stored record malformed),
 * or another error code.
 */
int db_get(Db *db, const Board *b, RuleSet rs, Color attacker, DbRecord *out);

/*
 * The stored proof of b for attacker, moved to b's frame.  On 0 *proof is
 * malloc'd (caller frees) with *len bytes.  Returns 0, RJ_ENOTFOUND,
 * RJ_EBADDATA, RJ_ENOMEM or another code.
 */
int db_get_proof(Db *db, const Board *b, RuleSet rs, Color attacker, uint8_t **proof, size_t *len);

/*
 * Queue a result for position b (caller's frame; r->best in that frame) with
 * an optional proof (proof/len may be NULL/0; its moves in b's frame).  The
 * data is copied and canonicalised now; it is committed by the next flush,
 * which happens automatically when batch_max entries are queued, on
 * db_flush and on db_close.  r->flags is set from the proof argument.
 * Returns 0; RJ_EBADARG (read-only db, bad record fields, or b right after a
 * pass: a pending pass has no stone-set spelling, so such positions are never
 * stored and db_get reports them not found); RJ_EBADDATA (the
 * proof does not frame against b); RJ_ENOMEM; or an error of the automatic
 * flush.
 */
int db_queue(Db *db, const Board *b, RuleSet rs, const DbRecord *r, const uint8_t *proof, size_t len);

/* As db_queue for an already canonical key (r->best and proof in the canonical frame). */
int db_queue_key(Db *db, const DbKey *key, const DbRecord *r, const uint8_t *proof, size_t len);

/*
 * Commit everything queued, in one write transaction (grown and retried on
 * MDB_MAP_FULL).  Merge policy per key: a proven/disproven result replaces
 * an unknown (effort) one; an unknown one never replaces a known one (the
 * larger node count is kept among unknowns); for equal results the entry
 * with a proof, then the smaller proof, is kept; proven against disproven
 * keeps the stored entry and counts a conflict.  Returns 0, RJ_ECONFLICT
 * when conflicts were found (everything else is committed), or an error
 * (nothing of the batch is committed).
 */
int db_flush(Db *db);

/* Write committed data out to the disk (what DB_NOSYNC defers).  0 or an error code. */
int db_sync(Db *db);

/* Conflicts counted by flushes since open (thread-safe read). */
uint64_t db_conflicts(Db *db);

/* One stored entry, as handed to db_foreach callbacks. */
typedef struct {
    DbKey key;
    int status;           /* 0, or RJ_EBADDATA when the record does not decode (rec zeroed) */
    DbRecord rec;         /* best move in the canonical frame */
    const uint8_t *proof; /* canonical proof or NULL; valid during the callback only */
    size_t proof_len;
} DbEntry;

/* Callback: return 0 to continue, anything else stops db_foreach with that value. */
typedef int (*DbForeachFn)(void *ctx, const DbEntry *e);

/*
 * Call fn for every stored result in key order inside one read transaction
 * (a consistent snapshot).  Do not call db_flush from fn.  Returns 0, fn's
 * nonzero value, or an error code.
 */
int db_foreach(Db *db, DbForeachFn fn, void *ctx);

typedef struct {
    uint64_t entries, proven, disproven, unknown, proofs, bad_records;
    uint64_t proof_bytes; /* total size of stored proofs */
    uint64_t file_bytes;  /* size of the data file */
    uint64_t map_bytes;   /* current map size */
    unsigned schema;      /* schema version of the file */
    unsigned rules_mask;  /* bit rs: results under rule set rs stored */
    char creator[RECORD_VERSION_MAX + 1];
    uint64_t created; /* unix time */
} DbStats;

/* Fill *st (one read transaction over all results).  Returns 0 or an error code. */
int db_stats(Db *db, DbStats *st);

/* Resume state ("work" sub-database): put / get (malloc'd *val, caller frees) / delete.
 * Keys 1..511 bytes.  Writes commit at once.  0, RJ_ENOTFOUND, RJ_EBADARG or an error code. */
int db_work_put(Db *db, const void *key, size_t klen, const void *val, size_t vlen);
int db_work_get(Db *db, const void *key, size_t klen, void **val, size_t *vlen);
int db_work_del(Db *db, const void *key, size_t klen);
/* Delete every resume-state key that begins with prefix (1..511 bytes), in one
 * transaction; *n (may be NULL) the number deleted.  0 or an error code. */
int db_work_clear(Db *db, const void *prefix, size_t plen, uint64_t *n);

/* Callback of db_work_foreach: key and value are valid during the call only; nonzero stops. */
typedef int (*DbWorkFn)(void *ctx, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen);

/* Call fn for every resume-state key that begins with prefix (plen 0: every key), in key
 * order inside one read transaction.  Returns 0, fn's nonzero value, or an error code. */
int db_work_foreach(Db *db, const void *prefix, size_t plen, DbWorkFn fn, void *ctx);

/* One resume-state entry to write (db_work_put_many). */
typedef struct {
    const uint8_t *key;
    size_t klen; /* 1..511 */
    const uint8_t *val;
    size_t vlen;
} DbWorkItem;

/* Whether to keep the stored value old instead of putting item (db_work_put_many). */
typedef bool (*DbWorkKeepFn)(void *ctx, const uint8_t *old, size_t olen, const DbWorkItem *item);

/* Put n entries in one transaction (the map grows as needed).  With keep, an entry whose key
 * is stored already (by an earlier entry of items too) is put only when keep says not to keep
 * the stored value; *kept (may be NULL) counts those kept.  0, RJ_EBADARG (a key's length;
 * nothing written) or an error code. */
int db_work_put_many(Db *db, const DbWorkItem *items, size_t n, DbWorkKeepFn keep, void *ctx, uint64_t *kept);

/*
 * The stored record under a canonical key (best move in the canonical
 * frame).  Returns 0, RJ_ENOTFOUND, RJ_EBADDATA or an error code.
 */
int db_get_key(Db *db, const DbKey *key, DbRecord *out);

/*
 * Fill *rs with a ResultStore (resultstore.h) backed by db: lookup = db_get
 * (unknown/effort records and malformed ones read as RJ_ENOTFOUND), store =
 * db_queue stamped with rj_version() and the current time; writes commit in
 * batches, on db_flush and on db_close.  Thread-safe; db must outlive rs.
 */
void db_result_store(Db *db, ResultStore *rs);

/* Path the handle was opened with. */
const char *db_path(const Db *db);

#endif /* RJ_DB_H */
