/* oprules.c - see oprules.h. */
#include "oprules.h"

#include <assert.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "error.h"

/* The facts after checking and tightening (A3); lo/hi/open9/in7 per 4th-move class. */
typedef struct {
    int nfourth;
    Result noswap;       /* after deriving "white" from a disproven fourth[i] */
    bool noswap_derived; /* noswap was unknown and a fourth[i] decided it */
    const int *nfifth;
    const int *lo;
    int hi[BOARD_POINTS];    /* wins_max, 0 where fourth[i] is disproven */
    int open9[BOARD_POINTS]; /* unknown 5th classes that may lie in the 9x9 */
    bool in7[BOARD_POINTS];  /* the class may lie in the 7x7 */
    int lmin, hmin;          /* Lm = min lo_i, Hm = min hi_i */
} Facts;

static const char *const rule_names[OPRULE_COUNT] = {
    "no-swap", "rif", "yamaguchi", "soosorv", "taraguchi", "tarannikov", "jonsson",
};

static const char *const outcome_names[] = {
    "open", "black", "white", "first-player", "second-player", "null",
};

/* The small set of reasons (OpruleVerdict.why). */
static const char WHY_NOSWAP_BLACK[] = "black wins game (a) from the opening (plain renju, white to move)";
static const char WHY_NOSWAP_WHITE[] = "black cannot win game (a) from the opening (white wins or draws)";
static const char WHY_NOSWAP_DERIVED[] =
    "black cannot win game (a): after some 4th move black is proven unable to win (white wins or draws)";
static const char WHY_NOSWAP_OPEN[] = "game (a) from the opening is not decided by the facts";
static const char WHY_STAGE_BLACK[] = "the stage is a proven black win, so the second player swaps to black and wins";
static const char WHY_STAGE_WHITE[] =
    "black provably cannot win the stage, so the second player keeps white and does not lose";
static const char WHY_STAGE_OPEN[] =
    "the facts do not decide the stage (the second player, choosing the colour, cannot lose either way)";
static const char WHY_YAMA_DECIDED[] =
    "min W is exact, so every declared N is decided and the second player answers it with the winning colour";
static const char WHY_YAMA_OPEN[] = "the opener can declare an N that the facts do not decide";
static const char WHY_DECL_DECIDED[] =
    "every 4th move and declaration is decided, so the second player (black after the first swap) "
    "takes the winning colour at the second swap";
static const char WHY_DECL_OPEN[] =
    "some 4th move and declaration leaves the second swap undecided (its chooser cannot lose either way)";
static const char WHY_TARA_DECIDED[] =
    "every colour choice after move 3 is decided, so the swap chooser after move 3 wins";
static const char WHY_TARA_OPEN[] = "some 4th move in the 7x7 leads to a colour choice the facts do not decide";

static const char NOTE_NOSWAP[] = "Wen 2007 meaning; a pass at move 4 is covered only by the noswap status";
static const char NOTE_YAMAGUCHI[] =
    "52-opening and free variants: same game per opening, but only the 26 openings are analysed";
static const char NOTE_SOOSORV[] = "N = 8 since 2017; one seed text gives 1-4 (evaluate with n = 4)";
static const char NOTE_TARANNIKOV[] = "chooser = player not placing move 3 (the second player on his best line); "
                                      "sharp only with fourth_in_7x7 and open_in_9x9";
static const char NOTE_TARAGUCHI[] = "option chosen by the player holding black for move 5 (assumed); "
                                     "sharp only with fourth_in_7x7 and open_in_9x9";

const char *oprules_name(OpruleId rule) { return (unsigned)rule < OPRULE_COUNT ? rule_names[rule] : "?"; }

int oprules_from_name(const char *name)
{
    if (name)
        for (int r = 0; r < OPRULE_COUNT; r++)
            if (strcmp(name, rule_names[r]) == 0)
                return r;
    return RJ_ENOTFOUND;
}

