#include "bench/analysis/size_bins.h"

#include <math.h>
#include <stdio.h>

static double log2_volume(long m, long n, long k) { return log2((double)m) + log2((double)n) + log2((double)k); }

static double mean_dimension(long m, long n, long k) { return ((double)m + (double)n + (double)k) / 3.0; }

static double largest_dimension(long m, long n, long k)
{
    long largest = m > n ? m : n;
    return (double)(largest > k ? largest : k);
}

/* The paper's grid has every dimension in {64, ..., 16384}: log2(MNK) from
 * 18 to 42, bins 3 wide (a factor 8 in work); the dimensions by powers of
 * two, so each bin of the grid's values holds one or two of them. */
static const hb_size_binning binnings[] = {
    {"log2(MNK)", log2_volume, {21, 24, 27, 30, 33, 36, 39}, 7},
    {"mean dim (M+N+K)/3", mean_dimension, {128, 256, 512, 1024, 2048, 4096, 8192}, 7},
    {"max dim max(M,N,K)", largest_dimension, {128, 256, 512, 1024, 2048, 4096, 8192}, 7},
};

size_t hb_size_binning_count(void) { return sizeof binnings / sizeof binnings[0]; }

const hb_size_binning *hb_size_binning_at(size_t index)
{
    return index < hb_size_binning_count() ? &binnings[index] : NULL;
}

size_t hb_size_bin_of(const hb_size_binning *binning, long m, long n, long k)
{
    double size = binning->measure(m, n, k);
    size_t bin = 0;
    while (bin < binning->n_edges && size >= binning->edges[bin])
        bin++;
    return bin;
}

void hb_size_bin_label(const hb_size_binning *binning, size_t bin, char *out, size_t size)
{
    if (bin == 0)
        snprintf(out, size, "<%g", binning->edges[0]);
    else if (bin == binning->n_edges)
        snprintf(out, size, ">=%g", binning->edges[bin - 1]);
    else
        snprintf(out, size, "[%g,%g)", binning->edges[bin - 1], binning->edges[bin]);
}
