#include "bench/core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/rng.h"

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

double hb_finite_quantile(const double *v, size_t n, double q, double *scratch)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            scratch[m++] = v[i];
    if (m == 0)
        return NAN;
    qsort(scratch, m, sizeof *scratch, compare_doubles);
    return hb_quantile_sorted(scratch, m, q);
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

/* Asks the cache for *p ahead of its load; only a hint. */
static void prefetch(const double *p)
{
#if defined(__GNUC__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/* Lemire's multiply-shift: 32 random bits to a start in [0, bound) through
 * the high half of bits * bound.  Returns 0, storing nothing, when the low
 * half falls among the 2^32 mod bound values that would bias it (the caller
 * draws again).  table[start] is prefetched at once: at 1e6 rounds the table
 * is past the inner caches, and its random loads then overlap the next draws
 * instead of stalling the sum (about 20 % of the bootstrap's time). */
static int take_start(uint32_t bits, uint32_t bound, const double *table, size_t *start)
{
    uint64_t product = (uint64_t)bits * bound;
    uint32_t low = (uint32_t)product;
    if (low < bound && low < (uint32_t)(-bound) % bound)
        return 0;
    size_t value = (size_t)(product >> 32);
    prefetch(table + value);
    *start = value;
    return 1;
}

/* `count` uniform starts in [0, n), unbiased.  Each 64-bit draw gives two
 * (one per 32-bit half): a bootstrap of 1e6 rounds draws 2e7 starts, and
 * hb_rng_below's division and one call per start would cost more than all
 * the rest of it. */
static void draw_starts(hb_rng *rng, size_t n, const double *table, size_t *starts, size_t count)
{
    if (n > UINT32_MAX) {
        for (size_t i = 0; i < count; i++)
            starts[i] = (size_t)hb_rng_below(rng, n);
        return;
    }
    const uint32_t bound = (uint32_t)n;
    size_t filled = 0;
    while (filled < count) {
        uint64_t bits = hb_rng_next(rng);
        if (take_start((uint32_t)bits, bound, table, starts + filled))
            filled++;
        if (filled < count && take_start((uint32_t)(bits >> 32), bound, table, starts + filled))
            filled++;
    }
}

/* Sum of `count` whole blocks at random starts.  Starts come in batches and
 * the sum in four lanes, so the loads of the blocks' sums (random places in an
 * array of n doubles) overlap instead of waiting on each other. */
static double sum_random_blocks(const double *block_sum, size_t n, size_t count, hb_rng *rng)
{
    enum { BATCH = 256 };
    size_t starts[BATCH];
    double lane[4] = {0, 0, 0, 0};
    while (count > 0) {
        size_t batch = count < BATCH ? count : BATCH;
        draw_starts(rng, n, block_sum, starts, batch);
        for (size_t i = 0; i < batch; i++)
            lane[i % 4] += block_sum[starts[i]];
        count -= batch;
    }
    return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

/* Sum of `len` (<= n) values from index `start` on, wrapping past the end:
 * prefix[k] is the sum of the first k values, so any run costs O(1). */
static double circular_sum(const double *prefix, size_t n, size_t start, size_t len)
{
    if (start + len <= n)
        return prefix[start + len] - prefix[start];
    return (prefix[n] - prefix[start]) + prefix[start + len - n];
}

/* Mean of one resample: n / block whole blocks, then a block cut short to
 * make exactly n values.  The whole blocks' sums are precomputed in
 * block_sum (one load each); the short one comes from the prefix sums. */
static double resample_mean(const double *block_sum, const double *prefix, size_t n, size_t block, hb_rng *rng)
{
    double sum = sum_random_blocks(block_sum, n, n / block, rng);
    if (n % block) {
        size_t start;
        draw_starts(rng, n, prefix, &start, 1);
        sum += circular_sum(prefix, n, start, n % block);
    }
    return sum / (double)n;
}

/* Bootstrap means of the centred values, sorted.  Centring on mean(x) keeps
 * the prefix sums small, so differences of them lose no precision, and makes
 * a constant series give exactly zero spread.  Negating x negates every
 * intermediate exactly, which is what makes the interval mirror under a swap
 * of participants. */
static hb_status bootstrap_means(const double *x, size_t n, size_t block, double center, uint64_t seed,
                                 double *means)
{
    double *prefix = malloc((n + 1) * sizeof *prefix);
    double *block_sum = malloc(n * sizeof *block_sum);
    if (!prefix || !block_sum) {
        free(prefix);
        free(block_sum);
        return hb_fail(HB_ERR_INTERNAL, "out of host memory bootstrapping %zu rounds", n);
    }
    prefix[0] = 0;
    for (size_t i = 0; i < n; i++)
        prefix[i + 1] = prefix[i] + (x[i] - center);
    for (size_t start = 0; start < n; start++)
        block_sum[start] = circular_sum(prefix, n, start, block);
    hb_rng rng;
    hb_rng_seed(&rng, seed);
    for (size_t r = 0; r < HB_BOOTSTRAP_RESAMPLES; r++)
        means[r] = resample_mean(block_sum, prefix, n, block, &rng);
    qsort(means, HB_BOOTSTRAP_RESAMPLES, sizeof *means, compare_doubles);
    free(prefix);
    free(block_sum);
    return HB_OK;
}

/* hb_bootstrap_mean_ci with mean(x) already known (`center`). */
static hb_status bootstrap_ci_around(const double *x, size_t n, size_t block, double center, uint64_t seed,
                                     double *low, double *high)
{
    if (n == 0 || block == 0 || block > n)
        return hb_fail(HB_ERR_INTERNAL, "bootstrap of %zu values with blocks of %zu", n, block);
    double *means = malloc(HB_BOOTSTRAP_RESAMPLES * sizeof *means);
    if (!means)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %d bootstrap means", HB_BOOTSTRAP_RESAMPLES);
    hb_status status = bootstrap_means(x, n, block, center, seed, means);
    if (status == HB_OK) {
        *low = center + hb_quantile_sorted(means, HB_BOOTSTRAP_RESAMPLES, 0.025);
        *high = center + hb_quantile_sorted(means, HB_BOOTSTRAP_RESAMPLES, 0.975);
    }
    free(means);
    return status;
}

hb_status hb_bootstrap_mean_ci(const double *x, size_t n, size_t block, uint64_t seed, double *low, double *high)
{
    double center = 0, unused_stdev;
    if (n > 0)
        mean_and_stdev(x, n, &center, &unused_stdev);
    return bootstrap_ci_around(x, n, block, center, seed, low, high);
}

/* Hall, Horowitz & Jing's n^(1/3) for interval estimates, clamped to [1, n]. */
static size_t bootstrap_block_length(size_t n)
{
    size_t block = (size_t)llround(cbrt((double)n));
    if (block < 1)
        block = 1;
    return block < n ? block : n;
}

/* The headline's CI from the per-round log ratios (see stats.h).  Fewer than
 * 2 rounds say nothing about spread: the interval is every possible speedup,
 * [-100 %, +inf), so --target-ci can never be met by one round. */
static hb_status speedup_ci(const double *log_ratio, size_t n, double mean_log, uint64_t seed,
                            hb_speedup_summary *out)
{
    if (n < 2) {
        out->ci95_low = -1.0;
        out->ci95_high = INFINITY;
        out->ci95_halfwidth = INFINITY;
        return HB_OK;
    }
    size_t block = bootstrap_block_length(n);
    double low, high;
    HB_TRY(bootstrap_ci_around(log_ratio, n, block, mean_log, seed, &low, &high));
    out->ci95_low = exp(low) - 1.0;
    out->ci95_high = exp(high) - 1.0;
    out->ci95_halfwidth = (out->ci95_high - out->ci95_low) / 2;
    out->bootstrap_block = block;
    out->bootstrap_resamples = HB_BOOTSTRAP_RESAMPLES;
    return HB_OK;
}

/* log(t_base[i] / t_cand[i]) for every round, in a new array the caller
 * frees; every time must be positive. */
static hb_status paired_log_ratios(const double *t_base, const double *t_cand, size_t n, double **out)
{
    *out = NULL;
    if (n == 0)
        return hb_fail(HB_ERR_INTERNAL, "no paired samples to summarize");
    double *log_ratio = malloc(n * sizeof *log_ratio);
    if (!log_ratio)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu paired samples", n);
    for (size_t i = 0; i < n; i++) {
        if (!(t_base[i] > 0) || !(t_cand[i] > 0)) {
            free(log_ratio);
            return hb_fail(HB_ERR_INTERNAL, "non-positive time in round %zu", i);
        }
        log_ratio[i] = hb_log_ratio(t_base[i], t_cand[i]);
    }
    *out = log_ratio;
    return HB_OK;
}

hb_status hb_speedup_from_log_ratios(const double *log_ratio, size_t n, uint64_t bootstrap_seed,
                                     hb_speedup_summary *out)
{
    if (n == 0)
        return hb_fail(HB_ERR_INTERNAL, "no paired samples to summarize");
    double mean_log;
    mean_and_stdev(log_ratio, n, &mean_log, &out->log_stdev);
    out->n = n;
    out->geomean = exp(mean_log) - 1.0;
    return speedup_ci(log_ratio, n, mean_log, bootstrap_seed, out);
}

hb_status hb_summarize_speedup(const double *t_base, const double *t_cand, size_t n, uint64_t bootstrap_seed,
                               hb_speedup_summary *out)
{
    memset(out, 0, sizeof *out);
    double *log_ratio;
    HB_TRY(paired_log_ratios(t_base, t_cand, n, &log_ratio));
    hb_status status = hb_speedup_from_log_ratios(log_ratio, n, bootstrap_seed, out);
    free(log_ratio);
    HB_TRY(status);
    double *speedup = malloc(n * sizeof *speedup);
    if (!speedup)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu paired samples", n);
    double sum_base = 0, sum_cand = 0;
    for (size_t i = 0; i < n; i++) {
        speedup[i] = t_base[i] / t_cand[i] - 1.0;
        sum_base += t_base[i];
        sum_cand += t_cand[i];
    }
    double sd_speedup;
    mean_and_stdev(speedup, n, &out->paper, &sd_speedup);
    out->ratio_of_means = sum_base / sum_cand - 1.0;

    qsort(speedup, n, sizeof *speedup, compare_doubles);
    out->median = hb_quantile_sorted(speedup, n, 0.5);
    out->p10 = hb_quantile_sorted(speedup, n, 0.1);
    out->p90 = hb_quantile_sorted(speedup, n, 0.9);
    free(speedup);
    return HB_OK;
}
