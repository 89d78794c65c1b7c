/* position.c - see position.h. */
#include "position.h"

#include <stdio.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "openings.h"
#include "rules.h"
#include "zobrist.h"

static bool is_alpha(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }
static bool is_tag(const char *q) { return (*q == 'B' || *q == 'b' || *q == 'W' || *q == 'w') && q[1] == ':'; }

static const char *skip_seps(const char *q)
{
    while (*q && notation_is_sep(*q))
        q++;
    return q;
}

/* End of the word starting at q (a word ends at a separator). */
static const char *word_end(const char *q)
{
    while (*q && !notation_is_sep(*q))
        q++;
    return q;
}

/* The game result after the moves so far, as text for messages. */
static const char *over_text(Color winner)
{
    return winner == BLACK ? "black won" : winner == WHITE ? "white won" : "drawn";
}

/* Play moves[0..n) on b, checking each for legality; the game must not be over at the end. */
static int play_checked(Board *b, const Point *moves, int n, RuleSet rs, char *err, size_t errlen)
{
    char pt[8];
    Color winner;
    for (int i = 0; i < n; i++) {
        Point p = moves[i];
        if (rules_game_over(b, rs, &winner)) {
            snprintf(err, errlen, "move %d '%s' comes after the game is over (%s)", i + 1, notation_point_str(p, pt),
                     over_text(winner));
            return RJ_EBADPOS;
        }
        if (p != POINT_PASS && board_at(b, p) != EMPTY) {
            snprintf(err, errlen, "move %d '%s' is on an occupied point (two stones on one point)", i + 1,
                     notation_point_str(p, pt));
            return RJ_EBADPOS;
        }
        if (b->ply >= MAX_PLY - 1) {
            snprintf(err, errlen, "too many moves at move %d '%s'", i + 1, notation_point_str(p, pt));
            return RJ_EBADPOS;
        }
        if (!rules_is_legal(b, p, rs)) {
            ForbidKind k = rules_forbidden(b, p);
            snprintf(err, errlen, "move %d '%s' is forbidden for black (%s)", i + 1, notation_point_str(p, pt),
                     k == FORBID_OVERLINE      ? "overline"
                     : k == FORBID_DOUBLE_FOUR ? "double-four"
                                               : "double-three");
            return RJ_EBADPOS;
        }
        board_play(b, p);
    }
    if (n > 0 && rules_game_over(b, rs, &winner)) {
        snprintf(err, errlen, "the game is already over after move %d '%s' (%s)", n,
                 notation_point_str(moves[n - 1], pt), over_text(winner));
        return RJ_EBADPOS;
    }
    return 0;
}

static int check_setup(Board *b, RuleSet rs, Color to_move, char *err, size_t errlen);

