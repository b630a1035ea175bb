/* The baselines' clean process (docs/methodology.md, "Baselines held to a
 * clean process"): one configuration set up as bench/driver/config_eval.c
 * sets it up (the timing entry points sealed, the CUPTI call monitor on as
 * in the candidate's process, so both pay its cost; the device, the timed
 * stream, every baseline of the registry, the problem, the L2 policy) but
 * with no candidate, loaded or called: no code but the harness's and the
 * libraries' ever runs in it.  Then a short window of rounds of the
 * baselines alone (--reference-warmup-s, --reference-time-s; the run's mode,
 * gaps, L2 and stream policies), and each baseline's figures
 * (bench/result/baseline_reference.h): its kernels and its event, wall and
 * kernel-only medians with their spread.  Run in a child of its own
 * (bench/driver/reference_pass.h) that never loads candidate code. */
#ifndef HB_REFERENCE_EVAL_H
#define HB_REFERENCE_EVAL_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/baseline_reference.h"
#include "bench/result/run_options.h"

/* Configuration `index` of `options`, measured in this process, into *out.
 * An autotune baseline whose choice is not cached searches here (and stores
 * its choice in the autotune cache), with the same search generator as the
 * candidate's process would draw. */
hb_status hb_measure_baseline_reference(const hb_run_options *options, size_t index, hb_baseline_reference *out);

#endif
