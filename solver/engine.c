/* engine.c - see engine.h. */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "dfpn.h"
#include "error.h"
#include "notation.h"
#include "position.h"
#include "rules.h"
#include "threat.h"
#include "vcf.h"
#include "vct.h"

enum {
    VCF_TT_LOG2 = 20,   /* 8 MiB of "no VCF" facts, kept across moves */
    VCT_TT_LOG2 = 18,   /* the VCT's own VCF table: 2 MiB */
    VCT_TREE = 1 << 18, /* VCT proof-number tree: 5 MiB */
    NEAR = 2,           /* evaluation candidates: within two points of a stone */
    VCT_CHECKS = 8,     /* evaluation candidates checked for an opponent VCT at most */
    DEFAULT_TT_MB = 64, /* df-pn table cap without a memory limit */
    FIXED_MB = 24       /* what the engine uses besides the df-pn table (threat tables, board, slack) */
};

struct Engine {
    Board b;
    EngineLimits lim;
    ResultStore store;
    bool have_store;
    VcfCtx *vcf;
    VctCtx *vct;
    Dfpn *dfpn; /* made at the first solve; remade when the rules or the table size change */
    RuleSet dfpn_rules;
    size_t dfpn_tt_mb;
};

/* The state of one turn: its deadline and the nodes spent. */
typedef struct {
    double arrival, deadline;
    uint64_t nodes;
} Turn;

void engine_limits_default(EngineLimits *l)
{
    memset(l, 0, sizeof *l);
    l->rules = RULE_RENJU;
    l->turn_s = 5.0;
    l->left_s = -1;
    l->threads = 1;
}

