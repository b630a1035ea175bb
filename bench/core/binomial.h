/* Binomial tails, for the sign test of the timed rounds' cross-check
 * (bench/result/cross_check.h) and the power it has.  No dependency of the
 * harness provides them (GSL would, under the GPL, for three functions);
 * they are sums of C99's lgamma terms. */
#ifndef HB_BINOMIAL_H
#define HB_BINOMIAL_H

#include <stddef.h>

/* P(X >= k) for X ~ Binomial(n, p), p in [0, 1]: 1 for k 0, 0 for k > n.
 * Exact up to rounding (a sum of at most n + 1 - k terms, from the largest). */
double hb_binomial_upper_tail(size_t n, double p, size_t k);

/* The sign test's critical count: the least k with P(Bin(n, 1/2) >= k) <= alpha,
 * so that k or more of n rounds on one side is a false alarm at most alpha
 * of the time when each round falls there with probability 1/2 or less;
 * n + 1 when none (n too small for alpha: 2^-n > alpha).  The mass above
 * n/2 + 5 sqrt(n), under 1e-23, is left out of the sum. */
size_t hb_sign_test_critical(size_t n, double alpha);

/* The power of that test: P(Bin(n, p) >= hb_sign_test_critical(n, alpha)),
 * where p is the chance that one round falls on the side tested. */
double hb_sign_test_power(size_t n, double p, double alpha);

/* The least n in [1, most] whose power at p and alpha is at least `power`; 0 when none. */
size_t hb_sign_test_rounds_for(double p, double alpha, double power, size_t most);

#endif
