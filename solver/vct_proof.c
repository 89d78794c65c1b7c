/* vct_proof.c - the principal line and the proof tree of a VCT win (vct.h). */
#include <string.h>

#include "board.h"
#include "error.h"
#include "rules.h"
#include "threat.h"
#include "vct_impl.h"

/* Play out the end of a line from b (attacker's turn or not): fives, double wins, forced blocks; b restored. */
static void finish_line(VctCtx *c, Board *b, bool att_turn, VctResult *out)
{
    Point buf[BOARD_POINTS];
    int played = 0;
    while (out->len < VCF_MAX_LINE - 2) {
        if (att_turn) {
            if (thr_five_points(b, c->att, c->rs, buf) > 0) {
                out->line[out->len++] = buf[0];
                break;
            }
            if (thr_double_wins(b, c->att, c->rs, buf, true) == 0)
                break;
            out->line[out->len++] = buf[0];
        } else {
            int na = thr_five_points(b, c->att, c->rs, buf);
            int i = 0;
            while (i < na && !thr_legal(b, buf[i], c->def, c->rs))
                i++;
            /* Block a five point if there is one the defender may play, else pass. */
            buf[0] = i < na ? buf[i] : POINT_PASS;
            out->line[out->len++] = buf[0];
        }
        board_play(b, out->line[out->len - 1]);
        played++;
        att_turn = !att_turn;
    }
    while (played--)
        board_undo(b);
}

/* Append a VCF line (attacker to move on b) to out, as far as it fits. */
static void append_vcf(VctResult *out, const VcfResult *vr)
{
    for (int i = 0; i < vr->len && out->len < VCF_MAX_LINE; i++)
        out->line[out->len++] = vr->line[i];
}

/*
 * A covered defender node (wide order): show one reply and the short VCF
 * that beats it: the first point of the VCF after a pass the defender may
 * take (the natural block), else the pass itself.
 */
static void covered_line(VctCtx *c, Board *b, VctResult *out)
{
    VcfResult after_pass;
    board_play(b, POINT_PASS);
    bool ok = vct_short_vcf(c, b, &after_pass);
    board_undo(b);
    if (!ok)
        return;
    for (int i = 0; i < after_pass.len && out->len < VCF_MAX_LINE - 1; i += 2) {
        Point m = after_pass.line[i];
        if (m >= BOARD_POINTS || !thr_legal(b, m, c->def, c->rs))
            continue;
        board_play(b, m);
        bool beat = vct_short_vcf(c, b, &c->scratch);
        board_undo(b);
        if (beat) {
            out->line[out->len++] = m;
            append_vcf(out, &c->scratch);
            return;
        }
    }
    out->line[out->len++] = POINT_PASS;
    append_vcf(out, &after_pass);
}

static void pv(VctCtx *c, Board *b, uint32_t n, bool or_node, VctResult *out)
{
    const VctNode *nd = &c->node[n];
    if (nd->kind == K_VCF) {
        VcfResult vr;
        vcf_search(c->vcf, b, c->att, c->rs, NULL, &vr);
        append_vcf(out, &vr);
        return;
    }
    if (nd->kind == K_COVERED) {
        covered_line(c, b, out);
        return;
    }
    if (nd->kind != K_INNER || out->len >= VCF_MAX_LINE - 4) {
        finish_line(c, b, or_node, out);
        return;
    }
    uint32_t ch = nd->child;
    if (or_node)
        while (c->node[ch].pn != 0)
            ch++;
    out->line[out->len++] = c->node[ch].move;
    board_play(b, c->node[ch].move);
    pv(c, b, ch, !or_node, out);
    board_undo(b);
}

void vct_pv(VctCtx *c, Board *b, VctResult *out)
{
    bool abort = c->abort;
    pv(c, b, 0, c->root_or, out);
    c->abort = abort;
}

static int write_node(VctCtx *c, Board *b, uint32_t n, bool or_node, ProofWriter *w);

/* The proof of a short VCF (attacker to move on b) found again, exhaustively within its depth. */
static int write_short_vcf(VctCtx *c, Board *b, ProofWriter *w)
{
    ThreatOpts o = {.max_depth = c->order + 1};
    int rc = vcf_write_proof(c->vcf, b, c->att, c->rs, &o, w, &c->scratch);
    return rc == RJ_ENOTFOUND ? RJ_EINTERNAL : rc;
}

