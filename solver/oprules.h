/*
 * oprules.h - the opening procedures as small games over proven facts
 * (docs/renju.md "Opening procedures" and "What solved and fair N mean
 * here").
 *
 * Input: what is proven about one 3-stone opening P3 (OpeningFacts), always
 * with black as the attacker.  Output: one OpruleVerdict per procedure,
 * saying which side the proven facts favour and what is still open.  Nothing
 * is ever guessed: an unknown status stays unknown, and a verdict is only
 * named when it holds for every value the unknown statuses could take.
 *
 * The model (derived; every assumption is listed below)
 * -----------------------------------------------------
 * Every fact says whether BLACK WINS a position (proven) or CANNOT WIN it
 * (disproven: white wins or the game is drawn; the solver never separates the
 * two).  So each game below is read as "does the holder of black win?", and a
 * colour verdict "white" means "black cannot win: white wins or draws"
 * (OpruleVerdict.draw_possible says when a draw is not excluded).
 *
 *   W_i       = number of 5th-move classes after 4th-move class i that are
 *               black wins; the facts give lo_i = wins_min[i] <= W_i <=
 *               hi_i = wins_max[i].
 *   N-choice  = black offers N non-equivalent 5th moves, white keeps one:
 *               after 4th move i black wins iff N <= W_i.
 *   M         = min_i W_i (white picks the 4th move), in [Lm, Hm] with
 *               Lm = min_i lo_i, Hm = min_i hi_i.  So for the opening, black
 *               provably wins the N-choice stage for N <= Lm, provably
 *               cannot for N >= Hm + 1, and the rest is open;
 *               N_fair = 1 + M lies in [1 + Lm, 1 + Hm] (fifth.h).
 *   swap      = the choosing player takes the better colour: a max over
 *               colours.  With facts, a choice is "decided" when the facts
 *               say which colour wins; the chooser then wins (or, taking
 *               white, does not lose).
 *
 * Verdicts are evaluated in three-valued (Kleene) logic: a player is named
 * only when the facts give that player a strategy that wins (draw_possible
 * false) or does not lose (draw_possible true) against EVERY choice the
 * opponent can make inside the procedure; one unknown status that some
 * opponent choice reaches makes the verdict "open".  Note what game theory
 * says on its own: whoever makes the last colour choice can never lose with
 * best play (a swap is a max over both colours), so in every modelled swap
 * procedure that player (OpruleVerdict.chooser) cannot lose; an "open"
 * verdict means the facts do not yet tell that player which colour to take.
 * For the same reason no swap procedure is ever decided for the first
 * player: OPRULE_FIRST exists for the names only.
 *
 * The procedures (per opening P3; "first player" placed the opening)
 * ---------------------------------------------------------------------
 * no-swap    Game (a) of P3, Wen 2007 meaning: plain renju from the three
 *            stones, white to move.  Verdict in colours (black / white /
 *            open) from OpeningFacts.noswap; when noswap is unknown, a
 *            4th-move class with fourth[i] disproven makes it "white" (white
 *            has a 4th move after which black cannot win).  All 4th classes
 *            proven does NOT make it "black": white may also pass at move 4
 *            in plain play, and no fact covers the pass.
 * rif        Swap after move 3 (second player chooses), N = 2.  stage = the
 *            N-choice stage at N: black if Lm >= N, white if Hm < N, else
 *            open; verdict = second player when the stage is decided.
 * yamaguchi  The opener declares N, then the swap.  For each N the stage is
 *            decided iff N <= Lm or N > Hm; the opener may declare any N, so
 *            the second player has an answer to every declaration iff
 *            Lm == Hm (M exact).  Otherwise an N in [Lm+1, Hm] is open: the
 *            "fair N" docs/renju.md means, that the facts cannot settle.
 *            draw_possible is always true: the opener can declare N > M.
 *            The 52-opening and free variants are the same game per opening;
 *            the facts exist for the 26 openings only (see note).
 * soosorv    Soosorv-N, N = 8.  Swap after move 3; the player now white (X)
 *            plays 4th-move class i and declares k in 1..N; the other player
 *            (Y, holding black) may swap; black offers k 5th moves.  Black
 *            wins the stage (i, k) iff k <= W_i, and Y takes the winning
 *            colour, so Y never loses and X can at best hope for a draw (by
 *            declaring k > W_i).  The second player becomes Y by taking
 *            black at the first swap.  Verdict = second player iff every
 *            (i, k) is decided: for every i, lo_i >= min(hi_i, N); else open.
 *            stage = white if some declaration is proven non-winning for
 *            black (Hm < N: X can make Y take white, a draw not excluded),
 *            black if every declaration is a proven black win (Lm >= N),
 *            else open.
 * jonsson    As soosorv with k in {1, 2, 3} (N = 3).
 * tarannikov Moves 1-5 in the central 1x1, 3x3, 5x5, 7x7, 9x9, a swap option
 *            after each, move 6 anywhere.  The player choosing after move 5
 *            faces game (a) of P5 (white to move) and wins when its status is
 *            known; the player choosing after move 4 makes the opponent place
 *            move 5, and so on back: the chooser after move 3 (the second
 *            player in the line where the second player keeps every swap
 *            option, which is that player's best line) wins iff, for every
 *            4th-move class in the 7x7, every 5th-move class in the 9x9 has a
 *            known status.  Needs fourth_in_7x7 / open_in_9x9 to be sharp;
 *            without them every class counts (sound, may leave it open).
 * taraguchi  Taraguchi-N, N = 10: as tarannikov to move 4; then the player
 *            holding black for move 5 (assumption A4) picks option 1 (swap,
 *            move 5 in the 9x9, swap, move 6) or option 2 (N-choice with N
 *            5th moves anywhere).  Option 1 loses for that player (the
 *            chooser after move 5 wins), option 2 wins iff N <= W_i.  So the
 *            chooser after move 4 wins at class i iff lo_i >= N, or hi_i < N
 *            and every 9x9 5th class is known; verdict = second player (as in
 *            tarannikov) iff that holds for every 4th class in the 7x7.
 *
 * Assumptions where the procedures (docs/renju.md) are vague
 * ------------------------------------
 * A1  Moves 4 and 5 of a procedure are stones: the 4th-move classes in the
 *     facts are all of white's options and 5th-move alternatives are stone
 *     classes (fifth.h counts stone moves; this is the project's N_fair).
 *     Only game (a) (no-swap, and the statuses themselves) includes passes.
 * A2  "Swap" = the player not placing the next move may take the colour that
 *     has just moved (docs/renju.md); a swap is a max over colours.
 * A3  fourth[i] disproven means every black 5th move fails after class i, so
 *     W_i = 0 (hi_i is tightened to 0; lo_i >= 1 with it is a conflict).  A
 *     proven fourth[i] does not raise lo_i (the win could start with a pass).
 * A4  In Taraguchi the player who holds black for move 5 chooses between the
 *     two options.  N alternatives are non-equivalent classes, as in RIF.
 * A5  A verdict through "black cannot win" only says the named player does
 *     not lose (draw_possible); the facts never prove a white win.
 *
 * Pure functions, no allocation, no global state: thread-safe.
 */
