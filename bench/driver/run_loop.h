/* `hgemm-bench run | check | gate`: every configuration checked (and, but
 * for `check`, timed), each in a child process of its own; results written
 * as each configuration finishes (a later failure loses nothing); a
 * verdict file at the end.  `gate` also holds each configuration to the
 * speedup threshold (bench/gate.h). */
#ifndef HB_RUN_LOOP_H
#define HB_RUN_LOOP_H

#include "bench/driver/options.h"

/* Returns the most severe status over all configurations (hb_status_severity). */
hb_status hb_run_command(const char *command, hb_run_options *options, const char *command_line);

#endif
