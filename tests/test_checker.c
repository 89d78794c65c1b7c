/* test_checker.c - the independent proof checker and the proof framing utilities
 * (proof_check, proof_stats, proof_transform, proof_drop_moves) on hand-built proofs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "notation.h"
#include "position.h"
#include "proof.h"
#include "rules.h"
#include "sym.h"
#include "test_util.h"

/* Positions (stone sets). */
/* Black has an open four h8..k8: black to move wins at once. */
static const char *POS_FIVE = "B:h8,i8,j8,k8 W:a1,d1,g1,j1";
/* Black f5 makes a four (b5 is white), white must block g5; then h9 is a
 * four-three (column h blocked at h13, row 9 f9 g9), white blocks h8, and
 * i9 (or e9) makes a straight four. */
static const char *POS_FOUR3 = "B:c5,d5,e5,h10,h11,h12,f9,g9 W:b5,h13,a1,d1,g1,j1,m1,o4";
/* The same with a white open four on row 1 (k1..n1): white wins first. */
static const char *POS_FOUR3_WHITE4 = "B:c5,d5,e5,h10,h11,h12,f9,g9 W:b5,h13,k1,l1,m1,n1,a3,d3";
/* White to move: f12 makes a four c12..f12 whose only five point g12 is a
 * double-three for black (g10 g11 g12 and e10 f11 g12): black cannot block. */
static const char *POS_FORBIDDEN_BLOCK = "B:b12,e10,f11,g10,g11 W:c12,d12,e12,o1";

static Point P(const char *s)
{
    Point p;
    int used;
    assert_int_equal(notation_parse_point(s, &p, &used), 0);
    return p;
}

/* Proof builder: "A:x" attacker move, "D:n" defender count, "d:x" defender move. */
typedef struct {
    uint8_t buf[512];
    size_t len;
} Pf;

static void pf_header(Pf *p, RuleSet rs, Color att)
{
    const uint8_t h[PROOF_HEADER_LEN] = {'R', 'J', 'P', 'F', PROOF_VERSION, (uint8_t)rs, (uint8_t)att, 0};
    memcpy(p->buf, h, sizeof h);
    p->len = sizeof h;
}

/* Append tokens: a point name or "pass" is a move byte; "#n" a u16 count. */
static void pf_add(Pf *p, const char *tokens)
{
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", tokens);
    for (char *t = strtok(tmp, " "); t; t = strtok(NULL, " ")) {
        if (t[0] == '#') {
            int n = atoi(t + 1);
            p->buf[p->len++] = (uint8_t)(n & 0xff);
            p->buf[p->len++] = (uint8_t)(n >> 8);
        } else {
            p->buf[p->len++] = P(t);
        }
    }
}

static void build(Pf *p, RuleSet rs, Color att, const char *tokens)
{
    pf_header(p, rs, att);
    pf_add(p, tokens);
}

static void expect_valid(const char *pos, const Pf *p, ProofStats *st)
{
    Board b = parse_pos(pos, EMPTY);
    Board before = b;
    char why[256];
    int rc = proof_check(&b, p->buf, p->len, st, why, sizeof why);
    if (rc)
        fail_msg("expected a valid proof for %s: %s", pos, why);
    assert_memory_equal(&b, &before, sizeof b);
    /* The framing walker agrees on the shape. */
    ProofStats s2;
    assert_int_equal(proof_stats(&b, p->buf, p->len, &s2), 0);
    if (st) {
        assert_int_equal(s2.nodes, st->nodes);
        assert_int_equal(s2.depth, st->depth);
        assert_int_equal(s2.leaves, st->leaves);
    }
}

static void expect_invalid(const char *pos, const Pf *p, const char *reason)
{
    Board b = parse_pos(pos, EMPTY);
    char why[256];
    int rc = proof_check(&b, p->buf, p->len, NULL, why, sizeof why);
    if (rc == 0)
        fail_msg("expected an invalid proof for %s (%s)", pos, reason);
    assert_int_equal(rc, RJ_EBADDATA);
    if (reason && !strstr(why, reason))
        fail_msg("reason '%s' does not mention '%s'", why, reason);
}