#ifndef RJ_OPRULES_H
#define RJ_OPRULES_H

#include <stdio.h>

#include "types.h"

/* What is proven about one 3-stone opening (attacker always black). */
typedef struct {
    Result noswap;        /* game (a) from the 3-stone opening, white to move: PROVEN black wins,
                             DISPROVEN black cannot, UNKNOWN */
    int nfourth;          /* number of 4th-move equivalence classes (white's moves), 1..BOARD_POINTS */
    const int *nfifth;    /* per 4th class: number of 5th-move classes */
    const int *wins_min;  /* per 4th class: proven black-winning 5th classes (lower bound of W) */
    const int *wins_max;  /* per 4th class: 5th classes not proven non-winning (upper bound of W) */
    const Result *fourth; /* per 4th class: game (a) after that 4th move, black to move (PROVEN iff
                             wins_min>=1 normally; may be NULL) */
    /* Optional refinements for tarannikov / taraguchi (NULL: unknown, every class counts). */
    const bool *fourth_in_7x7; /* per 4th class: its moves lie in the central 7x7 (d4..l12) */
    const int *open_in_9x9;    /* per 4th class: 5th classes of unknown status inside the central
                                  9x9 (c3..m13); 0..wins_max-wins_min */
} OpeningFacts;

/* The procedures, in the order oprules_evaluate() reports them. */
typedef enum {
    OPRULE_NOSWAP = 0,
    OPRULE_RIF = 1,
    OPRULE_YAMAGUCHI = 2,
    OPRULE_SOOSORV = 3,
    OPRULE_TARAGUCHI = 4,
    OPRULE_TARANNIKOV = 5,
    OPRULE_JONSSON = 6,
    OPRULE_COUNT = 7
} OpruleId;

/* Who comes out ahead; OPRULE_NONE: the field does not apply to the rule. */
typedef enum {
    OPRULE_OPEN = 0,   /* "open": the facts do not decide it */
    OPRULE_BLACK = 1,  /* "black": black wins */
    OPRULE_WHITE = 2,  /* "white": black cannot win (white wins or draws, A5) */
    OPRULE_FIRST = 3,  /* "first-player": the player who placed the opening (never produced) */
    OPRULE_SECOND = 4, /* "second-player": the other player */
    OPRULE_NONE = 5    /* JSON null */
} OpruleOutcome;

