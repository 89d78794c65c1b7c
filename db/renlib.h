/*
 * renlib.h - RenLib `.lib` files: an in-memory move tree, its reader and its
 * writer.  Only the file format lives here; renlib_proof.h maps proofs to
 * trees and back.
 *
 * File layout (RenLib 3.x; there is no formal specification):
 *   header : 20 bytes FF 'R' 'e' 'n' 'L' 'i' 'b' FF <major> <minor> FF*10.
 *            The writer puts major 3, minor 4.  Very old files have no header
 *            and start with the node of h8 (byte 0x78); both are read.
 *   body   : the nodes in pre-order (depth first), each 2 bytes [pos][flags],
 *            plus 2 bytes [info2][info1] when flags has RENLIB_EXTENSION:
 *     pos   0 for the root (empty board) when it is the first node, a pass
 *           elsewhere; otherwise 16*(row_from_top-1) + col, col 1..15 = a..o
 *           (notation_to_renlib: h8 = 0x78, a1 = 0xE1).
 *     flags RENLIB_SIBLING (0x80) another child of this node's parent follows
 *           after this node's subtree; RENLIB_LEAF (0x40) this node has no
 *           children (the next node is the pending sibling); RENLIB_OLD_COMMENT
 *           (0x20); RENLIB_MARK (0x10); RENLIB_COMMENT (0x08); RENLIB_START
 *           (0x04); RENLIB_NO_MOVE (0x02); RENLIB_EXTENSION (0x01).
 *     info1 bit 0 (RENLIB_EXT_BOARD_TEXT): a board text follows.
 *   After a node: its comment when RENLIB_COMMENT (bytes up to a NUL, the
 *   whole padded with one more NUL to an even length; byte 0x08 separates
 *   the one-line comment from the multi-line rest), or its old-style comment
 *   when RENLIB_OLD_COMMENT (2-byte units up to a byte with the top bit set);
 *   then its board text (the label drawn on the move's point) in the same
 *   encoding as a comment.  Text is in a Windows code page: write ASCII.
 *
 * Reader policy (strict: a proof checker must not guess): a bad header, a
 * point byte off the board, a line that plays one point twice, a tree deeper
 * than RENLIB_MAX_DEPTH, a file larger than RENLIB_MAX_FILE, a text longer than RENLIB_MAX_TEXT or without its
 * terminator, a file that ends while a node still expects a child or a
 * sibling, and bytes after the end of the tree are RJ_EBADDATA with a
 * one-line reason naming the byte offset.  Two children of one node with the
 * same move are merged into one node, as RenLib itself does (counted in
 * RenlibTree.merged).  RENLIB_NO_MOVE, RENLIB_START and unknown extension
 * bits are kept in flags and otherwise ignored.  Work and memory are linear
 * in the file size; nothing recurses.
 *
 * Pure functions on caller memory; no printing; thread-safe on distinct trees.
 */
#ifndef RJ_RENLIB_H
#define RJ_RENLIB_H

#include "types.h"

enum {
    RENLIB_HEADER_LEN = 20,
    RENLIB_MAJOR = 3,
    RENLIB_MINOR = 4,
    RENLIB_SIBLING = 0x80,
    RENLIB_LEAF = 0x40,
    RENLIB_OLD_COMMENT = 0x20,
    RENLIB_MARK = 0x10,
    RENLIB_COMMENT = 0x08,
    RENLIB_START = 0x04,
    RENLIB_NO_MOVE = 0x02,
    RENLIB_EXTENSION = 0x01,
    RENLIB_EXT_BOARD_TEXT = 0x01,
    RENLIB_MAX_DEPTH = 500,    /* plies from the empty board (MAX_PLY leaves room for a proof's last moves) */
    RENLIB_MAX_TEXT = 1 << 16, /* bytes of one comment or board text */
    RENLIB_MAX_FILE = 1 << 30, /* bytes of a file renlib_read accepts */
    RENLIB_ROOT = 0,           /* index of the root node (the empty board) */
    RENLIB_NONE = -1           /* no node */
};

/* One node: a move from its parent's position (the root has none). */
typedef struct {
    Point move;       /* POINT_PASS for a pass; POINT_NONE for the root */
    uint8_t flags;    /* RENLIB_MARK / RENLIB_START / RENLIB_NO_MOVE as read or set; the writer sets the rest */
    uint16_t depth;   /* plies from the empty board (root 0) */
    int32_t parent;   /* RENLIB_NONE for the root */
    int32_t child;    /* first child or RENLIB_NONE */
    int32_t last;     /* last child or RENLIB_NONE */
    int32_t sibling;  /* next child of the parent or RENLIB_NONE */
    uint32_t comment; /* offset of the comment in RenlibTree.text, 0 = none */
    uint32_t label;   /* offset of the board text in RenlibTree.text, 0 = none */
} RenlibNode;

/* A move tree.  Start with renlib_init; free with renlib_free. */
typedef struct {
    RenlibNode *node; /* node[RENLIB_ROOT] is the root */
    int32_t n, cap;
    char *text; /* NUL-terminated strings; offset 0 holds "" */
    size_t text_len, text_cap;
    uint8_t major, minor; /* file version read (0, 0 for a file without header) */
    uint64_t records;     /* node records read from the file */
    uint64_t merged;      /* records merged into an existing sibling with the same move */
    int err;              /* RJ_ENOMEM after a failed allocation in a builder call */
} RenlibTree;

/* An empty tree holding only the root.  Returns 0 or RJ_ENOMEM. */
int renlib_init(RenlibTree *t);

/* Free the tree's memory (the struct itself is the caller's).  Safe on a zeroed struct. */
void renlib_free(RenlibTree *t);

/*
 * Append a child with move m (a point or POINT_PASS) as the last child of
 * parent; its index goes to *idx.  Does not check for duplicates or game
 * rules.  Returns 0, RJ_EBADARG (bad parent, bad move, too deep) or RJ_ENOMEM.
 */
int renlib_add(RenlibTree *t, int32_t parent, Point m, int32_t *idx);

/* The child of parent with move m, or RENLIB_NONE. */
int32_t renlib_find(const RenlibTree *t, int32_t parent, Point m);

/*
 * Set node i's comment / board text to s (copied; "" clears it).  A comment's
 * first line is the one RenLib shows above the board; put the rest after a
 * byte 8.  Returns 0, RJ_EBADARG (text longer than RENLIB_MAX_TEXT) or RJ_ENOMEM.
 */
int renlib_set_comment(RenlibTree *t, int32_t i, const char *s);
int renlib_set_label(RenlibTree *t, int32_t i, const char *s);

/* Comment / board text of node i ("" when none). */
static inline const char *renlib_comment(const RenlibTree *t, int32_t i) { return t->text + t->node[i].comment; }
static inline const char *renlib_label(const RenlibTree *t, int32_t i) { return t->text + t->node[i].label; }

/*
 * Parse a whole file image buf[0..len) into *t (initialised here; free it
 * with renlib_free whatever the result).  Returns 0, RJ_EBADDATA with a
 * one-line reason in why (whylen bytes, may be NULL), or RJ_ENOMEM.
 */
int renlib_read(const uint8_t *buf, size_t len, RenlibTree *t, char *why, size_t whylen);

/*
 * Serialise t (header major 3 minor 4, the root node, then every node in
 * pre-order with its sibling / leaf flags, comment and board text).  *out is
 * malloc'd (caller frees), *len its size.  Returns 0 or RJ_ENOMEM.
 */
int renlib_write(const RenlibTree *t, uint8_t **out, size_t *len);

#endif /* RJ_RENLIB_H */
