/*
 * engine.h - a game-playing engine on top of the solver: it tracks the
 * position of one game, keeps the time and memory limits a game manager
 * sets, and chooses a move for the side to move within a time budget.
 * The Gomocup protocol loop (solver/cli/cli_pbrain.c) drives it; nothing
 * here prints.
 *
 * How a move is chosen (engine_choose), each step bounded by the turn's
 * deadline:
 *   1. a five of its own; else the block of the opponent's five point;
 *   2. a proven win from the result store (the position itself for the side
 *      to move, else a child position stored as proven for it: what
 *      `renju query --children` shows);
 *   3. its own VCF, then its own VCT (vcf.h, vct.h): proven wins;
 *   4. when the opponent would win by VCF if it could move now (a four, an
 *      open three, a four-three in the making), a move after which the
 *      opponent has no VCF (after a four of ours: once it has blocked, if
 *      we passed): the points of the opponent's line first, then every
 *      other legal move by the evaluation below;
 *   5. a df-pn solve (dfpn.h) with part of the time left: its move when it
 *      proves a win;
 *   6. otherwise an evaluation: legal points near the stones scored by the
 *      five-windows through them (own and the opponent's, thr_window_max; a
 *      four counts as a three: it wins nothing by itself), the first that
 *      leaves the opponent no VCF, preferring (while time lasts) one that
 *      leaves it no VCT either.
 * The engine never plays an occupied point, never a forbidden point as
 * black under renju, and with an empty board it plays the centre (h8).
 *
 * Time.  The budget of a turn is the manager's turn limit, cut to a share of
 * the match time left when the match is timed, minus a safety margin (20%
 * and 30 ms); engine_turn_budget() says how much.  The deadline is counted
 * from the moment the command arrived (the caller passes it), and every
 * search gets the time to that deadline as its own limit.
 *
 * Thread safety: an Engine belongs to one thread.
 */
#ifndef RJ_ENGINE_H
#define RJ_ENGINE_H

#include <stddef.h>

#include "board.h"
#include "resultstore.h"
#include "types.h"

typedef struct Engine Engine;

/* What the game manager allows (Gomocup INFO keys); engine_limits_default() fills the defaults. */
typedef struct {
    RuleSet rules;    /* rule set of the game (default renju) */
    double turn_s;    /* time per move (timeout_turn; default 5 s; 0: play at once) */
    double match_s;   /* time for the whole match (timeout_match; 0: unlimited) */
    double left_s;    /* match time left (time_left; < 0: not told) */
    size_t mem_bytes; /* memory limit (max_memory; 0: none): sizes the df-pn table */
    int threads;      /* df-pn threads (default 1) */
} EngineLimits;

/* Fill l with the defaults above. */
void engine_limits_default(EngineLimits *l);

/* Where a chosen move came from (engine_source_name spells it). */
typedef enum {
    ENGINE_FIVE,   /* makes five */
    ENGINE_BLOCK,  /* blocks the opponent's five point */
    ENGINE_DB,     /* proven win stored in the result store */
    ENGINE_VCF,    /* proven win by continuous fours */
    ENGINE_VCT,    /* proven win by continuous threats */
    ENGINE_DFPN,   /* proven win found by df-pn */
    ENGINE_DEFEND, /* leaves the opponent no VCF (it had one after a pass) */
    ENGINE_EVAL,   /* evaluation, nothing proven */
    ENGINE_OPENING /* first move of the game (the centre) */
} EngineSource;

/* The source as text: "five", "block", "database", "vcf", "vct", "dfpn", "defend", "eval", "opening". */
const char *engine_source_name(EngineSource s);

typedef struct {
    Point move;          /* the move chosen (not yet played) */
    EngineSource source; /* why */
    bool win;            /* a proven win for the side to move */
    uint64_t nodes;      /* search nodes spent on this move */
    double time_s;       /* seconds from the command's arrival to the choice */
} EngineMove;

/*
 * Create an engine with an empty board and default limits.  store (may be
 * NULL) is read for proven results; it is copied, and whatever it points to
 * must outlive the engine.  Returns 0 or RJ_ENOMEM.  Free with engine_free().
 */
int engine_new(Engine **out, const ResultStore *store);

/* Free e (NULL is fine). */
void engine_free(Engine *e);

/*
 * Set the limits.  A new rule set applies from the next move on (the stones
 * on the board stay).  Returns 0 or RJ_EBADARG (threads < 1, a negative
 * time).
 */
int engine_set_limits(Engine *e, const EngineLimits *l);

/* The current limits. */
const EngineLimits *engine_limits(const Engine *e);

/* Seconds the next turn may take from the command's arrival (see "Time" above). */
double engine_turn_budget(const Engine *e);

/* Start a new game: empty board, black to move.  Limits are kept. */
void engine_new_game(Engine *e);

/* The position (read-only). */
const Board *engine_board(const Engine *e);

/*
 * Play a stone for the side to move.  Returns 0, or RJ_EBADPOS with a
 * one-line reason in why (whylen bytes, may be NULL) when the game is over,
 * the point is off the board or occupied, or it is forbidden for black under
 * renju; the position is then unchanged.
 */
int engine_play(Engine *e, Point p, char *why, size_t whylen);

/*
 * Take back the last move, which must be p (Gomocup TAKEBACK).  Returns 0,
 * or RJ_EBADPOS (with why) when the last move is not p or cannot be taken
 * back (a stone of a position set with engine_set_stones).
 */
int engine_undo(Engine *e, Point p, char *why, size_t whylen);

/*
 * Set the position from a manager's stone list: pts[0..n) with own[i] true
 * for the engine's stones, false for the opponent's; the engine is to move.
 * Its colour follows from the counts: black (the first player) with as many
 * stones as the opponent, white with one fewer.  When the list alternates
 * black, white, black... (the order of play, as Gomocup sends renju games)
 * the stones are played as moves, so each black move is checked against the
 * rules when it was played; otherwise they are set up as a stone set.
 * Returns 0, or RJ_EBADPOS with a reason in why (a point twice, counts no
 * game can reach, a five already on the board, a black move that was
 * forbidden); the position is then unchanged.
 */
int engine_set_stones(Engine *e, const Point *pts, const bool *own, int n, char *why, size_t whylen);

/*
 * Choose a move for the side to move (see the top of this file), the turn's
 * deadline counted from `arrival` (clock_now() when the command came).
 * Does not play it.  Returns 0 with *out filled, or RJ_EBADPOS (with why)
 * when the game is over or no legal move is left (RJ_EINTERNAL: a bug).
 */
int engine_choose(Engine *e, double arrival, EngineMove *out, char *why, size_t whylen);

#endif /* RJ_ENGINE_H */
