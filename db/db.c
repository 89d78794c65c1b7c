/* db.c - see db.h. */
#include "db.h"
#include "db_impl.h"

#include <errno.h>
#include <lmdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "error.h"
#include "proof.h"
#include "version.h"

static void set_why(char *why, size_t whylen, const char *fmt, const char *a, const char *b)
{
    if (why && whylen)
        snprintf(why, whylen, fmt, a, b);
}

/* ---- open / close ---- */

static int meta_get_uint(MDB_txn *txn, MDB_dbi dbi, const char *name, uint64_t *v)
{
    MDB_val k = {strlen(name), (void *)name}, d;
    int rc = mdb_get(txn, dbi, &k, &d);
    if (rc)
        return db_map_err(rc);
    char buf[32];
    if (d.mv_size == 0 || d.mv_size >= sizeof buf)
        return RJ_EDB;
    memcpy(buf, d.mv_data, d.mv_size);
    buf[d.mv_size] = 0;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(buf, &end, 10);
    if (errno || *end)
        return RJ_EDB;
    *v = x;
    return 0;
}

static int meta_put_str(MDB_txn *txn, MDB_dbi dbi, const char *name, const char *val)
{
    MDB_val k = {strlen(name), (void *)name}, d = {strlen(val), (void *)val};
    return mdb_put(txn, dbi, &k, &d, 0);
}

static int meta_put_uint(MDB_txn *txn, MDB_dbi dbi, const char *name, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    return meta_put_str(txn, dbi, name, buf);
}

/* Create and open db->env (closed again on failure). */
static int env_open(Db *db, const char *path, unsigned flags, size_t map)
{
    int rc = mdb_env_create(&db->env);
    if (rc) {
        db->env = NULL;
        return rc;
    }
    rc = mdb_env_set_maxdbs(db->env, 8);
    if (!rc) /* one slot per concurrent lookup (MDB_NOTLS): room for many search threads */
        rc = mdb_env_set_maxreaders(db->env, 1022);
    if (!rc)
        rc = mdb_env_set_mapsize(db->env, map);
    if (!rc)
        rc = mdb_env_open(db->env, path, flags, 0644);
    if (rc) {
        mdb_env_close(db->env);
        db->env = NULL;
    }
    return rc;
}

/* Open (or, when writable and the file is new, create) the sub-databases and check the schema. */
static int open_dbis(Db *db, char *why, size_t whylen)
{
    MDB_txn *txn;
    int rc = db_txn_begin(db, db->rdonly ? MDB_RDONLY : 0, &txn);
    if (rc)
        return rc;
    rc = mdb_dbi_open(txn, "meta", 0, &db->meta);
    if (rc == MDB_NOTFOUND && !db->rdonly) {
        MDB_dbi main;
        MDB_stat st;
        if (mdb_dbi_open(txn, NULL, 0, &main) == 0 && mdb_stat(txn, main, &st) == 0 && st.ms_entries == 0) {
            rc = mdb_dbi_open(txn, "meta", MDB_CREATE, &db->meta);
            if (!rc)
                rc = meta_put_uint(txn, db->meta, "schema", DB_SCHEMA_VERSION);
            if (!rc)
                rc = meta_put_str(txn, db->meta, "creator", rj_version());
            if (!rc)
                rc = meta_put_uint(txn, db->meta, "created", (uint64_t)time(NULL));
            if (!rc)
                rc = meta_put_uint(txn, db->meta, "rules", 0);
            if (rc) {
                db_txn_abort(db, txn);
                return db_map_err(rc);
            }
        }
    }
    if (rc) {
        db_txn_abort(db, txn);
        if (rc == MDB_NOTFOUND || rc == MDB_INCOMPATIBLE) {
            set_why(why, whylen, "%s: not a renju database (no schema record)%s", db->path, "");
            return RJ_EDB;
        }
        return db_map_err(rc);
    }
    uint64_t schema = 0, rules = 0;
    rc = meta_get_uint(txn, db->meta, "schema", &schema);
    if (rc) {
        db_txn_abort(db, txn);
        set_why(why, whylen, "%s: not a renju database (bad schema record)%s", db->path, "");
        return RJ_EDB;
    }
    if (schema != DB_SCHEMA_VERSION) {
        db_txn_abort(db, txn);
        char s[64];
        snprintf(s, sizeof s, "%llu (this build reads %d)", (unsigned long long)schema, DB_SCHEMA_VERSION);
        set_why(why, whylen, "%s: unsupported database schema version %s", db->path, s);
        return RJ_ESCHEMA;
    }
    if (meta_get_uint(txn, db->meta, "rules", &rules) == 0)
        db->rules_mask = (unsigned)rules;
    unsigned cf = db->rdonly ? 0 : MDB_CREATE;
    rc = mdb_dbi_open(txn, "results", cf, &db->results);
    if (!rc)
        rc = mdb_dbi_open(txn, "proofs", cf, &db->proofs);
    if (!rc)
        rc = mdb_dbi_open(txn, "work", cf, &db->work);
    if (rc) {
        db_txn_abort(db, txn);
        set_why(why, whylen, "%s: damaged renju database (missing sub-database)%s", db->path, "");
        return RJ_EDB;
    }
    rc = db_txn_commit(db, txn);
    return db_map_err(rc);
}

