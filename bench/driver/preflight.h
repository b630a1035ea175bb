/* The checks before the GPU (docs/cli.md, "Before the GPU"): everything
 * about a run of run, check or gate that can be judged without a GPU is
 * judged before one is touched, so that on any machine, with or without a
 * GPU, an input error ends in its own exit code within a moment:
 *
 *   - the outputs: --out can be created and written, and --verdict FILE can
 *     be written (its folder exists, a file can be created there, FILE is not
 *     a folder); exit 7 otherwise, before anything is created;
 *   - with --candidate, for every configuration: which manifest serves it
 *     (bench/candidate/candidate_set.h), that manifest (each distinct one
 *     loaded and checked once, with every kernel image it names:
 *     bench/candidate/kernel_image.h), and what it asks for at that size
 *     (accumulator class, padding, grid, workspace:
 *     bench/candidate/launch_plan.h).
 *
 * A candidate's problem is the verdict of the configurations it concerns,
 * exactly as if their child had found it (bad-input, exit 3; unsupported,
 * exit 4): the run goes on with the others, as it always has.  Each
 * distinct message is printed once, however many --mnk share the manifest. */
#ifndef HB_PREFLIGHT_H
#define HB_PREFLIGHT_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/config_result.h"
#include "bench/result/run_options.h"

/* results[i] (options->n_configs of them) is initialised for configuration
 * i, with its manifest's path when one was found; a configuration that
 * failed gets its status, verdict and reason there.  *pending counts those
 * left for the GPU (status HB_OK).  Returns HB_ERR_IO when an output cannot
 * be written (the run must not start; nothing was created),
 * HB_ERR_INTERNAL when host memory ran out, HB_OK otherwise. */
hb_status hb_preflight(const hb_run_options *options, hb_config_result *results, size_t *pending);

#endif
