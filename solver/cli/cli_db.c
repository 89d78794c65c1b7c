/* cli_db.c - `renju query`, `renju db ...`. */
#include "cli.h"

int cmd_query(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error(EXIT_SOFTWARE, "query: not available in this build yet");
}

int cmd_db(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error(EXIT_SOFTWARE, "db: not available in this build yet");
}
