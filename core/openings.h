/*
 * openings.h - the 26 designated renju openings (DOMAIN.md).
 */
#ifndef RJ_OPENINGS_H
#define RJ_OPENINGS_H

#include "types.h"

enum { NUM_OPENINGS = 26 };

typedef struct {
    const char *code;     /* "D1".."D13", "I1".."I13" */
    const char *japanese; /* romaji, e.g. "Kansei" */
    const char *chinese;  /* UTF-8, e.g. "寒星" */
    const char *english;  /* literal gloss, e.g. "Cold Star" */
    Point moves[3];       /* h8, white 2, black 3 */
} Opening;

/* The i-th opening, 0 <= i < NUM_OPENINGS, in the order D1..D13, I1..I13. */
const Opening *opening_get(int i);

/*
 * Find an opening by code, romaji or Chinese name or English gloss,
 * case-insensitively.  Returns NULL when none matches.
 */
const Opening *opening_find(const char *name);

#endif /* RJ_OPENINGS_H */
