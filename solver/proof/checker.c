/*
 * checker.c - proof_check() of proof.h: the independent proof checker.
 *
 * It replays every branch of a serialized proof on a copy of the root board
 * and asks only the rules module (core/rules.h) about legality and wins.  It
 * shares no code with the search, nor with the framing walker of proof.c, so
 * a bug in either cannot hide a bug in the other.
 *
 * Omitted defender moves ("short losses") are confirmed here:
 *   (a) after the move the attacker has a point that wins at once;
 *   (b) the attacker has a legal stone that leaves it two or more distinct
 *       winning points while the defender, to move, has none.
 * Two facts keep this cheap, both because a defender stone only takes an
 * empty point away from the attacker and never adds or removes an attacker
 * stone: the attacker's winning points after a defender move D are among
 * those before D; and when (a) fails, every winning point after an attacker
 * stone M lies on one of the four lines through M within 4 points of it.
 * Each candidate found this way is still confirmed with rules_makes_five on
 * the actual board.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "notation.h"
#include "proof.h"
#include "rules.h"

typedef struct {
    const uint8_t *buf;
    size_t len, pos;
    RuleSet rs;
    Color att, def;
    int root_ply;
    Board b;
    ProofStats st;
    char *why;
    size_t whylen;
} Checker;

/* Record why the proof fails, prefixed by the line of play from the root. */
static int fail(Checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(Checker *c, const char *fmt, ...)
{
    if (!c->why || !c->whylen)
        return RJ_EBADDATA;
    size_t n = 0;
    int k = snprintf(c->why, c->whylen, "at [");
    n = k > 0 ? (size_t)k : 0;
    for (int i = c->root_ply; i < c->b.ply && n < c->whylen; i++) {
        char pt[8];
        k = snprintf(c->why + n, c->whylen - n, "%s%s", i > c->root_ply ? " " : "",
                     notation_point_str(c->b.hist[i], pt));
        n += k > 0 ? (size_t)k : 0;
    }
    if (n < c->whylen) {
        k = snprintf(c->why + n, c->whylen - n, "]: ");
        n += k > 0 ? (size_t)k : 0;
    }
    if (n < c->whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why + n, c->whylen - n, fmt, ap);
        va_end(ap);
    }
    return RJ_EBADDATA;
}

static const char *pstr(Point p, char *buf) { return notation_point_str(p, buf); }

/* Is the game drawn after the last move (two passes in a row, full board)? */
static bool drawn(const Board *b) { return board_two_passes(b) || board_stone_count(b) == BOARD_POINTS; }

/* Read a move byte and check that it names a point or a pass. */
static int read_move(Checker *c, Point *m)
{
    if (c->pos >= c->len)
        return fail(c, "proof truncated (move expected)");
    Point p = c->buf[c->pos++];
    if (p != POINT_PASS && p >= BOARD_POINTS)
        return fail(c, "bad move byte %u", (unsigned)p);
    if (c->b.ply >= MAX_PLY - 1)
        return fail(c, "proof deeper than %d plies", MAX_PLY);
    *m = p;
    return 0;
}

static int check_d(Checker *c, uint32_t *depth);

/* A-node: the attacker moves. */
static int check_a(Checker *c, uint32_t *depth)
{
    char pt[8];
    Point m;
    int rc = read_move(c, &m);
    if (rc)
        return rc;
    if (!rules_is_legal(&c->b, m, c->rs))
        return fail(c, "attacker move %s is illegal", pstr(m, pt));
    c->st.nodes++;
    if (m != POINT_PASS && rules_makes_five(&c->b, m, c->att, c->rs)) {
        c->st.leaves++;
        *depth = 1;
        return 0;
    }
    board_play(&c->b, m);
    if (drawn(&c->b)) {
        rc = fail(c, "attacker move %s ends the game in a draw", pstr(m, pt));
    } else {
        uint32_t d = 0;
        rc = check_d(c, &d);
        *depth = d + 1;
    }
    board_undo(&c->b);
    return rc;
}

/*
 * With the defender's stone (or pass) just played: does the attacker, to move,
 * win at once?  five[] holds the attacker's winning points before that move.
 */
static bool short_loss_a(Checker *c, const Point *five, int nfive)
{
    for (int i = 0; i < nfive; i++)
        if (board_at(&c->b, five[i]) == EMPTY && rules_makes_five(&c->b, five[i], c->att, c->rs))
            return true;
    return false;
}

/* Distinct winning points of the attacker on the lines through m (m played). */
static int fives_through(Checker *c, Point m)
{
    int n = 0;
    for (int d = 0; d < NUM_DIRS; d++)
        for (int s = -4; s <= 4; s++) {
            int col = point_col(m) + s * DIR_DC[d], row = point_row(m) + s * DIR_DR[d];
            if (s == 0 || !point_on_board(col, row))
                continue;
            Point q = point_make(col, row);
            if (board_at(&c->b, q) == EMPTY && rules_makes_five(&c->b, q, c->att, c->rs)) {
                n++; /* a point lies on one line through m only: no double count */
                if (n >= 2)
                    return n;
            }
        }
    return n;
}

