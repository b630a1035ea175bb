#include "bench/core/sequential_test.h"

#include <math.h>

#include "bench/core/diag.h"
#include "bench/core/quantiles.h"

#define PI 3.14159265358979323846 /* C11 has no M_PI */

const char *hb_look_state_name(hb_look_state state)
{
    switch (state) {
    case HB_LOOK_UNDECIDED: return "undecided";
    case HB_LOOK_ABOVE: return "above";
    case HB_LOOK_BELOW: return "below";
    }
    return "undecided";
}

double hb_look_alpha(double alpha, size_t look)
{
    double k = (double)look;
    return alpha * 6 / (PI * PI * k * k);
}

hb_status hb_batch_means(const double *x, size_t n, double *mean, double *se, size_t *batches, size_t *batch_size)
{
    if (n < HB_SEQUENTIAL_MIN_ROUNDS)
        return hb_fail(HB_ERR_INTERNAL, "batch means of %zu rounds (at least %d)", n, HB_SEQUENTIAL_MIN_ROUNDS);
    size_t b = (size_t)floor(sqrt((double)n / 2));
    if (b < 2)
        b = 2;
    size_t m = n / b;
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += x[i];
    /* Welford over the batch means: one pass, no cancellation. */
    double running = 0, square_sum = 0;
    for (size_t j = 0; j < b; j++) {
        double batch = 0;
        for (size_t i = j * m; i < (j + 1) * m; i++)
            batch += x[i];
        batch /= (double)m;
        double delta = batch - running;
        running += delta / (double)(j + 1);
        square_sum += delta * (batch - running);
    }
    double batch_variance = square_sum / (double)(b - 1);
    *mean = total / (double)n;
    *se = sqrt((double)m * batch_variance / (double)n);
    *batches = b;
    *batch_size = m;
    return HB_OK;
}

/* The interval of one series' mean at level 1 - look_alpha; NaN ends when
 * a round's ratio is not finite (a time of 0: no figure to decide on). */
static hb_status series_interval(const double *x, size_t n, double look_alpha, hb_look *look, double *low,
                                 double *high)
{
    double mean, se;
    HB_TRY(hb_batch_means(x, n, &mean, &se, &look->batches, &look->batch_size));
    look->quantile = hb_student_t_upper(look_alpha / 2, (unsigned long)(look->batches - 1));
    *low = mean - look->quantile * se;
    *high = mean + look->quantile * se;
    if (!isfinite(*low) || !isfinite(*high))
        *low = *high = NAN;
    return HB_OK;
}

hb_status hb_look_at(const double *const *series, size_t count, size_t n, double look_alpha, double log_threshold,
                     hb_look *out)
{
    if (count == 0 || count > HB_SEQUENTIAL_MAX_SERIES || !(look_alpha > 0 && look_alpha < 1))
        return hb_fail(HB_ERR_INTERNAL, "a look at %zu series at alpha %g", count, look_alpha);
    out->rounds = n;
    out->alpha = look_alpha;
    out->low = out->high = INFINITY;
    for (size_t c = 0; c < count; c++) {
        double low, high;
        HB_TRY(series_interval(series[c], n, look_alpha, out, &low, &high));
        /* the smaller mean's interval; a series without one leaves none (fmin would skip a NaN) */
        out->low = isnan(low) || isnan(out->low) ? NAN : fmin(out->low, low);
        out->high = isnan(high) || isnan(out->high) ? NAN : fmin(out->high, high);
    }
    /* NaN compares false both ways: undecided, and the cap ends the window */
    out->state = out->low > log_threshold ? HB_LOOK_ABOVE
                 : out->high < log_threshold ? HB_LOOK_BELOW
                                             : HB_LOOK_UNDECIDED;
    return HB_OK;
}

void hb_sequential_init(hb_sequential_test *test, double alpha, double log_threshold, size_t first)
{
    *test = (hb_sequential_test){.alpha = alpha, .log_threshold = log_threshold, .first = first, .looks = 0};
}

int hb_sequential_due(const hb_sequential_test *test, size_t rounds, int at_cap)
{
    if (rounds < HB_SEQUENTIAL_MIN_ROUNDS)
        return 0;
    if (at_cap)
        return test->looks == 0 || rounds > test->last.rounds;
    size_t next = test->looks < 48 ? test->first << test->looks : (size_t)-1;
    return rounds >= next;
}

hb_status hb_sequential_look(hb_sequential_test *test, const double *const *series, size_t count, size_t rounds)
{
    size_t k = test->looks + 1;
    HB_TRY(hb_look_at(series, count, rounds, hb_look_alpha(test->alpha, k), test->log_threshold, &test->last));
    test->last.look = k;
    test->looks = k;
    return HB_OK;
}
