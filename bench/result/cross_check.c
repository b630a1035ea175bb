#include "bench/result/cross_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/binomial.h"
#include "bench/core/diag.h"
#include "bench/core/stats.h"
#include "bench/result/timer_check.h"

double hb_cross_check_tolerance_us(double event_us)
{
    return HB_CROSS_CHECK_PAIRED_TOLERANCE_US +
           (isfinite(event_us) ? HB_CROSS_CHECK_PAIRED_TOLERANCE_FRACTION * event_us : 0);
}

static double value_at(const double *v, size_t n, size_t i)
{
    return v && i < n ? v[i] : NAN;
}

/* d of round r: NaN where either reading is missing. */
static double diff_at(const hb_cross_series *s, size_t r)
{
    return value_at(s->event_us, s->n, r) - value_at(s->device_us, s->n, r);
}

double hb_cross_baseline_median(const hb_cross_series *series, size_t count, size_t r)
{
    double work[HB_MAX_PARTICIPANTS], scratch[HB_MAX_PARTICIPANTS];
    size_t n = 0;
    for (size_t i = 0; i < count && n < HB_MAX_PARTICIPANTS; i++)
        if (!series[i].is_candidate)
            work[n++] = diff_at(&series[i], r);
    return n ? hb_finite_quantile(work, n, 0.5, scratch) : NAN;
}

/* A participant's median d over the rounds CUPTI read, their count, and its event median. */
typedef struct medians {
    size_t compared;
    double diff_us, event_us;
} medians;

static medians medians_of(const hb_cross_series *s, size_t rounds, double *work, double *scratch)
{
    medians m = {0, NAN, NAN};
    for (size_t r = 0; r < rounds; r++) {
        const double d = diff_at(s, r);
        if (isfinite(d))
            work[m.compared++] = d;
    }
    if (m.compared)
        m.diff_us = hb_finite_quantile(work, m.compared, 0.5, scratch);
    if (s->n)
        m.event_us = hb_finite_quantile(s->event_us, s->n, 0.5, scratch);
    return m;
}

/* The first rule: one participant's median d against the warm-up's tolerance. */
static void judge_participant(const hb_cross_series *s, size_t rounds, double *work, double *scratch,
                              hb_cross_check *out)
{
    const medians m = medians_of(s, rounds, work, scratch);
    const size_t compared = m.compared;
    const double median = m.diff_us, event_us = m.event_us;
    const double tolerance = HB_TIMER_DEVICE_TOLERANCE_US + HB_TIMER_DEVICE_TOLERANCE_FRACTION * event_us;
    if (out->mismatch || compared < HB_TIMER_DEVICE_MIN_CALLS || !(fabs(median) > tolerance))
        return;
    out->mismatch = 1;
    snprintf(out->why, sizeof out->why,
             "%s: on %zu timed rounds drawn at random, CUPTI's device timestamps of its start and stop events "
             "differ from the CUDA events by %+.1f us (median; CUDA events read %.1f us), more than the %.1f us an "
             "honest call shows; a timer reads otherwise while timed",
             s->name, compared, median, event_us, tolerance);
}

/* The second rule: the candidate's d paired with the baselines' of the same round. */
static void judge_paired(const hb_cross_series *series, size_t count, size_t cand, size_t rounds, double *c,
                         double *scratch, hb_cross_check *out)
{
    size_t paired = 0;
    for (size_t r = 0; r < rounds; r++) {
        const double d = diff_at(&series[cand], r), base = hb_cross_baseline_median(series, count, r);
        if (isfinite(d) && isfinite(base))
            c[paired++] = d - base;
    }
    out->paired = paired;
    out->paired_median_us = paired ? hb_finite_quantile(c, paired, 0.5, scratch) : NAN;
    for (size_t i = 0; i < paired; i++)
        out->below += c[i] < -out->tolerance_us;
    out->p_value = hb_binomial_upper_tail(paired, 0.5, out->below);
    if (out->mismatch || paired == 0 || out->below < hb_sign_test_critical(paired, HB_CROSS_CHECK_ALPHA))
        return;
    out->mismatch = 1;
    snprintf(out->why, sizeof out->why,
             "%s: on %zu timed rounds drawn at random, its CUDA events read shorter than CUPTI's device timestamps "
             "of the same events, against the baselines' of the same rounds, by more than %.2f us in %zu of them "
             "(median %+.2f us; an honest candidate is there in at most half of them: p = %.1e < %.0e); a timer "
             "reads short while timed",
             series[cand].name, paired, out->tolerance_us, out->below, out->paired_median_us, out->p_value,
             HB_CROSS_CHECK_ALPHA);
}

