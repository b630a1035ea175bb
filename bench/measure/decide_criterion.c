#include "bench/measure/decide_criterion.h"

#include <math.h>
#include <stdlib.h>

#include "bench/core/diag.h"
#include "bench/core/sample_vec.h"
#include "bench/core/stats.h"

typedef struct decide {
    hb_decide_setup setup;
    hb_sample_vec log_ratios[HB_SEQUENTIAL_MAX_SERIES]; /* per judged baseline, by round */
    hb_sequential_test test;
} decide;

static hb_status decide_add_round(void *state, const double *event_ms, size_t count)
{
    decide *d = state;
    if (count != d->setup.count)
        return hb_fail(HB_ERR_INTERNAL, "--decide: a round of %zu participants, %zu expected", count, d->setup.count);
    for (size_t c = 0; c < d->setup.columns; c++)
        HB_TRY(hb_sample_vec_push(&d->log_ratios[c], hb_log_ratio(event_ms[d->setup.column[c]],
                                                                  event_ms[d->setup.candidate])));
    return HB_OK;
}

static hb_status look(decide *d, const hb_window_progress *now)
{
    const double *series[HB_SEQUENTIAL_MAX_SERIES];
    for (size_t c = 0; c < d->setup.columns; c++) {
        if (d->log_ratios[c].len != now->rounds)
            return hb_fail(HB_ERR_INTERNAL, "--decide: the window played %zu rounds, the criterion saw %zu",
                           now->rounds, d->log_ratios[c].len);
        series[c] = d->log_ratios[c].data;
    }
    HB_TRY(hb_sequential_look(&d->test, series, d->setup.columns, now->rounds));
    hb_decision_record *r = d->setup.record;
    r->looks = d->test.looks;
    r->last = d->test.last;
    r->seconds = now->elapsed_s;
    r->timer = HB_TIMER_EVENT;
    r->window_state = d->test.last.state;
    return HB_OK;
}

static hb_status decide_poll(void *state, const hb_window_progress *now, hb_stop_decision *decision)
{
    decide *d = state;
    int at_cap = now->elapsed_s >= d->setup.cap_s && now->rounds >= d->setup.min_rounds;
    if (hb_sequential_due(&d->test, now->rounds, at_cap))
        HB_TRY(look(d, now));
    int decided = d->test.looks > 0 && d->test.last.state != HB_LOOK_UNDECIDED;
    if (!decided && !at_cap)
        return HB_OK;
    *decision = (hb_stop_decision){.finished = 1, .by = decided ? "decided" : "time-cap", .at = *now,
                                   .halfwidth = NAN};
    return HB_OK;
}

static void decide_destroy(void *state)
{
    decide *d = state;
    for (size_t c = 0; c < HB_SEQUENTIAL_MAX_SERIES; c++)
        hb_sample_vec_free(&d->log_ratios[c]);
    free(d);
}

static const hb_stop_criterion_ops decide_ops = {decide_add_round, decide_poll, decide_destroy};

static hb_status check_setup(const hb_decide_setup *s)
{
    if (s->columns == 0 || s->columns > HB_SEQUENTIAL_MAX_SERIES || s->candidate >= s->count || !s->record)
        return hb_fail(HB_ERR_INTERNAL, "--decide over %zu baselines of %zu participants", s->columns, s->count);
    for (size_t c = 0; c < s->columns; c++)
        if (s->column[c] >= s->count || s->column[c] == s->candidate)
            return hb_fail(HB_ERR_INTERNAL, "--decide: participant %zu is not a baseline of %zu", s->column[c],
                           s->count);
    if (!(s->alpha > 0 && s->alpha < 0.5))
        return hb_fail(HB_ERR_INTERNAL, "--decide-alpha %g: it must lie in (0, 0.5)", s->alpha);
    return HB_OK;
}

hb_status hb_decide_criterion_create(const hb_decide_setup *setup, hb_stop_criterion *out)
{
    HB_TRY(check_setup(setup));
    decide *d = calloc(1, sizeof *d);
    if (!d)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for the --decide criterion");
    d->setup = *setup;
    hb_sequential_init(&d->test, setup->alpha, setup->log_threshold, HB_SEQUENTIAL_FIRST_LOOK);
    hb_decision_record *r = setup->record;
    r->ran = 1;
    r->alpha = setup->alpha;
    r->looks = 0;
    r->window_state = HB_LOOK_UNDECIDED;
    *out = (hb_stop_criterion){&decide_ops, d};
    return HB_OK;
}