static void test_five(void **state)
{
    (void)state;
    Pf p;
    ProofStats st;
    build(&p, RULE_RENJU, BLACK, "l8");
    expect_valid(POS_FIVE, &p, &st);
    assert_int_equal(st.nodes, 1);
    assert_int_equal(st.leaves, 1);
    assert_int_equal(st.depth, 1);
    build(&p, RULE_RENJU, BLACK, "g8");
    expect_valid(POS_FIVE, &p, NULL);
    /* Not a win: l9 is no five, and the D-node after it is missing. */
    build(&p, RULE_RENJU, BLACK, "l9");
    expect_invalid(POS_FIVE, &p, "truncated");
    /* The proof names the wrong attacker. */
    build(&p, RULE_RENJU, WHITE, "l8");
    expect_invalid(POS_FIVE, &p, NULL);
}

static void test_four_then_four_three(void **state)
{
    (void)state;
    Pf p;
    ProofStats st;
    build(&p, RULE_RENJU, BLACK, "f5 #1 g5 h9 #1 h8 i9 #0");
    expect_valid(POS_FOUR3, &p, &st);
    assert_int_equal(st.nodes, 6);
    assert_int_equal(st.depth, 5);
    assert_int_equal(st.leaves, 0);
    assert_true(st.implied > 3 * 150);
    /* Short loss (b): white's block h8 may be omitted, i9/e9 then wins. */
    build(&p, RULE_RENJU, BLACK, "f5 #1 g5 h9 #0");
    expect_valid(POS_FOUR3, &p, &st);
    assert_int_equal(st.nodes, 4);
    /* Listing a refutation explicitly works too. */
    build(&p, RULE_RENJU, BLACK, "f5 #2 g5 h9 #0 a15 g5");
    expect_valid(POS_FOUR3, &p, &st);
    assert_int_equal(st.leaves, 1);
}

static void test_forbidden_block(void **state)
{
    (void)state;
    Board b = parse_pos(POS_FORBIDDEN_BLOCK, EMPTY);
    Board w = b;
    board_play(&w, P("f12"));
    assert_true(rules_is_forbidden(&w, P("g12")));
    Pf p;
    build(&p, RULE_RENJU, WHITE, "f12 #0");
    expect_valid(POS_FORBIDDEN_BLOCK, &p, NULL);
    /* Under freestyle black may block g12: the same proof misses that move. */
    build(&p, RULE_FREESTYLE, WHITE, "f12 #0");
    expect_invalid(POS_FORBIDDEN_BLOCK, &p, "g12 is neither listed nor a short loss");
    /* Black's forbidden block listed as a defender move is illegal. */
    build(&p, RULE_RENJU, WHITE, "f12 #1 g12 a15");
    expect_invalid(POS_FORBIDDEN_BLOCK, &p, "g12 is illegal");
}

static void test_missing_defender_move(void **state)
{
    (void)state;
    Pf p;
    build(&p, RULE_RENJU, BLACK, "f5 #0");
    expect_invalid(POS_FOUR3, &p, "g5 is neither listed nor a short loss");
    /* A broken three is no threat: white's first free move refutes it
     * (h9 would be a forbidden double-four for black). */
    build(&p, RULE_RENJU, BLACK, "i9 #0");
    expect_invalid(POS_FOUR3, &p, "b1 is neither listed nor a short loss");
}

static void test_illegal_moves(void **state)
{
    (void)state;
    Pf p;
    build(&p, RULE_RENJU, BLACK, "h8");
    expect_invalid(POS_FIVE, &p, "attacker move h8 is illegal");
    build(&p, RULE_RENJU, BLACK, "f5 #1 c5 h9 #0");
    expect_invalid(POS_FOUR3, &p, "defender move c5 is illegal");
    build(&p, RULE_RENJU, BLACK, "f5 #2 g5 h9 #0 g5 h9 #0");
    expect_invalid(POS_FOUR3, &p, "listed twice");
    /* Black plays its forbidden double-three as attacker. */
    Pf q;
    pf_header(&q, RULE_RENJU, BLACK);
    Board b = parse_pos("B:b12,e10,f11,g10,g11,a3 W:c12,d12,e12,f12,o1,o3", EMPTY);
    assert_true(rules_is_forbidden(&b, P("g12")));
    pf_add(&q, "g12 #0");
    expect_invalid("B:b12,e10,f11,g10,g11,a3 W:c12,d12,e12,f12,o1,o3", &q, "attacker move g12 is illegal");
}

