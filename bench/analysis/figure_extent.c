#include "bench/analysis/figure_extent.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/core/diag.h"

/* The padding beyond the data on a log axis: 10 %. */
#define PAD 1.1

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile of sorted values, linear between order statistics. */
static double quantile(const double *sorted, size_t n, double q)
{
    double at = q * (double)(n - 1);
    size_t i = (size_t)at;
    return i + 1 < n ? sorted[i] + (at - (double)i) * (sorted[i + 1] - sorted[i]) : sorted[n - 1];
}

hb_status hb_figure_extent_of(const double *ratios, size_t n, hb_figure_extent *out)
{
    *out = (hb_figure_extent){n, 0.5, 2.0, NAN, NAN};
    if (n == 0)
        return HB_OK;
    double *logs = malloc(n * sizeof *logs);
    if (!logs)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu points of a figure", n);
    double lo = ratios[0], hi = ratios[0];
    for (size_t i = 0; i < n; i++) {
        lo = ratios[i] < lo ? ratios[i] : lo;
        hi = ratios[i] > hi ? ratios[i] : hi;
        logs[i] = log(ratios[i]);
    }
    out->low = (lo < 1.0 ? lo : 1.0) / PAD;
    out->high = (hi > 1.0 ? hi : 1.0) * PAD;
    if (n >= 4) {
        qsort(logs, n, sizeof *logs, by_value);
        double q1 = quantile(logs, n, 0.25), q3 = quantile(logs, n, 0.75);
        out->fence_low = exp(q1 - 1.5 * (q3 - q1));
        out->fence_high = exp(q3 + 1.5 * (q3 - q1));
    }
    free(logs);
    return HB_OK;
}

void hb_figure_log_tics(double low, double high, char *out, size_t size)
{
    static const double ladder[] = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.67, 0.8, 1, 1.25,
                                    1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000};
    size_t used = (size_t)snprintf(out, size, "(");
    int first = 1;
    for (size_t i = 0; i < sizeof ladder / sizeof ladder[0] && used < size; i++)
        if (ladder[i] >= low && ladder[i] <= high) {
            used += (size_t)snprintf(out + used, size - used, "%s%g", first ? "" : ", ", ladder[i]);
            first = 0;
        }
    if (used < size)
        snprintf(out + used, size - used, ")");
}

int hb_figure_outlier(const hb_figure_extent *e, double ratio)
{
    return !isnan(e->fence_low) && (ratio < e->fence_low || ratio > e->fence_high);
}
