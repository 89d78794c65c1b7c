/*
 * man.h - the manual pages of the subcommands (`renju help COMMAND`,
 * `renju COMMAND --help`): docs/man/COMMAND.txt, embedded in the binary at
 * build time by solver/cli/man_embed.cmake (a generated C file).  Adding a
 * page is adding a file to docs/man/.
 */
#ifndef RJ_MAN_H
#define RJ_MAN_H

/* The page of command name (NUL-terminated text), or NULL when there is none. */
const char *man_page(const char *name);

/* Number of pages, and the command name of page i (NULL out of range), in name order. */
int man_count(void);
const char *man_name(int i);

#endif /* RJ_MAN_H */