/* Parse "B:e13,c12 W:o15" into b.  s starts at the first colour tag. */
static int parse_stones(const char *s, RuleSet rs, Color to_move, Board *b, char *err, size_t errlen)
{
    const char *q = s;
    char pt[8], tok[40];
    for (;;) {
        q = skip_seps(q);
        if (!*q)
            break;
        if (!is_tag(q)) {
            snprintf(err, errlen, "bad stone-set token '%s' (expected B:points W:points)",
                     notation_token(q, tok, sizeof tok));
            return RJ_EBADPOS;
        }
        Color c = (*q == 'B' || *q == 'b') ? BLACK : WHITE;
        q += 2;
        const char *end = q;
        while (*end && !is_tag(end))
            end++;
        Point pts[BOARD_POINTS];
        int k = notation_parse_moves_n(q, (size_t)(end - q), pts, BOARD_POINTS, err, errlen);
        if (k < 0)
            return RJ_EBADPOS;
        for (int i = 0; i < k; i++) {
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
        q = end;
    }
    return check_setup(b, rs, to_move, err, errlen);
}

/* Side to move and sanity of the setup stones on b (a stone set): counts, no five, no black overline. */
static int check_setup(Board *b, RuleSet rs, Color to_move, char *err, size_t errlen)
{
    char pt[8];
    int nb = b->stones[0], nw = b->stones[1];
    if (to_move == EMPTY) {
        if (nb == nw)
            to_move = BLACK;
        else if (nb == nw + 1)
            to_move = WHITE;
        else {
            snprintf(err, errlen, "impossible stone counts (black %d, white %d) without --to-move", nb, nw);
            return RJ_EBADPOS;
        }
    }
    board_set_to_move(b, to_move);
    if (board_stone_count(b) == BOARD_POINTS) {
        snprintf(err, errlen, "the game is already over (the board is full)");
        return RJ_EBADPOS;
    }
    /* No five may stand on the board: lift each stone and ask whether putting it back makes one. */
    for (int p = 0; p < BOARD_POINTS; p++) {
        Color c = board_at(b, (Point)p);
        if (c == EMPTY)
            continue;
        Board t = *b;
        board_lift_stone(&t, (Point)p);
        if (rules_makes_five(&t, (Point)p, c, rs)) {
            snprintf(err, errlen, "the game is already over (%s five through '%s')", color_name(c),
                     notation_point_str((Point)p, pt));
            return RJ_EBADPOS;
        }
        /* A black overline can only come from a forbidden move (the order of
         * the other stones is unknown, so that is all a stone set can show). */
        if (rs == RULE_RENJU && c == BLACK && rules_forbidden(&t, (Point)p) == FORBID_OVERLINE) {
            snprintf(err, errlen, "black overline through '%s' (forbidden when played)",
                     notation_point_str((Point)p, pt));
            return RJ_EBADPOS;
        }
    }
    return 0;
}

/* Does the word [q, e) contain a digit? */
static bool has_digit(const char *q, const char *e)
{
    for (; q < e; q++)
        if (is_digit(*q))
            return true;
    return false;
}

/*
 * Find an opening at the start of s.  On success returns it and sets *rest to
 * the text after the name.
 */
static const Opening *find_opening(const char *s, const char **rest)
{
    char word[80];
    const Opening *o;
    /* A code d1..d13 / i1..i13, possibly run on into moves ("d4j10"). */
    if ((*s == 'd' || *s == 'D' || *s == 'i' || *s == 'I') && is_digit(s[1]) && s[1] != '0') {
        int n = 1, v = 0;
        while (is_digit(s[n]) && n < 4)
            v = v * 10 + (s[n++] - '0');
        if (v >= 1 && v <= 13 && !is_digit(s[n])) {
            snprintf(word, sizeof word, "%c%d", *s, v);
            if ((o = opening_find(word))) {
                *rest = s + n;
                return o;
            }
        }
    }
    /* A name in non-ASCII characters, possibly run on into moves ("花月j10"). */
    if ((unsigned char)*s >= 0x80) {
        size_t n = 0;
        while ((unsigned char)s[n] >= 0x80)
            n++;
        if (n < sizeof word) {
            memcpy(word, s, n);
            word[n] = 0;
            if ((o = opening_find(word))) {
                *rest = s + n;
                return o;
            }
        }
    }
    /* Two words without digits ("Flower Moon", "cold-star"), then one word. */
    const char *e1 = word_end(s), *s2 = skip_seps(e1), *e2 = word_end(s2);
    size_t l1 = (size_t)(e1 - s), l2 = (size_t)(e2 - s2);
    if (l2 > 0 && !has_digit(s, e1) && !has_digit(s2, e2) && l1 + l2 + 2 <= sizeof word) {
        snprintf(word, sizeof word, "%.*s %.*s", (int)l1, s, (int)l2, s2);
        if ((o = opening_find(word))) {
            *rest = e2;
            return o;
        }
    }
    if (l1 < sizeof word) {
        snprintf(word, sizeof word, "%.*s", (int)l1, s);
        if ((o = opening_find(word))) {
            *rest = e1;
            return o;
        }
    }
    return NULL;
}

/* Does the word [q, e) look like a name rather than moves (two letters in a row, or non-ASCII)? */
static bool looks_like_name(const char *q, const char *e)
{
    for (; q < e; q++)
        if ((unsigned char)*q >= 0x80 || (q + 1 < e && is_alpha(q[0]) && is_alpha(q[1])))
            return true;
    return false;
}

int position_parse(const char *s, RuleSet rs, Color to_move, Board *b, char *err, size_t errlen)
{
    char local[8];
    if (!err) {
        err = local;
        errlen = sizeof local;
    }
    err[0] = 0;
    board_init(b);
    s = skip_seps(s);
    if (!*s) {
        snprintf(err, errlen, "empty position");
        return RJ_EBADPOS;
    }
    if (is_tag(s))
        return parse_stones(s, rs, to_move, b, err, errlen);

    Point moves[MAX_PLY];
    int n = 0;
    const char *rest = s;
    const Opening *o = find_opening(s, &rest);
    /* "d4" is both opening D4 and the point d4.  A lower-case code followed by
     * more moves is read as a move list when it plays as one ("d4 e5 f6");
     * an upper-case code ("D4 j10"), or a code alone ("d4"), is the opening. */
    if (o && (s[0] == 'd' || s[0] == 'i') && *skip_seps(rest)) {
        Point mv[MAX_PLY];
        int k = notation_parse_moves(s, mv, MAX_PLY - 1, NULL, 0);
        if (k > 0) {
            char e2[8];
            Board t;
            board_init(&t);
            if (play_checked(&t, mv, k, rs, e2, sizeof e2) == 0) {
                o = NULL;
                rest = s;
            }
        }
    }
    if (o) {
        memcpy(moves, o->moves, sizeof o->moves);
        n = 3;
    }
    int k = notation_parse_moves(rest, moves + n, MAX_PLY - 1 - n, err, errlen);
    if (k < 0) {
        const char *e = word_end(s);
        Point tmp[8];
        char tok[40];
        if (!o && notation_parse_moves_n(s, (size_t)(e - s), tmp, 8, NULL, 0) < 0 && looks_like_name(s, e))
            snprintf(err, errlen, "unknown opening or bad move '%s'", notation_token(s, tok, sizeof tok));
        return RJ_EBADPOS;
    }
    n += k;
    int rc = play_checked(b, moves, n, rs, err, errlen);
    if (rc)
        return rc;
    if (to_move != EMPTY && to_move != b->to_move) {
        snprintf(err, errlen, "--to-move %s contradicts the move sequence (%s is to move after %d moves)",
                 color_name(to_move), color_name(b->to_move), b->ply);
        return RJ_EBADPOS;
    }
    return 0;
}

int position_from_record(const Point *black, int nb, const Point *white, int nw, Color first, const Point *moves, int n,
                         RuleSet rs, Color to_move, Board *b, char *err, size_t errlen)
{
    char local[8], pt[8];
    if (!err) {
        err = local;
        errlen = sizeof local;
    }
    err[0] = 0;
    board_init(b);
    for (int c = 0; c < 2; c++) {
        const Point *pts = c == 0 ? black : white;
        for (int i = 0; i < (c == 0 ? nb : nw); i++) {
            if (pts[i] >= BOARD_POINTS) {
                snprintf(err, errlen, "bad setup stone (not a point on the board)");
                return RJ_EBADPOS;
            }
            if (board_at(b, pts[i]) != EMPTY) {
                snprintf(err, errlen, "two stones on point '%s'", notation_point_str(pts[i], pt));
                return RJ_EBADPOS;
            }
            board_setup_stone(b, pts[i], c == 0 ? BLACK : WHITE);
        }
    }
    if (nb + nw > 0) {
        int rc = check_setup(b, rs, first, err, errlen);
        if (rc)
            return rc;
    } else if (first == WHITE) {
        snprintf(err, errlen, "white cannot move first on an empty board");
        return RJ_EBADPOS;
    }
    if (n < 0 || n > MAX_PLY - 1) {
        snprintf(err, errlen, "too many moves (%d)", n);
        return RJ_EBADPOS;
    }
    int rc = play_checked(b, moves, n, rs, err, errlen);
    if (rc)
        return rc;
    if (to_move != EMPTY && to_move != b->to_move) {
        snprintf(err, errlen, "--to-move %s contradicts the game record (%s is to move after it)", color_name(to_move),
                 color_name(b->to_move));
        return RJ_EBADPOS;
    }
    return 0;
}

char *position_str(const Board *b, char *buf, size_t len)
{
    int passes = 0;
    for (int i = 0; i < b->ply; i++)
        passes += b->hist[i] == POINT_PASS;
    /* A single move on d1..d13 / i1..i13 would read back as an opening code. */
    bool code_alike = b->ply == 1 && b->hist[0] != POINT_PASS &&
                      (point_col(b->hist[0]) == 3 || point_col(b->hist[0]) == 8) && point_row(b->hist[0]) < 13;
    if (b->ply > 0 && board_stone_count(b) == b->ply - passes && !code_alike)
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
            if (w < 0 || (size_t)w >= len - at) {
                buf[at] = 0;
                return buf;
            }
            at += (size_t)w;
            first = false;
        }
    }
    return buf;
}
