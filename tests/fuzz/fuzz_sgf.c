/*
 * fuzz_sgf.c - libFuzzer target for the SGF reader (core/sgf.h).
 *
 * Feeds arbitrary bytes to sgf_parse() and checks, beyond "no crash": the
 * result is 0 or RJ_EBADDATA with a one-line, non-empty message; a parsed
 * record either builds a board (sgf_board) or is refused with RJ_EBADPOS and
 * one line; a board written back with sgf_from_board + sgf_write parses to the
 * same board.  Violations abort().  Built as a fuzzer with -DRJ_FUZZ=ON
 * (clang); fuzz_replay.c runs it over tests/data/fuzz_sgf as a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "rules.h"
#include "sgf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what, const uint8_t *data, size_t size)
{
    if (!ok) {
        fprintf(stderr, "fuzz_sgf: %s for input '%.*s'\n", what, (int)(size < 200 ? size : 200), (const char *)data);
        abort();
    }
}

static void check_message(const char *err, size_t len, const uint8_t *data, size_t size)
{
    check(memchr(err, 0, len) != NULL, "unterminated error message", data, size);
    check(err[0] != 0, "empty error message", data, size);
    check(strchr(err, '\n') == NULL, "multi-line error message", data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    static SgfGame g, g2;
    static char out[1 << 16];
    if (!ready) {
        rules_init();
        ready = true;
    }
    if (size > (1 << 16))
        return 0;
    /* An exact-size copy, so reading past the end is caught by ASan. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    char err[256];
    memset(err, 'x', sizeof err);
    int rc = sgf_parse(text, size, &g, err, sizeof err);
    free(text);
    check(rc == 0 || rc == RJ_EBADDATA, "unexpected return code", data, size);
    if (rc) {
        check_message(err, sizeof err, data, size);
        return 0;
    }
    check(g.nmoves >= 0 && g.nmoves < MAX_PLY, "move count out of range", data, size);
    for (RuleSet rs = RULE_RENJU; rs <= RULE_FREESTYLE; rs++) {
        Board b, c;
        memset(err, 'x', sizeof err);
        rc = sgf_board(&g, rs, EMPTY, &b, err, sizeof err);
        check(rc == 0 || rc == RJ_EBADPOS, "unexpected sgf_board code", data, size);
        if (rc) {
            check_message(err, sizeof err, data, size);
            continue;
        }
        check(board_check(&b), "board_check failed", data, size);
        sgf_from_board(&b, &g2);
        size_t len;
        check(sgf_write(&g2, out, sizeof out, &len) == 0, "sgf_write failed", data, size);
        check(sgf_parse(out, len, &g2, err, sizeof err) == 0, "written record does not parse", data, size);
        check(sgf_board(&g2, rs, EMPTY, &c, err, sizeof err) == 0, "written record is refused", data, size);
        check(!memcmp(b.cell, c.cell, sizeof b.cell) && b.key == c.key && b.to_move == c.to_move, "round trip differs",
              data, size);
    }
    return 0;
}