const char *oprules_outcome_name(OpruleOutcome o) { return (unsigned)o <= OPRULE_NONE ? outcome_names[o] : "?"; }

int oprules_default_n(OpruleId rule)
{
    switch (rule) {
    case OPRULE_RIF:
        return 2;
    case OPRULE_SOOSORV:
        return 8;
    case OPRULE_TARAGUCHI:
        return 10;
    case OPRULE_JONSSON:
        return 3;
    default:
        return -1;
    }
}

static bool result_ok(Result r) { return r == RESULT_UNKNOWN || r == RESULT_PROVEN || r == RESULT_DISPROVEN; }

/* Checks f and fills F (see oprules_evaluate_rule for the error codes). */
static int facts_load(const OpeningFacts *f, Facts *F)
{
    if (!f || f->nfourth < 1 || f->nfourth > BOARD_POINTS || !f->nfifth || !f->wins_min || !f->wins_max ||
        !result_ok(f->noswap))
        return RJ_EBADARG;
    F->nfourth = f->nfourth;
    F->nfifth = f->nfifth;
    F->lo = f->wins_min;
    F->noswap = f->noswap;
    F->noswap_derived = false;
    bool any7 = false;
    for (int i = 0; i < f->nfourth; i++) {
        int lo = f->wins_min[i], hi = f->wins_max[i];
        if (lo < 0 || lo > hi || hi > f->nfifth[i])
            return RJ_EBADARG;
        if (f->open_in_9x9 && (f->open_in_9x9[i] < 0 || f->open_in_9x9[i] > hi - lo))
            return RJ_EBADARG;
        Result r = f->fourth ? f->fourth[i] : RESULT_UNKNOWN;
        if (!result_ok(r))
            return RJ_EBADARG;
        if (r == RESULT_DISPROVEN) {
            /* A3: no black 5th move wins after this 4th move, so W_i = 0. */
            if (lo >= 1 || f->noswap == RESULT_PROVEN)
                return RJ_ECONFLICT;
            hi = 0;
        }
        F->hi[i] = hi;
        F->open9[i] = f->open_in_9x9 ? f->open_in_9x9[i] : hi - lo;
        if (F->open9[i] > hi - lo)
            F->open9[i] = hi - lo;
        F->in7[i] = f->fourth_in_7x7 ? f->fourth_in_7x7[i] : true;
        any7 |= F->in7[i];
        if (r == RESULT_DISPROVEN && F->noswap == RESULT_UNKNOWN) {
            F->noswap = RESULT_DISPROVEN;
            F->noswap_derived = true;
        }
    }
    if (!any7)
        return RJ_EBADARG; /* move 4 of tarannikov/taraguchi must have a class in the 7x7 */
    F->lmin = F->lo[0];
    F->hmin = F->hi[0];
    for (int i = 1; i < F->nfourth; i++) {
        if (F->lo[i] < F->lmin)
            F->lmin = F->lo[i];
        if (F->hi[i] < F->hmin)
            F->hmin = F->hi[i];
    }
    return RJ_OK;
}

/* A verdict with every field "does not apply". */
static void verdict_init(OpruleVerdict *v, OpruleId rule, int n)
{
    v->rule = rule;
    v->n = n;
    v->verdict = OPRULE_OPEN;
    v->stage = OPRULE_NONE;
    v->chooser = OPRULE_NONE;
    v->draw_possible = true;
    v->black_wins_n_max = -1;
    v->black_fails_n_min = -1;
    v->n_fair_min = -1;
    v->n_fair_max = -1;
    v->open_fourth = -1;
    v->why = WHY_NOSWAP_OPEN;
    v->note = NULL;
}

/* The opening-level N-choice bounds: black wins for N <= Lm, cannot for N > Hm. */
static void set_n_ranges(const Facts *F, OpruleVerdict *v)
{
    v->black_wins_n_max = F->lmin;
    v->black_fails_n_min = F->hmin + 1;
    v->n_fair_min = 1 + F->lmin;
    v->n_fair_max = 1 + F->hmin;
}

