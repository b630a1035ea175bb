/* Statistics over timing samples and paired speedups (docs/methodology.md,
 * "Estimators").
 *
 * Per round r the candidate and baseline b each give one time; the paired
 * ratio is q_r = t_b,r / t_cand,r and the paper's per-round speedup is
 * s_r = q_r - 1.  The headline is the geometric mean of q_r minus 1: unlike
 * the paper's mean of s_r it is not biased upward by noise (E[t_b/t_c] >
 * E[t_b]/E[t_c] when t_c varies), and it is symmetric: swapping the two
 * participants negates log(1+headline).
 *
 * Confidence interval of the headline: a 95 % percentile interval of the
 * mean of x_r = log q_r from a circular moving-block bootstrap, mapped
 * through exp(.) - 1.
 *  - Blocks, because rounds are a time series, not independent draws: clocks
 *    and temperature drift through the window, so neighbouring rounds share
 *    noise and an interval that treats them as independent (Student t, or an
 *    i.i.d. bootstrap) is too narrow.  Resampling runs of L consecutive rounds
 *    keeps the correlation within each run.  L = round(cbrt(n)) (Hall,
 *    Horowitz & Jing 1995, rule of thumb for intervals), at least 1 and at
 *    most n.  It captures correlation over about L rounds only; slower drift
 *    still narrows the interval (AR(1) rounds with phi 0.9, correlated over
 *    ~10 rounds: at n = 2000, L = 13, it covers ~81 %, not 95 %; an i.i.d.
 *    bootstrap covers ~33 %).
 *  - Circular (blocks wrap from the last round to the first), so every round
 *    is equally likely to be drawn and the resampled means centre on mean(x).
 *  - Percentile on the log scale, because resampled means of -x are exactly the
 *    negated means of x under the same seed: swapping the participants
 *    mirrors the interval, as it negates log(1+headline).
 *  - HB_BOOTSTRAP_RESAMPLES resamples from an hb_rng seeded by the caller, so
 *    a run is reproducible; the endpoints' Monte Carlo error is a few % of the
 *    width.
 * With few rounds (tens) a percentile bootstrap is somewhat narrower than a
 * t interval would be; with fewer than 2 rounds there is no interval at all. */
#ifndef HB_STATS_H
#define HB_STATS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/core/status.h"

#define HB_BOOTSTRAP_RESAMPLES 2000

typedef struct hb_time_summary {
    size_t n;
    double min, max, mean, median, p10, p90, stdev;
    double rel_stdev; /* stdev / mean: the participant's noise */
} hb_time_summary;

typedef struct hb_speedup_summary {
    size_t n;              /* number of paired rounds */
    double geomean;        /* headline: exp(mean(log q)) - 1 */
    double ci95_low;       /* 95 % block-bootstrap interval of the headline; n < 2: -1 */
    double ci95_high;      /* n < 2: +INFINITY */
    double paper;          /* the paper's eq. 2 score: mean(q - 1) */
    double ratio_of_means; /* mean(t_b) / mean(t_cand) - 1 */
    double median, p10, p90; /* quantiles of s = q - 1 */
    double ci95_halfwidth;   /* (ci95_high - ci95_low) / 2: what --target-ci compares, as a fraction (0.01 = 1 %) */
    size_t bootstrap_block;  /* block length L in rounds; 0 when n < 2 (no bootstrap ran) */
    size_t bootstrap_resamples; /* B; 0 when n < 2 */
    double log_stdev;        /* standard deviation of log(q) over rounds */
} hb_speedup_summary;

/* Quantile by linear interpolation between order statistics (Hyndman-Fan
 * type 7, as numpy's default); `sorted` ascending, n > 0, q in [0, 1]. */
double hb_quantile_sorted(const double *sorted, size_t n, double q);

/* The q-quantile (as hb_quantile_sorted) of the finite values among
 * v[0..n), sorted into `scratch` (n doubles); NaN when none is finite. */
double hb_finite_quantile(const double *v, size_t n, double q, double *scratch);

/* Two-sided 95 % quantile of Student's t with `df` degrees of freedom. */
double hb_student_t975(size_t df);

hb_status hb_summarize_times(const double *times, size_t n, hb_time_summary *out);

/* t_base[i] and t_cand[i] come from the same round i, rounds in time order;
 * every time must be > 0.  `bootstrap_seed` seeds the CI's resampling: the
 * same seed gives the same interval. */
hb_status hb_summarize_speedup(const double *t_base, const double *t_cand, size_t n, uint64_t bootstrap_seed,
                               hb_speedup_summary *out);

/* x_r = log(t_base / t_cand), one round's log ratio: the headline and its CI
 * are statistics of these.  One inline definition, so the summary and
 * --target-ci's per-round store (bench/measure/target_ci_criterion.c) get the
 * same bits from the same two times. */
static inline double hb_log_ratio(double t_base, double t_cand) { return log(t_base / t_cand); }

/* Everything of hb_summarize_speedup that depends on the log ratios alone:
 * n, geomean, log_stdev and the CI (ci95_low, ci95_high, ci95_halfwidth,
 * bootstrap_block, bootstrap_resamples); the other fields are left as they
 * are.  hb_summarize_speedup calls it, and so does --target-ci's worker: the
 * same log ratios and seed give the same half-width, bit for bit.  n > 0. */
hb_status hb_speedup_from_log_ratios(const double *log_ratio, size_t n, uint64_t bootstrap_seed,
                                     hb_speedup_summary *out);

/* The bootstrap behind the headline's CI, on the scale of x: 95 % percentile
 * interval [*low, *high] of mean(x) from HB_BOOTSTRAP_RESAMPLES circular
 * moving-block resamples with blocks of `block` values (1 <= block <= n;
 * block 1 is the i.i.d. bootstrap).  Exported so tests can compare block
 * lengths. */
hb_status hb_bootstrap_mean_ci(const double *x, size_t n, size_t block, uint64_t seed, double *low, double *high);

#endif
