/*
 * fuzz_position.c - libFuzzer target for the position parser.
 *
 * Feeds arbitrary bytes (or, after a first byte 0xB1, moves given as bytes)
 * to position_parse() and notation_parse_moves() and
 * checks, beyond "no crash": the result is 0 or RJ_EBADPOS; a rejection has a
 * one-line, non-empty message; an accepted position passes board_check() and
 * position_str() text parses back to the same position.  Violations abort().
 * Built as a fuzzer with -DRJ_FUZZ=ON (clang); fuzz_replay.c runs it over the
 * seed corpus as an ordinary test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "notation.h"
#include "position.h"
#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort with a note when an invariant fails (asserts are off in release builds). */
static void check(bool ok, const char *what, const char *text)
{
    if (!ok) {
        fprintf(stderr, "fuzz_position: %s for input '%.200s'\n", what, text);
        abort();
    }
}

static void check_message(int rc, const char *err, const char *text)
{
    check(rc == 0 || rc == RJ_EBADPOS, "unexpected return code", text);
    if (rc) {
        check(err[0] != 0, "empty error message", text);
        check(strchr(err, '\n') == NULL, "multi-line error message", text);
    }
}

static void one(const char *text, RuleSet rs, Color tm)
{
    Board b, c;
    char err[256], err2[256];
    memset(err, 'x', sizeof err);
    int rc = position_parse(text, rs, tm, &b, err, sizeof err);
    check(memchr(err, 0, sizeof err) != NULL, "unterminated error message", text);
    check_message(rc, err, text);
    if (rc)
        return;
    check(board_check(&b), "board_check failed", text);
    check(tm == EMPTY || b.to_move == tm, "side to move ignored", text);
    static char out[POSITION_STR_LEN];
    position_str(&b, out, sizeof out);
    rc = position_parse(out, rs, b.to_move, &c, err2, sizeof err2);
    check(rc == 0, "position_str text does not parse back", text);
    check(!memcmp(b.cell, c.cell, sizeof b.cell) && b.key == c.key && b.ply == c.ply && b.to_move == c.to_move,
          "position_str round trip differs", text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        rules_init();
        ready = true;
    }
    if (size > 4096)
        return 0;
    char *text = malloc(5 * size + 1);
    if (!text)
        return 0;
    if (size > 0 && data[0] == 0xB1) {
        /* Binary mode: the other bytes are moves (byte % 226, 225 = pass) written as
         * text, so the fuzzer reaches real games and the rules checks behind them. */
        size_t at = 0;
        for (size_t i = 1; i < size; i++) {
            char pt[8];
            int v = data[i] % 226;
            notation_point_str(v == 225 ? POINT_PASS : (Point)v, pt);
            at += (size_t)sprintf(text + at, "%s%s", i > 1 ? " " : "", pt);
        }
        text[at] = 0;
    } else {
        memcpy(text, data, size);
        text[size] = 0;
    }

    one(text, RULE_RENJU, EMPTY);
    one(text, RULE_FREESTYLE, WHITE);
    one(text, RULE_STANDARD, BLACK);

    /* The move-list parser on its own, with a small capacity. */
    Point mv[16], mv2[16];
    char err[128], buf[256];
    int n = notation_parse_moves(text, mv, 16, err, sizeof err);
    check_message(n < 0 ? n : 0, err, text);
    if (n >= 0) {
        notation_moves_str(mv, n, buf, sizeof buf);
        int n2 = notation_parse_moves(buf, mv2, 16, NULL, 0);
        check(n2 == n && !memcmp(mv, mv2, (size_t)n * sizeof mv[0]), "move text round trip differs", text);
    }
    free(text);
    return 0;
}
