/* The trace pass of one configuration (docs/results.md, "Kernel time and
 * conduct"): after the evaluation, a child of its own opens the GPU with
 * CUPTI recording, sets every participant up as the evaluation did, and
 * traces --trace-calls calls of each (bench/trace/tracer.h): the first call
 * of the candidate in that fresh process, then later ones.  What comes back
 * is each participant's kernel-only time and the candidate's conduct
 * (bench/result/trace_summary.h); every traced call goes into
 * <run>/trace/<M>_<N>_<K>.<mode>.json.  Never inside a timed window: CUPTI
 * in the process that times would move the times it measures. */
#ifndef HB_CONFIG_TRACE_H
#define HB_CONFIG_TRACE_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/config_result.h"
#include "bench/result/run_options.h"

/* Traces options->configs[index] when the run traces (not --no-trace, not
 * --no-isolate) and r passed its checks, and merges the figures into r.  A
 * trace that cannot run (no CUPTI, a CUPTI error) leaves a note in r; a
 * candidate that crashes or hangs while traced gets that verdict.  *cut = 1
 * when a caught signal ended the child.  HB_OK unless the pass could not
 * be started at all (fork, the trace folder). */
hb_status hb_trace_config(const hb_run_options *options, const char *run_path, size_t index, hb_config_result *r,
                          int *cut);

#endif
