/* `compare`'s timers (docs/reports.md, "compare: which timer comes closest"):
 * the candidate's speedup t_base / t_cand per configuration and column on
 * each of four timers, so a reader sees how much of a published speedup is
 * the host path and how much the kernel:
 *  - events: the paper's estimator (mean over rounds of t_b/t_c) on CUDA
 *    events (speedup_paper_event), whatever the headline timer was;
 *  - wall: the same on the host's wall clock (speedup_paper_wall);
 *  - kernel: kernel-only time from CUPTI, the ratio of the two kernel
 *    medians (speedup_kernel);
 *  - repo: the CUDA-L2 repository's own estimator, mean TFLOP/s of the
 *    candidate over mean TFLOP/s of the baseline over the timed rounds, on
 *    the wall clock (its timer: time.time() around the call and a device
 *    synchronize), computed from the mean wall times and their relative
 *    standard deviations (hb_repo_estimator).
 * A -max column on events, wall and kernel is summary.csv's -max row (the
 * baseline of the lower median event time); on repo it is the smaller of
 * the TN and NN figures, as CUDA-L2's summarize_result.py picks it. */
#ifndef HB_COMPARE_TIMERS_H
#define HB_COMPARE_TIMERS_H

#include <stddef.h>

#include "bench/analysis/result_set.h"

typedef enum hb_compare_timer {
    HB_CMP_EVENTS,
    HB_CMP_WALL,
    HB_CMP_KERNEL,
    HB_CMP_REPO,
    HB_CMP_TIMER_COUNT
} hb_compare_timer;

/* "events", "wall", "kernel", "repo": the stem of the tables' columns. */
const char *hb_compare_timer_name(hb_compare_timer timer);

/* t_b / t_c of `entry` over `column` on `timer`; NaN where summary.csv has
 * no figure (an untraced run has no kernel time). */
double hb_compare_timer_ratio(const hb_config_entry *entry, hb_compare_timer timer, size_t column);

/* The repository's estimator, mean(F/t_c) / mean(F/t_b) for F = 2MNK, from
 * each side's mean time and relative standard deviation s/mean.  mean(1/t)
 * is (1/mean(t)) (1 + cv^2) to second order (the delta method), so this is
 * (mean_b / mean_c) (1 + cv_c^2) / (1 + cv_b^2); exact for constant times,
 * within the third-order terms otherwise.  NaN unless both means are > 0
 * (a missing cv counts as 0), and NaN for a ratio outside
 * HB_MIN_RATIO..HB_MAX_RATIO, as a speedup read from a file would be
 * refused: with the means and cvs in their ranges (bench/analysis/
 * number_ranges.h) it lies within 1e-18..1e18, finite, and a mean over
 * configurations of ratios in range is finite too. */
double hb_repo_estimator(double base_mean, double base_cv, double cand_mean, double cand_cv);

#endif
