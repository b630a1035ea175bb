/* Aggregates over configurations of per-configuration speedups r = t_b / t_c
 * (docs/reports.md, "Aggregates"):
 *  - the paper's: the arithmetic mean of r, minus 1, over the paper's
 *    per-configuration estimator (mean over rounds of t_b / t_c);
 *  - ours: the geometric mean of r, minus 1, over ours (the geometric mean
 *    of the paired per-round ratios), with a 95 % percentile bootstrap CI
 *    over configurations: configurations are resampled with replacement
 *    (i.i.d.: they are separate experiments, not a time series), the mean of
 *    log r taken in each of HB_BOOTSTRAP_RESAMPLES resamples from an hb_rng
 *    seeded with HB_REPORT_BOOTSTRAP_SEED, so a report is reproducible bit
 *    for bit;
 *  - win rates: the share of configurations with r > 1, by each estimator. */
#ifndef HB_AGGREGATE_H
#define HB_AGGREGATE_H

#include <stddef.h>

#include "bench/core/status.h"

/* Fixed, so the same results always give the same intervals. */
#define HB_REPORT_BOOTSTRAP_SEED 1

typedef struct hb_speedup_aggregate {
    size_t paper_n;      /* configurations behind the paper's aggregate */
    double paper_mean;   /* mean(r) - 1; NaN when paper_n is 0 */
    double paper_wins;   /* share of those with r > 1, a fraction */
    size_t ours_n;       /* configurations behind ours */
    double geomean;      /* exp(mean(log r)) - 1 */
    double ci_low, ci_high; /* its 95 % bootstrap interval, as speedups; NaN when ours_n < 2 */
    double ours_wins;
} hb_speedup_aggregate;

/* `paper` and `ours`: each configuration's r by the two estimators, every
 * value in HB_MIN_RATIO..HB_MAX_RATIO (the caller leaves out the
 * configurations without one): HB_ERR_INTERNAL for one outside, so every
 * aggregate is finite (a mean of ratios in range is). */
hb_status hb_aggregate_speedups(const double *paper, size_t paper_n, const double *ours, size_t ours_n,
                                hb_speedup_aggregate *out);

#endif
