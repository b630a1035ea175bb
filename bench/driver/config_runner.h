/* One configuration from the GPU's side to its finished record, as every
 * evaluating command does it: `run`, `check` and `gate` in the run loop
 * (bench/driver/run_loop.c), and each worker of a sweep
 * (bench/driver/sweep_workers.c).  The caller holds no CUDA context. */
#ifndef HB_CONFIG_RUNNER_H
#define HB_CONFIG_RUNNER_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/driver/isolate.h"
#include "bench/driver/plausibility_pass.h"
#include "bench/result/config_result.h"
#include "bench/result/device_info.h"
#include "bench/result/run_options.h"

/* A worker's evaluating processes (bench/driver/isolate.h, "a child readied"): the next one, started and readied
 * (CUPTI, the GPU, the seals) while the current one measures, and the last one, left to exit while the next
 * configuration sets up.  Each evaluates one configuration: a candidate never shares a process with another. */
typedef struct hb_evaluators {
    hb_ready_child next;    /* next.live: readied and waiting */
    hb_ready_child exiting; /* the last one, whose result came: reaped before the next one's GPU work */
    int have_exiting;
} hb_evaluators;

void hb_evaluators_init(hb_evaluators *e);

/* The waiting one discarded, the exiting one reaped. */
void hb_evaluators_close(hb_evaluators *e);

/* The sanitizer passes (--sanitize [TOOLS], `sanitizer` compute-sanitizer's path), the
 * baselines' clean-process reference on `device` (cached, or measured in a
 * child of its own: bench/driver/reference_pass.h; none where `device` is
 * NULL), then the evaluation of options->configs[index] in a child of its
 * own (or in this process with --no-isolate), into r; the child writes
 * <run_path>/trace/ (bench/driver/config_eval.h).  *cut = 1 when a caught signal
 * killed the child before it reported: r then holds nothing worth
 * recording.  Returns HB_OK when the configuration was evaluated, whatever
 * its verdict (in r); a failure of the sanitize pass itself otherwise, which
 * ends the run.  `evaluators` (NULL: a child forked for this configuration
 * alone) lends the evaluating child and readies the next. */
hb_status hb_config_run(const hb_run_options *options, const hb_device_info *device, const char *sanitizer,
                        const char *run_path, size_t index, hb_evaluators *evaluators, hb_config_result *r, int *cut);

/* What the parent adds to an evaluated configuration before it is
 * recorded: a trace_note where the call monitor judged no call of the
 * candidate and none says why (it ended before its first call, or its
 * child died), the timing settings, the GPU it ran on, a warning where the
 * clocks dropped or the GPU's peak is unknown, the accumulator audit of the
 * candidate's file (bench/driver/accumulator_audit.h), then the headline's
 * GATE stage (bench/result/headline.h): the plausibility verdict (before the
 * threshold: an implausible time must not count as fast enough), for `gate`
 * the threshold and the refused conduct, the reward settled last. */
void hb_config_finish(const hb_run_options *options, const hb_device_info *device, hb_plausibility_warnings *once,
                      hb_config_result *r);

#endif