static void test_defender_wins_first(void **state)
{
    (void)state;
    Pf p;
    build(&p, RULE_RENJU, BLACK, "f5 #1 g5 h9 #1 h8 i9 #0");
    expect_invalid(POS_FOUR3_WHITE4, &p, "wins for the defender");
    build(&p, RULE_RENJU, BLACK, "f5 #1 j1 g5");
    expect_invalid(POS_FOUR3_WHITE4, &p, "defender move j1 wins for the defender");
}

static void test_draws(void **state)
{
    (void)state;
    Pf p;
    build(&p, RULE_RENJU, BLACK, "pass #1 pass");
    expect_invalid(POS_FIVE, &p, "draw");
    build(&p, RULE_RENJU, BLACK, "pass #0");
    expect_invalid(POS_FIVE, &p, "pass ends the game in a draw");
}

static void test_truncated_and_garbled(void **state)
{
    (void)state;
    Pf p;
    build(&p, RULE_RENJU, BLACK, "f5 #1 g5 h9 #1 h8 i9 #0");
    Board b = parse_pos(POS_FOUR3, EMPTY);
    char why[256];
    for (size_t n = 0; n < p.len; n++) {
        assert_int_equal(proof_check(&b, p.buf, n, NULL, why, sizeof why), RJ_EBADDATA);
        assert_int_equal(proof_stats(&b, p.buf, n, NULL), RJ_EBADDATA);
    }
    assert_int_equal(proof_check(&b, NULL, 0, NULL, why, sizeof why), RJ_EBADDATA);
    /* Trailing garbage. */
    Pf q = p;
    q.buf[q.len++] = 0;
    assert_int_equal(proof_check(&b, q.buf, q.len, NULL, why, sizeof why), RJ_EBADDATA);
    assert_non_null(strstr(why, "trailing"));
    /* Header fields. */
    const size_t fields[] = {0, 3, 4, 5, 6, 7};
    const uint8_t bad[] = {'X', 'G', 9, 7, 3, 1};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        q = p;
        q.buf[fields[i]] = bad[i];
        assert_int_equal(proof_check(&b, q.buf, q.len, NULL, why, sizeof why), RJ_EBADDATA);
        assert_int_equal(proof_stats(&b, q.buf, q.len, NULL), RJ_EBADDATA);
    }
    /* Out-of-range move byte and a huge count. */
    q = p;
    q.buf[PROOF_HEADER_LEN] = 240;
    assert_int_equal(proof_check(&b, q.buf, q.len, NULL, why, sizeof why), RJ_EBADDATA);
    q = p;
    q.buf[PROOF_HEADER_LEN + 1] = 0xff;
    q.buf[PROOF_HEADER_LEN + 2] = 0xff;
    assert_int_equal(proof_check(&b, q.buf, q.len, NULL, why, sizeof why), RJ_EBADDATA);
    /* Random byte flips never crash, and the checker never accepts what the
     * framing walker rejects. */
    uint64_t s = 99;
    for (int it = 0; it < 2000; it++) {
        q = p;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        size_t at = PROOF_HEADER_LEN + (s >> 33) % (q.len - PROOF_HEADER_LEN);
        q.buf[at] = (uint8_t)(s >> 20);
        int rc = proof_check(&b, q.buf, q.len, NULL, why, sizeof why);
        int rs = proof_stats(&b, q.buf, q.len, NULL);
        assert_true(rc == 0 || rc == RJ_EBADDATA);
        if (rs)
            assert_int_equal(rc, RJ_EBADDATA);
    }
}

/* Board b mapped through transform t (setup stones, same side to move). */
static void board_map(const Board *b, int t, Board *out)
{
    board_init(out);
    for (int p = 0; p < BOARD_POINTS; p++)
        if (board_at(b, (Point)p) != EMPTY)
            board_setup_stone(out, sym_apply(t, (Point)p), board_at(b, (Point)p));
    board_set_to_move(out, b->to_move);
}