const char *engine_source_name(EngineSource s)
{
    static const char *const names[] = {"five", "block", "database", "vcf", "vct", "dfpn", "defend", "eval", "opening"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

int engine_new(Engine **out, const ResultStore *store)
{
    *out = NULL;
    rules_init();
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return RJ_ENOMEM;
    engine_limits_default(&e->lim);
    board_init(&e->b);
    if (store) {
        e->store = *store;
        e->have_store = true;
    }
    e->vcf = vcf_new(VCF_TT_LOG2);
    e->vct = vct_new(VCT_TT_LOG2, VCT_TREE);
    if (!e->vcf || !e->vct) {
        engine_free(e);
        return RJ_ENOMEM;
    }
    *out = e;
    return 0;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    dfpn_free(e->dfpn);
    vct_free(e->vct);
    vcf_free(e->vcf);
    free(e);
}

int engine_set_limits(Engine *e, const EngineLimits *l)
{
    if (l->threads < 1 || l->turn_s < 0 || l->match_s < 0)
        return RJ_EBADARG;
    e->lim = *l;
    return 0;
}

const EngineLimits *engine_limits(const Engine *e) { return &e->lim; }

double engine_turn_budget(const Engine *e)
{
    const EngineLimits *l = &e->lim;
    double t = l->turn_s;
    if (l->match_s > 0 && l->left_s >= 0 && l->left_s / 20 < t)
        t = l->left_s / 20; /* about twenty moves more to play with the time left */
    t = t * 0.8 - 0.03;     /* the margin: replies must arrive in time on a busy machine too */
    return t > 0.005 ? t : 0.005;
}

void engine_new_game(Engine *e) { board_init(&e->b); }

const Board *engine_board(const Engine *e) { return &e->b; }

static void say(char *why, size_t whylen, const char *fmt, const char *arg)
{
    if (why && whylen)
        snprintf(why, whylen, fmt, arg);
}

/* Is p a legal stone for the side to move? */
static bool legal(Engine *e, Point p)
{
    return p < BOARD_POINTS && board_at(&e->b, p) == EMPTY && rules_is_legal(&e->b, p, e->lim.rules);
}

/* The game state as a reason, or NULL while it goes on. */
static const char *over_reason(const Board *b, RuleSet rs)
{
    Color w;
    if (!rules_game_over(b, rs, &w))
        return NULL;
    return w == BLACK   ? "the game is over: black has five"
           : w == WHITE ? "the game is over: white has five"
                        : "the game is over: the board is full";
}

int engine_play(Engine *e, Point p, char *why, size_t whylen)
{
    char s[8];
    const char *over = over_reason(&e->b, e->lim.rules);
    if (over) {
        say(why, whylen, "%s", over);
        return RJ_EBADPOS;
    }
    if (p >= BOARD_POINTS) {
        say(why, whylen, "%s is not a point of the board", "the move");
        return RJ_EBADPOS;
    }
    notation_point_str(p, s);
    if (board_at(&e->b, p) != EMPTY) {
        say(why, whylen, "%s is occupied", s);
        return RJ_EBADPOS;
    }
    if (e->b.ply >= MAX_PLY - 1) {
        say(why, whylen, "too many moves at %s", s);
        return RJ_EBADPOS;
    }
    if (!rules_is_legal(&e->b, p, e->lim.rules)) {
        say(why, whylen, "%s is forbidden for black", s);
        return RJ_EBADPOS;
    }
    board_play(&e->b, p);
    return 0;
}

int engine_undo(Engine *e, Point p, char *why, size_t whylen)
{
    char s[8];
    if (e->b.ply <= e->b.base_ply || board_last_move(&e->b) != p) {
        say(why, whylen, "%s is not the last move played", p < BOARD_POINTS ? notation_point_str(p, s) : "the point");
        return RJ_EBADPOS;
    }
    board_undo(&e->b);
    return 0;
}

/* Append ",pt" or "pt" to a position text. */
static void append_point(char *buf, size_t len, size_t *at, Point p, bool comma)
{
    char s[8];
    int n = snprintf(buf + *at, len - *at, "%s%s", comma ? "," : " ", notation_point_str(p, s));
    if (n > 0 && (size_t)n < len - *at)
        *at += (size_t)n;
}

int engine_set_stones(Engine *e, const Point *pts, const bool *own, int n, char *why, size_t whylen)
{
    int nown = 0;
    bool seen[BOARD_POINTS] = {false};
    char s[8];
    for (int i = 0; i < n; i++) {
        if (pts[i] >= BOARD_POINTS) {
            say(why, whylen, "%s is not a point of the board", "a stone");
            return RJ_EBADPOS;
        }
        if (seen[pts[i]]) {
            say(why, whylen, "two stones on %s", notation_point_str(pts[i], s));
            return RJ_EBADPOS;
        }
        seen[pts[i]] = true;
        nown += own[i];
    }
    int nopp = n - nown;
    if (nown != nopp && nopp != nown + 1) {
        char cnt[64];
        snprintf(cnt, sizeof cnt, "%d own and %d opponent stones", nown, nopp);
        say(why, whylen, "%s: no game reaches them with this side to move", cnt);
        return RJ_EBADPOS;
    }
    Color me = nown == nopp ? BLACK : WHITE;
    Board b;
    if (n == 0) {
        board_init(&b);
    } else {
        /* In the order of play when the colours alternate, black first: a move sequence. */
        bool alternate = true;
        for (int i = 0; i < n; i++)
            alternate &= (own[i] ? me : color_other(me)) == (i % 2 == 0 ? BLACK : WHITE);
        char text[POSITION_STR_LEN], err[256];
        size_t at = 0;
        text[0] = 0;
        if (alternate) {
            for (int i = 0; i < n; i++)
                append_point(text, sizeof text, &at, pts[i], false);
        } else {
            for (int c = BLACK; c <= WHITE; c++) {
                at += (size_t)snprintf(text + at, sizeof text - at, "%s", c == BLACK ? " B:" : " W:");
                bool first = true;
                for (int i = 0; i < n; i++)
                    if ((own[i] ? me : color_other(me)) == (Color)c) {
                        append_point(text, sizeof text, &at, pts[i], !first);
                        first = false;
                    }
            }
        }
        if (position_parse(text, e->lim.rules, me, &b, err, sizeof err)) {
            say(why, whylen, "%s", err);
            return RJ_EBADPOS;
        }
    }
    e->b = b;
    return 0;
}

/* ---- move choice ---- */

static double remaining(const Turn *t)
{
    double r = t->deadline - clock_now();
    return r > 0 ? r : 0;
}

/* Threat-search options: a share of the time left (at least a millisecond: 0 would mean no limit). */
static ThreatOpts opts_share(const Turn *t, double share)
{
    ThreatOpts o;
    memset(&o, 0, sizeof o);
    o.max_time_s = remaining(t) * share;
    if (o.max_time_s < 0.001)
        o.max_time_s = 0.001;
    return o;
}

/* VCF of c from the board as it stands (c to move, or the defender's turn: vcf.h). */
static Result vcf_of(Engine *e, Turn *t, Color c, double share, VcfResult *r)
{
    ThreatOpts o = opts_share(t, share);
    if (vcf_search(e->vcf, &e->b, c, e->lim.rules, &o, r))
        return RESULT_UNKNOWN;
    t->nodes += r->nodes;
    return r->result;
}

/* Would c win by VCF if it could move now (after a pass of the side to move)? */
static Result vcf_threat(Engine *e, Turn *t, Color c, double share, VcfResult *r)
{
    board_play(&e->b, POINT_PASS);
    Result res = vcf_of(e, t, c, share, r);
    board_undo(&e->b);
    return res;
}

/*
 * Does the opponent of the side to move win by VCF after our move m (UNKNOWN
 * counts as no)?  When m makes a four, the opponent's block is forced and the
 * question is whether it then wins if we pass: a four only delays a threat.
 */
static bool opp_vcf_after(Engine *e, Turn *t, Point m, double share)
{
    Board *b = &e->b;
    RuleSet rs = e->lim.rules;
    Color me = b->to_move, opp = color_other(me);
    VcfResult r;
    Point f[BOARD_POINTS];
    board_play(b, m);
    Result res;
    if (rules_five_points(b, me, rs, f) == 1 && rules_is_legal(b, f[0], rs) &&
        rules_five_points(b, opp, rs, f + 1) == 0) {
        board_play(b, f[0]);
        res = vcf_threat(e, t, opp, share, &r);
        board_undo(b);
    } else {
        res = vcf_of(e, t, opp, share, &r);
    }
    board_undo(b);
    return res == RESULT_PROVEN;
}

/* Does the opponent, after our move m, have a VCT (UNKNOWN counts as none)? */
static bool opp_vct_after(Engine *e, Turn *t, Point m, double share)
{
    Color opp = color_other(e->b.to_move);
    ThreatOpts o = opts_share(t, share);
    VctResult r;
    board_play(&e->b, m);
    int rc = vct_search(e->vct, &e->b, opp, e->lim.rules, &o, &r);
    board_undo(&e->b);
    if (rc)
        return false;
    t->nodes += r.nodes;
    return r.result == RESULT_PROVEN;
}

/* A proven win for the side to move in the result store: the position, else a child. */
static Point db_win(Engine *e, const Turn *t)
{
    if (!e->have_store)
        return POINT_NONE;
    Color me = e->b.to_move;
    RuleSet rs = e->lim.rules;
    StoredResult sr;
    if (e->store.lookup(e->store.ctx, &e->b, me, rs, &sr) == 0 && sr.result == RESULT_PROVEN && legal(e, sr.best))
        return sr.best;
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (remaining(t) <= 0)
            break;
        if (!legal(e, (Point)p))
            continue;
        board_play(&e->b, (Point)p);
        int rc = e->store.lookup(e->store.ctx, &e->b, me, rs, &sr);
        board_undo(&e->b);
        if (rc == 0 && sr.result == RESULT_PROVEN)
            return (Point)p;
    }
    return POINT_NONE;
}

/* df-pn for the side to move with a share of the time left: its move when it proves a win. */
static Point dfpn_win(Engine *e, Turn *t, double share)
{
    double budget = remaining(t) * share;
    if (budget < 0.01)
        return POINT_NONE;
    size_t tt_mb = DEFAULT_TT_MB;
    if (e->lim.mem_bytes > 0) {
        size_t mb = e->lim.mem_bytes >> 20;
        tt_mb = mb > FIXED_MB ? (size_t)((double)(mb - FIXED_MB) / 1.2) : 1;
        if (tt_mb < 1)
            tt_mb = 1;
        if (tt_mb > 1024)
            tt_mb = 1024;
    }
    DfpnConfig cfg;
    dfpn_config_default(&cfg);
    cfg.attacker = e->b.to_move;
    cfg.rules = e->lim.rules;
    cfg.threads = e->lim.threads;
    cfg.max_time = budget;
    cfg.tt_mb = tt_mb;
    if (e->dfpn && (e->dfpn_rules != cfg.rules || e->dfpn_tt_mb != tt_mb)) {
        dfpn_free(e->dfpn);
        e->dfpn = NULL;
    }
    if (!e->dfpn) {
        if (dfpn_create(&e->dfpn, &cfg))
            return POINT_NONE;
        e->dfpn_rules = cfg.rules;
        e->dfpn_tt_mb = tt_mb;
    } else if (dfpn_set_config(e->dfpn, &cfg)) {
        return POINT_NONE;
    }
    DfpnResult r;
    if (dfpn_solve(e->dfpn, &e->b, &r))
        return POINT_NONE;
    t->nodes += r.nodes;
    return r.result == RESULT_PROVEN && legal(e, r.best) ? r.best : POINT_NONE;
}

/*
 * Legal moves near the stones, best first by the evaluation: own
 * five-windows (attack) weigh more than the opponent's (defence).  Returns
 * the count.
 */
static int eval_moves(Engine *e, Point *out)
{
    Board *b = &e->b;
    Color me = b->to_move, opp = color_other(me);
    ThrWindows wm, wo;
    thr_windows_scan(b, me, &wm);
    thr_windows_scan(b, opp, &wo);
    int score[BOARD_POINTS], n = 0;
    for (int p = 0; p < BOARD_POINTS; p++) {
        if (board_at(b, (Point)p) != EMPTY)
            continue;
        bool near = false;
        int c0 = point_col((Point)p), r0 = point_row((Point)p);
        for (int dr = -NEAR; dr <= NEAR && !near; dr++)
            for (int dc = -NEAR; dc <= NEAR && !near; dc++)
                near = board_at_cr(b, c0 + dc, r0 + dr) > 0;
        if (!near || !legal(e, (Point)p))
            continue;
        int wa, na, wd, nd;
        thr_windows_at(&wm, (Point)p, &wa, &na);
        thr_windows_at(&wo, (Point)p, &wd, &nd);
        if (wa > 3)
            wa = 3; /* a four that wins nothing (no VCF) only spends a threat */
        /* Closeness to the centre breaks ties (0..14). */
        int centre = 14 - abs(c0 - BOARD_SIZE / 2) - abs(r0 - BOARD_SIZE / 2);
        int sc = 64 * (16 * wa * wa + 12 * na + 12 * wd * wd + 8 * nd) + (centre > 0 ? centre : 0);
        int i = n++;
        while (i > 0 && score[i - 1] < sc) { /* insertion sort, stable: point order among equals */
            score[i] = score[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        score[i] = sc;
        out[i] = (Point)p;
    }
    if (n == 0) /* no stone near any legal point (a full board's corners): any legal point */
        for (int p = 0; p < BOARD_POINTS; p++)
            if (legal(e, (Point)p))
                out[n++] = (Point)p;
    return n;
}

/* Our five point, else the block of the opponent's: POINT_NONE when neither exists. */
static Point forced_move(Engine *e, EngineSource *src)
{
    Point pts[BOARD_POINTS];
    Color me = e->b.to_move;
    RuleSet rs = e->lim.rules;
    if (rules_five_points(&e->b, me, rs, pts) > 0) {
        *src = ENGINE_FIVE;
        return pts[0];
    }
    int n = rules_five_points(&e->b, color_other(me), rs, pts);
    for (int i = 0; i < n; i++)
        if (legal(e, pts[i])) {
            *src = ENGINE_BLOCK;
            return pts[i];
        }
    return POINT_NONE;
}

/*
 * The opponent would win by VCF `threat` after a pass: a legal move after
 * which it has none (opp_vcf_after), the line's points first.  POINT_NONE when time ran
 * out before one was found.
 */
static Point defend(Engine *e, Turn *t, const VcfResult *threat, const Point *cand, int ncand)
{
    bool tried[BOARD_POINTS] = {false};
    Point order[BOARD_POINTS + VCF_MAX_LINE];
    int n = 0;
    for (int i = 0; i < threat->len; i++)
        if (threat->line[i] < BOARD_POINTS)
            order[n++] = threat->line[i];
    for (int i = 0; i < ncand; i++)
        order[n++] = cand[i];
    for (int i = 0; i < n; i++) {
        Point m = order[i];
        if (tried[m] || !legal(e, m))
            continue;
        tried[m] = true;
        if (remaining(t) <= 0)
            return POINT_NONE;
        if (!opp_vcf_after(e, t, m, 0.25))
            return m;
    }
    return POINT_NONE;
}

int engine_choose(Engine *e, double arrival, EngineMove *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    out->move = POINT_NONE;
    const char *over = over_reason(&e->b, e->lim.rules);
    if (over) {
        say(why, whylen, "%s", over);
        return RJ_EBADPOS;
    }
    Turn t = {arrival, arrival + engine_turn_budget(e), 0};
    Board *b = &e->b;
    Color me = b->to_move, opp = color_other(me);
    Point m = POINT_NONE;
    EngineSource src = ENGINE_EVAL;
    Point cand[BOARD_POINTS];
    int ncand = 0;
    if (board_stone_count(b) == 0) {
        m = point_make(BOARD_SIZE / 2, BOARD_SIZE / 2);
        src = ENGINE_OPENING;
        goto done;
    }
    if ((m = forced_move(e, &src)) != POINT_NONE)
        goto done;
    ncand = eval_moves(e, cand);
    if (ncand == 0) {
        say(why, whylen, "%s", "no legal move is left");
        return RJ_EBADPOS;
    }
    src = ENGINE_DB;
    if ((m = db_win(e, &t)) != POINT_NONE)
        goto done;
    VcfResult vr;
    src = ENGINE_VCF;
    if (vcf_of(e, &t, me, 0.1, &vr) == RESULT_PROVEN && vr.len > 0 && legal(e, vr.line[0])) {
        m = vr.line[0];
        goto done;
    }
    VctResult tr;
    ThreatOpts o = opts_share(&t, 0.1);
    src = ENGINE_VCT;
    if (vct_search(e->vct, b, me, e->lim.rules, &o, &tr) == 0) {
        t.nodes += tr.nodes;
        if (tr.result == RESULT_PROVEN && tr.len > 0 && legal(e, tr.line[0])) {
            m = tr.line[0];
            goto done;
        }
    }
    if (vcf_threat(e, &t, opp, 0.15, &vr) == RESULT_PROVEN) {
        src = ENGINE_DEFEND;
        if ((m = defend(e, &t, &vr, cand, ncand)) != POINT_NONE)
            goto done;
        /* No defence found in time: take the opponent's first four point, else the best guess. */
        src = ENGINE_EVAL;
        m = vr.len > 0 && legal(e, vr.line[0]) ? vr.line[0] : cand[0];
        goto done;
    }
    src = ENGINE_DFPN;
    if ((m = dfpn_win(e, &t, 0.6)) != POINT_NONE)
        goto done;
    /* Evaluation: the first candidate that leaves no opponent VCF, one leaving no VCT preferred. */
    src = ENGINE_EVAL;
    int safe = -1, vct_checked = 0;
    for (int i = 0; i < ncand && remaining(&t) > 0; i++) {
        if (opp_vcf_after(e, &t, cand[i], 0.1))
            continue;
        if (safe < 0)
            safe = i;
        if (vct_checked++ >= VCT_CHECKS || remaining(&t) <= 0)
            break;
        if (!opp_vct_after(e, &t, cand[i], 0.2)) {
            safe = i;
            break;
        }
    }
    m = cand[safe >= 0 ? safe : 0];
done:
    if (!legal(e, m)) { /* never expected: every step above checks; a last guard */
        say(why, whylen, "%s", "internal error: the chosen move is not legal");
        return RJ_EINTERNAL;
    }
    out->move = m;
    out->source = src;
    out->win = src == ENGINE_FIVE || src == ENGINE_DB || src == ENGINE_VCF || src == ENGINE_VCT || src == ENGINE_DFPN;
    out->nodes = t.nodes;
    out->time_s = clock_now() - arrival;
    return 0;
}
