/* hgemm-bench: benchmarking and correctness harness for HGEMM kernels. */
#include <stdio.h>
#include <string.h>

#include "bench/core/version.h"
#include "bench/driver/options.h"
#include "bench/driver/run_loop.h"

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
    hb_status status = hb_cli_parse(argc, argv, &cli);
    if (status != HB_OK)
        return status;
    switch (cli.command) {
    case HB_CMD_HELP:
        hb_cli_print_help(stdout);
        return HB_OK;
    case HB_CMD_VERSION:
        printf("hgemm-bench %s\n", hb_harness_commit());
        return HB_OK;
    case HB_CMD_RUN:
    case HB_CMD_CHECK:
    case HB_CMD_GATE: {
        static char command_line[8192];
        join_command_line(argc, argv, command_line, sizeof command_line);
        return hb_run_command(cli.run.gate ? "gate" : cli.run.check_only ? "check" : "run", &cli.run, command_line);
    }
    case HB_CMD_NONE:
        break;
    }
    return HB_ERR_INTERNAL;
}