static void test_transform(void **state)
{
    (void)state;
    const char *pos[] = {POS_FOUR3, POS_FOUR3, POS_FORBIDDEN_BLOCK};
    const char *tree[] = {"f5 #1 g5 h9 #1 h8 i9 #0", "f5 #1 g5 h9 #0", "f12 #0"};
    const Color att[] = {BLACK, BLACK, WHITE};
    for (int i = 0; i < 3; i++) {
        Board b = parse_pos(pos[i], EMPTY);
        Pf p;
        build(&p, RULE_RENJU, att[i], tree[i]);
        ProofStats st0, st;
        char why[256];
        assert_int_equal(proof_check(&b, p.buf, p.len, &st0, why, sizeof why), 0);
        for (int t = 0; t < NUM_SYMS; t++) {
            Pf q = p;
            assert_int_equal(proof_transform(&b, q.buf, q.len, t), 0);
            Board bt;
            board_map(&b, t, &bt);
            int rc = proof_check(&bt, q.buf, q.len, &st, why, sizeof why);
            if (rc)
                fail_msg("transform %d: %s", t, why);
            assert_int_equal(st.nodes, st0.nodes);
            assert_int_equal(st.implied, st0.implied);
            /* And back. */
            assert_int_equal(proof_transform(&bt, q.buf, q.len, sym_inverse(t)), 0);
            assert_memory_equal(q.buf, p.buf, p.len);
        }
    }
    /* A garbled proof is left unchanged. */
    Board b = parse_pos(POS_FOUR3, EMPTY);
    Pf p;
    build(&p, RULE_RENJU, BLACK, "f5 #1 g5 h9 #1 h8 i9");
    Pf q = p;
    assert_int_equal(proof_transform(&b, q.buf, q.len, 3), RJ_EBADDATA);
    assert_memory_equal(q.buf, p.buf, p.len);
    assert_int_equal(proof_transform(&b, q.buf, q.len, 8), RJ_EBADARG);
}

/* ---- short losses against their definition ---- */

/* Winning points of c (empty points where c makes five), counted up to max. */
static int ref_wins(const Board *b, Color c, RuleSet rs, int max)
{
    int n = 0;
    for (int p = 0; p < BOARD_POINTS && n < max; p++)
        n += board_at(b, (Point)p) == EMPTY && rules_makes_five(b, (Point)p, c, rs);
    return n;
}

/*
 * The defender to move: the first legal defender reply (points in index
 * order, then the pass) that is not a short loss, straight from the
 * definition; -1 when every one is.  *five is set when that reply makes five.
 * A short loss: the reply makes no five, and then (a) the attacker has a
 * winning point, or (b) a legal attacker stone leaves it two winning points
 * while the defender has none.
 */
static int ref_first_bad(Board *b, Color att, RuleSet rs, bool *five, bool *by_b, bool *pass_b)
{
    Color def = color_other(att);
    for (int idx = 0; idx <= BOARD_POINTS; idx++) {
        Point m = idx == BOARD_POINTS ? POINT_PASS : (Point)idx;
        if (!rules_is_legal(b, m, rs))
            continue;
        *five = m != POINT_PASS && rules_makes_five(b, m, def, rs);
        if (*five)
            return idx;
        board_play(b, m);
        bool ok = ref_wins(b, att, rs, 1) > 0;
        for (int q = 0; q < BOARD_POINTS && !ok; q++) {
            if (!rules_is_legal(b, (Point)q, rs))
                continue;
            board_play(b, (Point)q);
            ok = ref_wins(b, att, rs, 2) >= 2 && ref_wins(b, def, rs, 1) == 0;
            board_undo(b);
            *by_b |= ok;
            *pass_b |= ok && m == POINT_PASS;
        }
        board_undo(b);
        if (!ok)
            return idx;
    }
    return -1;
}

/*
 * With the attacker to move and no winning point: two of its stones on the
 * lines through x (within 4 points) each leave it two winning points (a
 * cheap filter for the double threats whose every reply, the pass included,
 * rule (b) has to judge).
 */
