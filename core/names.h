/*
 * names.h - the one spelling of each word of the shared vocabulary (types.h)
 * that text, JSON, the export format and plan files use: colours, rule sets
 * and results.  Like color_other() in types.h, each function is prefixed by
 * the type it names.  All functions are pure and thread-safe.
 */
#ifndef RJ_NAMES_H
#define RJ_NAMES_H

#include "types.h"

/* "black" or "white"; "none" for EMPTY or any other value. */
const char *color_name(Color c);

/* "renju", "freestyle" or "standard"; "invalid" for a value out of range. */
const char *ruleset_name(RuleSet rs);

/* "proven" (the attacker wins), "disproven" (it cannot) or "unknown" (any other value). */
const char *result_name(Result r);

/*
 * Parse a name written by the functions above into *out (untouched on
 * failure).  With any_case the letters' case is ignored (command-line
 * options); file formats pass false.  Return 0, or RJ_EBADARG for anything
 * else (NULL included).
 */
int color_parse(const char *s, bool any_case, Color *out);
int ruleset_parse(const char *s, bool any_case, RuleSet *out);
int result_parse(const char *s, bool any_case, Result *out);

#endif /* RJ_NAMES_H */
