/* A command line as parsed (bench/driver/options.h parses it): which
 * command, its settings and its operands. */
#ifndef HB_COMMAND_LINE_H
#define HB_COMMAND_LINE_H

#include <stddef.h>

#include "bench/result/run_options.h"

/* The commands, as bench/driver/commands.h's tables list them. */
typedef enum hb_command {
    HB_CMD_NONE,
    HB_CMD_HELP,
    HB_CMD_VERSION,
    HB_CMD_RUN,
    HB_CMD_CHECK,
    HB_CMD_GATE,
    HB_CMD_BASELINES,
    HB_CMD_SWEEP,
    HB_CMD_MERGE,
    HB_CMD_REPORT,
    HB_CMD_COMPARE,
    HB_CMD_IMPORT,
    HB_CMD_REPRODUCE,
    HB_CMD_COUNT
} hb_command;

typedef struct hb_cli {
    hb_command command;
    hb_command help_for; /* HB_CMD_HELP: the command whose help to print; HB_CMD_NONE: the overview */
    int help_markdown;   /* `help --markdown`: docs/cli.md's option table instead */
    hb_run_options run;
    char **operands;     /* the words after the flags, for a command that takes some (report's folders) */
    size_t n_operands;
} hb_cli;

#endif
