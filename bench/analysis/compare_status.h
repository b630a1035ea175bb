/* A configuration's status in `compare` (docs/reports.md, "Status against
 * the noise"): our speedup t_b/t_c against the published one, as nvbench's
 * scripts/nvbench_compare.py judges two timings against their noise.  The
 * difference is d = ours / published - 1.  The noise is ours, the half-width
 * of our 95 % CI of the configuration's headline speedup over the headline
 * ratio, or the `--noise` floor given for the published side where that is
 * larger (the published files carry no noise of their own):
 *   same    |d| <= noise
 *   faster  d > noise: ours shows the candidate further ahead of the baseline
 *   slower  d < -noise: ours does not reach the published speedup
 *   unknown no noise to judge by (no CI and no --noise), or a side lacks a figure. */
#ifndef HB_COMPARE_STATUS_H
#define HB_COMPARE_STATUS_H

typedef enum hb_compare_status {
    HB_CMP_SAME,
    HB_CMP_FASTER,
    HB_CMP_SLOWER,
    HB_CMP_UNKNOWN,
    HB_CMP_STATUS_COUNT
} hb_compare_status;

const char *hb_compare_status_name(hb_compare_status status);

/* The status of `ours` against `published` (ratios t_b/t_c), with our
 * relative noise `our_noise` (NaN: none) and the floor `noise_floor` (a
 * fraction, 0: none); the difference d and the noise used into *diff and
 * *noise (NaN where there is none). */
hb_compare_status hb_compare_status_of(double ours, double published, double our_noise, double noise_floor,
                                       double *diff, double *noise);

#endif