/*
 * The verdict of one procedure for one opening.  Integer fields that do not
 * apply to the rule are -1 (JSON null).
 */
typedef struct {
    OpruleId rule;
    int n;                      /* the rule's N (rif 2, soosorv 8, taraguchi 10, jonsson 3); -1: none */
    OpruleOutcome verdict;      /* who the facts say wins the procedure for this opening */
    OpruleOutcome stage;        /* no-swap: game (a); rif: the N-choice stage at n; soosorv/jonsson:
                                   can the declarer force a stage black cannot win (white) or is every
                                   declaration a black win (black); NONE for the others */
    OpruleOutcome chooser;      /* the player making the last colour choice (cannot lose); NONE: no swap */
    bool draw_possible;         /* the verdict's winner is only proven not to lose (true when open) */
    int black_wins_n_max;       /* N-choice rules: black proven to win the stage for every N <= this
                                   (= Lm; 0: for no N) */
    int black_fails_n_min;      /* N-choice rules: black proven unable for every N >= this (= Hm + 1) */
    int n_fair_min, n_fair_max; /* N-choice rules: N_fair bounds [1 + Lm, 1 + Hm] */
    int open_fourth;            /* 4th-move classes whose bounds keep the verdict open (0 when decided);
                                   -1 for no-swap */
    const char *why;            /* static one-line reason, never NULL */
    const char *note;           /* static caveat for the rule, or NULL */
} OpruleVerdict;

/* Stable lower-case name of a rule ("no-swap", "rif", ...); "?" for an out-of-range id. */
const char *oprules_name(OpruleId rule);

/* The rule named name (as oprules_name spells it), or RJ_ENOTFOUND. */
int oprules_from_name(const char *name);

/* Name of an outcome ("open", "black", "white", "first-player", "second-player"; "null" for NONE). */
const char *oprules_outcome_name(OpruleOutcome o);

/* The rule's default N (rif 2, soosorv 8, taraguchi 10, jonsson 3), -1 for rules without one. */
int oprules_default_n(OpruleId rule);

/*
 * Verdict of one rule for the opening f.  n overrides the rule's N (e.g. 4
 * for the Soosorv version with 1-4 fifth moves, 5 for that Taraguchi
 * version); n <= 0 takes the default; ignored by rules without N.  Returns
 * 0; RJ_EBADARG for a NULL pointer, an unknown rule, nfourth outside
 * 1..BOARD_POINTS, a NULL per-class array, negative counts, wins_min >
 * wins_max, wins_max > nfifth, a Result outside the enum, open_in_9x9
 * outside 0..wins_max-wins_min, or a fourth_in_7x7 with no class in the
 * 7x7; RJ_ECONFLICT when the facts contradict each other (fourth[i]
 * disproven with wins_min[i] >= 1; noswap proven with some fourth[i]
 * disproven).  *out is written only on success.
 */
int oprules_evaluate_rule(const OpeningFacts *f, OpruleId rule, int n, OpruleVerdict *out);

/*
 * Verdicts of all rules with their default N, in OpruleId order: writes
 * min(max, OPRULE_COUNT) verdicts to out and returns that count (out may be
 * NULL when max is 0: the facts are only checked).  Errors as
 * oprules_evaluate_rule (nothing written).
 */
int oprules_evaluate(const OpeningFacts *f, OpruleVerdict *out, int max);

/*
 * One line explaining v with its numbers (e.g. the N ranges), written to buf
 * (len bytes, always NUL-terminated when len > 0).  Returns the length the
 * full line needs, excluding the NUL (snprintf style), or RJ_EBADARG.
 */
int oprules_explain(const OpruleVerdict *v, char *buf, size_t len);

/*
 * Writes v as one JSON object on one line to fp, keys in this order:
 *   "rule"               oprules_name
 *   "n"                  the rule's N, or null
 *   "verdict"            oprules_outcome_name: "black"/"white" (no-swap),
 *                        "second-player", "open"
 *   "stage"              "black"/"white"/"open", or null
 *   "chooser"            "second-player", or null
 *   "draw_possible"      true/false
 *   "black_wins_n_max"   int or null    black wins the N-choice stage for N <= it
 *   "black_fails_n_min"  int or null    black cannot for N >= it
 *   "n_fair_min", "n_fair_max"  int or null
 *   "open_fourth"        int or null
 *   "why"                oprules_explain's line
 *   "note"               string or null
 * Returns 0, RJ_EBADARG, or RJ_EIO when writing fails.  Not thread-safe on a
 * shared FILE beyond stdio's own locking.
 */
int oprules_write_json(FILE *fp, const OpruleVerdict *v);

/* oprules_write_json for v[0..n-1], one object per line (JSON Lines).  Returns as oprules_write_json. */
int oprules_write_jsonl(FILE *fp, const OpruleVerdict *v, int n);

#endif /* RJ_OPRULES_H */