static bool double_threat_at(Board *b, Point x, Color att, RuleSet rs)
{
    int n = 0;
    for (int d = 0; d < NUM_DIRS && n < 2; d++)
        for (int k = -4; k <= 4 && n < 2; k++) {
            int col = point_col(x) + k * DIR_DC[d], row = point_row(x) + k * DIR_DR[d];
            if (!k || !point_on_board(col, row) || !rules_is_legal(b, point_make(col, row), rs))
                continue;
            board_play(b, point_make(col, row));
            n += ref_wins(b, att, rs, 2) >= 2;
            board_undo(b);
        }
    return n >= 2;
}

/*
 * On random games, for every attacker move x that leaves it a winning point
 * (whether or not the defender has one), or none but a double threat
 * through x,
 * the proof "x #0" (no defender reply listed) must be accepted exactly when
 * the reference finds every reply a short loss, and a rejection must name the
 * reference's first bad reply.  This pins the checker's fast short-loss tests
 * (checker.c: the winning points kept per candidate) to the definition.
 */
static void test_short_losses_agree(void **state)
{
    (void)state;
    uint64_t s = 0x5eedc4ec;
    int accepted = 0, rejected = 0, by_b = 0, def_five = 0, pass_b = 0, doubles = 0;
    const RuleSet sets[] = {RULE_RENJU, RULE_FREESTYLE, RULE_STANDARD};
    for (int g = 0; g < 90; g++) {
        Board b;
        random_game(&b, &s);
        RuleSet rs = sets[g % 3];
        Color att = b.to_move;
        int game_doubles = 0; /* at most 3 a game: the reference is slow on them */
        for (int x = 0; x < BOARD_POINTS; x++) {
            if (!rules_is_legal(&b, (Point)x, rs) || rules_makes_five(&b, (Point)x, att, rs))
                continue;
            board_play(&b, (Point)x);
            bool threat = ref_wins(&b, att, rs, 1) > 0;
            if (!threat && game_doubles < 3) {
                board_play(&b, POINT_PASS); /* the attacker to move again */
                threat = ref_wins(&b, att, rs, 1) == 0 && double_threat_at(&b, (Point)x, att, rs);
                board_undo(&b);
                doubles += threat;
                game_doubles += threat;
            }
            bool five = false, b_used = false, p_used = false;
            int bad = threat ? ref_first_bad(&b, att, rs, &five, &b_used, &p_used) : 0;
            board_undo(&b);
            if (!threat)
                continue;
            Pf p;
            pf_header(&p, rs, att);
            p.buf[p.len++] = (uint8_t)x;
            pf_add(&p, "#0");
            char why[256], name[8], want[64];
            int rc = proof_check(&b, p.buf, p.len, NULL, why, sizeof why);
            if (bad < 0) {
                if (rc)
                    fail_msg("game %d, x %s: rejected a proof the definition accepts: %s", g,
                             notation_point_str((Point)x, name), why);
                accepted++;
                by_b += b_used;
                pass_b += p_used;
                continue;
            }
            if (rc == 0)
                fail_msg("game %d, x %s: accepted a proof whose reply %s is no short loss", g,
                         notation_point_str((Point)x, name),
                         bad == BOARD_POINTS ? "pass" : notation_point_str((Point)bad, want));
            snprintf(want, sizeof want, "defender move %s ",
                     bad == BOARD_POINTS ? "pass" : notation_point_str((Point)bad, name));
            if (!strstr(why, want))
                fail_msg("game %d: the checker's reason '%s' does not name %s", g, why, want);
            rejected++;
            def_five += five;
        }
    }
    print_message("short losses: %d proofs accepted (%d using rule (b), %d of them for the pass), %d rejected (%d by a "
                  "defender five); %d double threats\n",
                  accepted, by_b, pass_b, rejected, def_five, doubles);
    /* The sample must reach both verdicts and rule (b). */
    assert_true(accepted >= 20);
    assert_true(by_b >= 10);
    assert_true(rejected >= 20);
    assert_true(def_five >= 5);
    assert_true(pass_b >= 3); /* double threats: the pass judged by rule (b) */
}

