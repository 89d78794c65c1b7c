/*
 * warm_focus.h - where a warm solve looks first: the move the opening-level
 * search's saved tree would search next.
 *
 * At a black-to-move position the tree has expanded, `renju opening search`
 * has usually spent most of its work below one black move, the first move
 * of its most-proving line (jt_line), and left most white replies there
 * proven.  One df-pn solve of the position spreads its budget over all of
 * black's moves (DfpnConfig.effort_shift moves it away from lines it has
 * worked long on); a solve of the position after that move, with the same
 * warm table, works on what is open there.  Measured on the 4th-move
 * classes a warm 1e8 solve had left unknown (results/solver-bench.md,
 * session 47).
 *
 * Read only; one caller.
 */
#ifndef RJ_WARM_FOCUS_H
#define RJ_WARM_FOCUS_H

#include "db.h"

typedef struct {
    Point move;      /* black's move (root's frame), POINT_NONE when there is none */
    ProofNum pn, dn; /* the tree's numbers for it */
    double time_s;   /* building the tree */
} WarmFocus;

/*
 * The first move of the most-proving line of the tree saved in db below
 * root (black to move, goal win, the tree's default configuration), when
 * the tree expanded root and that move is still open: f->move, else
 * POINT_NONE.  Loading the tree costs about as much as the warm start's walk
 * of it (warm_db.h).  0, or an error of the database or the tree.
 */
int warm_focus_move(Db *db, RuleSet rs, const Board *root, WarmFocus *f);

#endif /* RJ_WARM_FOCUS_H */