/*
 * Rule (b)'s candidates, measured once per D-node before any defender move:
 * the attacker's winning points on the lines through each candidate stone
 * (at most 3 kept).  A defender stone only removes an
 * empty point, never an attacker stone, so the winning points after the
 * defender's move m and then the candidate are among these minus m: a
 * candidate without two of them left is skipped, and every other one is still
 * confirmed on the actual board by short_loss_b.  The filter changes no
 * verdict, only the work.
 */
typedef struct {
    uint8_t nwin; /* winning points through the candidate, capped at 3 */
    Point win[3];
} CandWins;

static void cand_wins(Checker *c, const Point *cand, const uint8_t *dirs, int ncand, CandWins *cw)
{
    board_play(&c->b, POINT_PASS); /* the defender's turn: the candidates are attacker stones */
    for (int i = 0; i < ncand; i++) {
        Point m = cand[i];
        int n = 0;
        board_play(&c->b, m);
        for (int d = 0; d < NUM_DIRS && n < 3; d++)
            for (int s = -4; s <= 4 && n < 3 && (dirs[i] >> d & 1); s++) {
                int col = point_col(m) + s * DIR_DC[d], row = point_row(m) + s * DIR_DR[d];
                if (s == 0 || !point_on_board(col, row))
                    continue;
                Point q = point_make(col, row);
                if (board_at(&c->b, q) == EMPTY && rules_makes_five(&c->b, q, c->att, c->rs))
                    cw[i].win[n++] = q;
            }
        board_undo(&c->b);
        cw[i].nwin = (uint8_t)n;
    }
    board_undo(&c->b);
}

/* Can candidate i, after the defender's move dm, still leave two winning points? */
static bool cand_may_win(const CandWins *cw, Point dm)
{
    return cw->nwin >= 3 || (cw->nwin == 2 && cw->win[0] != dm && cw->win[1] != dm);
}

/*
 * With candidate m just played: two distinct winning points of the attacker on
 * the lines through m, confirmed on the board (the kept ones first, then all).
 */
static bool two_wins_through(Checker *c, Point m, const CandWins *cw)
{
    int n = 0;
    for (int j = 0; j < cw->nwin && n < 2; j++)
        if (board_at(&c->b, cw->win[j]) == EMPTY && rules_makes_five(&c->b, cw->win[j], c->att, c->rs))
            n++;
    return n >= 2 || fives_through(c, m) >= 2;
}

/*
 * Rule (b), the attacker to move after the defender's move dm and (a) failed:
 * a legal attacker stone among cand[] leaving two winning points while the
 * defender has no winning point.
 */
static bool short_loss_b(Checker *c, const Point *cand, const CandWins *cw, int ncand, Point dm)
{
    Point tmp[BOARD_POINTS];
    for (int i = 0; i < ncand; i++) {
        Point m = cand[i];
        if (board_at(&c->b, m) != EMPTY || !cand_may_win(&cw[i], dm))
            continue;
        board_play(&c->b, m);
        bool ok = !drawn(&c->b) && two_wins_through(c, m, &cw[i]) && rules_five_points(&c->b, c->def, c->rs, tmp) == 0;
        board_undo(&c->b);
        if (ok && rules_is_legal(&c->b, m, c->rs))
            return true;
    }
    return false;
}

/*
 * Attacker stones that might make two winning points: 3+ attacker stones
 * within 4 points along some line through the point (a necessary condition
 * that a defender stone cannot create).  dirs[i] has bit d set for each such
 * line of cand i: a winning point on the line through the stone in direction
 * d needs four attacker stones besides it within 4 points, the stone included.
 */
static int candidates(const Checker *c, Point *out, uint8_t *dirs)
{
    int n = 0;
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (board_at(&c->b, (Point)p) != EMPTY)
            continue;
        unsigned mask = 0;
        for (int d = 0; d < NUM_DIRS; d++) {
            int k = 0;
            for (int s = -4; s <= 4; s++) {
                int col = point_col((Point)p) + s * DIR_DC[d], row = point_row((Point)p) + s * DIR_DR[d];
                if (s && point_on_board(col, row) && board_at(&c->b, point_make(col, row)) == c->att)
                    k++;
            }
            if (k >= 3)
                mask |= 1u << d;
        }
        if (mask) {
            dirs[n] = (uint8_t)mask;
            out[n++] = (Point)p;
        }
    }
    return n;
}

