/*
 * fuzz_record.c - libFuzzer target for the database record decoder and the
 * exchange-line parser (db/record.h, db/exchange.h).
 *
 * Input byte 0 selects the target: even = record_decode on the rest, odd =
 * dbx_parse of the rest as a NUL-terminated line.  Checks beyond "no crash":
 * return codes are 0 or the documented errors; a decoded record re-encodes to
 * exactly the input bytes (the layout has a single spelling); a parsed line
 * yields an in-range record whose best move is empty or a pass, and a proof
 * that is heap memory of the stated length.  Violations abort().
 * Built as a fuzzer with -DRJ_FUZZ=ON (clang); fuzz_replay.c runs it over the
 * seed corpus tests/data/fuzz_record/ as an ordinary test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "exchange.h"
#include "record.h"
#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_record: %s\n", what);
        abort();
    }
}

static void fuzz_decode(const uint8_t *data, size_t size)
{
    DbRecord r;
    int rc = record_decode(data, size, &r);
    check(rc == 0 || rc == RJ_EBADDATA, "decode: unexpected return code");
    if (rc)
        return;
    uint8_t out[RECORD_MAX_LEN];
    size_t n = 0;
    check(record_encode(&r, out, sizeof out, &n) == 0, "decoded record does not encode");
    check(n == size && memcmp(out, data, size) == 0, "re-encoding differs from the input");
}

static void fuzz_line(const uint8_t *data, size_t size)
{
    char *line = malloc(size + 1);
    if (!line)
        return;
    memcpy(line, data, size);
    line[size] = 0;
    Board b;
    RuleSet rs;
    DbRecord r;
    uint8_t *proof = NULL;
    size_t plen = 0;
    char why[256];
    int rc = dbx_parse(line, &b, &rs, &r, &proof, &plen, why, sizeof why);
    check(rc == 0 || rc == RJ_EBADDATA || rc == RJ_ENOMEM, "parse: unexpected return code");
    if (rc == 0) {
        check(rs <= RULE_STANDARD, "rule set out of range");
        check(r.attacker == BLACK || r.attacker == WHITE, "attacker out of range");
        check(r.result <= RESULT_DISPROVEN, "result out of range");
        check(r.best == POINT_NONE || r.best == POINT_PASS || (r.best < BOARD_POINTS && board_at(&b, r.best) == EMPTY),
              "best move not on an empty point");
        check((proof != NULL) == (plen > 0), "proof pointer and length disagree");
        uint8_t enc[RECORD_MAX_LEN];
        size_t n;
        check(record_encode(&r, enc, sizeof enc, &n) == 0, "parsed record does not encode");
        if (proof)
            memset(proof, 0, plen);
    } else if (rc == RJ_EBADDATA) {
        check(why[0] != 0 && strchr(why, '\n') == NULL, "bad one-line reason");
    }
    free(proof);
    free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool init;
    if (!init) {
        rules_init();
        init = true;
    }
    if (size == 0)
        return 0;
    if (data[0] % 2 == 0)
        fuzz_decode(data + 1, size - 1);
    else
        fuzz_line(data + 1, size - 1);
    return 0;
}
