/*
 * proof.h - the serialized proof-tree format, and its independent checker.
 *
 * A proof shows that `attacker` wins from a root position (given separately)
 * under a rule set.  Binary layout (all integers little-endian):
 *
 *   header  : 'R' 'J' 'P' 'F', u8 version (= PROOF_VERSION), u8 rule set,
 *             u8 attacker colour (1 black, 2 white), u8 reserved (0)
 *   tree    : the root node, in pre-order, where
 *   A-node  : (attacker to move) u8 move: a point 0..224 or 254 = pass.
 *             If that move wins at once (a five that counts), the node ends;
 *             otherwise a D-node for the position after the move follows.
 *   D-node  : (defender to move) u16 n, then n times: u8 move + A-node.
 *             Every legal defender move (pass included) must either be listed
 *             or be a "short loss" the checker confirms on its own:
 *               (a) after it, the attacker has a move that wins at once; or
 *               (b) after it, the attacker has a legal move that leaves it
 *                   two or more distinct winning points, and the defender,
 *                   to move then, has no move that wins at once.
 *             A listed move that is illegal, or a move that wins for the
 *             defender, makes the proof invalid.
 *   If the root position has the defender to move, the tree starts with a
 *   D-node instead.  Draws (two passes in a row, a full board) are not wins.
 *
 * Moves are in the frame of the root position given to the functions; use
 * proof_transform() to move a proof to another symmetric frame.
 */
#ifndef RJ_PROOF_H
#define RJ_PROOF_H

#include "types.h"

enum { PROOF_VERSION = 1, PROOF_HEADER_LEN = 8 };

typedef struct {
    uint64_t nodes;   /* A-nodes and D-nodes in the tree */
    uint32_t depth;   /* longest line in plies */
    uint64_t leaves;  /* wins at once reached in the tree */
    uint64_t implied; /* defender moves accepted as short losses */
} ProofStats;

/*
 * Walk a serialized proof from root position b (not modified) without
 * checking game logic: validates the framing and fills *st (may be NULL;
 * st->implied is 0 here).  The position is needed because an A-node ends
 * after a move that wins at once, which only the board can tell; stones on
 * occupied points and trees deeper than MAX_PLY are framing errors.
 * depth counts the plies of the longest listed line (implied short losses
 * are not counted).  Returns 0 or RJ_EBADDATA.
 */
int proof_stats(const Board *b, const uint8_t *buf, size_t len, ProofStats *st);

/*
 * Rewrite every move of the proof, whose root position is b (in the proof's
 * current frame), through symmetry transform t (sym.h), in place.  The
 * result is the proof for the root position mapped by t.  The framing is
 * validated first: on RJ_EBADDATA the buffer is left unchanged.
 * Returns 0, RJ_EBADARG for a bad t, or RJ_EBADDATA.
 */
int proof_transform(const Board *b, uint8_t *buf, size_t len, int t);

/*
 * The proof's main line from root position b: the attacker's move at each of
 * its nodes and, at each defender node, the listed reply whose subtree is
 * deepest (the longest resistance; the first of equals), until a winning move
 * or a defender node whose replies are all short losses.  Up to max moves
 * into line.  Returns the count, or RJ_EBADDATA for a malformed proof.
 */
int proof_main_line(const Board *b, const uint8_t *buf, size_t len, Point *line, int max);

/*
 * The independent checker: replays every branch of the proof from root
 * position b (not modified) with only the rules module and confirms that the
 * attacker named in the header wins.  Shares no code with the search.
 * Returns 0 when the proof is valid; RJ_EBADDATA when it is not, with a
 * one-line reason in why (whylen bytes, may be NULL); fills *st if not NULL.
 */
int proof_check(const Board *b, const uint8_t *buf, size_t len, ProofStats *st, char *why, size_t whylen);

/*
 * ProofWriter: a growable byte buffer for writing proofs in the format above.
 * Start with a zeroed struct; free data with free().  On allocation failure
 * err becomes RJ_ENOMEM and further writes are ignored.
 */
typedef struct {
    uint8_t *data;
    size_t len, cap;
    int err;
} ProofWriter;

/* Append n bytes.  Returns w->err. */
int pw_bytes(ProofWriter *w, const void *p, size_t n);

/* Append one byte / a little-endian u16. */
static inline int pw_u8(ProofWriter *w, uint8_t v) { return pw_bytes(w, &v, 1); }
static inline int pw_u16(ProofWriter *w, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)(v & 0xff), (uint8_t)(v >> 8)};
    return pw_bytes(w, b, 2);
}

/* Write the 8-byte header for attacker under rule set rs.  Returns w->err. */
int pw_header(ProofWriter *w, RuleSet rs, Color attacker);

/*
 * Reserve a u16 child count to be filled later (D-nodes whose children are
 * not known in advance): returns its offset; pw_patch_u16 fills it.
 */
size_t pw_reserve_u16(ProofWriter *w);
void pw_patch_u16(ProofWriter *w, size_t at, uint16_t v);

/*
 * The proof of b's win rewritten for a position that also has stones on the
 * points of drop[] (a bit set of 4 x 64 bits, empty in b), such as the
 * position after a white move where b has white's pass: every defender entry
 * on a point of drop[] is left out with its subtree (the defender cannot play
 * there) and its D-node's count lowered.  The framing is walked on b, and the
 * result, header included, is appended to *out; *dropped (may be NULL) gets
 * the number of entries left out.  Nothing here says the result is a proof
 * for the new position (the stones may change the lines it uses): only
 * proof_check can.  Returns 0, RJ_EBADDATA for a malformed proof or an
 * attacker move on a point of drop[], or out->err.
 */
int proof_drop_moves(const Board *b, const uint8_t *buf, size_t len, const uint64_t drop[4], ProofWriter *out,
                     uint64_t *dropped);

#endif /* RJ_PROOF_H */
