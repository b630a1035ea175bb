#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double hb_quantile_sorted(const double *sorted, size_t n, double q)
{
    double position = q * (double)(n - 1);
    size_t below = (size_t)floor(position);
    if (below + 1 >= n)
        return sorted[n - 1];
    double frac = position - (double)below;
    return sorted[below] + frac * (sorted[below + 1] - sorted[below]);
}

double hb_student_t975(size_t df)
{
    static const double table[] = {
        0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df == 0)
        return INFINITY;
    if (df < sizeof table / sizeof table[0])
        return table[df];
    /* Cornish-Fisher expansion around the normal quantile: within 1e-4 for df > 30. */
    const double z = 1.959963984540054;
    double d = (double)df;
    return z + (z * z * z + z) / (4 * d) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

static double *sorted_copy(const double *values, size_t n)
{
    double *copy = malloc(n * sizeof *copy);
    if (!copy)
        return NULL;
    memcpy(copy, values, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, compare_doubles);
    return copy;
}

static void mean_and_stdev(const double *values, size_t n, double *mean, double *stdev)
{
    /* Welford's update: stable for the millions of samples a 30 s window at
     * small sizes produces. */
    double m = 0, m2 = 0;
    for (size_t i = 0; i < n; i++) {
        double delta = values[i] - m;
        m += delta / (double)(i + 1);
        m2 += delta * (values[i] - m);
    }
    *mean = m;
    *stdev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
}

hb_status hb_summarize_times(const double *times, size_t n, hb_time_summary *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return hb_fail(HB_ERR_INTERNAL, "no samples to summarize");
    double *sorted = sorted_copy(times, n);
    if (!sorted)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory sorting %zu samples", n);
    out->n = n;
    out->min = sorted[0];
    out->max = sorted[n - 1];
    out->median = hb_quantile_sorted(sorted, n, 0.5);
    out->p10 = hb_quantile_sorted(sorted, n, 0.1);
    out->p90 = hb_quantile_sorted(sorted, n, 0.9);
    mean_and_stdev(times, n, &out->mean, &out->stdev);
    out->rel_stdev = out->mean > 0 ? out->stdev / out->mean : 0.0;
    free(sorted);
    return HB_OK;
}

hb_status hb_summarize_speedup(const double *t_base, const double *t_cand, size_t n,
                               hb_speedup_summary *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return hb_fail(HB_ERR_INTERNAL, "no paired samples to summarize");
    double *log_ratio = malloc(n * sizeof *log_ratio);
    double *speedup = malloc(n * sizeof *speedup);
    if (!log_ratio || !speedup) {
        free(log_ratio);
        free(speedup);
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu paired samples", n);
    }
    double sum_base = 0, sum_cand = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(t_base[i] > 0) || !(t_cand[i] > 0)) {
            free(log_ratio);
            free(speedup);
            return hb_fail(HB_ERR_INTERNAL, "non-positive time in round %zu", i);
        }
        double q = t_base[i] / t_cand[i];
        log_ratio[i] = log(q);
        speedup[i] = q - 1.0;
        sum_base += t_base[i];
        sum_cand += t_cand[i];
    }
    double mean_log, sd_log, mean_speedup, sd_speedup;
    mean_and_stdev(log_ratio, n, &mean_log, &sd_log);
    mean_and_stdev(speedup, n, &mean_speedup, &sd_speedup);
    /* CI of the mean log ratio, mapped through exp: treats rounds as
     * independent, which shuffling the order within a round supports. */
    double half_width = n > 1 ? hb_student_t975(n - 1) * sd_log / sqrt((double)n) : INFINITY;

    out->n = n;
    out->geomean = exp(mean_log) - 1.0;
    out->ci95_low = exp(mean_log - half_width) - 1.0;
    out->ci95_high = exp(mean_log + half_width) - 1.0;
    out->paper = mean_speedup;
    out->ratio_of_means = sum_base / sum_cand - 1.0;

    qsort(speedup, n, sizeof *speedup, compare_doubles);
    out->median = hb_quantile_sorted(speedup, n, 0.5);
    out->p10 = hb_quantile_sorted(speedup, n, 0.1);
    out->p90 = hb_quantile_sorted(speedup, n, 0.9);
    free(log_ratio);
    free(speedup);
    return HB_OK;
}
