#include "bench/import/build_plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/stats.h"

/* The median of time/model over the records that `kind` selects (NULL: all); 0 when none has both. */
static double median_ratio(const hb_build_record *history, size_t n, const char *kind)
{
    double *ratios = malloc((n ? n : 1) * 2 * sizeof *ratios);
    if (!ratios)
        return 0;
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        const hb_build_record *r = &history[i];
        if ((kind && strcmp(r->kind, kind) != 0) || !(r->seconds > 0) || !(r->model_s > 0))
            continue;
        ratios[count++] = r->seconds / r->model_s;
    }
    double median = count ? hb_finite_quantile(ratios, count, 0.5, ratios + n) : 0;
    free(ratios);
    return isfinite(median) && median > 0 ? median : 0;
}

double hb_build_predict_s(const hb_build_record *history, size_t n, const char *source_sha256, const char *kind,
                          double model_s, hb_prediction_basis *basis)
{
    for (size_t i = n; i-- > 0;)
        if (history[i].seconds > 0 && strcmp(history[i].source_sha256, source_sha256) == 0) {
            *basis = HB_PREDICTED_BY_FILE;
            return history[i].seconds;
        }
    double ratio = median_ratio(history, n, kind);
    if (ratio > 0) {
        *basis = HB_PREDICTED_BY_KIND;
        return ratio * model_s;
    }
    ratio = median_ratio(history, n, NULL);
    if (ratio > 0) {
        *basis = HB_PREDICTED_BY_HOST;
        return ratio * model_s;
    }
    *basis = HB_PREDICTED_BY_MODEL;
    return model_s;
}

/* Insertion sort: stable, and n is a set's files (at most thousands), sorted once. */
void hb_build_order(const double *predicted_s, size_t n, size_t *order)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        while (j > 0 && predicted_s[order[j - 1]] < predicted_s[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}
