/*
 * openings.h - the 26 designated renju openings (docs/renju.md "The 26 openings").
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
 * Find an opening by code ("D4"), romaji ("Kagetsu", also long-vowel spellings
 * such as "Kyuugetsu"), Chinese name ("花月", also traditional characters and
 * the Japanese kanji) or English gloss ("Flower Moon").  ASCII case, spaces,
 * '-' and '_' are ignored ("flower-moon", "FLOWERMOON").  Returns NULL when
 * none matches (and for "").  The returned pointer is static.
 */
const Opening *opening_find(const char *name);

#endif /* RJ_OPENINGS_H */
