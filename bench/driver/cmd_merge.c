/* `hgemm-bench merge OUT DIR...`: bench/sweep/merge.h does the work; no GPU. */
#include <stdio.h>

#include "bench/core/diag.h"
#include "bench/driver/commands.h"
#include "bench/sweep/merge.h"

hb_status hb_cmd_merge(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    (void)command_line;
    if (cli->n_operands < 2)
        return hb_fail(HB_ERR_USAGE, "merge: give OUT and at least one sweep folder (usage: %s)", self->usage);
    return hb_sweep_merge(cli->operands[0], (const char *const *)cli->operands + 1, cli->n_operands - 1, stdout);
}
