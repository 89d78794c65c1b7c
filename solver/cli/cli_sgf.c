/* cli_sgf.c - see cli_sgf.h. */
#include "cli_sgf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "position.h"
#include "sgf.h"
#include "version.h"

int cli_sgf_export(const char *path, const Board *b, RuleSet rs, Color attacker, Result res, Point best,
                   unsigned long long proof_nodes, const Point *line, int n, const char *what)
{
    SgfGame *g = malloc(sizeof *g);
    char *buf = NULL;
    int rc = 0;
    if (!g)
        return cli_error(EXIT_SOFTWARE, "out of memory");
    sgf_from_board(b, g);
    int before = g->nmoves;
    Color side = b->to_move;
    for (int i = 0; i < n && sgf_add_move(g, line[i], side) == 0; i++)
        side = color_other(side);
    char pos[POSITION_STR_LEN], bs[8], proof[64] = "";
    position_str(b, pos, sizeof pos);
    if (proof_nodes)
        snprintf(proof, sizeof proof, ", proof %llu nodes", proof_nodes);
    snprintf(g->comment, sizeof g->comment,
             "%s; rules %s; position %.600s (%s to move); result %s for %s%s%s%s; %s: %d moves after the position",
             rj_version(), ruleset_name(rs), pos[0] ? pos : "empty board", color_name(b->to_move), result_name(res),
             color_name(attacker), best == POINT_NONE ? "" : ", best ",
             best == POINT_NONE ? "" : notation_point_str(best, bs), proof, what, g->nmoves - before);
    if (res == RESULT_PROVEN)
        snprintf(g->result, sizeof g->result, "%s+", attacker == BLACK ? "B" : "W");
    g->note_at = before;
    if (before > 0)
        snprintf(g->note, sizeof g->note, "The position (%s to move); %s follows.", color_name(b->to_move), what);
    g->rules = ruleset_name(rs);
    char app[80];
    snprintf(app, sizeof app, "%s", rj_version());
    char *sp = strchr(app, ' '); /* "renju 0.1.0" -> AP[renju:0.1.0] */
    if (sp)
        *sp = ':';
    g->application = app;
    size_t len = 0, cap = 4096;
    for (;;) {
        free(buf);
        buf = malloc(cap);
        if (!buf) {
            rc = cli_error(EXIT_SOFTWARE, "out of memory");
            goto out;
        }
        if (sgf_write(g, buf, cap, &len) == 0)
            break;
        cap = len + 1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        rc = cli_error(EXIT_IOERR, "cannot write '%s': %s", path, strerror(errno));
        goto out;
    }
    bool ok = fwrite(buf, 1, len, f) == len;
    ok &= fclose(f) == 0;
    if (!ok)
        rc = cli_error(EXIT_IOERR, "cannot write '%s': %s", path, strerror(errno));
out:
    free(buf);
    free(g);
    return rc;
}