/* Drop-set helper for proof_drop_moves. */
static void drop_set(uint64_t d[4], const char *pts)
{
    memset(d, 0, 4 * sizeof *d);
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s", pts);
    for (char *t = strtok(tmp, " "); t; t = strtok(NULL, " ")) {
        Point q = P(t);
        d[q >> 6] |= UINT64_C(1) << (q & 63);
    }
}

/*
 * proof_drop_moves: the proof of a position where the defender passed,
 * rewritten for the position where the defender's stone stands on a point
 * the proof lists as a defender reply.  The listed entry goes with its
 * subtree, the counts follow, and the independent checker accepts the
 * result where it rejected the original; an attacker move on a dropped
 * point and a malformed proof are refused.
 */
static void test_drop_moves(void **state)
{
    (void)state;
    Board donor = parse_pos(POS_FOUR3, EMPTY);
    /* The same with a white stone on a15, black still to move. */
    Board target = parse_pos("B:c5,d5,e5,h10,h11,h12,f9,g9 W:b5,h13,a1,d1,g1,j1,m1,o4,a15", BLACK);
    Pf p, want;
    build(&p, RULE_RENJU, BLACK, "f5 #2 a15 g5 g5 h9 #1 h8 i9 #0");
    expect_valid(POS_FOUR3, &p, NULL);
    char why[256];
    assert_int_equal(proof_check(&target, p.buf, p.len, NULL, why, sizeof why), RJ_EBADDATA);
    assert_non_null(strstr(why, "a15 is illegal"));

    uint64_t drop[4];
    drop_set(drop, "a15");
    ProofWriter w = {0};
    uint64_t nd = 99;
    assert_int_equal(proof_drop_moves(&donor, p.buf, p.len, drop, &w, &nd), 0);
    assert_int_equal(nd, 1);
    build(&want, RULE_RENJU, BLACK, "f5 #1 g5 h9 #1 h8 i9 #0");
    assert_int_equal(w.len, want.len);
    assert_memory_equal(w.data, want.buf, want.len);
    ProofStats st;
    if (proof_check(&target, w.data, w.len, &st, why, sizeof why))
        fail_msg("the rewritten proof: %s", why);
    assert_int_equal(st.nodes, 6);
    free(w.data);

    /* A reply deeper down, and two at once: h8 (at the second defender node) and a15. */
    drop_set(drop, "a15 h8");
    memset(&w, 0, sizeof w);
    assert_int_equal(proof_drop_moves(&donor, p.buf, p.len, drop, &w, &nd), 0);
    assert_int_equal(nd, 2);
    build(&want, RULE_RENJU, BLACK, "f5 #1 g5 h9 #0");
    assert_int_equal(w.len, want.len);
    assert_memory_equal(w.data, want.buf, want.len);
    free(w.data);

    /* Points the proof does not list: the same bytes. */
    drop_set(drop, "o15 n14");
    memset(&w, 0, sizeof w);
    assert_int_equal(proof_drop_moves(&donor, p.buf, p.len, drop, &w, &nd), 0);
    assert_int_equal(nd, 0);
    assert_int_equal(w.len, p.len);
    assert_memory_equal(w.data, p.buf, p.len);
    free(w.data);

    /* An attacker move on a dropped point (h9 at the second attacker node) is refused. */
    drop_set(drop, "h9");
    memset(&w, 0, sizeof w);
    assert_int_equal(proof_drop_moves(&donor, p.buf, p.len, drop, &w, &nd), RJ_EBADDATA);
    free(w.data);
    /* A truncated proof writes nothing. */
    memset(&w, 0, sizeof w);
    assert_int_equal(proof_drop_moves(&donor, p.buf, p.len - 1, drop, &w, &nd), RJ_EBADDATA);
    assert_int_equal(w.len, 0);
    free(w.data);
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_five),
        cmocka_unit_test(test_four_then_four_three),
        cmocka_unit_test(test_forbidden_block),
        cmocka_unit_test(test_missing_defender_move),
        cmocka_unit_test(test_illegal_moves),
        cmocka_unit_test(test_defender_wins_first),
        cmocka_unit_test(test_draws),
        cmocka_unit_test(test_truncated_and_garbled),
        cmocka_unit_test(test_transform),
        cmocka_unit_test(test_short_losses_agree),
        cmocka_unit_test(test_drop_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
