/* Statistics over timing samples and paired speedups (protocol section 3).
 *
 * Per round r the candidate and baseline b each give one time; the paired
 * ratio is q_r = t_b,r / t_cand,r and the paper's per-round speedup is
 * s_r = q_r - 1.  The headline is the geometric mean of q_r minus 1: unlike
 * the paper's mean of s_r it is not biased upward by noise (E[t_b/t_c] >
 * E[t_b]/E[t_c] when t_c varies), and it is symmetric: swapping the two
 * participants negates log(1+headline). */
#ifndef HB_STATS_H
#define HB_STATS_H

#include <stddef.h>

#include "hb_status.h"

typedef struct hb_time_summary {
    size_t n;
    double min, max, mean, median, p10, p90, stdev;
    double rel_stdev; /* stdev / mean: the participant's noise */
} hb_time_summary;

typedef struct hb_speedup_summary {
    size_t n;              /* number of paired rounds */
    double geomean;        /* headline: exp(mean(log q)) - 1 */
    double ci95_low;       /* 95 % confidence interval of the headline */
    double ci95_high;
    double paper;          /* the paper's eq. 2 score: mean(q - 1) */
    double ratio_of_means; /* mean(t_b) / mean(t_cand) - 1 */
    double median, p10, p90; /* quantiles of s = q - 1 */
} hb_speedup_summary;

/* Quantile by linear interpolation between order statistics (Hyndman-Fan
 * type 7, as numpy's default); `sorted` ascending, n > 0, q in [0, 1]. */
double hb_quantile_sorted(const double *sorted, size_t n, double q);

/* Two-sided 95 % quantile of Student's t with `df` degrees of freedom. */
double hb_student_t975(size_t df);

hb_status hb_summarize_times(const double *times, size_t n, hb_time_summary *out);

/* t_base[i] and t_cand[i] come from the same round i; every time must be > 0. */
hb_status hb_summarize_speedup(const double *t_base, const double *t_cand, size_t n,
                               hb_speedup_summary *out);

#endif
