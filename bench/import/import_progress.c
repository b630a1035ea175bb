#include "bench/import/import_progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/core/stats.h"

static double median(const double *seconds, size_t n)
{
    double *scratch = malloc(n * sizeof *scratch);
    if (!scratch)
        return NAN;
    double m = hb_finite_quantile(seconds, n, 0.5, scratch);
    free(scratch);
    return m;
}

double hb_import_eta_s(const double *seconds, size_t n, size_t remaining, int width)
{
    if (n == 0)
        return -1;
    if (remaining == 0)
        return 0;
    double m = median(seconds, n);
    if (!isfinite(m))
        return -1;
    size_t w = width > 0 ? (size_t)width : 1;
    return (double)((remaining + w - 1) / w) * m;
}

/* "45 s", "4 min", "1.5 h". */
static void duration_text(double s, char *out, size_t size)
{
    if (s < 90)
        snprintf(out, size, "%.0f s", s);
    else if (s < 5400)
        snprintf(out, size, "%.0f min", s / 60);
    else
        snprintf(out, size, "%.1f h", s / 3600);
}

void hb_import_progress_text(const double *seconds, size_t n_done, size_t total, int width, char *out, size_t size)
{
    size_t remaining = total > n_done ? total - n_done : 0;
    size_t running = remaining < (size_t)(width > 0 ? width : 1) ? remaining : (size_t)(width > 0 ? width : 1);
    double eta = hb_import_eta_s(seconds, n_done, remaining, width);
    if (eta < 0) {
        snprintf(out, size, "import: %zu of %zu built, %zu running; time left known after the first build", n_done,
                 total, running);
        return;
    }
    char m[32], left[32];
    duration_text(median(seconds, n_done), m, sizeof m);
    duration_text(eta, left, sizeof left);
    snprintf(out, size, "import: %zu of %zu built, %zu running; median build %s; about %s left", n_done, total, running,
             m, left);
}
