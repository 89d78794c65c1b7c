/*
 * zone.h - the relevance zone of a threat proof: the points a defender stone
 * must avoid for the proof to stay a proof (issue 15, item 1).
 *
 * A wide defender node where the attacker would win after a pass is mostly
 * lost: every reply that does not touch the win's zone lets the attacker play
 * the same winning strategy.  zone_of_proof() reads a proof tree (the format
 * of proof.h, attacker to move at its root) and marks, conservatively:
 *
 *  - every move of the tree, the attacker's and the listed defences;
 *  - at each defender node, the attacker's five points and every point from
 *    which the attacker would get two five points (open fours, four-fours),
 *    with the five points they would leave: the checker's short losses;
 *  - at each defender node, every empty point of a five-window (six-window
 *    for a black defender) free of attacker stones that holds two or more
 *    defender stones: a defender stone there could give the defender a four
 *    or a five that the proof never had to meet;
 *  - black defender: the lines (five steps) through each listed defence and
 *    through each of black's forbidden points, which a black stone could make
 *    forbidden or legal.
 *
 * It gives up (returns false) where distant stones could matter in ways the
 * marks do not follow: a black attacker move with threes in two or more
 * directions (RIF 9.3 recursion), an attacker pass, a tree over ZONE_MAX_NODES
 * nodes.  The zone is a search heuristic, not a proof: every position it
 * prunes is proven again when the proof is extracted, and the extracted proof
 * is checked as a whole.  tests/test_zone.c checks it against the proof
 * checker on random and opening positions: with the defender stone added
 * outside the zone, the checker accepts the same tree.
 */
#ifndef RJ_ZONE_H
#define RJ_ZONE_H

#include <stddef.h>
#include <stdint.h>

#include "types.h"

enum { ZONE_MAX_NODES = 4096 };

/*
 * The zone of the proof tree tree[0..len) (no header; an A-node: attacker to
 * move on b) as a 225-point set (bit p of zone[p >> 6]).  b is restored.
 * Returns false when no zone can be given (zone is then unspecified).
 */
bool zone_of_proof(Board *b, Color attacker, RuleSet rs, const uint8_t *tree, size_t len, uint64_t zone[4]);

static inline bool zone_has(const uint64_t zone[4], Point p) { return zone[p >> 6] >> (p & 63) & 1; }

#endif
