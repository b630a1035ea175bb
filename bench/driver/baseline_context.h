/* What every baseline of a configuration is created with, from the run's
 * options: one place for the candidate's evaluation and the baselines'
 * clean process (bench/driver/reference_eval.c), which must create them
 * alike for the one to be held to the other. */
#ifndef HB_BASELINE_CONTEXT_H
#define HB_BASELINE_CONTEXT_H

#include "baselines/baseline_factory.h"
#include "bench/core/gemm_types.h"
#include "bench/core/rng.h"
#include "bench/result/run_options.h"

hb_baseline_context hb_baseline_context_of(const hb_run_options *o, const hb_mnk *mnk, const hb_device_info *device,
                                           hb_rng *search_rng, cudaStream_t stream);

#endif
