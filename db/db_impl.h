/*
 * db_impl.h - private to db/: the Db handle and the transaction helpers
 * (db_txn.c) shared by db.c (open, close, reads) and db_write.c (queue,
 * flush, work).
 */
#ifndef RJ_DB_IMPL_H
#define RJ_DB_IMPL_H

#include <lmdb.h>
#include <pthread.h>
#include <stdatomic.h>

#include "db.h"

typedef struct {
    DbKey key;
    DbRecord rec;
    uint8_t *proof;
    size_t proof_len;
    size_t seq; /* queue position, for a stable sort */
} Pending;

struct Db {
    MDB_env *env;
    MDB_dbi meta, results, proofs, work;
    bool rdonly;
    char *path;
    size_t batch_max;
    pthread_mutex_t qlock;    /* queue and the single writer */
    pthread_rwlock_t maplock; /* held shared by every transaction, exclusively to resize */
    Pending *q;
    size_t qn, qcap;
    unsigned rules_mask; /* as stored in meta (under qlock) */
    _Atomic uint64_t conflicts;
};

/* Error code for an LMDB return value (errno values pass through). */
int db_map_err(int rc);

/* Begin a transaction (flags 0 or MDB_RDONLY) holding maplock shared, adopting
 * a map grown by another process; end it with db_txn_abort / db_txn_commit. */
int db_txn_begin(Db *db, unsigned flags, MDB_txn **txn);
void db_txn_abort(Db *db, MDB_txn *txn);
int db_txn_commit(Db *db, MDB_txn *txn);

/* Double the map size; no transaction of this thread may be active. */
int db_grow_map(Db *db);

#endif /* RJ_DB_IMPL_H */
