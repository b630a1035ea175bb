#include "bench/analysis/compare_timers.h"

#include <math.h>
#include <string.h>

#include "bench/analysis/speedup_columns.h"
#include "bench/result/baseline_registry.h"

const char *hb_compare_timer_name(hb_compare_timer timer)
{
    static const char *const names[HB_CMP_TIMER_COUNT] = {"events", "wall", "kernel", "repo"};
    return timer < HB_CMP_TIMER_COUNT ? names[timer] : "?";
}

double hb_repo_estimator(double base_mean, double base_cv, double cand_mean, double cand_cv)
{
    if (!(base_mean > 0) || !(cand_mean > 0) || !isfinite(base_mean) || !isfinite(cand_mean))
        return NAN;
    double cb = isfinite(base_cv) ? base_cv : 0.0, cc = isfinite(cand_cv) ? cand_cv : 0.0;
    double ratio = base_mean / cand_mean * (1.0 + cc * cc) / (1.0 + cb * cb);
    /* a figure no timer gives is no figure: the means over configurations stay finite */
    return ratio >= HB_MIN_RATIO && ratio <= HB_MAX_RATIO ? ratio : NAN;
}

static double repo_of_row(const hb_config_entry *e, size_t column)
{
    const hb_config_timers *x = &e->timers;
    return hb_repo_estimator(x->wall_mean_us[column], x->wall_rel_stdev[column], x->candidate_wall_mean_us,
                             x->candidate_wall_rel_stdev);
}

/* A -max column: the smaller of its TN and NN rows' figures (NaN if either
 * lacks one, as CUDA-L2 needs both); a plain column: its own row's. */
static double repo_ratio(const hb_config_entry *e, size_t column)
{
    const hb_speedup_column *c = hb_speedup_column_at(column);
    if (!c->is_max)
        return repo_of_row(e, column);
    for (size_t i = 0; i < hb_max_pair_count(); i++) {
        hb_max_pair p = hb_max_pair_at(i);
        if (strcmp(p.name, c->name))
            continue;
        int tn = hb_speedup_column_find(p.tn), nn = hb_speedup_column_find(p.nn);
        if (tn < 0 || nn < 0)
            return NAN;
        double a = repo_of_row(e, (size_t)tn), b = repo_of_row(e, (size_t)nn);
        return isnan(a) || isnan(b) ? NAN : fmin(a, b);
    }
    return NAN;
}

double hb_compare_timer_ratio(const hb_config_entry *e, hb_compare_timer timer, size_t column)
{
    if (column >= hb_speedup_column_count())
        return NAN;
    switch (timer) {
    case HB_CMP_EVENTS:
        /* a summary.csv from before the headline timer (no headline_timer column) had
         * speedup_paper on events and no speedup_paper_event */
        if (isnan(e->timers.paper_event[column]) && !e->timers.headline_timer[0])
            return e->ratio[HB_TIMER_EVENT][HB_EST_PAPER][column];
        return e->timers.paper_event[column];
    case HB_CMP_WALL: return e->ratio[HB_TIMER_WALL][HB_EST_PAPER][column];
    case HB_CMP_KERNEL: return e->timers.kernel[column];
    case HB_CMP_REPO: return repo_ratio(e, column);
    case HB_CMP_TIMER_COUNT: break;
    }
    return NAN;
}