int db_open(const char *path, const DbOptions *opt, Db **out, char *why, size_t whylen)
{
    DbOptions o = {DB_CREATE, 0, 0};
    if (opt)
        o = *opt;
    *out = NULL;
    if (why && whylen)
        why[0] = 0;
    bool rdonly = o.flags & DB_RDONLY;
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (errno == ENOENT && (rdonly || !(o.flags & DB_CREATE))) {
            set_why(why, whylen, "%s: no such database%s", path, "");
            return RJ_ENODB;
        }
        if (errno != ENOENT) {
            set_why(why, whylen, "%s: %s", path, strerror(errno));
            return errno;
        }
    } else if (!S_ISREG(sb.st_mode)) {
        set_why(why, whylen, "%s: not a renju database (not a regular file)%s", path, "");
        return RJ_EDB;
    } else if (sb.st_size == 0 && rdonly) {
        set_why(why, whylen, "%s: not a renju database (empty file)%s", path, "");
        return RJ_EDB;
    }

    Db *db = calloc(1, sizeof *db);
    if (!db)
        return RJ_ENOMEM;
    db->path = strdup(path);
    db->rdonly = rdonly;
    db->batch_max = o.batch_max ? o.batch_max : DB_DEFAULT_BATCH;
    pthread_mutex_init(&db->qlock, NULL);
    /* Writers first: a resize must not starve behind a stream of lookups. */
    pthread_rwlockattr_t ra;
    pthread_rwlockattr_init(&ra);
    pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&db->maplock, &ra);
    pthread_rwlockattr_destroy(&ra);
    size_t map = o.map_size ? o.map_size : (size_t)DB_DEFAULT_MAP_GIB << 30;
    unsigned eflags = MDB_NOSUBDIR | MDB_NOTLS | (rdonly ? MDB_RDONLY : (o.flags & DB_NOSYNC) ? MDB_NOSYNC : 0);
    int rc = db->path ? env_open(db, path, eflags, map) : ENOMEM;
    /* A database on read-only media without a lock file: nobody can be
     * writing it (a writer would have created the lock), so read it unlocked. */
    char lock[4096];
    snprintf(lock, sizeof lock, "%s-lock", path);
    if (rdonly && (rc == EACCES || rc == EROFS) && access(lock, F_OK) != 0)
        rc = env_open(db, path, eflags | MDB_NOLOCK, map);
    if (rc) {
        if (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH || rc == MDB_CORRUPTED || rc == EINVAL)
            set_why(why, whylen, "%s: not a renju database, or corrupt (%s)", path, mdb_strerror(rc));
        else if (rc == ENOENT)
            set_why(why, whylen, "%s: no such database%s", path, "");
        else
            set_why(why, whylen, "%s: cannot open database: %s", path, mdb_strerror(rc));
        rc = rc == ENOENT ? RJ_ENODB : rc == EINVAL ? RJ_EDB : db_map_err(rc);
        goto fail;
    }
    /* A truncated file would fault when its missing pages are touched.  The
     * size is taken after the last page number: a writer in another process
     * writes a commit's pages before the meta page that names them, and the
     * file never shrinks, so only a real truncation makes it smaller. */
    MDB_envinfo info;
    MDB_stat est;
    if (mdb_env_info(db->env, &info) == 0 && mdb_env_stat(db->env, &est) == 0 && stat(path, &sb) == 0 &&
        (uint64_t)sb.st_size < ((uint64_t)info.me_last_pgno + 1) * est.ms_psize) {
        set_why(why, whylen, "%s: database file is truncated%s", path, "");
        rc = RJ_EDB;
        goto fail;
    }
    int dead = 0;
    mdb_reader_check(db->env, &dead);
    rc = open_dbis(db, why, whylen);
    if (rc) {
        if (why && whylen && !why[0])
            set_why(why, whylen, "%s: %s", path, rc > 0 ? strerror(rc) : rj_strerror(rc));
        goto fail;
    }
    *out = db;
    return 0;
