/* cli_core.c - `renju openings`, `renju show`, `renju forbidden`. */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "cli.h"
#include "names.h"
#include "notation.h"
#include "openings.h"
#include "position.h"
#include "rules.h"

int cmd_openings(int argc, char **argv)
{
    CliArgs a;
    int rc = cli_parse(argc, argv, &a);
    if (rc)
        return rc;
    if (a.npos > 0)
        return cli_error(EXIT_USAGE, "openings: unexpected argument '%s'", a.pos[0]);
    for (int i = 0; i < NUM_OPENINGS; i++) {
        const Opening *o = opening_get(i);
        char mv[64];
        notation_moves_str(o->moves, 3, mv, sizeof mv);
        if (a.json) {
            printf("{\"code\":");
            cli_json_str(stdout, o->code);
            printf(",\"japanese\":");
            cli_json_str(stdout, o->japanese);
            printf(",\"chinese\":");
            cli_json_str(stdout, o->chinese);
            printf(",\"english\":");
            cli_json_str(stdout, o->english);
            printf(",\"moves\":");
            cli_json_str(stdout, mv);
            printf("}\n");
        } else {
            printf("%-4s %-10s %s  %-16s %s\n", o->code, o->japanese, o->chinese, o->english, mv);
        }
    }
    return EXIT_DONE;
}

static const char *forbid_name(ForbidKind k)
{
    switch (k) {
    case FORBID_OVERLINE: return "overline";
    case FORBID_DOUBLE_FOUR: return "double-four";
    case FORBID_DOUBLE_THREE: return "double-three";
    default: return "none";
    }
}

/* Forbidden kind of every point (FORBID_NONE where empty-and-legal or occupied). */
static void all_forbidden(Board *b, RuleSet rs, ForbidKind *out)
{
    for (int p = 0; p < BOARD_POINTS; p++)
        out[p] = FORBID_NONE;
    if (rs != RULE_RENJU)
        return;
    Point pts[BOARD_POINTS];
    ForbidKind kinds[BOARD_POINTS];
    int n = rules_forbidden_points(b, pts, kinds);
    for (int i = 0; i < n; i++)
        out[pts[i]] = kinds[i];
}

int cmd_show(int argc, char **argv)
{
    CliArgs a;
    Board b;
    int rc = cli_parse(argc, argv, &a);
    if (rc || (rc = cli_position(&a, 0, &b)))
        return rc;
    ForbidKind fk[BOARD_POINTS];
    all_forbidden(&b, a.rules, fk);
    Point last = board_last_move(&b);
    if (a.json) {
        printf("{\"board\":[");
        for (int r = BOARD_SIZE - 1; r >= 0; r--) {
            char row[BOARD_SIZE + 1];
            for (int c = 0; c < BOARD_SIZE; c++) {
                Point p = point_make(c, r);
                Color s = board_at(&b, p);
                row[c] = s == BLACK ? 'X' : s == WHITE ? 'O' : fk[p] ? '#' : '.';
            }
            row[BOARD_SIZE] = 0;
            printf("%s\"%s\"", r == BOARD_SIZE - 1 ? "" : ",", row);
        }
        char text[POSITION_STR_LEN];
        printf("],\"position\":");
        cli_json_str(stdout, position_str(&b, text, sizeof text));
        printf(",\"to_move\":\"%s\",\"forbidden\":[", color_name(b.to_move));
        bool first = true;
        for (int p = 0; p < BOARD_POINTS; p++)
            if (fk[p]) {
                char pt[8];
                printf("%s{\"point\":\"%s\",\"kind\":\"%s\"}", first ? "" : ",", notation_point_str((Point)p, pt),
                       forbid_name(fk[p]));
                first = false;
            }
        printf("]}\n");
        return EXIT_DONE;
    }
    printf("   ");
    for (int c = 0; c < BOARD_SIZE; c++)
        printf(" %c", 'a' + c);
    printf("\n");
    for (int r = BOARD_SIZE - 1; r >= 0; r--) {
        printf("%2d ", r + 1);
        for (int c = 0; c < BOARD_SIZE; c++) {
            Point p = point_make(c, r);
            Color s = board_at(&b, p);
            char ch = s == BLACK ? 'X' : s == WHITE ? 'O' : fk[p] ? '#' : '.';
            if (p == last && s != EMPTY)
                ch = s == BLACK ? 'x' : 'o';
            printf(" %c", ch);
        }
        printf(" %2d\n", r + 1);
    }
    printf("   ");
    for (int c = 0; c < BOARD_SIZE; c++)
        printf(" %c", 'a' + c);
    printf("\nX black  O white  (x/o last move)  # forbidden for black.  %s to move.\n",
           b.to_move == BLACK ? "Black" : "White");
    return EXIT_DONE;
}

int cmd_forbidden(int argc, char **argv)
{
    CliArgs a;
    Board b;
    int rc = cli_parse(argc, argv, &a);
    if (rc || (rc = cli_position(&a, 0, &b)))
        return rc;
    ForbidKind fk[BOARD_POINTS];
    all_forbidden(&b, a.rules, fk);
    int n = 0;
    if (a.json)
        printf("{\"forbidden\":[");
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (!fk[p])
            continue;
        char pt[8];
        if (a.json)
            printf("%s{\"point\":\"%s\",\"kind\":\"%s\"}", n ? "," : "", notation_point_str((Point)p, pt),
                   forbid_name(fk[p]));
        else
            printf("%s %s\n", notation_point_str((Point)p, pt), forbid_name(fk[p]));
        n++;
    }
    if (a.json)
        printf("],\"count\":%d}\n", n);
    else if (!n)
        printf("no forbidden points\n");
    return EXIT_DONE;
}
