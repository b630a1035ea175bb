/* The gate's threshold (docs/gate.md): a configuration that passed
 * every check must also be at least `min_speedup` faster than the chosen
 * baseline, judged by the headline estimator (geometric mean of the paired
 * per-round ratios) on the configuration's headline timer (CUDA events, or
 * the wall clock where events may miss work: bench/result/timer_check.h).
 * Pure: testable without a GPU. */
#ifndef HB_GATE_H
#define HB_GATE_H

#include "bench/result/config_result.h"

/* The participant named `name` in r, or NULL. */
const hb_participant_result *hb_find_participant(const hb_config_result *r, const char *name);

/* Turns a passed, measured result into too-slow (status, verdict, check
 * "speedup", reason) when its speedup over `vs` is below min_speedup.
 * Under --decide (r->decision.ran) the decision judges instead of the point
 * estimate: above passes, below is too-slow, undecided is verdict
 * undecided with too-slow's status (exit 9).  Leaves any other result as
 * it is. */
void hb_gate_apply(hb_config_result *r, const char *vs, double min_speedup);

/* The findings `gate --strict` and `--forbid LIST` refuse, as a mask of
 * HB_FINDING_BIT (bench/result/conduct.h); 0 when neither is given. */
unsigned hb_gate_forbidden_findings(int strict, const char *forbid);

/* Turns a correct result (passed, or too slow) whose conduct shows a
 * finding in `forbidden` into HB_ERR_FORBIDDEN (verdict forbidden, check
 * "conduct", the findings' lines as the reason).  A result the call monitor
 * did not judge cannot be cleared: it becomes an error naming why (the
 * trace's note).  `forbidden` 0 leaves every result as it is. */
void hb_gate_apply_conduct(hb_config_result *r, unsigned forbidden);

#endif