fail:
    if (rc > 0 && why && whylen && !why[0])
        set_why(why, whylen, "%s: %s", path, strerror(rc));
    if (db->env)
        mdb_env_close(db->env);
    pthread_mutex_destroy(&db->qlock);
    pthread_rwlock_destroy(&db->maplock);
    free(db->path);
    free(db);
    return rc;
}

static void free_queue(Db *db)
{
    for (size_t i = 0; i < db->qn; i++)
        free(db->q[i].proof);
    db->qn = 0;
}

void db_close(Db *db)
{
    if (!db)
        return;
    db_flush(db);
    free_queue(db);
    free(db->q);
    if (!db->rdonly)
        mdb_env_sync(db->env, 1); /* what DB_NOSYNC deferred */
    mdb_env_close(db->env);
    pthread_mutex_destroy(&db->qlock);
    pthread_rwlock_destroy(&db->maplock);
    free(db->path);
    free(db);
}

const char *db_path(const Db *db) { return db->path; }

int db_sync(Db *db)
{
    if (db->rdonly)
        return 0;
    int rc = mdb_env_sync(db->env, 1);
    return rc ? db_map_err(rc) : 0;
}

uint64_t db_conflicts(Db *db) { return atomic_load(&db->conflicts); }

/* ---- reads ---- */

int db_get(Db *db, const Board *b, RuleSet rs, Color attacker, DbRecord *out)
{
    DbKey key;
    int t;
    if (board_last_move(b) == POINT_PASS)
        return RJ_ENOTFOUND; /* never stored: see db_queue */
    db_key(b, rs, attacker, &key, &t);
    MDB_txn *txn;
    int rc = db_txn_begin(db, MDB_RDONLY, &txn);
    if (rc)
        return rc;
    MDB_val k = {DB_KEY_LEN, key.b}, d;
    rc = mdb_get(txn, db->results, &k, &d);
    if (rc == 0)
        rc = record_decode(d.mv_data, d.mv_size, out);
    else
        rc = db_map_err(rc);
    db_txn_abort(db, txn);
    if (rc == 0)
        out->best = sym_apply(sym_inverse(t), out->best);
    return rc;
}

int db_get_proof(Db *db, const Board *b, RuleSet rs, Color attacker, uint8_t **proof, size_t *len)
{
    DbKey key;
    int t;
    *proof = NULL;
    *len = 0;
    db_key(b, rs, attacker, &key, &t);
    Board canon;
    if (db_key_decode(&key, &canon, NULL, NULL))
        return RJ_EINTERNAL;
    MDB_txn *txn;
    int rc = db_txn_begin(db, MDB_RDONLY, &txn);
    if (rc)
        return rc;
    MDB_val k = {DB_KEY_LEN, key.b}, d;
    rc = mdb_get(txn, db->proofs, &k, &d);
    uint8_t *copy = NULL;
    if (rc == 0) {
        copy = malloc(d.mv_size ? d.mv_size : 1);
        if (copy)
            memcpy(copy, d.mv_data, d.mv_size);
        else
            rc = RJ_ENOMEM;
    } else {
        rc = db_map_err(rc);
    }
    size_t n = d.mv_size;
    db_txn_abort(db, txn);
    if (rc)
        return rc;
    rc = proof_transform(&canon, copy, n, sym_inverse(t));
    if (rc) {
        free(copy);
        return RJ_EBADDATA;
    }
    *proof = copy;
    *len = n;
    return 0;
}

