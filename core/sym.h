/*
 * sym.h - the 8 board symmetries and canonical positions.
 *
 * The 8 dihedral transforms about h8.  Transform t maps (x,y), with x,y the
 * offsets from h8, by: bit 0 = mirror x (x -> -x), bit 1 = mirror y,
 * bit 2 = swap x and y, applied in that order (mirror first, then swap).
 * Transform 0 is the identity.
 *
 * Canonical form: the stone set (black stones, white stones) and the side to
 * move, minimised over the 8 transforms in the order of SymKey bytes below.
 */
#ifndef RJ_SYM_H
#define RJ_SYM_H

#include "types.h"

enum { NUM_SYMS = 8 };

/* Image of point p under transform t (p on the board; POINT_PASS maps to itself). */
Point sym_apply(int t, Point p);

/* The inverse transform of t. */
int sym_inverse(int t);

/* Composition: sym_apply(sym_compose(a, b), p) == sym_apply(a, sym_apply(b, p)). */
int sym_compose(int a, int b);

/*
 * A canonical position key: fixed length, compared with memcmp.
 * Layout: byte 0 = side to move (1 black, 2 white), byte 1 = rule set,
 * bytes 2..58 = a 2-bit-per-point colour map (225 points, 4 points a byte,
 * point p at byte 2 + p/4, bits 2*(p%4)), 0 empty 1 black 2 white.
 * Byte 59 = 1 when the last move was a pass (another pass ends the game in
 * a draw, so the value can differ), else 0.  Bytes 60..63 are zero.
 */
enum { SYMKEY_LEN = 64, SYMKEY_PASS_BYTE = 59 };
typedef struct {
    uint8_t b[SYMKEY_LEN];
} SymKey;

/* Key of the board as it stands (no transform), for the given rule set. */
void sym_key(const Board *b, RuleSet rs, SymKey *out);

/*
 * Canonical key of board b: the minimum (memcmp) key over the 8 images.
 * Stores in *t the transform that maps b's points to the canonical frame
 * (point p on b corresponds to sym_apply(*t, p) in the canonical position).
 * t may be NULL.
 */
void sym_canonical(const Board *b, RuleSet rs, SymKey *out, int *t);

/*
 * The keys of b's 8 images (transform t in keys[t]): computed once for a
 * position whose children are canonicalised one after another.
 */
void sym_images(const Board *b, RuleSet rs, SymKey keys[NUM_SYMS]);

/*
 * What sym_canonical gives for the board after b's side to move plays m (a
 * legal move or POINT_PASS), from keys = sym_images of b: the same key and
 * transform, for the cost of one stone per image.
 */
void sym_canonical_after(const SymKey keys[NUM_SYMS], Color mover, Point m, SymKey *out, int *t);

/* Bit mask (bit t) of the transforms that map the stone set of b onto itself. */
unsigned sym_stabiliser(const Board *b);

#endif /* RJ_SYM_H */
