/* notation.c - see notation.h. */
#include "notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

int notation_parse_point(const char *s, Point *p, int *consumed)
{
    if (!strncasecmp(s, "pass", 4)) {
        *p = POINT_PASS;
        *consumed = 4;
        return 0;
    }
    int c = tolower((unsigned char)s[0]) - 'a';
    if (c < 0 || c >= BOARD_SIZE || !isdigit((unsigned char)s[1]))
        return RJ_EBADPOS;
    int r = s[1] - '0', n = 2;
    /* Greedy second digit only while the rank stays on the board (so "h10" is
     * h10 but "a15" in "a1a5"-style run-ons is ambiguous: callers separate). */
    if (isdigit((unsigned char)s[2]) && r * 10 + (s[2] - '0') <= BOARD_SIZE) {
        r = r * 10 + (s[2] - '0');
        n = 3;
    }
    if (r < 1 || r > BOARD_SIZE)
        return RJ_EBADPOS;
    *p = point_make(c, r - 1);
    *consumed = n;
    return 0;
}

char *notation_point_str(Point p, char *buf)
{
    if (p == POINT_PASS)
        strcpy(buf, "pass");
    else if (p >= BOARD_POINTS)
        strcpy(buf, "none");
    else
        sprintf(buf, "%c%d", 'a' + point_col(p), point_row(p) + 1);
    return buf;
}

static bool is_sep(char ch) { return ch == ' ' || ch == ',' || ch == ';' || ch == '-' || ch == '\t' || ch == '\n'; }

int notation_parse_moves(const char *s, Point *moves, int max, char *err, size_t errlen)
{
    int n = 0;
    const char *q = s;
    while (*q) {
        if (is_sep(*q)) {
            q++;
            continue;
        }
        Point p;
        int used;
        if (notation_parse_point(q, &p, &used) || n >= max) {
            if (err) {
                int tl = 0;
                while (q[tl] && !is_sep(q[tl]) && tl < 40)
                    tl++;
                if (n >= max)
                    snprintf(err, errlen, "too many moves at '%.*s'", tl, q);
                else
                    snprintf(err, errlen, "bad move '%.*s'", tl, q);
            }
            return RJ_EBADPOS;
        }
        moves[n++] = p;
        q += used;
        /* A point must be followed by a separator, the end, or the next point's letter. */
        if (*q && !is_sep(*q) && !isalpha((unsigned char)*q)) {
            if (err) {
                int tl = 0;
                while (q[tl] && !is_sep(q[tl]) && tl < 40)
                    tl++;
                snprintf(err, errlen, "bad move '%.*s' (point off the board?)", tl + used, q - used);
            }
            return RJ_EBADPOS;
        }
    }
    return n;
}

char *notation_moves_str(const Point *moves, int n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n && at < len; i++) {
        char pt[8];
        int w = snprintf(buf + at, len - at, "%s%s", i ? " " : "", notation_point_str(moves[i], pt));
        if (w < 0)
            break;
        at += (size_t)w;
    }
    return buf;
}

void notation_to_gomocup(Point p, int *x, int *y)
{
    *x = point_col(p);
    *y = BOARD_SIZE - 1 - point_row(p);
}

int notation_from_gomocup(int x, int y, Point *p)
{
    if (!point_on_board(x, y))
        return RJ_EBADPOS;
    *p = point_make(x, BOARD_SIZE - 1 - y);
    return 0;
}

uint8_t notation_to_renlib(Point p)
{
    int row_from_top = BOARD_SIZE - point_row(p); /* 1..15 */
    return (uint8_t)(16 * (row_from_top - 1) + point_col(p) + 1);
}

int notation_from_renlib(uint8_t byte, Point *p)
{
    int col = byte % 16, rft = byte / 16 + 1;
    if (col < 1 || col > BOARD_SIZE || rft > BOARD_SIZE)
        return RJ_EBADPOS;
    *p = point_make(col - 1, BOARD_SIZE - rft);
    return 0;
}
