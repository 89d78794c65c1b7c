/*
 * cli_run.h - end-to-end test helper: run the built `renju` binary
 * (RJ_RENJU_BIN) and capture its exit code, stdout and stderr.
 */
#ifndef RJ_TEST_CLI_RUN_H
#define RJ_TEST_CLI_RUN_H

#include <stddef.h>

typedef struct {
    int code;         /* exit code, or -1 when killed by a signal */
    char out[65536];  /* stdout (truncated to fit) */
    char err[4096];   /* stderr (truncated to fit) */
} Run;

/* Run renju with the NULL-terminated argument list; fails the test if it cannot start. */
void run(Run *r, const char *arg, ...);

#endif /* RJ_TEST_CLI_RUN_H */
