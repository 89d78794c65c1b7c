/*
 * resultstore.h - how the search reads and writes proven results without
 * knowing where they live (the LMDB database implements it in db/).
 *
 * All positions are given as they stand on the caller's board; the store does
 * any canonicalisation.  Callbacks must be safe to call from several search
 * threads at once.
 */
#ifndef RJ_RESULTSTORE_H
#define RJ_RESULTSTORE_H

#include "types.h"

typedef struct {
    Result result; /* RESULT_PROVEN: attacker wins; RESULT_DISPROVEN: it cannot */
    Color attacker;
    Point best; /* attacker's winning move in the caller's frame, or POINT_NONE */
    uint64_t proof_nodes;
    uint32_t proof_depth;
    uint64_t nodes; /* search nodes spent */
} StoredResult;

typedef struct ResultStore {
    void *ctx;
    /* 0 and *out filled when stored; RJ_ENOTFOUND when not; other codes on error. */
    int (*lookup)(void *ctx, const Board *b, Color attacker, RuleSet rs, StoredResult *out);
    /* Queue a result (and its serialized proof, may be NULL/0) for writing.  0 or an error code. */
    int (*store)(void *ctx, const Board *b, RuleSet rs, const StoredResult *r, const uint8_t *proof, size_t proof_len);
} ResultStore;

#endif /* RJ_RESULTSTORE_H */
