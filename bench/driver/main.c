/* hgemm-bench: benchmarking and correctness harness for HGEMM kernels, and
 * hgemm-report, its commands that need no GPU (the program file linked in
 * says which: bench/driver/commands.h).  Parses the command line and runs
 * the command. */
#include <stdio.h>

#include "bench/core/diag.h"
#include "bench/core/folder_lock.h"
#include "bench/core/version.h"
#include "bench/driver/commands.h"
#include "bench/driver/options.h"

static void join_command_line(int argc, char **argv, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < argc && used + 1 < size; i++) {
        int n = snprintf(out + used, size - used, "%s%s", i ? " " : "", argv[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

int main(int argc, char **argv)
{
    static hb_cli cli;
    hb_diag_set_program(hb_this_program.name);
    /* joined before the parser, which moves operands after the flags: the
     * line recorded is the one typed */
    static char command_line[8192];
    join_command_line(argc, argv, command_line, sizeof command_line);
    hb_status status = hb_cli_parse(argc, argv, &cli);
    if (status != HB_OK)
        return status;
    if (cli.command == HB_CMD_VERSION) {
        printf("%s %s\n", hb_this_program.name, hb_harness_commit());
        return HB_OK;
    }
    const hb_command_entry *command = hb_command_of(cli.command);
    if (!command)
        return HB_ERR_INTERNAL;
    hb_folder_lock_set_command(command_line); /* what a folder this run locks says of its writer */
    return command->run(command, &cli, command_line);
}