static void eval_noswap(const Facts *F, OpruleVerdict *v)
{
    verdict_init(v, OPRULE_NOSWAP, -1);
    v->note = NOTE_NOSWAP;
    switch (F->noswap) {
    case RESULT_PROVEN:
        v->verdict = OPRULE_BLACK;
        v->draw_possible = false;
        v->why = WHY_NOSWAP_BLACK;
        break;
    case RESULT_DISPROVEN:
        v->verdict = OPRULE_WHITE;
        v->why = F->noswap_derived ? WHY_NOSWAP_DERIVED : WHY_NOSWAP_WHITE;
        break;
    default:
        v->verdict = OPRULE_OPEN;
        v->why = WHY_NOSWAP_OPEN;
        break;
    }
    v->stage = v->verdict;
}

/* Swap after move 3, then the N-choice stage at a fixed n. */
static void eval_rif(const Facts *F, int n, OpruleVerdict *v)
{
    verdict_init(v, OPRULE_RIF, n);
    set_n_ranges(F, v);
    v->chooser = OPRULE_SECOND;
    v->open_fourth = 0;
    if (F->lmin >= n) {
        v->stage = OPRULE_BLACK;
        v->verdict = OPRULE_SECOND;
        v->draw_possible = false;
        v->why = WHY_STAGE_BLACK;
    } else if (F->hmin < n) {
        v->stage = OPRULE_WHITE;
        v->verdict = OPRULE_SECOND;
        v->why = WHY_STAGE_WHITE;
    } else {
        /* Every hi_i >= n here: the classes still below n are the ones to prove. */
        v->stage = OPRULE_OPEN;
        v->why = WHY_STAGE_OPEN;
        for (int i = 0; i < F->nfourth; i++)
            v->open_fourth += F->lo[i] < n;
    }
}

/* The opener declares any N, then the swap: decided for every N iff M is exact. */
static void eval_yamaguchi(const Facts *F, OpruleVerdict *v)
{
    verdict_init(v, OPRULE_YAMAGUCHI, -1);
    set_n_ranges(F, v);
    v->chooser = OPRULE_SECOND;
    v->note = NOTE_YAMAGUCHI;
    v->open_fourth = 0;
    /* Classes that could still hold the minimum below the best upper bound. */
    for (int i = 0; i < F->nfourth; i++)
        v->open_fourth += F->lo[i] < F->hmin;
    v->verdict = v->open_fourth == 0 ? OPRULE_SECOND : OPRULE_OPEN;
    v->why = v->open_fourth == 0 ? WHY_YAMA_DECIDED : WHY_YAMA_OPEN;
}

/* Soosorv-n / Jonsson: the white holder picks class i and k in 1..n, the black holder swaps. */
static void eval_declared(const Facts *F, OpruleId rule, int n, OpruleVerdict *v)
{
    verdict_init(v, rule, n);
    set_n_ranges(F, v);
    v->chooser = OPRULE_SECOND;
    if (rule == OPRULE_SOOSORV)
        v->note = NOTE_SOOSORV;
    v->open_fourth = 0;
    for (int i = 0; i < F->nfourth; i++) {
        /* k is decided iff k <= lo_i (black) or k > hi_i (white); open k: lo_i < k <= min(hi_i, n). */
        int top = F->hi[i] < n ? F->hi[i] : n;
        v->open_fourth += F->lo[i] < top;
    }
    if (F->lmin >= n)
        v->stage = OPRULE_BLACK;
    else if (F->hmin < n)
        v->stage = OPRULE_WHITE;
    else
        v->stage = OPRULE_OPEN;
    if (v->open_fourth == 0) {
        v->verdict = OPRULE_SECOND;
        /* All decided: the declarer can force "take white" iff some W_i < n. */
        v->draw_possible = F->lmin < n;
        v->why = WHY_DECL_DECIDED;
    } else {
        v->why = WHY_DECL_OPEN;
    }
}

