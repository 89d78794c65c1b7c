/*
 * position.h - positions from user text (INTERFACE.md "Positions").
 *
 * Accepted: a move sequence (black first, "pass" allowed) in any spelling; an
 * opening code or name optionally followed by more moves ("D4 j10 i10"); a
 * stone set "B:e13,c12 W:o15" with the side to move inferred from the counts
 * unless given.  Every move of a sequence is checked for legality under the
 * rule set (occupied point, forbidden black point, game already over).
 */
#ifndef RJ_POSITION_H
#define RJ_POSITION_H

#include "types.h"

/*
 * Build board b (initialised here) from text s under rule set rs.  to_move is
 * EMPTY to infer the side to move, or BLACK/WHITE to force it (needed for a
 * stone set with impossible counts for inference).  Returns 0, or RJ_EBADPOS
 * with a one-line message naming the bad token in err (errlen bytes).
 */
int position_parse(const char *s, RuleSet rs, Color to_move, Board *b, char *err, size_t errlen);

/* Text of the board as a move sequence when it has history, else as a stone set. */
char *position_str(const Board *b, char *buf, size_t len);

#endif /* RJ_POSITION_H */
