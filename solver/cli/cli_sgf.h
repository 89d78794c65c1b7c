/*
 * cli_sgf.h - `--sgf FILE` of solve, verify and query: the moves to the
 * position and a line from it (a solve's principal variation, or the main line
 * of a stored proof) written as an SGF game record (core/sgf.h).
 */
#ifndef RJ_CLI_SGF_H
#define RJ_CLI_SGF_H

#include "cli.h"

/*
 * Write to path (replaced): the record of b (its setup stones and moves), then
 * line[0..n) from b, with a root comment giving the result for attacker, the
 * rule set, the best move, the proof size (proof_nodes 0: none) and the
 * solver version, and a comment on the position's node.  Prints the error;
 * returns 0 or the exit code (74 when the file cannot be written).
 */
int cli_sgf_export(const char *path, const Board *b, RuleSet rs, Color attacker, Result res, Point best,
                   unsigned long long proof_nodes, const Point *line, int n, const char *what);

#endif /* RJ_CLI_SGF_H */
