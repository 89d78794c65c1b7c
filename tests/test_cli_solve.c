/* test_cli_solve.c - end to end: `renju solve` / `renju verify` output, JSON
 * keys, exit codes, the database round trip and a clean stop on SIGINT (75). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int code;         /* exit code, or -1 when killed by a signal */
    char out[65536];  /* stdout */
} Run;

/* Run renju with the arguments (NULL-terminated); when sig_after_ms > 0 send SIGINT then. */
static void run_argv(Run *r, int sig_after_ms, const char **args)
{
    const char *argv[32];
    int argc = 0;
    argv[argc++] = RJ_RENJU_BIN;
    for (int i = 0; args[i] && argc < 31; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    FILE *out = tmpfile();
    assert_non_null(out);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fileno(out), 1);
        freopen("/dev/null", "w", stderr);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    if (sig_after_ms > 0) {
        struct timespec ts = { sig_after_ms / 1000, (long)(sig_after_ms % 1000) * 1000000L };
        nanosleep(&ts, NULL);
        kill(pid, SIGINT);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    r->code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    rewind(out);
    size_t n = fread(r->out, 1, sizeof r->out - 1, out);
    r->out[n] = 0;
    fclose(out);
}

static void test_solve_json(void **state)
{
    (void)state;
    Run r;
    const char *a[] = { "solve", "h8 h9 i8 i9 j8 j9", "--json", "--tt-mb", "8", "--quiet", NULL };
    run_argv(&r, 0, a);
    assert_int_equal(r.code, 0);
    static const char *keys[] = { "\"result\":\"proven\"", "\"attacker\":\"black\"", "\"best\":", "\"nodes\":",
                                  "\"time_s\":", "\"pv\":", "\"proof_nodes\":", "\"proof_depth\":" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strstr(r.out, keys[i]))
            fail_msg("missing %s in %s", keys[i], r.out);
}

static void test_verify(void **state)
{
    (void)state;
    Run r;
    const char *a[] = { "verify", "B:a1,a15,o1,o15 W:h8,i9,j8", "--to-move", "white", "--tt-mb", "8", "--quiet", NULL };
    run_argv(&r, 0, a);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "result: proven (attacker white)"));
    assert_non_null(strstr(r.out, "verified: yes"));
}

static void test_bad_input(void **state)
{
    (void)state;
    Run r;
    const char *a[] = { "solve", "h8 h8", "--quiet", NULL };
    run_argv(&r, 0, a);
    assert_int_equal(r.code, 65);
    const char *b[] = { "solve", "h8 h9", "--threads", "0", NULL };
    run_argv(&r, 0, b);
    assert_int_equal(r.code, 64);
    /* A game already over. */
    const char *c[] = { "solve", "B:h8,i8,j8,k8,l8 W:a1,a3,a5,a7", "--to-move", "white", "--quiet", NULL };
    run_argv(&r, 0, c);
    assert_int_equal(r.code, 65);
}

static void test_db_round_trip(void **state)
{
    (void)state;
    char path[] = "/tmp/rj_cli_solve_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    Run r;
    const char *a[] = { "solve", "h8 h9 i9 e11 i11 k5 j8 g10", "--json", "--tt-mb", "16", "--quiet", "--db", path, NULL };
    run_argv(&r, 0, a);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"stored\":"));
    run_argv(&r, 0, a);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"from_db\":true"));
    assert_non_null(strstr(r.out, "\"result\":\"proven\""));
    const char *q[] = { "query", "h8 h9 i9 e11 i11 k5 j8 g10", "--json", "--db", path, NULL };
    run_argv(&r, 0, q);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"found\":true"));
    char lock[64];
    snprintf(lock, sizeof lock, "%s-lock", path);
    unlink(path);
    unlink(lock);
}

static void test_sigint(void **state)
{
    (void)state;
    Run r;
    const char *a[] = { "solve", "h8 h9", "--json", "--tt-mb", "8", "--quiet", NULL };
    run_argv(&r, 700, a);
    assert_int_equal(r.code, 75);
    assert_non_null(strstr(r.out, "\"result\":\"unknown\""));
    assert_non_null(strstr(r.out, "\"interrupted\":true"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_json),
        cmocka_unit_test(test_verify),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_db_round_trip),
        cmocka_unit_test(test_sigint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