/* Tarannikov: the chooser after move 3 wins iff every 9x9 5th move after every 7x7 4th move is known. */
static void eval_tarannikov(const Facts *F, OpruleVerdict *v)
{
    verdict_init(v, OPRULE_TARANNIKOV, -1);
    v->chooser = OPRULE_SECOND;
    v->note = NOTE_TARANNIKOV;
    v->open_fourth = 0;
    bool all_proven = true;
    for (int i = 0; i < F->nfourth; i++) {
        if (!F->in7[i])
            continue;
        v->open_fourth += F->open9[i] > 0;
        all_proven &= F->lo[i] == F->nfifth[i];
    }
    if (v->open_fourth == 0) {
        v->verdict = OPRULE_SECOND;
        /* Without positions of the disproven classes, a draw is excluded only when all are proven. */
        v->draw_possible = !all_proven;
        v->why = WHY_TARA_DECIDED;
    } else {
        v->why = WHY_TARA_OPEN;
    }
}

/* Taraguchi-n: at 7x7 class i the black holder wins iff W_i >= n (option 2); option 1 always loses. */
static void eval_taraguchi(const Facts *F, int n, OpruleVerdict *v)
{
    verdict_init(v, OPRULE_TARAGUCHI, n);
    v->chooser = OPRULE_SECOND;
    v->note = NOTE_TARAGUCHI;
    v->open_fourth = 0;
    bool all_black = true;
    for (int i = 0; i < F->nfourth; i++) {
        if (!F->in7[i])
            continue;
        bool black = F->lo[i] >= n;
        bool white = F->hi[i] < n && F->open9[i] == 0; /* option 2 fails, option 1 known to fail */
        v->open_fourth += !black && !white;
        all_black &= black;
    }
    if (v->open_fourth == 0) {
        v->verdict = OPRULE_SECOND;
        v->draw_possible = !all_black;
        v->why = WHY_TARA_DECIDED;
    } else {
        v->why = WHY_TARA_OPEN;
    }
}

static void eval_rule(const Facts *F, OpruleId rule, int n, OpruleVerdict *v)
{
    if (n <= 0)
        n = oprules_default_n(rule);
    switch (rule) {
    case OPRULE_NOSWAP:
        eval_noswap(F, v);
        break;
    case OPRULE_RIF:
        eval_rif(F, n, v);
        break;
    case OPRULE_YAMAGUCHI:
        eval_yamaguchi(F, v);
        break;
    case OPRULE_SOOSORV:
    case OPRULE_JONSSON:
        eval_declared(F, rule, n, v);
        break;
    case OPRULE_TARAGUCHI:
        eval_taraguchi(F, n, v);
        break;
    case OPRULE_TARANNIKOV:
        eval_tarannikov(F, v);
        break;
    default:
        assert(!"unknown rule");
        break;
    }
}

int oprules_evaluate_rule(const OpeningFacts *f, OpruleId rule, int n, OpruleVerdict *out)
{
    if (!out || (unsigned)rule >= OPRULE_COUNT)
        return RJ_EBADARG;
    Facts F;
    int rc = facts_load(f, &F);
    if (rc)
        return rc;
    eval_rule(&F, rule, n, out);
    return RJ_OK;
}

int oprules_evaluate(const OpeningFacts *f, OpruleVerdict *out, int max)
{
    if (max < 0 || (max > 0 && !out))
        return RJ_EBADARG;
    Facts F;
    int rc = facts_load(f, &F);
    if (rc)
        return rc;
    int n = max < OPRULE_COUNT ? max : OPRULE_COUNT;
    for (int r = 0; r < n; r++)
        eval_rule(&F, (OpruleId)r, 0, &out[r]);
    return n;
}

/* Appends to an snprintf-style cursor: *used counts the full length even past len. */
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = *used < len ? buf + *used : NULL;
    size_t room = *used < len ? len - *used : 0;
    int k = vsnprintf(at, room, fmt, ap);
    va_end(ap);
    if (k > 0)
        *used += (size_t)k;
}

