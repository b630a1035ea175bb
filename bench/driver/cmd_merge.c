/* `hgemm-bench merge OUT DIR...`: bench/sweep/merge.h does the work; no GPU. */
#include <stdio.h>

#include "bench/analysis/result_folders.h"
#include "bench/core/diag.h"
#include "bench/driver/commands.h"
#include "bench/sweep/merge.h"

/* Each folder read as `report` reads it, before anything is written: merge
 * copies rows byte for byte, so a row report refuses (a damaged field, a
 * configuration without its candidate row) would make a merged folder that
 * report refuses too.  One at a time: shards may share a duplicate item,
 * which merge keeps once. */
static hb_status check_readable(const char *const *folders, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        hb_result_set set;
        hb_result_set_init(&set);
        hb_status status = hb_read_result_folders(&folders[i], 1, &set);
        hb_result_set_free(&set);
        HB_TRY(status);
    }
    return HB_OK;
}

hb_status hb_cmd_merge(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    (void)command_line;
    if (cli->n_operands < 2)
        return hb_fail(HB_ERR_USAGE, "merge: give OUT and at least one sweep folder (usage: %s)", self->usage);
    const char *const *folders = (const char *const *)cli->operands + 1;
    HB_TRY(check_readable(folders, cli->n_operands - 1));
    return hb_sweep_merge(cli->operands[0], folders, cli->n_operands - 1, stdout);
}
