/* cli_solve.c - `renju solve`, `verify`, `fifth`, `fair-n`, `bench`, `batch`. */
#include "cli.h"

int cmd_solve(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error(EXIT_SOFTWARE, "solve: not available in this build yet");
}

int cmd_verify(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error(EXIT_SOFTWARE, "verify: not available in this build yet");
}

int cmd_fifth(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error(EXIT_SOFTWARE, "fifth: not available in this build yet");
}

int cmd_fair_n(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error(EXIT_SOFTWARE, "fair-n: not available in this build yet");
}

int cmd_batch(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error(EXIT_SOFTWARE, "batch: not available in this build yet");
}
