/* Physical plausibility (docs/methodology.md): a candidate's measured time
 * must not imply more than the GPU's peak dense fp16 tensor-core throughput
 * at the SM clock it ran at.  A time that does cannot come from computing the
 * product: the kernel skipped work the checks did not see, or the timing
 * missed part of it.  Pure arithmetic on a configuration's result, the GPU's
 * facts and --peak-tflops: testable without a GPU. */
#ifndef HB_PLAUSIBILITY_H
#define HB_PLAUSIBILITY_H

#include "bench/result/config_result.h"
#include "bench/result/device_info.h"
#include "bench/result/verdict.h" /* HB_CHECK_PEAK_THROUGHPUT: the check an implausible time fails */

/* "", "table", "flag", "unknown-arch", "unknown-clock". */
const char *hb_peak_source_name(hb_peak_source source);

/* The peak this GPU reaches during the window whose telemetry is `t`:
 * --peak-tflops when flag_tflops > 0, else the table's rate x SMs x clock.
 * Fills source, peak_tflops and the factors. */
void hb_peak_for(const hb_device_info *device, const hb_telemetry_summary *t, double flag_tflops,
                 hb_plausibility *out);

/* Judges a measured configuration that passed every check: records
 * r->plausibility and, when the candidate's throughput at its event median
 * exceeds the peak, turns the result implausible (status, verdict, check
 * "peak-throughput", a reason with both figures and the clock).  Its times
 * stay in the result; its speedups no longer count (hb_result_has_speedups).
 * Leaves any other result as it is. */
void hb_plausibility_apply(hb_config_result *r, const hb_device_info *device, double flag_tflops);

/* 1 when r's speedups are figures to report and gate on: it was measured and
 * its time is not implausible. */
int hb_result_has_speedups(const hb_config_result *r);

#endif
