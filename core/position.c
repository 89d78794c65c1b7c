/* position.c - see position.h. */
#include "position.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "notation.h"
#include "openings.h"
#include "rules.h"

/* Play moves[0..n) on b, checking each for legality. */
static int play_checked(Board *b, const Point *moves, int n, RuleSet rs, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        char pt[8];
        Point p = moves[i];
        Color winner;
        if (rules_game_over(b, rs, &winner)) {
            snprintf(err, errlen, "move %d '%s' comes after the game is over", i + 1, notation_point_str(p, pt));
            return RJ_EBADPOS;
        }
        if (p != POINT_PASS && board_at(b, p) != EMPTY) {
            snprintf(err, errlen, "move %d '%s' is on an occupied point", i + 1, notation_point_str(p, pt));
            return RJ_EBADPOS;
        }
        if (b->ply >= MAX_PLY - 1) {
            snprintf(err, errlen, "too many moves");
            return RJ_EBADPOS;
        }
        if (!rules_is_legal(b, p, rs)) {
            snprintf(err, errlen, "move %d '%s' is forbidden for black", i + 1, notation_point_str(p, pt));
            return RJ_EBADPOS;
        }
        board_play(b, p);
    }
    return 0;
}

/* Parse "B:e13,c12 W:o15" into b.  s starts at the first colour tag. */
static int parse_stones(const char *s, RuleSet rs, Color to_move, Board *b, char *err, size_t errlen)
{
    const char *q = s;
    while (*q) {
        while (*q == ' ' || *q == '\t' || *q == ';')
            q++;
        if (!*q)
            break;
        Color c;
        char tag = (char)toupper((unsigned char)q[0]);
        if ((tag != 'B' && tag != 'W') || q[1] != ':') {
            snprintf(err, errlen, "bad stone-set token '%.20s' (expected B:... W:...)", q);
            return RJ_EBADPOS;
        }
        c = tag == 'B' ? BLACK : WHITE;
        q += 2;
        /* Points up to the next colour tag. */
        char buf[1024];
        size_t n = 0;
        while (*q && !((toupper((unsigned char)q[0]) == 'B' || toupper((unsigned char)q[0]) == 'W') && q[1] == ':')) {
            if (n + 1 < sizeof buf)
                buf[n++] = *q;
            q++;
        }
        buf[n] = 0;
        Point pts[BOARD_POINTS];
        char e2[128];
        int k = notation_parse_moves(buf, pts, BOARD_POINTS, e2, sizeof e2);
        if (k < 0) {
            snprintf(err, errlen, "%s", e2);
            return RJ_EBADPOS;
        }
        for (int i = 0; i < k; i++) {
            char pt[8];
            if (pts[i] == POINT_PASS) {
                snprintf(err, errlen, "bad stone 'pass' in a stone set");
                return RJ_EBADPOS;
            }
            if (board_at(b, pts[i]) != EMPTY) {
                snprintf(err, errlen, "two stones on point '%s'", notation_point_str(pts[i], pt));
                return RJ_EBADPOS;
            }
            board_setup_stone(b, pts[i], c);
        }
    }
    int nb = b->stones[0], nw = b->stones[1];
    if (to_move == EMPTY) {
        if (nb == nw)
            to_move = BLACK;
        else if (nb == nw + 1)
            to_move = WHITE;
        else {
            snprintf(err, errlen, "impossible stone counts (black %d, white %d): give --to-move", nb, nw);
            return RJ_EBADPOS;
        }
    }
    board_set_to_move(b, to_move);
    /* A stone set must not contain a finished game, nor (renju) a black stone
     * on a point that is forbidden with the other black stones around it. */
    for (int p = 0; p < BOARD_POINTS; p++) {
        Color c = board_at(b, (Point)p);
        if (c == EMPTY)
            continue;
        char pt[8];
        Board t = *b;
        /* Lift the stone and ask whether putting it back wins or is forbidden. */
        t.cell[p] = EMPTY;
        for (int d = 0; d < NUM_DIRS; d++)
            t.line[c - 1][d][board_line_index((Point)p, d)] &= (uint16_t)~(1u << board_line_pos((Point)p, d));
        t.stones[c - 1]--;
        if (rules_makes_five(&t, (Point)p, c, rs)) {
            snprintf(err, errlen, "the game is already won (five through '%s')", notation_point_str((Point)p, pt));
            return RJ_EBADPOS;
        }
        /* A black overline can only come from a forbidden move (the order of
         * the other stones is unknown, so that is all a stone set can show). */
        if (rs == RULE_RENJU && c == BLACK && rules_forbidden(&t, (Point)p) == FORBID_OVERLINE) {
            snprintf(err, errlen, "black overline through '%s' (forbidden when played)", notation_point_str((Point)p, pt));
            return RJ_EBADPOS;
        }
    }
    if (to_move == BLACK) {
        /* Nothing more: which black stone came last is unknown. */
    }
    return 0;
}

