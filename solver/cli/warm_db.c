/* warm_db.c - see warm_db.h. */
#include "warm_db.h"

#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "error.h"
#include "jobtree.h"
#include "keyset.h"
#include "rules.h"
#include "search_db.h"

struct WarmDb {
    Db *db;
    RuleSet rules;
    KeySet proven; /* dfpn_tt_key(position, BLACK) of the positions preloaded as proven */
};

typedef struct {
    WarmDb *w;
    JtSource src; /* the saved states (search_db.h), read only */
    KeySet seen;  /* the expanded nodes walked (Board.key) */
    DfpnKnown *known;
    size_t nknown, capknown;
    uint64_t max_walk;
    const atomic_bool *stop;
    WarmStats st;
} Walk;

static int add_known(Walk *k, const Board *b, Result r)
{
    if (k->nknown == k->capknown) {
        size_t cap = k->capknown ? k->capknown * 2 : 4096;
        DfpnKnown *n = realloc(k->known, cap * sizeof *n);
        if (!n)
            return RJ_ENOMEM;
        k->known = n, k->capknown = cap;
    }
    Key key = dfpn_tt_key(b, BLACK);
    k->known[k->nknown++] = (DfpnKnown){key, r};
    if (r == RESULT_PROVEN) {
        k->st.proven++;
        return keyset_put(&k->w->proven, key) < 0 ? RJ_ENOMEM : 0;
    }
    k->st.disproven++;
    return 0;
}

/* Walk node b (unsolved) when the tree expanded it: its children's results, then its unsolved children. */
static int walk(Walk *k, Board *b)
{
    if (k->st.walked >= k->max_walk || (k->stop && atomic_load(k->stop))) {
        k->st.truncated = true;
        return 0;
    }
    if (keyset_has(&k->seen, b->key)) /* walked already: a transposition */
        return 0;
    JtState js;
    memset(&js, 0, sizeof js);
    int rc = k->src.load(k->src.ctx, b, &js);
    free(js.est);
    if (rc == RJ_ENOTFOUND || (rc == 0 && !js.expanded))
        return 0;
    if (rc)
        return rc;
    if ((rc = keyset_put(&k->seen, b->key)) < 0)
        return rc;
    rc = 0;
    k->st.walked++;
    for (Point p = 0; p < BOARD_POINTS && rc == 0; p++) {
        if (board_at(b, p) != EMPTY)
            continue;
        board_play(b, p);
        Color winner;
        if (!rules_game_over(b, k->w->rules, &winner)) {
            DbRecord r;
            k->st.lookups++;
            int g = db_get(k->w->db, b, k->w->rules, BLACK, &r);
            if (g == 0 && r.result == RESULT_PROVEN && (r.flags & RECORD_HAS_PROOF))
                rc = add_known(k, b, RESULT_PROVEN);
            else if (g == 0 && r.result == RESULT_DISPROVEN)
                rc = add_known(k, b, RESULT_DISPROVEN);
            else if (g == 0 || g == RJ_ENOTFOUND || g == RJ_EBADDATA)
                rc = walk(k, b);
            else
                rc = g;
        }
        board_undo(b);
    }
    return rc;
}

int warm_db_load(WarmDb **out, Db *db, RuleSet rs, const Board *root, Dfpn *s, uint64_t max_walk,
                 const atomic_bool *stop, WarmStats *st)
{
    *out = NULL;
    double t0 = clock_now();
    WarmDb *w = calloc(1, sizeof *w);
    if (!w)
        return RJ_ENOMEM;
    w->db = db;
    w->rules = rs;
    SearchDb sdb;
    Walk k;
    memset(&k, 0, sizeof k);
    k.w = w;
    k.max_walk = max_walk ? max_walk : WARM_MAX_WALK;
    k.stop = stop;
    search_db_init(&sdb, db, rs, true, &k.src);
    Board b = *root;
    int rc = walk(&k, &b);
    if (rc == 0 && k.nknown)
        rc = dfpn_preload(s, k.known, k.nknown);
    search_db_free(&sdb);
    free(k.known);
    keyset_free(&k.seen);
    k.st.time_s = clock_now() - t0;
    if (st)
        *st = k.st;
    if (rc || k.st.proven == 0) {
        warm_db_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

static int source_get(void *ctx, const Board *b, Color attacker, uint8_t **proof, size_t *len)
{
    WarmDb *w = ctx;
    if (attacker != BLACK || !keyset_has(&w->proven, dfpn_tt_key(b, BLACK)))
        return RJ_ENOTFOUND;
    return db_get_proof(w->db, b, w->rules, BLACK, proof, len);
}

void warm_db_source(WarmDb *w, ProofSource *src)
{
    src->ctx = w;
    src->get = w ? source_get : NULL;
}

void warm_db_free(WarmDb *w)
{
    if (!w)
        return;
    keyset_free(&w->proven);
    free(w);
}
