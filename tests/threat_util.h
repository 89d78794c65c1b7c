/*
 * threat_util.h - helpers shared by the threat-search tests: a deterministic
 * PRNG, random "tactical" positions, and checks written only against the
 * rules module (rules.h), independent of solver/threat.c.
 */
#ifndef RJ_THREAT_UTIL_H
#define RJ_THREAT_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "rules.h"

/* Deterministic test PRNG (xorshift64*). */
static inline uint64_t tu_rng(uint64_t *s)
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

/*
 * A random position of about n stones played alternately (black first) in a
 * box of side `box` around the centre, each stone near a stone of its own
 * colour with probability 3/4, never a forbidden black point, never a five.
 */
static inline void tu_random_position(Board *b, uint64_t *s, RuleSet rs, int n, int box)
{
    board_init(b);
    int lo = (BOARD_SIZE - box) / 2;
    for (int i = 0; i < n; i++) {
        for (int tries = 0; tries < 50; tries++) {
            int col, row;
            Color me = b->to_move;
            Point own[BOARD_POINTS];
            int no = 0;
            for (int p = 0; p < BOARD_POINTS; p++)
                if (board_at(b, (Point)p) == me)
                    own[no++] = (Point)p;
            if (no && tu_rng(s) % 4) {
                Point o = own[tu_rng(s) % (uint64_t)no];
                col = point_col(o) + (int)(tu_rng(s) % 5) - 2;
                row = point_row(o) + (int)(tu_rng(s) % 5) - 2;
            } else {
                col = lo + (int)(tu_rng(s) % (uint64_t)box);
                row = lo + (int)(tu_rng(s) % (uint64_t)box);
            }
            if (!point_on_board(col, row))
                continue;
            Point p = point_make(col, row);
            if (!rules_is_legal(b, p, rs))
                continue;
            board_play(b, p);
            if (rules_last_move_wins(b, rs) != EMPTY) {
                board_undo(b);
                continue;
            }
            break;
        }
    }
}

/*
 * Replay a VCF line from b: every move legal, every attacker move but the
 * last makes a four while the defender has no five, every defender move
 * blocks (or, when it cannot matter, anything legal), the last move wins for
 * attacker.  Returns NULL when fine, else a reason.  b is restored.
 */
static inline const char *tu_replay_vcf(Board *b, Color attacker, RuleSet rs, const Point *line, int len)
{
    Point buf[BOARD_POINTS];
    const char *why = NULL;
    int i = 0;
    if (len <= 0)
        return "empty line";
    for (; i < len; i++) {
        Point m = line[i];
        Color mover = b->to_move;
        if (m != POINT_PASS && !rules_is_legal(b, m, rs)) {
            why = "illegal move";
            break;
        }
        board_play(b, m);
        Color w = m == POINT_PASS ? EMPTY : rules_last_move_wins(b, rs);
        if (i == len - 1) {
            if (w != attacker || mover != attacker)
                why = "last move does not win for the attacker";
            i++;
            break;
        }
        if (w != EMPTY) {
            why = "game ends early";
            i++;
            break;
        }
        if (mover == attacker) {
            if (rules_five_points(b, attacker, rs, buf) == 0) {
                why = "attacker move is no four";
                i++;
                break;
            }
            if (rules_five_points(b, color_other(attacker), rs, buf) > 0) {
                why = "defender has a five after an attacker move";
                i++;
                break;
            }
        }
    }
    while (i-- > 0)
        board_undo(b);
    return why;
}

/*
 * The proof format's short loss, from rules.h only: after defender move x
 * (side to move on b), the attacker wins at once, or has a legal move leaving
 * two or more five points after which the defender has none.
 */
static inline bool tu_short_loss(Board *b, Point x, RuleSet rs)
{
    Color def = b->to_move, att = color_other(def);
    Point buf[BOARD_POINTS];
    bool loss = false;
    board_play(b, x);
    if (rules_five_points(b, att, rs, buf) > 0) {
        loss = true;
    } else {
        for (int w = 0; w < BOARD_POINTS && !loss; w++) {
            if (board_at(b, (Point)w) != EMPTY || rules_four_points_after(b, (Point)w, att, rs, buf) < 2)
                continue;
            if (!rules_is_legal(b, (Point)w, rs))
                continue;
            board_play(b, (Point)w);
            loss = rules_five_points(b, att, rs, buf) >= 2 && rules_five_points(b, def, rs, buf) == 0;
            board_undo(b);
        }
    }
    board_undo(b);
    return loss;
}