int oprules_explain(const OpruleVerdict *v, char *buf, size_t len)
{
    if (!v || (!buf && len > 0) || (unsigned)v->rule >= OPRULE_COUNT || !v->why)
        return RJ_EBADARG;
    size_t used = 0;
    if (len > 0)
        buf[0] = '\0';
    put(buf, len, &used, "%s", oprules_name(v->rule));
    if (v->n > 0)
        put(buf, len, &used, " N=%d", v->n);
    put(buf, len, &used, ": %s: %s", oprules_outcome_name(v->verdict), v->why);
    if (v->black_wins_n_max >= 0) {
        if (v->black_wins_n_max == 0)
            put(buf, len, &used, "; black wins the 5th-move stage for no N proven");
        else
            put(buf, len, &used, "; black wins the 5th-move stage for N <= %d", v->black_wins_n_max);
        put(buf, len, &used, ", cannot for N >= %d, N_fair in [%d, %d]", v->black_fails_n_min, v->n_fair_min,
            v->n_fair_max);
    }
    if (v->open_fourth > 0)
        put(buf, len, &used, "; %d 4th-move class%s open", v->open_fourth, v->open_fourth == 1 ? "" : "es");
    if (v->verdict != OPRULE_OPEN && v->draw_possible)
        put(buf, len, &used, "; a draw is not excluded");
    return used > (size_t)INT_MAX ? RJ_EINTERNAL : (int)used;
}

/* Writes s as a JSON string (our strings are ASCII; quotes, backslashes and controls escaped). */
static void json_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(fp, "\\%c", c);
        else if (c < 0x20)
            fprintf(fp, "\\u%04x", c);
        else
            fputc(c, fp);
    }
    fputc('"', fp);
}

static void json_int(FILE *fp, const char *key, int x)
{
    if (x < 0)
        fprintf(fp, ",\"%s\":null", key);
    else
        fprintf(fp, ",\"%s\":%d", key, x);
}

static void json_outcome(FILE *fp, const char *key, OpruleOutcome o)
{
    if (o == OPRULE_NONE)
        fprintf(fp, ",\"%s\":null", key);
    else
        fprintf(fp, ",\"%s\":\"%s\"", key, oprules_outcome_name(o));
}

int oprules_write_json(FILE *fp, const OpruleVerdict *v)
{
    char why[1024];
    if (!fp || oprules_explain(v, why, sizeof why) < 0 || (unsigned)v->verdict > OPRULE_NONE ||
        (unsigned)v->stage > OPRULE_NONE || (unsigned)v->chooser > OPRULE_NONE)
        return RJ_EBADARG;
    fprintf(fp, "{\"rule\":\"%s\"", oprules_name(v->rule));
    json_int(fp, "n", v->n);
    json_outcome(fp, "verdict", v->verdict);
    json_outcome(fp, "stage", v->stage);
    json_outcome(fp, "chooser", v->chooser);
    fprintf(fp, ",\"draw_possible\":%s", v->draw_possible ? "true" : "false");
    json_int(fp, "black_wins_n_max", v->black_wins_n_max);
    json_int(fp, "black_fails_n_min", v->black_fails_n_min);
    json_int(fp, "n_fair_min", v->n_fair_min);
    json_int(fp, "n_fair_max", v->n_fair_max);
    json_int(fp, "open_fourth", v->open_fourth);
    fputs(",\"why\":", fp);
    json_string(fp, why);
    fputs(",\"note\":", fp);
    if (v->note)
        json_string(fp, v->note);
    else
        fputs("null", fp);
    fputs("}\n", fp);
    return ferror(fp) ? RJ_EIO : RJ_OK;
}

int oprules_write_jsonl(FILE *fp, const OpruleVerdict *v, int n)
{
    if (n < 0 || (n > 0 && !v))
        return RJ_EBADARG;
    for (int i = 0; i < n; i++) {
        int rc = oprules_write_json(fp, &v[i]);
        if (rc)
            return rc;
    }
    return RJ_OK;
}
