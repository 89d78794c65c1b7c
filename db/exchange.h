/*
 * exchange.h - the JSON Lines exchange format of `renju db export|import`.
 *
 * One JSON object per line (UTF-8, no line breaks inside), one line per
 * stored result.  Keys:
 *
 *   "position"       string, required: the position as a stone set,
 *                    "B:h8,j10 W:h9" (either list may be empty: "B: W:").
 *   "to_move"        "black" | "white"; optional on import when the stone
 *                    counts decide it (equal: black, one more black: white).
 *   "rules"          "renju" | "freestyle" | "standard"; default "renju".
 *   "attacker"       "black" | "white", required.
 *   "result"         "proven" | "disproven" | "unknown" (effort only), required.
 *   "best"           the attacker's winning move "j10", "pass", or null.
 *   "proof_nodes"    unsigned integer (default 0)
 *   "proof_depth"    unsigned integer (default 0)
 *   "nodes"          unsigned integer: search nodes spent (default 0)
 *   "solver_version" string, printable ASCII, at most 63 characters
 *   "time"           unsigned integer: unix seconds
 *   "proof"          optional: the serialized proof (solver/proof/proof.h) as
 *                    lower-case hex, moves in the frame of "position".
 *
 * Export writes the canonical frame (the database's own), keys in the order
 * above, so export -> import -> export is byte-identical.  Import accepts any
 * of the 8 symmetric frames (best move and proof are in that frame) and any
 * key order, and ignores unknown keys (for later additions).
 *
 * A second kind of line carries one resume state of the "work" sub-database
 * (db.h; the opening search's saved tree, solver/cli/search_db.h), byte for
 * byte: {"work":"<key as lower-case hex>","value":"<value as lower-case hex>"}.
 * "work" must be the first key (that is how a line's kind is told); the key
 * is 1..511 bytes.  States are resume data, not results: they carry no proof
 * and nothing proven depends on them.
 *
 * Thread-safe pure functions; no printing.
 */
#ifndef RJ_EXCHANGE_H
#define RJ_EXCHANGE_H

#include "db.h"

/*
 * Format entry e (canonical key and record) as one line without the newline.
 * *line is malloc'd (caller frees).  Returns 0, RJ_EBADDATA (malformed key)
 * or RJ_ENOMEM.
 */
int dbx_format(const DbEntry *e, char **line);

/*
 * Parse one line.  On 0: *b is the position (setup stones and side to move),
 * *rs its rule set, *r the record with best in b's frame, *proof a malloc'd
 * copy of the proof (NULL when absent; caller frees) of *proof_len bytes.
 * Returns 0, or RJ_EBADDATA with a one-line reason in why, or RJ_ENOMEM.
 */
int dbx_parse(const char *line, Board *b, RuleSet *rs, DbRecord *r, uint8_t **proof, size_t *proof_len, char *why,
              size_t whylen);

/* Format one resume state as a line without the newline (*line malloc'd).  0 or RJ_ENOMEM. */
int dbx_format_work(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, char **line);

/* Whether line is a resume-state line (its first key is "work"). */
bool dbx_is_work(const char *line);

/*
 * Parse a resume-state line: *key (1..511 bytes) and *val (may be 0 bytes)
 * malloc'd (caller frees both).  0, RJ_EBADDATA with a one-line reason in
 * why, or RJ_ENOMEM.
 */
int dbx_parse_work(const char *line, uint8_t **key, size_t *klen, uint8_t **val, size_t *vlen, char *why,
                   size_t whylen);

#endif /* RJ_EXCHANGE_H */
