/* db_write.c - the write side of db.h: queued results, batched commits, resume state. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "db.h"
#include "db_impl.h"
#include "error.h"
#include "proof.h"

/* Append one entry to the queue (qlock held).  Takes ownership of proof. */
static int enqueue(Db *db, const DbKey *key, const DbRecord *r, uint8_t *proof, size_t len)
{
    if (db->qn == db->qcap) {
        size_t cap = db->qcap ? db->qcap * 2 : 256;
        Pending *q = realloc(db->q, cap * sizeof *q);
        if (!q) {
            free(proof);
            return RJ_ENOMEM;
        }
        db->q = q;
        db->qcap = cap;
    }
    Pending *p = &db->q[db->qn++];
    p->key = *key;
    p->rec = *r;
    p->rec.flags = proof ? RECORD_HAS_PROOF : 0;
    p->proof = proof;
    p->proof_len = len;
    return 0;
}

static int flush_locked(Db *db);

/* Validate, enqueue and maybe flush (takes qlock). */
static int queue_common(Db *db, const DbKey *key, const DbRecord *r, uint8_t *proof, size_t len)
{
    uint8_t tmp[RECORD_MAX_LEN];
    size_t n;
    DbRecord chk = *r;
    chk.flags = proof ? RECORD_HAS_PROOF : 0;
    if (db->rdonly || record_encode(&chk, tmp, sizeof tmp, &n) || chk.attacker != key->b[SYMKEY_LEN]) {
        free(proof);
        return RJ_EBADARG;
    }
    pthread_mutex_lock(&db->qlock);
    int rc = enqueue(db, key, r, proof, len);
    if (rc == 0 && db->qn >= db->batch_max)
        rc = flush_locked(db);
    pthread_mutex_unlock(&db->qlock);
    return rc;
}

/* Check a proof's header against the entry it belongs to. */
static bool proof_matches(const uint8_t *proof, size_t len, RuleSet rs, Color attacker)
{
    return len >= PROOF_HEADER_LEN && proof[5] == rs && proof[6] == attacker;
}

int db_queue(Db *db, const Board *b, RuleSet rs, const DbRecord *r, const uint8_t *proof, size_t len)
{
    DbKey key;
    int t;
    /* A pending pass is part of the position (another pass draws) but has no
     * stone-set spelling in exports: such positions are not stored. */
    if (board_last_move(b) == POINT_PASS)
        return RJ_EBADARG;
    db_key(b, rs, r->attacker, &key, &t);
    DbRecord c = *r;
    c.best = sym_apply(t, r->best);
    uint8_t *copy = NULL;
    if (proof) {
        if (!proof_matches(proof, len, rs, r->attacker))
            return RJ_EBADDATA;
        copy = malloc(len);
        if (!copy)
            return RJ_ENOMEM;
        memcpy(copy, proof, len);
        if (proof_transform(b, copy, len, t)) {
            free(copy);
            return RJ_EBADDATA;
        }
    }
    return queue_common(db, &key, &c, copy, len);
}

int db_queue_key(Db *db, const DbKey *key, const DbRecord *r, const uint8_t *proof, size_t len)
{
    RuleSet rs;
    Board canon;
    if (db_key_decode(key, NULL, &rs, NULL))
        return RJ_EBADARG;
    uint8_t *copy = NULL;
    if (proof) {
        if (!proof_matches(proof, len, rs, r->attacker) || db_key_decode(key, &canon, NULL, NULL) ||
            proof_stats(&canon, proof, len, NULL))
            return RJ_EBADDATA;
        copy = malloc(len);
        if (!copy)
            return RJ_ENOMEM;
        memcpy(copy, proof, len);
    }
    return queue_common(db, key, r, copy, len);
}

/* Should new entry n replace the stored record e?  *conflict set on a contradiction. */
static bool replaces(const DbRecord *n, const DbRecord *e, bool *conflict)
{
    *conflict = false;
    if (e->result == RESULT_UNKNOWN)
        return n->result != RESULT_UNKNOWN || n->nodes > e->nodes;
    if (n->result == RESULT_UNKNOWN)
        return false;
    if (n->result != e->result) {
        *conflict = true;
        return false;
    }
    bool np = n->flags & RECORD_HAS_PROOF, ep = e->flags & RECORD_HAS_PROOF;
    if (np != ep)
        return np;
    return np && n->proof_nodes < e->proof_nodes;
}