/*
 * A defender node of the wide order: the searched replies (children), then
 * every other legal reply that is not a short loss, pass included, each
 * with the proof of the short VCF that beats it (the search confirmed one
 * after each).  With an attacker five point on the board (a forced block)
 * every other reply is a short loss.
 */
static int write_wide_and(VctCtx *c, Board *b, uint32_t n, ProofWriter *w)
{
    const VctNode *nd = &c->node[n];
    if (nd->kind == K_DONE)
        return pw_u16(w, 0);
    if (nd->kind != K_INNER && nd->kind != K_COVERED)
        return RJ_EINTERNAL;
    uint64_t listed[4] = {0, 0, 0, 0};
    size_t at = pw_reserve_u16(w);
    unsigned count = 0;
    int rc = 0;
    uint32_t first = nd->kind == K_INNER ? nd->child : 0, nch = nd->kind == K_INNER ? nd->nchild : 0;
    for (uint32_t i = 0; i < nch && !rc; i++) {
        const VctNode *ch = &c->node[first + i];
        if (ch->pn != 0)
            return RJ_EINTERNAL;
        listed[ch->move >> 6] |= UINT64_C(1) << (ch->move & 63);
        pw_u8(w, ch->move);
        board_play(b, ch->move);
        rc = write_node(c, b, first + i, true, w);
        board_undo(b);
        count++;
    }
    Point buf[BOARD_POINTS];
    if (rc || thr_five_points(b, c->att, c->rs, buf) > 0) {
        pw_patch_u16(w, at, (uint16_t)count);
        return rc ? rc : w->err;
    }
    for (int p = 0; p <= BOARD_POINTS && !rc; p++) {
        Point m = p == BOARD_POINTS ? POINT_PASS : (Point)p;
        if (m != POINT_PASS && ((listed[p >> 6] >> (p & 63) & 1) || !thr_legal(b, m, c->def, c->rs)))
            continue;
        if (thr_short_loss(b, m, c->rs))
            continue;
        pw_u8(w, m);
        board_play(b, m);
        rc = write_short_vcf(c, b, w);
        board_undo(b);
        count++;
    }
    if (count > 0xffff)
        return RJ_EINTERNAL;
    pw_patch_u16(w, at, (uint16_t)count);
    return rc ? rc : w->err;
}

static int write_node(VctCtx *c, Board *b, uint32_t n, bool or_node, ProofWriter *w)
{
    const VctNode *nd = &c->node[n];
    int rc;
    if (or_node) {
        switch (nd->kind) {
        case K_FIVE:
            return pw_u8(w, nd->win);
        case K_DOUBLE:
            pw_u8(w, nd->win);
            return pw_u16(w, 0);
        case K_VCF: {
            VcfResult vr;
            rc = vcf_write_proof(c->vcf, b, c->att, c->rs, NULL, w, &vr);
            return rc == RJ_ENOTFOUND ? RJ_EINTERNAL : rc;
        }
        case K_INNER: {
            uint32_t ch = nd->child;
            while (ch < nd->child + nd->nchild && c->node[ch].pn != 0)
                ch++;
            if (ch == nd->child + nd->nchild)
                return RJ_EINTERNAL;
            pw_u8(w, c->node[ch].move);
            board_play(b, c->node[ch].move);
            rc = write_node(c, b, ch, false, w);
            board_undo(b);
            return rc;
        }
        default:
            return RJ_EINTERNAL;
        }
    }
    if (c->order >= 2)
        return write_wide_and(c, b, n, w);
    if (nd->kind == K_DONE)
        return pw_u16(w, 0);
    if (nd->kind != K_INNER)
        return RJ_EINTERNAL;
    pw_u16(w, nd->nchild);
    for (uint32_t i = 0; i < nd->nchild; i++) {
        const VctNode *ch = &c->node[nd->child + i];
        if (ch->pn != 0)
            return RJ_EINTERNAL;
        pw_u8(w, ch->move);
        board_play(b, ch->move);
        rc = write_node(c, b, nd->child + i, true, w);
        board_undo(b);
        if (rc)
            return rc;
    }
    return w->err;
}

int vct_write_proof(VctCtx *ctx, Board *b, ProofWriter *w)
{
    if (!ctx->proven || b->key != ctx->root_key)
        return RJ_ENOTFOUND;
    bool abort = ctx->abort;
    ctx->stop = NULL; /* the short VCFs found again must not be cut short */
    int rc = write_node(ctx, b, 0, ctx->root_or, w);
    ctx->abort = abort;
    return rc;
}
