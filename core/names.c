/* names.c - see names.h. */
#include "names.h"

#include <string.h>
#include <strings.h>

#include "error.h"

static const char *const COLOR_NAMES[] = {[BLACK] = "black", [WHITE] = "white"};
static const char *const RULESET_NAMES[] = {
    [RULE_RENJU] = "renju", [RULE_FREESTYLE] = "freestyle", [RULE_STANDARD] = "standard"};
static const char *const RESULT_NAMES[] = {
    [RESULT_UNKNOWN] = "unknown", [RESULT_PROVEN] = "proven", [RESULT_DISPROVEN] = "disproven"};

const char *color_name(Color c) { return c == BLACK || c == WHITE ? COLOR_NAMES[c] : "none"; }

const char *ruleset_name(RuleSet rs) { return (unsigned)rs <= RULE_STANDARD ? RULESET_NAMES[rs] : "invalid"; }

const char *result_name(Result r)
{
    return r == RESULT_PROVEN || r == RESULT_DISPROVEN ? RESULT_NAMES[r] : RESULT_NAMES[RESULT_UNKNOWN];
}

/* Index of s among names[lo..hi] (NULL entries skipped), or -1. */
static int find(const char *s, bool any_case, const char *const *names, int lo, int hi)
{
    if (!s)
        return -1;
    for (int i = lo; i <= hi; i++)
        if (names[i] && (any_case ? !strcasecmp(s, names[i]) : !strcmp(s, names[i])))
            return i;
    return -1;
}

int color_parse(const char *s, bool any_case, Color *out)
{
    int i = find(s, any_case, COLOR_NAMES, BLACK, WHITE);
    if (i < 0)
        return RJ_EBADARG;
    *out = (Color)i;
    return 0;
}

int ruleset_parse(const char *s, bool any_case, RuleSet *out)
{
    int i = find(s, any_case, RULESET_NAMES, RULE_RENJU, RULE_STANDARD);
    if (i < 0)
        return RJ_EBADARG;
    *out = (RuleSet)i;
    return 0;
}

int result_parse(const char *s, bool any_case, Result *out)
{
    int i = find(s, any_case, RESULT_NAMES, RESULT_UNKNOWN, RESULT_DISPROVEN);
    if (i < 0)
        return RJ_EBADARG;
    *out = (Result)i;
    return 0;
}