int position_parse(const char *s, RuleSet rs, Color to_move, Board *b, char *err, size_t errlen)
{
    board_init(b);
    while (*s == ' ')
        s++;
    if ((toupper((unsigned char)s[0]) == 'B' || toupper((unsigned char)s[0]) == 'W') && s[1] == ':')
        return parse_stones(s, rs, to_move, b, err, errlen);

    Point moves[MAX_PLY];
    int n = 0;
    /* An opening name first? Try the first word (and two words, for glosses). */
    const char *rest = s;
    char word[64];
    for (int words = 2; words >= 1; words--) {
        const char *q = s;
        size_t len = 0;
        int w = 0;
        while (*q && w < words) {
            while (*q == ' ')
                q++;
            const char *st = q;
            while (*q && *q != ' ' && *q != ',')
                q++;
            if (q == st)
                break;
            if (len + (size_t)(q - st) + 2 >= sizeof word)
                break;
            if (w)
                word[len++] = ' ';
            memcpy(word + len, st, (size_t)(q - st));
            len += (size_t)(q - st);
            w++;
        }
        word[len] = 0;
        if (w != words)
            continue;
        const Opening *o = opening_find(word);
        if (o) {
            memcpy(moves, o->moves, sizeof o->moves);
            n = 3;
            rest = q;
            break;
        }
    }
    char e2[128];
    int k = notation_parse_moves(rest, moves + n, MAX_PLY - 1 - n, e2, sizeof e2);
    if (k < 0) {
        if (n == 0 && strspn(rest, "abcdefghijklmnoABCDEFGHIJKLMNO0123456789 ,;-") < strlen(rest)) {
            int tl = 0;
            while (rest[tl] == ' ')
                rest++;
            while (rest[tl] && rest[tl] != ' ' && tl < 40)
                tl++;
            snprintf(err, errlen, "unknown opening or bad move '%.*s'", tl, rest);
        } else {
            snprintf(err, errlen, "%s", e2);
        }
        return RJ_EBADPOS;
    }
    n += k;
    if (n == 0) {
        snprintf(err, errlen, "empty position");
        return RJ_EBADPOS;
    }
    int rc = play_checked(b, moves, n, rs, err, errlen);
    if (rc)
        return rc;
    if (to_move != EMPTY && to_move != b->to_move) {
        snprintf(err, errlen, "--to-move contradicts the move sequence");
        return RJ_EBADPOS;
    }
    return 0;
}

char *position_str(const Board *b, char *buf, size_t len)
{
    int passes = 0;
    for (int i = 0; i < b->ply; i++)
        passes += b->hist[i] == POINT_PASS;
    if (b->ply > 0 && board_stone_count(b) == b->ply - passes)
        return notation_moves_str(b->hist, b->ply, buf, len);
    size_t at = 0;
    buf[0] = 0;
    for (int c = BLACK; c <= WHITE; c++) {
        int w = snprintf(buf + at, len - at, "%s%c:", c == WHITE ? " " : "", c == BLACK ? 'B' : 'W');
        if (w < 0 || (size_t)w >= len - at)
            return buf;
        at += (size_t)w;
        bool first = true;
        for (int p = 0; p < BOARD_POINTS; p++) {
            if (board_at(b, (Point)p) != (Color)c)
                continue;
            char pt[8];
            w = snprintf(buf + at, len - at, "%s%s", first ? "" : ",", notation_point_str((Point)p, pt));
            if (w < 0 || (size_t)w >= len - at)
                return buf;
            at += (size_t)w;
            first = false;
        }
    }
    return buf;
}
