/* The candidate's process's side of the baselines' clean-process reference
 * (docs/methodology.md, "Baselines held to a clean process"): once the
 * windows are summarised and the timers decided, every baseline's figures
 * here (its kernels from the call monitor, its event, wall and kernel-only
 * medians) are judged against the reference the parent handed over
 * (bench/result/baseline_reference.h).  A baseline that ran a kernel, more
 * kernels or an algorithm its clean process did not, or slower beyond the
 * tolerance, is `baseline-interference` (exit 16): the configuration gets
 * no speedup. */
#ifndef HB_REFERENCE_HOLD_H
#define HB_REFERENCE_HOLD_H

#include <stddef.h>

#include "bench/result/baseline_reference.h"
#include "bench/result/config_result.h"
#include "bench/result/watched_calls.h"
#include "verify/check_failure.h"

/* `held` NULL: nothing to hold them to (the record says why), HB_OK.
 * `watched`: the call monitor's record of r's first `count` participants,
 * in their order (NULL: no monitor).  Writes the judgement into
 * r->baseline_reference and each baseline's reference medians into its row;
 * HB_ERR_BASELINE_INTERFERENCE with the check and reason in `failure` when
 * a baseline was interfered with. */
hb_status hb_hold_baselines(const hb_held_reference *held, hb_config_result *r, const hb_watched *watched,
                            size_t count, hb_check_failure *failure);

#endif
