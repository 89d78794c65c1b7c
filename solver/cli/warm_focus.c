/* warm_focus.c - see warm_focus.h. */
#include "warm_focus.h"

#include <string.h>

#include "clock.h"
#include "cli_search.h"
#include "error.h"
#include "jobtree.h"
#include "search_db.h"

int warm_focus_move(Db *db, RuleSet rs, const Board *root, WarmFocus *f)
{
    memset(f, 0, sizeof *f);
    f->move = POINT_NONE;
    if (root->to_move != BLACK)
        return 0;
    double t0 = clock_now();
    SearchDb sdb;
    JtSource src;
    search_db_init(&sdb, db, rs, true, &src);
    JtConfig jc;
    search_tree_defaults(&jc, rs);
    JobTree *t = NULL;
    int rc = jt_create(&t, root, &jc, &src);
    if (rc == RJ_EBADARG) /* a position the tree does not take (a finished game, after a pass) */
        rc = 0;
    JtLineStep step;
    int n = rc == 0 && t ? jt_line(t, &step, 1) : 0;
    if (n < 0) {
        rc = n;
    } else if (n == 1 && step.status == RESULT_UNKNOWN && step.mv != POINT_PASS && step.open > 0) {
        f->move = step.mv;
        f->pn = step.pn;
        f->dn = step.dn;
    }
    jt_free(t);
    search_db_free(&sdb);
    f->time_s = clock_now() - t0;
    return rc;
}
