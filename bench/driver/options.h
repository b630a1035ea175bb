/* Command-line parsing for `hgemm-bench run` (docs/cli.md). */
#ifndef HB_OPTIONS_H
#define HB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/core/timing_policy.h"
#include "bench/result/run_options.h"


typedef enum hb_command { HB_CMD_NONE, HB_CMD_HELP, HB_CMD_VERSION, HB_CMD_RUN, HB_CMD_CHECK, HB_CMD_GATE } hb_command;

typedef struct hb_cli {
    hb_command command;
    hb_run_options run;
} hb_cli;

/* Parses argv into `cli`.  On bad usage prints the reason to stderr and
 * returns HB_ERR_USAGE.  Does not touch the GPU or the file system. */
hb_status hb_cli_parse(int argc, char **argv, hb_cli *cli);

/* Parses "M,N,K" strictly: three positive decimal integers <= HB_MAX_DIM. */
hb_status hb_parse_mnk(const char *text, hb_mnk *out);

void hb_cli_print_help(FILE *stream);


#endif
