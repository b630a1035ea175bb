#include "bench/analysis/aggregate.h"

#include <math.h>
#include <stdlib.h>

#include "bench/analysis/speedup_columns.h"
#include "bench/core/diag.h"
#include "bench/core/stats.h"

static double share_above_one(const double *r, size_t n)
{
    size_t wins = 0;
    for (size_t i = 0; i < n; i++)
        wins += r[i] > 1.0;
    return n ? (double)wins / (double)n : NAN;
}

static void paper_aggregate(const double *r, size_t n, hb_speedup_aggregate *out)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += r[i];
    out->paper_n = n;
    out->paper_mean = n ? sum / (double)n - 1.0 : NAN;
    out->paper_wins = share_above_one(r, n);
}

static hb_status our_aggregate(const double *r, size_t n, hb_speedup_aggregate *out)
{
    out->ours_n = n;
    out->geomean = out->ci_low = out->ci_high = NAN;
    out->ours_wins = share_above_one(r, n);
    if (n == 0)
        return HB_OK;
    double *log_r = malloc(n * sizeof *log_r);
    if (!log_r)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu speedups", n);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += log_r[i] = log(r[i]);
    out->geomean = exp(sum / (double)n) - 1.0;
    hb_status status = HB_OK;
    if (n >= 2) {
        double low, high;
        status = hb_bootstrap_mean_ci(log_r, n, 1, HB_REPORT_BOOTSTRAP_SEED, &low, &high);
        if (status == HB_OK) {
            out->ci_low = exp(low) - 1.0;
            out->ci_high = exp(high) - 1.0;
        }
    }
    free(log_r);
    return status;
}

/* The ratios' contract: finite and in range, as every ratio read back is
 * (bench/analysis/number_ranges.h).  One outside it is a bug upstream, said
 * as one, never a mean of +inf in a table. */
static hb_status check_ratios(const double *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(r[i] >= HB_MIN_RATIO && r[i] <= HB_MAX_RATIO))
            return hb_fail(HB_ERR_INTERNAL, "speedup ratio %g of configuration %zu is outside %g..%g: a figure "
                           "that should have been refused when it was read (a bug)", r[i], i, HB_MIN_RATIO,
                           HB_MAX_RATIO);
    return HB_OK;
}

hb_status hb_aggregate_speedups(const double *paper, size_t paper_n, const double *ours, size_t ours_n,
                                hb_speedup_aggregate *out)
{
    HB_TRY(check_ratios(paper, paper_n));
    HB_TRY(check_ratios(ours, ours_n));
    paper_aggregate(paper, paper_n, out);
    return our_aggregate(ours, ours_n, out);
}
