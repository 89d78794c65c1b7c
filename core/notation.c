/* notation.c - see notation.h. */
#include "notation.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "error.h"

static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }
static bool is_alpha(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static int lower(char ch) { return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : (unsigned char)ch; }

bool notation_is_sep(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f' || ch == ',' || ch == ';' ||
           ch == '-';
}

/* Bounded point parser: s has len readable bytes.  *off_board is set when the
 * text has the shape of a point (letter + digits) that is not on the board. */
static int parse_point_n(const char *s, size_t len, Point *p, int *consumed, bool *off_board)
{
    *off_board = false;
    if (len >= 4 && !strncasecmp(s, "pass", 4)) {
        *p = POINT_PASS;
        *consumed = 4;
        return 0;
    }
    if (len < 2 || !is_alpha(s[0]) || !is_digit(s[1]))
        return RJ_EBADPOS;
    int col = lower(s[0]) - 'a';
    size_t n = 1;
    long rank = 0;
    while (n < len && is_digit(s[n])) {
        if (rank < 1000)
            rank = rank * 10 + (s[n] - '0');
        n++;
    }
    if (s[1] == '0' && n > 2)
        return RJ_EBADPOS; /* leading zero: "h08" */
    if (col >= BOARD_SIZE || rank < 1 || rank > BOARD_SIZE) {
        *off_board = true;
        return RJ_EBADPOS;
    }
    *p = point_make(col, (int)rank - 1);
    *consumed = (int)n;
    return 0;
}

int notation_parse_point(const char *s, Point *p, int *consumed)
{
    bool off;
    return parse_point_n(s, strnlen(s, 8), p, consumed, &off);
}

char *notation_point_str(Point p, char *buf)
{
    if (p == POINT_PASS)
        strcpy(buf, "pass");
    else if (p >= BOARD_POINTS)
        strcpy(buf, "none");
    else
        snprintf(buf, 5, "%c%d", 'a' + point_col(p), point_row(p) + 1);
    return buf;
}

/* notation_token() over at most len bytes. */
static char *token_n(const char *s, size_t len, char *out, size_t outlen)
{
    size_t cap = outlen - 1 < 32 ? outlen - 1 : 32, n = 0;
    while (n < len && s[n] && !notation_is_sep(s[n]) && n < cap)
        n++;
    /* Do not cut a UTF-8 character: drop a trailing incomplete sequence. */
    if (n < len && s[n] && !notation_is_sep(s[n]) && ((unsigned char)s[n] & 0xC0) == 0x80)
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        out[i] = (char)(ch < 0x20 || ch == 0x7f ? '?' : ch);
    }
    out[n] = 0;
    return out;
}

char *notation_token(const char *s, char *out, size_t outlen) { return token_n(s, strlen(s), out, outlen); }

int notation_parse_moves_n(const char *s, size_t len, Point *moves, int max, char *err, size_t errlen)
{
    size_t at = 0;
    int n = 0;
    char tok[40];
    len = strnlen(s, len);
    while (at < len) {
        if (notation_is_sep(s[at])) {
            at++;
            continue;
        }
        const char *t = s + at;
        Point p;
        int used;
        bool off;
        if (parse_point_n(t, len - at, &p, &used, &off)) {
            if (err)
                snprintf(err, errlen, off ? "point '%s' is off the board" : "bad point '%s'",
                         token_n(t, len - at, tok, sizeof tok));
            return RJ_EBADPOS;
        }
        at += (size_t)used;
        /* A point ends at a separator, the end, or the next point's letter. */
        if (at < len && !notation_is_sep(s[at]) && !is_alpha(s[at])) {
            if (err)
                snprintf(err, errlen, "bad point '%s'", token_n(t, len - (size_t)(t - s), tok, sizeof tok));
            return RJ_EBADPOS;
        }
        if (n >= max) {
            if (err)
                snprintf(err, errlen, "too many moves at '%s'", token_n(t, len - (size_t)(t - s), tok, sizeof tok));
            return RJ_EBADPOS;
        }
        moves[n++] = p;
    }
    return n;
}

int notation_parse_moves(const char *s, Point *moves, int max, char *err, size_t errlen)
{
    return notation_parse_moves_n(s, strlen(s), moves, max, err, errlen);
}

char *notation_moves_str(const Point *moves, int n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        char pt[8];
        int w = snprintf(buf + at, len - at, "%s%s", i ? " " : "", notation_point_str(moves[i], pt));
        if (w < 0 || (size_t)w >= len - at) {
            buf[at] = 0; /* cut at the last whole move */
            break;
        }
        at += (size_t)w;
    }
    return buf;
}

void notation_to_gomocup(Point p, int *x, int *y)
{
    assert(p < BOARD_POINTS);
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
    assert(p < BOARD_POINTS);
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
