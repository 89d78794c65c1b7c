/*
 * db_txn.c - the LMDB transaction helpers of db_impl.h, shared by the readers
 * (db.c) and the writer (db_write.c): every transaction holds the map lock
 * shared, so a map resize (which needs no transaction active in this
 * process) takes it exclusively.
 */
#include "db_impl.h"

#include <lmdb.h>
#include <pthread.h>

#include "error.h"

/* LMDB's own codes are a database problem; errno values pass through. */
int db_map_err(int rc)
{
    if (rc == 0 || rc > 0)
        return rc;
    if (rc == MDB_NOTFOUND)
        return RJ_ENOTFOUND;
    return RJ_EDB;
}

/* ---- transactions ---- */

/* Adopt a map size grown by another process (no transaction may be active here). */
static void adopt_map(Db *db)
{
    pthread_rwlock_wrlock(&db->maplock);
    mdb_env_set_mapsize(db->env, 0);
    pthread_rwlock_unlock(&db->maplock);
}

/* Begin a transaction holding maplock shared; txn_end releases both. */
int db_txn_begin(Db *db, unsigned flags, MDB_txn **txn)
{
    for (int tries = 0;; tries++) {
        pthread_rwlock_rdlock(&db->maplock);
        int rc = mdb_txn_begin(db->env, NULL, flags, txn);
        if (rc == 0)
            return 0;
        pthread_rwlock_unlock(&db->maplock);
        if (rc != MDB_MAP_RESIZED || tries > 3)
            return db_map_err(rc);
        adopt_map(db);
    }
}

void db_txn_abort(Db *db, MDB_txn *txn)
{
    mdb_txn_abort(txn);
    pthread_rwlock_unlock(&db->maplock);
}

int db_txn_commit(Db *db, MDB_txn *txn)
{
    int rc = mdb_txn_commit(txn);
    pthread_rwlock_unlock(&db->maplock);
    return rc;
}

/* Double the map (no transaction of ours may be active). */
int db_grow_map(Db *db)
{
    MDB_envinfo info;
    pthread_rwlock_wrlock(&db->maplock);
    mdb_env_info(db->env, &info);
    int rc = mdb_env_set_mapsize(db->env, info.me_mapsize * 2);
    pthread_rwlock_unlock(&db->maplock);
    return db_map_err(rc);
}
