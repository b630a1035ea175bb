/* Quantiles of the normal and Student t distributions, for the intervals of
 * the sequential test (bench/core/sequential_test.h).  No dependency of the
 * harness provides them, and the test needs levels far from 95 % (down to
 * 1 - 0.003 % at late looks), so a table will not do. */
#ifndef HB_QUANTILES_H
#define HB_QUANTILES_H

/* The p-quantile of the standard normal, p in (0, 1) (NaN outside).
 * Acklam's rational approximation (relative error below 1.15e-9), then one
 * Halley step on C99's erfc, which brings it to a few ulp over
 * [1e-300, 1 - 1e-16]. */
double hb_normal_quantile(double p);

/* t such that P(T > t) = upper for Student's t with `df` degrees of freedom
 * (df >= 1, upper in (0, 0.5]; NaN otherwise).  Exact up to rounding: the
 * closed-form CDF of an integer df (Abramowitz & Stegun 26.7.3-4, a sum of
 * df/2 terms), inverted by bisection on the angle atan(t / sqrt(df)).  Its
 * cost, O(df) per bisection step and 64 steps, is paid once per look. */
double hb_student_t_upper(double upper, unsigned long df);

/* P(|T| <= t) for Student's t with `df` degrees of freedom, t >= 0: the CDF
 * the quantile inverts (exported for its tests). */
double hb_student_t_central(double t, unsigned long df);

#endif