/* D-node: the defender moves; every legal move is listed or a short loss. */
static int check_d(Checker *c, uint32_t *depth)
{
    char pt[8];
    if (c->pos + 2 > c->len)
        return fail(c, "proof truncated (defender move count expected)");
    unsigned n = (unsigned)c->buf[c->pos] | (unsigned)c->buf[c->pos + 1] << 8;
    c->pos += 2;
    if (n > BOARD_POINTS + 1)
        return fail(c, "defender move count %u too large", n);
    c->st.nodes++;
    bool listed[BOARD_POINTS + 1];
    memset(listed, 0, sizeof listed);
    uint32_t best = 0;
    for (unsigned i = 0; i < n; i++) {
        Point m;
        int rc = read_move(c, &m);
        if (rc)
            return rc;
        int idx = m == POINT_PASS ? BOARD_POINTS : m;
        if (listed[idx])
            return fail(c, "defender move %s listed twice", pstr(m, pt));
        listed[idx] = true;
        if (!rules_is_legal(&c->b, m, c->rs))
            return fail(c, "defender move %s is illegal", pstr(m, pt));
        if (m != POINT_PASS && rules_makes_five(&c->b, m, c->def, c->rs))
            return fail(c, "defender move %s wins for the defender", pstr(m, pt));
        board_play(&c->b, m);
        uint32_t d = 0;
        rc = drawn(&c->b) ? fail(c, "defender move %s ends the game in a draw", pstr(m, pt)) : check_a(c, &d);
        board_undo(&c->b);
        if (rc)
            return rc;
        if (d + 1 > best)
            best = d + 1;
    }
    *depth = best;

    /* Every other legal defender move must be a short loss. */
    Point five[BOARD_POINTS], cand[BOARD_POINTS];
    CandWins cw[BOARD_POINTS];
    uint8_t dirs[BOARD_POINTS];
    int nfive = rules_five_points(&c->b, c->att, c->rs, five);
    uint64_t def_five[4] = {0, 0, 0, 0};                     /* the defender's winning points, a bit each */
    int ndf = rules_five_points(&c->b, c->def, c->rs, cand); /* cand[] is free until the candidates */
    for (int i = 0; i < ndf; i++)
        def_five[cand[i] >> 6] |= UINT64_C(1) << (cand[i] & 63);
    int ncand = -1; /* computed on first need */
    for (int idx = 0; idx <= BOARD_POINTS; idx++) {
        if (listed[idx])
            continue;
        Point m = idx == BOARD_POINTS ? POINT_PASS : (Point)idx;
        if (m != POINT_PASS && board_at(&c->b, m) != EMPTY)
            continue;
        if (!rules_is_legal(&c->b, m, c->rs))
            continue;
        if (m != POINT_PASS && (def_five[m >> 6] >> (m & 63) & 1))
            return fail(c, "defender move %s wins for the defender and is not refuted", pstr(m, pt));
        board_play(&c->b, m);
        bool ok = false;
        if (drawn(&c->b)) {
            board_undo(&c->b);
            return fail(c, "defender move %s ends the game in a draw", pstr(m, pt));
        }
        if (short_loss_a(c, five, nfive)) {
            ok = true;
        } else {
            if (ncand < 0) {
                board_undo(&c->b);
                ncand = candidates(c, cand, dirs);
                cand_wins(c, cand, dirs, ncand, cw);
                board_play(&c->b, m);
            }
            ok = short_loss_b(c, cand, cw, ncand, m);
        }
        board_undo(&c->b);
        if (!ok)
            return fail(c, "defender move %s is neither listed nor a short loss", pstr(m, pt));
        c->st.implied++;
    }
    return 0;
}

int proof_check(const Board *b, const uint8_t *buf, size_t len, ProofStats *st, char *why, size_t whylen)
{
    Checker c;
    memset(&c, 0, sizeof c);
    c.buf = buf;
    c.len = len;
    c.why = why;
    c.whylen = whylen;
    c.b = *b;
    c.root_ply = b->ply;
    if (why && whylen)
        why[0] = 0;
    if (!buf || len < PROOF_HEADER_LEN || memcmp(buf, "RJPF", 4))
        return fail(&c, "not a proof (bad header)");
    if (buf[4] != PROOF_VERSION)
        return fail(&c, "proof format version %u not supported", (unsigned)buf[4]);
    if (buf[5] > RULE_STANDARD || (buf[6] != BLACK && buf[6] != WHITE) || buf[7] != 0)
        return fail(&c, "bad proof header fields");
    c.rs = (RuleSet)buf[5];
    c.att = (Color)buf[6];
    c.def = color_other(c.att);
    c.pos = PROOF_HEADER_LEN;
    if (b->to_move != BLACK && b->to_move != WHITE)
        return fail(&c, "root position has no side to move");
    Color winner;
    if (rules_game_over(&c.b, c.rs, &winner))
        return fail(&c, "the root position is already over");
    uint32_t depth = 0;
    int rc = b->to_move == c.att ? check_a(&c, &depth) : check_d(&c, &depth);
    if (rc)
        return rc;
    if (c.pos != c.len)
        return fail(&c, "%zu trailing bytes after the proof tree", c.len - c.pos);
    c.st.depth = depth;
    if (st)
        *st = c.st;
    return 0;
}
