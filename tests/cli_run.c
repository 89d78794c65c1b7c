/* cli_run.c - see cli_run.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_run.h"

enum { MAX_ARGS = 32 };

static void slurp(FILE *f, char *buf, size_t len)
{
    rewind(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = 0;
}

/* argv for execv: the binary (NULL: renju), then the NULL-terminated list starting at arg. */
static void make_argv(const char **argv, const char *bin, const char *arg, va_list ap)
{
    int argc = 0;
    argv[argc++] = bin ? bin : RJ_RENJU_BIN;
    for (const char *a = arg; a && argc < MAX_ARGS - 1; a = va_arg(ap, const char *))
        argv[argc++] = a;
    argv[argc] = NULL;
}

/*
 * Fork and exec argv with stdin/stdout/stderr on the descriptors in/out/err
 * (in or err -1: the test's own); the child's pid.
 */
static pid_t spawn(const char **argv, int in, int out, int err)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (in >= 0)
            dup2(in, 0);
        dup2(out, 1);
        if (err >= 0)
            dup2(err, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return pid;
}

int run_wait(pid_t pid)
{
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run argv with stdin from in (-1: the test's) and capture its exit code and output in r. */
static void run_argv(Run *r, const char **argv, int in)
{
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    r->code = run_wait(spawn(argv, in, fileno(out), fileno(err)));
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
    fclose(out);
    fclose(err);
}

void run(Run *r, const char *arg, ...)
{
    const char *argv[MAX_ARGS];
    va_list ap;
    va_start(ap, arg);
    make_argv(argv, NULL, arg, ap);
    va_end(ap);
    run_argv(r, argv, -1);
}

void run_input(Run *r, const char *input, const char *arg, ...)
{
    const char *argv[MAX_ARGS];
    va_list ap;
    va_start(ap, arg);
    make_argv(argv, NULL, arg, ap);
    va_end(ap);
    FILE *in = tmpfile();
    assert_non_null(in);
    assert_int_equal(fwrite(input, 1, strlen(input), in), strlen(input));
    fflush(in);
    rewind(in);
    run_argv(r, argv, fileno(in));
    fclose(in);
}

pid_t run_piped(const char *bin, FILE **to, FILE **from, const char *arg, ...)
{
    const char *argv[MAX_ARGS];
    va_list ap;
    va_start(ap, arg);
    make_argv(argv, bin, arg, ap);
    va_end(ap);
    int down[2], up[2]; /* test -> program, program -> test; close-on-exec: other children do not hold them */
    assert_int_equal(pipe2(down, O_CLOEXEC), 0);
    assert_int_equal(pipe2(up, O_CLOEXEC), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(down[0], 0); /* dup2 clears close-on-exec on 0 and 1 */
        dup2(up[1], 1);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(down[0]);
    close(up[1]);
    *to = fdopen(down[1], "w");
    *from = fdopen(up[0], "r");
    assert_non_null(*to);
    assert_non_null(*from);
    setvbuf(*to, NULL, _IOLBF, 0);
    return pid;
}

/* True when a line of file path contains needle. */
static bool file_has(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[1024];
    bool seen = false;
    while (!seen && fgets(line, sizeof line, f))
        seen = strstr(line, needle) != NULL;
    fclose(f);
    return seen;
}

pid_t run_until(const char *out_path, const char *err_path, const char *needle, const char *arg, ...)
{
    const char *argv[MAX_ARGS];
    va_list ap;
    va_start(ap, arg);
    make_argv(argv, NULL, arg, ap);
    va_end(ap);
    FILE *out = fopen(out_path, "w"), *err = fopen(err_path, "w");
    assert_non_null(out);
    assert_non_null(err);
    pid_t pid = spawn(argv, -1, fileno(out), fileno(err));
    fclose(out);
    fclose(err);
    for (int i = 0; i < 3000; i++) { /* 60 s */
        if (file_has(err_path, needle))
            return pid;
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            fail_msg("renju %s ended (status %d) before printing \"%s\" on stderr", argv[1], st, needle);
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    fail_msg("renju %s printed no \"%s\" on stderr in 60 s", argv[1], needle);
    return -1;
}

const char *scratch_path(const char *dir, const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}
