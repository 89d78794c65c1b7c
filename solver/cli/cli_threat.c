/* cli_threat.c - `renju vcf`, `renju vct`. */
#include "cli.h"

int cmd_vcf(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error(EXIT_SOFTWARE, "vcf: not available in this build yet");
}

int cmd_vct(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error(EXIT_SOFTWARE, "vct: not available in this build yet");
}
