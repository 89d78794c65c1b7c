/*
 * test_man.c - the manual pages (docs/man/COMMAND.txt, embedded in the
 * binary): every command `renju --help` lists has a page with the usual
 * sections, `renju help C` and `renju C --help` print it, and each page's
 * example runs (in a scratch directory, in the order of the command list, so
 * later examples find the database earlier ones made) with exit 0 and the
 * first output line the page shows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"

enum { MAX_CMDS = 64, MAX_WORDS = 32 };

static Run g_run;
static char g_names[MAX_CMDS][32];
static int g_n;

/* The command names of `renju --help`: the first word of each line under "commands:". */
static void read_commands(void)
{
    run(&g_run, "--help", NULL);
    assert_int_equal(g_run.code, 0);
    const char *p = strstr(g_run.out, "commands:\n");
    assert_non_null(p);
    p += strlen("commands:\n");
    while (!strncmp(p, "  ", 2) && g_n < MAX_CMDS) {
        p += 2;
        size_t k = strcspn(p, " \n");
        assert_true(k > 0 && k < sizeof g_names[0]);
        memcpy(g_names[g_n], p, k);
        g_names[g_n++][k] = 0;
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
    assert_true(g_n >= 14);
}

/* Split a command line into words; double quotes group (no escapes). */
static int split(char *s, char **w)
{
    int n = 0;
    while (*s && n < MAX_WORDS - 1) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        if (*s == '"') {
            w[n++] = ++s;
            s = strchr(s, '"');
            assert_non_null(s);
        } else {
            w[n++] = s;
            s += strcspn(s, " ");
        }
        if (*s)
            *s++ = 0;
    }
    w[n] = NULL;
    return n;
}

static void test_every_command_has_a_page(void **state)
{
    (void)state;
    static Run r2;
    for (int i = 0; i < g_n; i++) {
        run(&g_run, "help", g_names[i], NULL);
        assert_int_equal(g_run.code, 0);
        static const char *const sections[] = {"NAME\n",       "SYNOPSIS\n", "DESCRIPTION\n", "OPTIONS\n",
                                               "EXIT CODES\n", "EXAMPLE\n",  "\n    $ renju "};
        for (size_t k = 0; k < sizeof sections / sizeof sections[0]; k++)
            if (!strstr(g_run.out, sections[k]))
                fail_msg("renju help %s: no '%s'", g_names[i], sections[k]);
        char want[128];
        snprintf(want, sizeof want, "    renju %.31s - ", g_names[i]);
        assert_non_null(strstr(g_run.out, want));
        run(&r2, g_names[i], "--help", NULL);
        assert_int_equal(r2.code, 0);
        assert_string_equal(r2.out, g_run.out);
    }
    run(&g_run, "help", "no-such-command", NULL);
    assert_int_equal(g_run.code, 64);
}

static void test_examples_run(void **state)
{
    (void)state;
    char dir[64], cmd[160];
    snprintf(dir, sizeof dir, "/tmp/rj_man_%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(chdir(dir), 0);
    unsetenv("RENJU_DB");
    static Run r;
    for (int i = 0; i < g_n; i++) {
        run(&g_run, "help", g_names[i], NULL);
        const char *p = strstr(g_run.out, "\n    $ renju ");
        assert_non_null(p);
        p += strlen("\n    $ renju ");
        char line[1024], first[1024];
        size_t k = strcspn(p, "\n");
        assert_true(k < sizeof line);
        memcpy(line, p, k);
        line[k] = 0;
        p += k + 1;
        assert_int_equal(strncmp(p, "    ", 4), 0);
        k = strcspn(p + 4, "\n");
        assert_true(k < sizeof first);
        memcpy(first, p + 4, k);
        first[k] = 0;
        char *w[MAX_WORDS];
        int n = split(line, w);
        assert_true(n >= 1);
        run_input(&r, "", w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12], w[13], w[14],
                  w[15], w[16], w[17], w[18], w[19], w[20], w[21], w[22], w[23], w[24], w[25], w[26], w[27], w[28],
                  w[29], w[30], NULL);
        if (r.code != 0)
            fail_msg("example of %s: exit %d: %s", g_names[i], r.code, r.err);
        size_t m = strcspn(r.out, "\n");
        if (strlen(first) != m || strncmp(r.out, first, m))
            fail_msg("example of %s: first line '%.*s', the page shows '%s'", g_names[i], (int)m, r.out, first);
    }
    assert_int_equal(chdir("/"), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
    (void)state;
    read_commands();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_has_a_page),
        cmocka_unit_test(test_examples_run),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
