/*
 * cli_run.h - end-to-end test helpers: run the built `renju` binary
 * (RJ_RENJU_BIN) and capture its exit code, stdout and stderr; or start it in
 * the background and wait until it is busy (to signal it mid-run).
 */
#ifndef RJ_TEST_CLI_RUN_H
#define RJ_TEST_CLI_RUN_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct {
    int code;        /* exit code, or -1 when killed by a signal */
    char out[65536]; /* stdout (truncated to fit) */
    char err[65536]; /* stderr (truncated to fit) */
} Run;

/* Run renju with the NULL-terminated argument list; fails the test if it cannot start. */
void run(Run *r, const char *arg, ...);

/*
 * Start renju with the NULL-terminated argument list, stdout and stderr
 * written to the files out_path and err_path, and return its pid once a line
 * of its stderr contains needle: it is then past its set-up (signal handlers
 * installed) and working.  Polls every 20 ms for up to 60 s; on time-out, or
 * when the child exits first, the child is reaped and the test fails.  Reap
 * the returned child with run_wait.  No sleep stands in for this wait.
 */
pid_t run_until(const char *out_path, const char *err_path, const char *needle, const char *arg, ...);

/* run() with the text input on the program's standard input. */
void run_input(Run *r, const char *input, const char *arg, ...);

/*
 * Start the program bin (NULL: renju) with the NULL-terminated argument list,
 * its standard input and output connected to *to and *from (line-buffered
 * streams the caller closes), its stderr left as the test's.  Reap it with
 * run_wait.  For protocols spoken line by line (renju pbrain).
 */
pid_t run_piped(const char *bin, FILE **to, FILE **from, const char *arg, ...);

/* Wait for child pid: its exit code, or -1 when a signal ended it. */
int run_wait(pid_t pid);

/* dir/name, in one of 8 rotating buffers (a test's scratch files: up to 8 names in one call). */
const char *scratch_path(const char *dir, const char *name);

#endif /* RJ_TEST_CLI_RUN_H */
