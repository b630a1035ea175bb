/* How far a baseline's median in the candidate's process may lie above its
 * median in a clean process before the difference is the candidate's doing
 * (docs/methodology.md, "Baselines held to a clean process"): per timer, a
 * relative part and an absolute part, for the spread from one process to
 * another, plus the sampling noise of the two medians themselves, which the
 * windows measure (wide in server mode, whose samples spread far more than
 * offline ones).  Plain data, no CUDA. */
#ifndef HB_REFERENCE_TOLERANCE_H
#define HB_REFERENCE_TOLERANCE_H

#include <stddef.h>

/* The figures a baseline is held to, one per timer. */
typedef enum hb_ref_figure { HB_REF_EVENT, HB_REF_WALL, HB_REF_KERNEL, HB_REF_FIGURES } hb_ref_figure;

/* "event", "wall", "kernel". */
const char *hb_ref_figure_name(hb_ref_figure figure);

/* The default of --baseline-tolerance: 50 % + 5 us on the events and the
 * wall clock, 10 % + 0.5 us on CUPTI's kernel span.  Measured on 2 x H200
 * (2026-11-28, 30 CUDA-L2 H100-set launchers, 0.3 s + 0.7 s windows,
 * offline): the baselines' medians in an honest launcher's process against
 * their clean process spread from -22 % to +44 % on the events (the larger
 * at calls of 14 to 34 us, where the launcher's host code between the
 * baselines' calls lengthens their host path) and from -8 % to +6.7 % on the
 * kernel span (all baselines together: the GPU's clock).  Written as the
 * flag takes it, so the flag's default and this are one. */
#define HB_REF_TOLERANCE_DEFAULT "50%+5us,kernel=10%+0.5us"

/* The medians' sampling noise counts this many standard errors: with 7
 * baselines and 3 timers, 21 one-sided comparisons per configuration, 4
 * standard errors leave about one false alarm in 1500 configurations from
 * the noise alone (normal medians: 3.2e-5 each). */
#define HB_REF_NOISE_Z 4.0

typedef struct hb_ref_tolerance {
    double relative[HB_REF_FIGURES];    /* fraction of the clean median, 0.05 = 5 % */
    double absolute_us[HB_REF_FIGURES]; /* microseconds */
} hb_ref_tolerance;

/* One timer's figures over a window: its samples' median and spread. */
typedef struct hb_ref_spread {
    size_t n;                       /* samples; 0: none (the timer did not run) */
    double median_us, p10_us, p90_us;
} hb_ref_spread;

/* Parses a --baseline-tolerance SPEC: comma-separated items, each
 * `[TIMER=]PCT%+US[us]` (TIMER event, wall or kernel; none: every timer),
 * later items overriding earlier ones, every timer starting from the
 * default; PCT in 0..1000, US in 0..1e6.  1, or 0 and why in `why`. */
int hb_ref_tolerance_parse(const char *text, hb_ref_tolerance *out, char *why, size_t why_size);

/* The tolerance as the flag takes it: "event=50%+5us,wall=50%+5us,kernel=10%+0.5us". */
void hb_ref_tolerance_format(const hb_ref_tolerance *t, char *out, size_t size);

/* The default (HB_REF_TOLERANCE_DEFAULT, parsed). */
hb_ref_tolerance hb_ref_tolerance_default(void);

/* A median's standard error from its samples' spread, microseconds:
 * 1.2533 sigma / sqrt(n), sigma read from the 10th-90th percentile width
 * (2.5631 sigma for a normal); NaN without samples. */
double hb_ref_median_se_us(const hb_ref_spread *s);

/* How far `seen`'s median may lie above `clean`'s, microseconds: relative
 * x clean median + absolute + HB_REF_NOISE_Z x the standard error of the
 * difference of the two medians.  `noise_us`, when not NULL, gets the last
 * term. */
double hb_ref_allowed_us(const hb_ref_tolerance *t, hb_ref_figure figure, const hb_ref_spread *clean,
                         const hb_ref_spread *seen, double *noise_us);

#endif