int db_foreach(Db *db, DbForeachFn fn, void *ctx)
{
    MDB_txn *txn;
    MDB_cursor *cur = NULL;
    int rc = db_txn_begin(db, MDB_RDONLY, &txn);
    if (rc)
        return rc;
    rc = mdb_cursor_open(txn, db->results, &cur);
    if (rc)
        goto done;
    MDB_val k, d;
    int op = MDB_FIRST;
    while ((rc = mdb_cursor_get(cur, &k, &d, (MDB_cursor_op)op)) == 0) {
        op = MDB_NEXT;
        DbEntry e;
        memset(&e, 0, sizeof e);
        if (k.mv_size != DB_KEY_LEN) {
            e.status = RJ_EBADDATA;
            memcpy(e.key.b, k.mv_data, k.mv_size < DB_KEY_LEN ? k.mv_size : DB_KEY_LEN);
        } else {
            memcpy(e.key.b, k.mv_data, DB_KEY_LEN);
            e.status = record_decode(d.mv_data, d.mv_size, &e.rec);
            if (e.status)
                memset(&e.rec, 0, sizeof e.rec);
            MDB_val pd;
            if (e.status == 0 && mdb_get(txn, db->proofs, &k, &pd) == 0) {
                e.proof = pd.mv_data;
                e.proof_len = pd.mv_size;
            }
        }
        int r = fn(ctx, &e);
        if (r) {
            rc = r;
            goto done;
        }
    }
    rc = rc == MDB_NOTFOUND ? 0 : db_map_err(rc);
done:
    if (cur)
        mdb_cursor_close(cur);
    db_txn_abort(db, txn);
    return rc;
}

static int stats_cb(void *ctx, const DbEntry *e)
{
    DbStats *st = ctx;
    st->entries++;
    if (e->status) {
        st->bad_records++;
        return 0;
    }
    if (e->rec.result == RESULT_PROVEN)
        st->proven++;
    else if (e->rec.result == RESULT_DISPROVEN)
        st->disproven++;
    else
        st->unknown++;
    if (e->proof) {
        st->proofs++;
        st->proof_bytes += e->proof_len;
    }
    return 0;
}

int db_stats(Db *db, DbStats *st)
{
    memset(st, 0, sizeof *st);
    MDB_txn *txn;
    int rc = db_txn_begin(db, MDB_RDONLY, &txn);
    if (rc)
        return rc;
    uint64_t v = 0;
    if (meta_get_uint(txn, db->meta, "schema", &v) == 0)
        st->schema = (unsigned)v;
    if (meta_get_uint(txn, db->meta, "rules", &v) == 0)
        st->rules_mask = (unsigned)v;
    if (meta_get_uint(txn, db->meta, "created", &v) == 0)
        st->created = v;
    MDB_val k = {7, "creator"}, d;
    if (mdb_get(txn, db->meta, &k, &d) == 0) {
        size_t n = d.mv_size < RECORD_VERSION_MAX ? d.mv_size : RECORD_VERSION_MAX;
        memcpy(st->creator, d.mv_data, n);
        st->creator[n] = 0;
    }
    MDB_envinfo info;
    mdb_env_info(db->env, &info);
    st->map_bytes = info.me_mapsize;
    db_txn_abort(db, txn);
    struct stat sb;
    if (stat(db->path, &sb) == 0)
        st->file_bytes = (uint64_t)sb.st_size;
    return db_foreach(db, stats_cb, st);
}

int db_get_key(Db *db, const DbKey *key, DbRecord *out)
{
    MDB_txn *txn;
    int rc = db_txn_begin(db, MDB_RDONLY, &txn);
    if (rc)
        return rc;
    MDB_val k = {DB_KEY_LEN, (void *)key->b}, d;
    rc = mdb_get(txn, db->results, &k, &d);
    rc = rc ? db_map_err(rc) : record_decode(d.mv_data, d.mv_size, out);
    db_txn_abort(db, txn);
    return rc;
}
