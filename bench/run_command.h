/* `hgemm-bench run`: every configuration checked, then timed, results
 * written as each configuration finishes (a later failure loses nothing). */
#ifndef HB_RUN_COMMAND_H
#define HB_RUN_COMMAND_H

#include "cli.h"

/* Returns the most severe status over all configurations (hb_status_severity). */
hb_status hb_run_command(hb_run_options *options, const char *command_line);

#endif