/*
 * An independent walk of a proof tree (proof.h format, no header) from b,
 * using rules.h only: every listed move legal, A-node leaves win at once,
 * every unlisted legal defender move (pass included) a short loss.
 * Returns NULL when valid, else a reason.  b is restored.
 */
static const char *tu_walk_a(Board *b, Color att, RuleSet rs, const uint8_t *buf, size_t len, size_t *pos);

static inline const char *tu_walk_d(Board *b, Color att, RuleSet rs, const uint8_t *buf, size_t len, size_t *pos)
{
    bool listed[BOARD_POINTS + 1];
    memset(listed, 0, sizeof listed);
    if (*pos + 2 > len)
        return "truncated D-node";
    int n = buf[*pos] | buf[*pos + 1] << 8;
    *pos += 2;
    for (int i = 0; i < n; i++) {
        if (*pos >= len)
            return "truncated D-node child";
        Point x = buf[(*pos)++];
        if (x != POINT_PASS && (x >= BOARD_POINTS || !rules_is_legal(b, x, rs)))
            return "illegal defender move";
        listed[x == POINT_PASS ? BOARD_POINTS : x] = true;
        board_play(b, x);
        const char *why = x != POINT_PASS && rules_last_move_wins(b, rs) != EMPTY
                              ? "defender move wins"
                              : tu_walk_a(b, att, rs, buf, len, pos);
        board_undo(b);
        if (why)
            return why;
    }
    for (int x = 0; x <= BOARD_POINTS; x++) {
        Point p = x == BOARD_POINTS ? POINT_PASS : (Point)x;
        if (listed[x] || (p != POINT_PASS && !rules_is_legal(b, p, rs)))
            continue;
        if (!tu_short_loss(b, p, rs))
            return "unlisted defender move is no short loss";
    }
    return NULL;
}

static const char *tu_walk_a(Board *b, Color att, RuleSet rs, const uint8_t *buf, size_t len, size_t *pos)
{
    if (*pos >= len)
        return "truncated A-node";
    if (b->to_move != att)
        return "A-node with the defender to move";
    Point m = buf[(*pos)++];
    if (m != POINT_PASS && (m >= BOARD_POINTS || !rules_is_legal(b, m, rs)))
        return "illegal attacker move";
    board_play(b, m);
    const char *why = NULL;
    if (m == POINT_PASS || rules_last_move_wins(b, rs) != att)
        why = board_two_passes(b) ? "draw by passes" : tu_walk_d(b, att, rs, buf, len, pos);
    board_undo(b);
    return why;
}

static inline const char *tu_walk_proof(Board *b, Color att, RuleSet rs, const uint8_t *buf, size_t len)
{
    size_t pos = 0;
    const char *why = b->to_move == att ? tu_walk_a(b, att, rs, buf, len, &pos) : tu_walk_d(b, att, rs, buf, len, &pos);
    if (!why && pos != len)
        why = "trailing bytes";
    return why;
}

/* One golden line of tests/data/threat_golden.txt. */
typedef struct {
    char kind[8];
    RuleSet rs;
    Color att, to_move;
    bool win;
    int len; /* fewest attacker moves, or 0 when not given */
    char pos[512];
    int line_no;
} TuGolden;

static inline char *tu_trim(char *s)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\n'))
        s[--n] = 0;
    return s;
}

/* Read every golden line of the given kind ("vcf"/"vct"); returns the count (or -1). */
static inline int tu_read_golden(const char *kind, TuGolden *out, int max)
{
    FILE *f = fopen(RJ_TEST_DATA "/threat_golden.txt", "r");
    if (!f)
        return -1;
    char line[1024];
    int n = 0, no = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        no++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *field[7];
        int nf = 0;
        for (char *tok = strtok(line, "|"); tok && nf < 7; tok = strtok(NULL, "|"))
            field[nf++] = tu_trim(tok);
        if (nf < 6 || strcmp(field[0], kind))
            continue;
        TuGolden *g = &out[n];
        snprintf(g->kind, sizeof g->kind, "%s", field[0]);
        g->rs = !strcmp(field[1], "renju")       ? RULE_RENJU
                : !strcmp(field[1], "freestyle") ? RULE_FREESTYLE
                                                 : RULE_STANDARD;
        g->att = !strcmp(field[2], "black") ? BLACK : WHITE;
        g->to_move = !strcmp(field[3], "black") ? BLACK : WHITE;
        g->win = !strncmp(field[4], "win", 3);
        g->len = g->win && field[4][3] ? atoi(field[4] + 3) : 0;
        snprintf(g->pos, sizeof g->pos, "%s", field[5]);
        g->line_no = no;
        n++;
    }
    fclose(f);
    return n;
}

#endif /* RJ_THREAT_UTIL_H */
