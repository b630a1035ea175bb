/* `hgemm-bench run | check | gate` (bench/driver/commands.c): every
 * configuration checked (and, but for `check`, timed), each in a child
 * process of its own; results go to the sinks as each configuration
 * finishes (a later failure loses nothing); the verdict at the end.  `gate`
 * also holds each configuration to the speedup threshold
 * (bench/result/gate.h).  The function, hb_run_command, is declared with the
 * other commands in bench/driver/commands.h. */
#ifndef HB_RUN_LOOP_H
#define HB_RUN_LOOP_H

#include "bench/driver/commands.h"

/* The autotune cache every configuration's child uses: --autotune-cache,
 * else the default path; "none" turns it off (NULL).  HB_ERR_USAGE when
 * there is no place for the default.  The sweep shares it. */
hb_status hb_resolve_autotune_cache(hb_run_options *options);

#endif