hb_status hb_judge_cross_check(const hb_cross_series *series, size_t count, size_t rounds, hb_cross_check *out)
{
    memset(out, 0, sizeof *out);
    out->rounds = rounds;
    out->median_diff_us = out->paired_median_us = NAN;
    out->tolerance_us = hb_cross_check_tolerance_us(NAN);
    out->p_value = 1;
    size_t most = rounds;
    for (size_t i = 0; i < count; i++)
        most = series[i].n > most ? series[i].n : most;
    if (most == 0 || count > HB_MAX_PARTICIPANTS)
        return count > HB_MAX_PARTICIPANTS
                   ? hb_fail(HB_ERR_INTERNAL, "%zu participants to cross-check (at most %d)", count, HB_MAX_PARTICIPANTS)
                   : HB_OK;
    double *work = malloc(most * sizeof *work), *scratch = malloc(most * sizeof *scratch);
    if (!work || !scratch) {
        free(work);
        free(scratch);
        return hb_fail(HB_ERR_INTERNAL, "out of host memory judging %zu cross-checked rounds", most);
    }
    size_t cand = 0;
    while (cand < count && !series[cand].is_candidate)
        cand++;
    if (cand < count) { /* the paired rule first: its line says more of a candidate's shave */
        const medians m = medians_of(&series[cand], most, work, scratch);
        out->compared = m.compared;
        out->median_diff_us = m.diff_us;
        out->tolerance_us = hb_cross_check_tolerance_us(m.event_us);
        judge_paired(series, count, cand, most, work, scratch, out);
    }
    for (size_t i = 0; i < count; i++)
        judge_participant(&series[i], most, work, scratch, out);
    free(work);
    free(scratch);
    return HB_OK;
}

void hb_cross_series_of(const hb_watched *const *watched, size_t count, hb_cross_series *out)
{
    for (size_t i = 0; i < count; i++) {
        const hb_watched *w = watched[i];
        const size_t n = w->cross_event_us.len < w->cross_device_us.len ? w->cross_event_us.len
                                                                         : w->cross_device_us.len;
        out[i] = (hb_cross_series){w->name, w->is_candidate, n, w->cross_event_us.data, w->cross_device_us.data};
    }
}

hb_status hb_judge_cross_checked_calls(const hb_watched *const *watched, size_t count, size_t rounds,
                                       hb_cross_check *out)
{
    hb_cross_series series[HB_MAX_PARTICIPANTS];
    if (count > HB_MAX_PARTICIPANTS)
        return hb_fail(HB_ERR_INTERNAL, "%zu participants to cross-check (at most %d)", count, HB_MAX_PARTICIPANTS);
    hb_cross_series_of(watched, count, series);
    return hb_judge_cross_check(series, count, rounds, out);
}

double hb_cross_check_round_power(const double *honest_c, size_t m, double shave_us, double tolerance_us)
{
    size_t finite = 0, below = 0;
    for (size_t i = 0; i < m; i++) {
        if (!isfinite(honest_c[i]))
            continue;
        finite++;
        below += honest_c[i] < shave_us - tolerance_us;
    }
    return finite ? (double)below / (double)finite : NAN;
}
