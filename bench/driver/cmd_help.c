/* `hgemm-bench help [COMMAND]`, `--help`, `COMMAND --help`: the overview,
 * or one command's usage and flags, on stdout; `help --markdown`:
 * docs/cli.md's table of flags. */
#include <stdio.h>

#include "bench/driver/commands.h"
#include "bench/driver/option_doc.h"

hb_status hb_cmd_help(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    (void)self;
    (void)command_line;
    if (cli->help_markdown)
        hb_option_doc_print(stdout);
    else if (cli->help_for == HB_CMD_NONE || cli->help_for == HB_CMD_HELP)
        hb_print_overview(stdout);
    else
        hb_print_command_help(stdout, cli->help_for);
    return HB_OK;
}
