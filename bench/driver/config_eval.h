/* Evaluates one configuration end to end, in the process that calls it
 * (the child of bench/driver/isolate.h in a normal run): seals the timing
 * entry points, opens the call monitor (CUPTI) and the GPU, creates the
 * baselines and loads the candidate, runs the correctness battery, times
 * every participant with spot checks, checks the candidate again on fresh
 * inputs, checks the timers after every window, decides the headline timer
 * and summarises, holds the baselines to their clean-process reference; the
 * monitor's kernel times and conduct, and trace.json.  Everything it finds goes into `out`; the
 * return value is the configuration's status (HB_OK: passed, measured). */
#ifndef HB_CONFIG_EVAL_H
#define HB_CONFIG_EVAL_H

#include <cuda_runtime_api.h>

#include "bench/candidate/participant.h"
#include "bench/result/baseline_reference.h"
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

/* `run_path`: the run's folder, where trace/<M>_<N>_<K>.<mode>.json goes
 * (NULL: no trace file).  `reference`: the baselines' clean-process
 * reference they are held to once timed (bench/driver/reference_hold.h);
 * NULL: none.  `replay_folder`: a launcher's replay to time in its place
 * (bench/driver/replay_pass.h); NULL or "": the candidate as it is. */
hb_status hb_evaluate_config(const hb_run_options *options, const char *run_path, size_t index,
                             const hb_held_reference *reference, const char *replay_folder, hb_config_result *out);

/* In a child readied before its configuration is known (bench/driver/isolate.h): the set-up no configuration
 * decides (the timing entry points and every code page sealed, the call monitor opened, the GPU and the timed
 * stream), kept for this process's one hb_evaluate_config, which then does only the rest and records these parts
 * as done ahead (bench/result/item_cost.h).  A failure here is that configuration's, reported with it. */
void hb_evaluation_ready(const hb_run_options *options);

/* The job pipe whose clear byte (hb_ready_child_wait_clear) the evaluation waits for before its GPU work. */
void hb_evaluation_clear_fd(int job_fd);

/* The profiled process of --profile (bench/driver/profile_calls.h): the
 * configuration set up as above (no call monitor: ncu holds the profiling
 * interface), then the participants in `names` called untimed, each once to
 * warm up and once inside its NVTX range.  Nothing is checked or timed; `out`
 * says only whether the calls ran. */
hb_status hb_profile_config_calls(const hb_run_options *options, size_t index, const char *names,
                                  hb_config_result *out);

#endif
