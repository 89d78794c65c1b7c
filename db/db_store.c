/* db_store.c - the ResultStore adapter of db.h (db_result_store). */
#include <string.h>
#include <time.h>

#include "db.h"
#include "error.h"
#include "version.h"

static int store_lookup(void *ctx, const Board *b, Color attacker, RuleSet rs, StoredResult *out)
{
    DbRecord r;
    int rc = db_get(ctx, b, rs, attacker, &r);
    if (rc == RJ_EBADDATA || (rc == 0 && r.result == RESULT_UNKNOWN))
        return RJ_ENOTFOUND;
    if (rc)
        return rc;
    out->result = r.result;
    out->attacker = r.attacker;
    out->best = r.best;
    out->proof_nodes = r.proof_nodes;
    out->proof_depth = r.proof_depth;
    out->nodes = r.nodes;
    return 0;
}

static int store_store(void *ctx, const Board *b, RuleSet rs, const StoredResult *s, const uint8_t *proof,
                       size_t proof_len)
{
    DbRecord r;
    memset(&r, 0, sizeof r);
    r.result = s->result;
    r.attacker = s->attacker;
    r.best = s->best;
    r.proof_nodes = s->proof_nodes;
    r.proof_depth = s->proof_depth;
    r.nodes = s->nodes;
    r.time = (uint64_t)time(NULL);
    strncpy(r.version, rj_version(), RECORD_VERSION_MAX);
    int rc = db_queue(ctx, b, rs, &r, proof_len ? proof : NULL, proof_len);
    /* Conflicts are counted by db_conflicts(); positions after a pass are not stored. */
    return rc == RJ_ECONFLICT || rc == RJ_EBADARG ? 0 : rc;
}

void db_result_store(Db *db, ResultStore *rs)
{
    rs->ctx = db;
    rs->lookup = store_lookup;
    rs->store = store_store;
}
