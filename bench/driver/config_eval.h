/* Evaluates one configuration end to end, in the process that calls it
 * (the child of bench/driver/isolate.h in a normal run): opens the GPU, creates
 * the baselines and loads the candidate, runs the correctness battery,
 * times every participant with spot checks, checks the candidate again on
 * fresh inputs and summarises.  Everything it finds goes into `out`; the
 * return value is the configuration's status (HB_OK: passed, measured). */
#ifndef HB_CONFIG_EVAL_H
#define HB_CONFIG_EVAL_H

#include <cuda_runtime_api.h>

#include "bench/candidate/participant.h"
#include "bench/result/config_result.h"
#include "bench/result/run_options.h"
#include "verify/problem.h"

/* Seed of configuration `index`'s inputs and schedule: depends only on the
 * run's seed and the index, so a child reproduces it alone. */
uint64_t hb_config_seed(uint64_t run_seed, size_t index);

/* Seed of the summary's bootstrap CIs (participant i's is this + i), from
 * the configuration's seed alone.  Not a draw from the configuration's
 * generator: it is known before the timed window, where --target-ci's
 * criterion bootstraps with it, and the draws after the window (the check on
 * fresh inputs) stay what they were. */
uint64_t hb_bootstrap_seed(uint64_t config_seed);

hb_status hb_evaluate_config(const hb_run_options *options, size_t index, hb_config_result *out);

/* Work on a configuration's participants other than the evaluation (the
 * trace pass, bench/driver/config_trace.c): called once every participant
 * exists and the problem's buffers are filled, before any participant ran. */
typedef hb_status (*hb_config_work)(void *context, hb_participant *const *parts, size_t count,
                                    const hb_problem *problem, cudaStream_t stream, hb_config_result *r);

/* Sets configuration `index` up as hb_evaluate_config does (device, timed
 * stream, candidate, baselines, the problem's buffers; `out` receives the
 * participants' descriptions), runs `work`, and tears it all down. */
hb_status hb_with_config_participants(const hb_run_options *options, size_t index, hb_config_result *out,
                                      hb_config_work work, void *context);


#endif
