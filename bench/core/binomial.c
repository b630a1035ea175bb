#include "bench/core/binomial.h"

#include <math.h>

/* log P(X = j) for X ~ Binomial(n, p), 0 < p < 1. */
static double log_pmf(size_t n, double p, size_t j)
{
    const double dn = (double)n, dj = (double)j;
    return lgamma(dn + 1) - lgamma(dj + 1) - lgamma(dn - dj + 1) + dj * log(p) + (dn - dj) * log1p(-p);
}

double hb_binomial_upper_tail(size_t n, double p, size_t k)
{
    if (k == 0)
        return 1;
    if (k > n || !(p > 0))
        return 0;
    if (p >= 1)
        return 1;
    /* From j = k up, each term from the last (pmf(j+1) = pmf(j) (n-j)/(j+1)
     * p/(1-p)), in logs so that a first term below DBL_MIN does not lose the
     * larger ones after it.  Past the mode the terms only shrink: stop once
     * one adds nothing. */
    const double odds = log(p) - log1p(-p);
    double log_term = log_pmf(n, p, k), sum = 0;
    for (size_t j = k; j <= n; j++) {
        const double term = exp(log_term);
        if ((double)j > (double)n * p && term <= sum * 1e-17)
            break;
        sum += term;
        log_term += log((double)(n - j) / (double)(j + 1)) + odds;
    }
    return sum > 1 ? 1 : sum;
}

size_t hb_sign_test_critical(size_t n, double alpha)
{
    /* From the top down, adding P(X = k) until the tail passes alpha.  The
     * top starts at n/2 + 5 sqrt(n) (ten standard deviations): the mass above
     * it, below 1e-23, changes no count for an alpha the harness uses, and a
     * run of 10^5 checked rounds then costs a few hundred terms, not 10^5. */
    const double log_half = -(double)n * log(2.0);
    const double top = (double)n / 2 + 5 * sqrt((double)n) + 1;
    double tail = 0;
    size_t k = top < (double)n ? (size_t)top + 1 : n + 1;
    while (k > 0) {
        const double dn = (double)n, dk = (double)(k - 1);
        const double term = exp(lgamma(dn + 1) - lgamma(dk + 1) - lgamma(dn - dk + 1) + log_half);
        if (tail + term > alpha)
            break;
        tail += term;
        k--;
    }
    return k;
}

double hb_sign_test_power(size_t n, double p, double alpha)
{
    return hb_binomial_upper_tail(n, p, hb_sign_test_critical(n, alpha));
}

size_t hb_sign_test_rounds_for(double p, double alpha, double power, size_t most)
{
    for (size_t n = 1; n <= most; n++)
        if (hb_sign_test_power(n, p, alpha) >= power)
            return n;
    return 0;
}
