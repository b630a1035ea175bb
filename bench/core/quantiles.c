#include "bench/core/quantiles.h"

#include <math.h>

#define PI 3.14159265358979323846 /* C11 has no PI */

/* Acklam's coefficients: central region |p - 0.5| <= 0.47575, tails beyond. */
static const double central_num[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                     1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
static const double central_den[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                     6.680131188771972e+01, -1.328068155288572e+01};
static const double tail_num[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                  -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
static const double tail_den[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                  3.754408661907416e+00};
#define ACKLAM_TAIL 0.02425

/* The lower tail's approximation, p in (0, ACKLAM_TAIL). */
static double acklam_tail(double p)
{
    double q = sqrt(-2 * log(p));
    double num = ((((tail_num[0] * q + tail_num[1]) * q + tail_num[2]) * q + tail_num[3]) * q + tail_num[4]) * q +
                 tail_num[5];
    double den = (((tail_den[0] * q + tail_den[1]) * q + tail_den[2]) * q + tail_den[3]) * q + 1;
    return num / den;
}

static double acklam(double p)
{
    if (p < ACKLAM_TAIL)
        return acklam_tail(p);
    if (p > 1 - ACKLAM_TAIL)
        return -acklam_tail(1 - p);
    double q = p - 0.5, r = q * q;
    double num = ((((central_num[0] * r + central_num[1]) * r + central_num[2]) * r + central_num[3]) * r +
                  central_num[4]) * r + central_num[5];
    double den = ((((central_den[0] * r + central_den[1]) * r + central_den[2]) * r + central_den[3]) * r +
                  central_den[4]) * r + 1;
    return num * q / den;
}

double hb_normal_quantile(double p)
{
    if (!(p > 0 && p < 1))
        return NAN;
    double x = acklam(p);
    /* One Halley step on Phi(x) - p, Phi from erfc (accurate in both tails). */
    double e = 0.5 * erfc(-x / sqrt(2)) - p;
    double u = e * sqrt(2 * PI) * exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

/* The series of A&S 26.7.3-4 in cos^2: sum over j = 0..terms of
 * prod_{i=1..j} c2 (2i - 1 + odd) / (2i + odd), which is
 * 1 + (1/2)c2 + (1*3)/(2*4)c2^2 + ... for even df and
 * 1 + (2/3)c2 + (2*4)/(3*5)c2^2 + ... for odd df. */
static double cos_series(double c2, unsigned long terms, int odd)
{
    double term = 1, sum = 1;
    for (unsigned long j = 1; j <= terms; j++) {
        term *= c2 * (double)(2 * j - 1 + odd) / (double)(2 * j + odd);
        sum += term;
        if (term < sum * 1e-17)
            break; /* the terms only shrink from here */
    }
    return sum;
}

double hb_student_t_central(double t, unsigned long df)
{
    if (df == 0 || !(t >= 0))
        return NAN;
    double theta = atan(t / sqrt((double)df));
    double s = sin(theta), c = cos(theta);
    if (df % 2 == 0) /* s [1 + (1/2)c^2 + ... + c^(df-2) term] */
        return s * cos_series(c * c, (df - 2) / 2, 0);
    if (df == 1)
        return 2 * theta / PI;
    /* (2/pi)(theta + s c [1 + (2/3)c^2 + ... + c^(df-3) term]) */
    return (2 / PI) * (theta + s * c * cos_series(c * c, (df - 3) / 2, 1));
}

double hb_student_t_upper(double upper, unsigned long df)
{
    if (df == 0 || !(upper > 0 && upper <= 0.5))
        return NAN;
    double want = 1 - 2 * upper; /* P(|T| <= t) */
    double low = 0, high = PI / 2;
    for (int i = 0; i < 64; i++) { /* the central probability rises with the angle */
        double mid = 0.5 * (low + high);
        if (hb_student_t_central(sqrt((double)df) * tan(mid), df) < want)
            low = mid;
        else
            high = mid;
    }
    return sqrt((double)df) * tan(0.5 * (low + high));
}