/* Key order, then queue order (so later entries for one key still come later). */
static int cmp_pending(const void *a, const void *b)
{
    const Pending *x = *(const Pending *const *)a, *y = *(const Pending *const *)b;
    int c = memcmp(x->key.b, y->key.b, DB_KEY_LEN);
    if (c)
        return c;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Write the queue, in the order of `order`, in txn.  *conflicts counts
 * contradictions; *mask collects rule sets. */
static int write_queue(Db *db, MDB_txn *txn, Pending *const *order, uint64_t *conflicts, unsigned *mask)
{
    for (size_t i = 0; i < db->qn; i++) {
        const Pending *p = order[i];
        uint8_t buf[RECORD_MAX_LEN];
        size_t n;
        if (record_encode(&p->rec, buf, sizeof buf, &n))
            return RJ_EINTERNAL;
        /* One search for the common case, a new key; an existing one comes back in v. */
        MDB_val k = {DB_KEY_LEN, (void *)p->key.b}, v = {n, buf};
        int rc = mdb_put(txn, db->results, &k, &v, MDB_NOOVERWRITE);
        if (rc == MDB_KEYEXIST) {
            DbRecord e;
            bool conflict = false;
            if (record_decode(v.mv_data, v.mv_size, &e) == 0 && !replaces(&p->rec, &e, &conflict)) {
                *conflicts += conflict;
                continue;
            }
            v.mv_size = n;
            v.mv_data = buf;
            rc = mdb_put(txn, db->results, &k, &v, 0);
            if (rc == 0 && !p->proof) {
                rc = mdb_del(txn, db->proofs, &k, NULL);
                rc = rc == MDB_NOTFOUND ? 0 : rc;
            }
        }
        if (rc)
            return rc;
        if (p->proof) {
            MDB_val pv = {p->proof_len, p->proof};
            rc = mdb_put(txn, db->proofs, &k, &pv, 0);
            if (rc)
                return rc;
        }
        *mask |= 1u << p->key.b[1];
    }
    if ((*mask | db->rules_mask) != db->rules_mask) {
        char s[16];
        snprintf(s, sizeof s, "%u", *mask | db->rules_mask);
        MDB_val k = {5, "rules"}, v = {strlen(s), s};
        return mdb_put(txn, db->meta, &k, &v, 0);
    }
    return 0;
}

/* Commit the queue (qlock held); on MDB_MAP_FULL grow the map and retry. */
static int flush_locked(Db *db)
{
    if (db->qn == 0)
        return 0;
    /* Sorted keys touch each B-tree page once per batch instead of at random. */
    Pending **order = malloc(db->qn * sizeof *order);
    if (!order)
        return RJ_ENOMEM;
    for (size_t i = 0; i < db->qn; i++) {
        db->q[i].seq = i;
        order[i] = &db->q[i];
    }
    qsort(order, db->qn, sizeof *order, cmp_pending);
    int ret;
    for (int tries = 0;; tries++) {
        MDB_txn *txn;
        int rc = db_txn_begin(db, 0, &txn);
        if (rc) {
            ret = rc;
            break;
        }
        uint64_t conflicts = 0;
        unsigned mask = 0;
        rc = write_queue(db, txn, order, &conflicts, &mask);
        if (rc) {
            db_txn_abort(db, txn);
        } else {
            rc = db_txn_commit(db, txn);
        }
        if (rc == MDB_MAP_FULL && tries < 40) {
            rc = db_grow_map(db);
            if (rc) {
                ret = rc;
                break;
            }
            continue;
        }
        if (rc) {
            ret = rc < 0 && rc > -30900 ? db_map_err(rc) : rc;
            break;
        }
        db->rules_mask |= mask;
        for (size_t i = 0; i < db->qn; i++)
            free(db->q[i].proof);
        db->qn = 0;
        ret = 0;
        if (conflicts) {
            atomic_fetch_add(&db->conflicts, conflicts);
            ret = RJ_ECONFLICT;
        }
        break;
    }
    free(order);
    return ret;
}

int db_flush(Db *db)
{
    if (db->rdonly)
        return 0;
    pthread_mutex_lock(&db->qlock);
    int rc = flush_locked(db);
    pthread_mutex_unlock(&db->qlock);
    return rc;
}

/* ---- resume state ---- */

/* Put (or with del, delete) the n entries in one transaction; the map grows as needed.
 * keep (may be NULL) and *kept: db_work_put_many. */
static int work_write(Db *db, const DbWorkItem *items, size_t n, bool del, DbWorkKeepFn keep, void *ctx, uint64_t *kept)
{
    if (kept)
        *kept = 0;
    if (db->rdonly)
        return RJ_EBADARG;
    for (size_t i = 0; i < n; i++)
        if (items[i].klen == 0 || items[i].klen > 511)
            return RJ_EBADARG;
    if (n == 0)
        return 0;
    pthread_mutex_lock(&db->qlock);
    int rc;
    for (int tries = 0;; tries++) {
        MDB_txn *txn;
        rc = db_txn_begin(db, 0, &txn);
        if (rc)
            break;
        uint64_t nk = 0;
        for (size_t i = 0; i < n && !rc; i++) {
            MDB_val k = {items[i].klen, (void *)items[i].key}, v = {items[i].vlen, (void *)items[i].val}, o;
            if (keep && mdb_get(txn, db->work, &k, &o) == 0 && keep(ctx, o.mv_data, o.mv_size, &items[i])) {
                nk++;
                continue;
            }
            rc = del ? mdb_del(txn, db->work, &k, NULL) : mdb_put(txn, db->work, &k, &v, 0);
        }
        if (!rc && kept)
            *kept = nk;
        if (rc)
            db_txn_abort(db, txn);
        else
            rc = db_txn_commit(db, txn);
        if (rc == MDB_MAP_FULL && tries < 40 && db_grow_map(db) == 0)
            continue;
        break;
    }
    pthread_mutex_unlock(&db->qlock);
    return db_map_err(rc);
}

int db_work_put(Db *db, const void *key, size_t klen, const void *val, size_t vlen)
{
    DbWorkItem it = {key, klen, val, vlen};
    return work_write(db, &it, 1, false, NULL, NULL, NULL);
}

int db_work_del(Db *db, const void *key, size_t klen)
{
    DbWorkItem it = {key, klen, NULL, 0};
    return work_write(db, &it, 1, true, NULL, NULL, NULL);
}

int db_work_put_many(Db *db, const DbWorkItem *items, size_t n, DbWorkKeepFn keep, void *ctx, uint64_t *kept)
{
    return work_write(db, items, n, false, keep, ctx, kept);
}

int db_work_clear(Db *db, const void *prefix, size_t plen, uint64_t *n)
{
    if (n)
        *n = 0;
    if (db->rdonly || plen == 0 || plen > 511)
        return RJ_EBADARG;
    pthread_mutex_lock(&db->qlock);
    MDB_txn *txn;
    uint64_t count = 0;
    int rc = db_txn_begin(db, 0, &txn);
    if (!rc) {
        MDB_cursor *cur;
        rc = mdb_cursor_open(txn, db->work, &cur);
        if (!rc) {
            for (;;) { /* seek the first key >= prefix again after each delete */
                MDB_val k = {plen, (void *)prefix}, v;
                rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
                if (rc || k.mv_size < plen || memcmp(k.mv_data, prefix, plen))
                    break;
                if ((rc = mdb_cursor_del(cur, 0)))
                    break;
                count++;
            }
            if (rc == MDB_NOTFOUND)
                rc = 0;
            mdb_cursor_close(cur);
        }
        if (rc)
            db_txn_abort(db, txn);
        else
            rc = db_txn_commit(db, txn);
    }
    pthread_mutex_unlock(&db->qlock);
    if (!rc && n)
        *n = count;
    return db_map_err(rc);
}

int db_work_foreach(Db *db, const void *prefix, size_t plen, DbWorkFn fn, void *ctx)
{
    if (plen > 511)
        return RJ_EBADARG;
    MDB_txn *txn;
    int rc = db_txn_begin(db, MDB_RDONLY, &txn);
    if (rc)
        return rc;
    MDB_cursor *cur;
    rc = mdb_cursor_open(txn, db->work, &cur);
    if (!rc) {
        MDB_val k = {plen, (void *)prefix}, v;
        MDB_cursor_op op = plen ? MDB_SET_RANGE : MDB_FIRST;
        while ((rc = mdb_cursor_get(cur, &k, &v, op)) == 0) {
            op = MDB_NEXT;
            if (plen && (k.mv_size < plen || memcmp(k.mv_data, prefix, plen)))
                break;
            int r = fn(ctx, k.mv_data, k.mv_size, v.mv_data, v.mv_size);
            if (r) {
                mdb_cursor_close(cur);
                db_txn_abort(db, txn);
                return r;
            }
        }
        rc = rc == MDB_NOTFOUND ? 0 : rc;
        mdb_cursor_close(cur);
    }
    db_txn_abort(db, txn);
    return db_map_err(rc);
}

int db_work_get(Db *db, const void *key, size_t klen, void **val, size_t *vlen)
{
    *val = NULL;
    *vlen = 0;
    if (klen == 0 || klen > 511)
        return RJ_EBADARG;
    MDB_txn *txn;
    int rc = db_txn_begin(db, MDB_RDONLY, &txn);
    if (rc)
        return rc;
    MDB_val k = {klen, (void *)key}, v;
    rc = mdb_get(txn, db->work, &k, &v);
    if (rc == 0) {
        *val = malloc(v.mv_size ? v.mv_size : 1);
        if (*val) {
            memcpy(*val, v.mv_data, v.mv_size);
            *vlen = v.mv_size;
        } else {
            rc = RJ_ENOMEM;
        }
    }
    db_txn_abort(db, txn);
    return db_map_err(rc);
}
