#include "bench/core/rank_correlation.h"

#include <math.h>
#include <stdlib.h>

#include "bench/core/diag.h"

typedef struct indexed {
    double value;
    size_t index;
} indexed;

static int by_value(const void *a, const void *b)
{
    double x = ((const indexed *)a)->value, y = ((const indexed *)b)->value;
    return (x > y) - (x < y);
}

hb_status hb_average_ranks(const double *x, size_t n, double *rank)
{
    indexed *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory ranking %zu values", n);
    for (size_t i = 0; i < n; i++)
        order[i] = (indexed){x[i], i};
    qsort(order, n, sizeof *order, by_value);
    for (size_t first = 0; first < n;) {
        size_t last = first;
        while (last + 1 < n && order[last + 1].value == order[first].value)
            last++;
        /* positions first..last (0-based) hold ranks first+1..last+1: their mean */
        double shared = (double)(first + last) / 2.0 + 1.0;
        for (size_t i = first; i <= last; i++)
            rank[order[i].index] = shared;
        first = last + 1;
    }
    free(order);
    return HB_OK;
}

/* Pearson's correlation; NaN when either side does not vary. */
static double pearson(const double *a, const double *b, size_t n)
{
    double mean_a = 0, mean_b = 0;
    for (size_t i = 0; i < n; i++) {
        mean_a += a[i];
        mean_b += b[i];
    }
    mean_a /= (double)n;
    mean_b /= (double)n;
    double cross = 0, square_a = 0, square_b = 0;
    for (size_t i = 0; i < n; i++) {
        cross += (a[i] - mean_a) * (b[i] - mean_b);
        square_a += (a[i] - mean_a) * (a[i] - mean_a);
        square_b += (b[i] - mean_b) * (b[i] - mean_b);
    }
    if (square_a <= 0 || square_b <= 0)
        return NAN;
    return cross / sqrt(square_a * square_b);
}

hb_status hb_spearman(const double *x, const double *y, size_t n, double *rho)
{
    *rho = NAN;
    if (n < 2)
        return HB_OK;
    double *ranks = malloc(2 * n * sizeof *ranks);
    if (!ranks)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory ranking %zu pairs", n);
    hb_status status = hb_average_ranks(x, n, ranks);
    if (status == HB_OK)
        status = hb_average_ranks(y, n, ranks + n);
    if (status == HB_OK)
        *rho = pearson(ranks, ranks + n, n);
    free(ranks);
    return status;
}
