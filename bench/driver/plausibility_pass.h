/* The run's side of the plausibility judgement (bench/result/plausibility.h,
 * applied to each configuration's result by the headline,
 * bench/result/headline.h): says once per run when this GPU has no entry in
 * the peak table (a warning, and no verdict) or no known SM clock. */
#ifndef HB_PLAUSIBILITY_PASS_H
#define HB_PLAUSIBILITY_PASS_H

#include "bench/result/config_result.h"
#include "bench/result/device_info.h"

/* What has been said already in this run. */
typedef struct hb_plausibility_warnings {
    int unknown_arch;
    int unknown_clock;
} hb_plausibility_warnings;

/* The warning for an unjudged peak the first time it occurs, for a result
 * the judgement applies to (passed and timed), without judging it.  Returns
 * 1 when it printed a warning now. */
int hb_plausibility_warn(hb_plausibility_warnings *once, const hb_config_result *r, const hb_device_info *device,
                         double peak_tflops_flag);

/* hb_plausibility_apply with --peak-tflops (0: the table), then the warning
 * for an unjudged peak the first time it occurs.  Returns 1 when it printed
 * a warning now. */
int hb_plausibility_pass(hb_plausibility_warnings *once, hb_config_result *r, const hb_device_info *device,
                         double peak_tflops_flag);

#endif
