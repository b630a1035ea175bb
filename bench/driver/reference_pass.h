/* The parent's side of the baselines' clean-process reference
 * (docs/methodology.md, "Baselines held to a clean process"), before a
 * configuration's evaluation: the reference from the cache
 * (bench/report/reference_cache.h) when its key matches and the autotune
 * choices it ran are still the ones the autotune cache holds, else measured
 * in a child of its own that never loads candidate code
 * (bench/driver/reference_eval.h) and stored.  The evaluation's child is
 * forked after it and inherits what this hands it. */
#ifndef HB_REFERENCE_PASS_H
#define HB_REFERENCE_PASS_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/driver/isolate.h"
#include "bench/result/baseline_reference.h"
#include "bench/result/config_result.h"
#include "bench/result/device_info.h"
#include "bench/result/run_options.h"

typedef struct hb_reference_pass {
    int have;                  /* 1: `held` is what the evaluation holds the baselines to */
    hb_held_reference held;
    hb_reference_record record; /* where the reference came from (or why there is none) */
} hb_reference_pass;

/* The reference of configuration `index` on `device` (NULL: the GPU was not
 * read: none).  None, with the reason in pass->record, for `check` (nothing
 * is timed), --no-isolate (no clean process beside this one) and
 * --baseline-reference off.  HB_OK when the configuration may be evaluated;
 * the clean process's failure otherwise, with r holding the configuration's
 * error verdict (no candidate code ran in it: the harness's fault).  *cut = 1
 * when a caught signal killed it. */
hb_status hb_reference_prepare(const hb_run_options *options, const hb_device_info *device, size_t index,
                               const hb_gpu_claim *claim, hb_reference_pass *pass, hb_config_result *r, int *cut);

/* No reference for a configuration whose timed process runs no candidate host code (a cubin or a replay): nothing
 * there can slow the baselines below the harness (docs/methodology.md, "Baselines held to a clean process").
 * pass->record says `why` (or off, under --baseline-reference off; or what hb_reference_prepare would say of
 * `check`, --no-isolate or an unread GPU). */
void hb_reference_not_needed(const hb_run_options *options, const hb_device_info *device, hb_reference_pass *pass,
                             const char *why);

/* The settings the evaluation runs with: `options`, but with --retune off
 * once the clean process has searched and stored a choice in the autotune
 * cache, so that the candidate's process runs the algorithm the clean one
 * chose rather than search again with candidate code loaded. */
const hb_run_options *hb_reference_evaluation_options(const hb_run_options *options, const hb_reference_pass *pass);

/* The source, its reason and time into the configuration's record, after
 * the evaluation (whose child wrote the judgement's part). */
void hb_reference_settle(const hb_reference_pass *pass, hb_config_result *r);

#endif
