/*
 * record.h - the packed value stored for one result in the database.
 *
 * Layout, version 1 (all integers little-endian, no padding):
 *
 *   offset size  field
 *        0    1  record version (= RECORD_VERSION)
 *        1    1  result: 0 unknown (effort only), 1 proven, 2 disproven
 *        2    1  attacker colour: 1 black, 2 white
 *        3    1  best move in the CANONICAL frame: 0..224, 254 pass, 255 none
 *        4    1  flags: bit 0 = a proof blob is stored (sub-database "proofs")
 *        5    3  reserved, zero
 *        8    8  proof size (nodes of the stored or reported proof tree)
 *       16    4  proof depth (plies)
 *       20    4  reserved, zero
 *       24    8  search nodes spent
 *       32    8  unix time of the result (seconds)
 *       40    1  length n of the solver version string (0..RECORD_VERSION_MAX)
 *       41    n  solver version string, printable ASCII, no terminator
 *
 * A decoder accepts only this exact layout: any other length, version,
 * out-of-range field, nonzero reserved byte or non-printable character is
 * RJ_EBADDATA.  A later layout gets a new record version number.
 *
 * Pure functions on caller memory: thread-safe, no allocation.
 */
#ifndef RJ_RECORD_H
#define RJ_RECORD_H

#include "types.h"

enum {
    RECORD_VERSION = 1,
    RECORD_FIXED_LEN = 41,
    RECORD_VERSION_MAX = 63,
    RECORD_MAX_LEN = RECORD_FIXED_LEN + RECORD_VERSION_MAX,
    RECORD_HAS_PROOF = 1
};

typedef struct {
    Result result;  /* RESULT_PROVEN / RESULT_DISPROVEN, or RESULT_UNKNOWN (effort record) */
    Color attacker; /* BLACK or WHITE */
    Point best;     /* winning move (frame depends on the API), POINT_PASS or POINT_NONE */
    uint8_t flags;  /* RECORD_HAS_PROOF */
    uint64_t proof_nodes;
    uint32_t proof_depth;
    uint64_t nodes;                       /* search nodes spent */
    uint64_t time;                        /* unix seconds */
    char version[RECORD_VERSION_MAX + 1]; /* NUL-terminated solver version */
} DbRecord;

/*
 * Encode r into out (cap bytes; RECORD_MAX_LEN always suffices) and store
 * the length in *len.  A version string longer than RECORD_VERSION_MAX is
 * cut.  Returns 0, RJ_EBADARG for out-of-range fields, RJ_ENOMEM if cap is
 * too small.
 */
int record_encode(const DbRecord *r, uint8_t *out, size_t cap, size_t *len);

/* Decode buf[0..len) into *r.  Returns 0 or RJ_EBADDATA (r then unspecified). */
int record_decode(const uint8_t *buf, size_t len, DbRecord *r);

#endif /* RJ_RECORD_H */
