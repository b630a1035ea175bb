/* `hgemm-bench merge OUT DIR...`: bench/sweep/merge.h does the work; no GPU. */
#include <stdio.h>

#include "bench/driver/commands.h"
#include "bench/sweep/merge.h"

hb_status hb_cmd_merge(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    (void)self;
    (void)command_line;
    const hb_run_options *o = &cli->run;
    return hb_sweep_merge(o->args[0], o->args + 1, o->n_args - 1, stdout);
}
