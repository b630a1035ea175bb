/* A plan's configurations from the flags that name them, as typed to sweep
 * or import: --grid paper, --mnk-file FILE, --m/--n/--k lists, or --mnk
 * repeated; repeats dropped (the first kept), with a note naming `command`. */
#ifndef HB_PLAN_SOURCE_H
#define HB_PLAN_SOURCE_H

#include "bench/core/status.h"
#include "bench/result/run_options.h"
#include "bench/sweep/sweep_plan.h"

hb_status hb_plan_from_options(const hb_run_options *o, const char *command, hb_sweep_plan *plan);

#endif
