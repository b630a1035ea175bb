#include "bench/result/headline_figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/stats.h"
#include "bench/result/baseline_registry.h"
#include "bench/result/gate.h"
#include "bench/result/timer_check.h"

#define CANDIDATE 0 /* the candidate is participant 0 */

hb_status hb_headline_summaries(const hb_headline_input *in, hb_config_result *r)
{
    const hb_participant_samples *cand = in->participants[CANDIDATE].samples;
    r->count = in->count;
    r->rounds = cand->event_ms.len;
    for (size_t i = 0; i < in->count; i++) {
        const hb_headline_participant *h = &in->participants[i];
        hb_participant_result *p = &r->participants[i];
        snprintf(p->name, sizeof p->name, "%s", h->name);
        p->is_candidate = h->is_candidate;
        HB_TRY(hb_summarize_times(h->samples->event_ms.data, h->samples->event_ms.len, &p->event_ms));
        HB_TRY(hb_summarize_times(h->samples->wall_ms.data, h->samples->wall_ms.len, &p->wall_ms));
        if (p->is_candidate)
            continue;
        const uint64_t seed = in->options.bootstrap_seed + i;
        HB_TRY(hb_summarize_speedup(h->samples->event_ms.data, cand->event_ms.data, r->rounds, seed,
                                    &p->speedup_event));
        HB_TRY(hb_summarize_speedup(h->samples->wall_ms.data, cand->wall_ms.data, r->rounds, seed, &p->speedup_wall));
    }
    r->measured = 1;
    return HB_OK;
}

hb_status hb_headline_timers(const hb_headline_input *in, hb_config_result *r)
{
    hb_timer_series series[HB_MAX_PARTICIPANTS];
    for (size_t i = 0; i < in->count; i++) {
        const hb_headline_participant *h = &in->participants[i];
        series[i] = (hb_timer_series){
            .name = h->name,
            .is_candidate = h->is_candidate,
            .n = r->rounds,
            .event_ms = h->samples->event_ms.data,
            .wall_ms = h->samples->wall_ms.data,
            .kernel_us = h->kernel_us,
            .device_diff_us = h->device_diff_us,
            .n_device = h->n_device,
            .other_stream_calls = h->other_stream_calls,
        };
    }
    static hb_timer_decision decision; /* 20 KiB of agreements: off the stack */
    hb_decide_timer(series, in->count, &decision);
    r->headline_timer = decision.timer;
    r->timer_reasons = decision.reasons;
    snprintf(r->timer_why, sizeof r->timer_why, "%s", decision.why);
    for (size_t i = 0; i < in->count; i++)
        r->participants[i].timers = decision.agreement[i];
    if (decision.mismatch)
        hb_check_list_add(in->checks, HB_CHECK_TIMER_CROSS_CHECK, HB_ERR_TIMER_MISMATCH, "%s", decision.mismatch_why);
    else
        hb_check_list_add(in->checks, HB_CHECK_TIMER_CROSS_CHECK, HB_OK, "headline on %s",
                          hb_timer_name(decision.timer));
    return HB_OK;
}

static int baseline_named(const hb_headline_participant *participants, size_t count, const char *name, size_t *out)
{
    for (size_t i = 0; i < count; i++)
        if (!participants[i].is_candidate && !strcmp(participants[i].name, name)) {
            *out = i;
            return 1;
        }
    return 0;
}

hb_status hb_decide_columns(const hb_headline_participant *participants, size_t count, const char *vs,
                            size_t column[HB_SEQUENTIAL_MAX_SERIES], size_t *columns)
{
    *columns = 0;
    if (baseline_named(participants, count, vs, &column[0])) {
        *columns = 1;
        return HB_OK;
    }
    for (size_t i = 0; i < hb_max_pair_count(); i++) {
        hb_max_pair pair = hb_max_pair_at(i);
        if (strcmp(pair.name, vs))
            continue;
        if (baseline_named(participants, count, pair.nn, &column[0]) &&
            baseline_named(participants, count, pair.tn, &column[1])) {
            *columns = 2;
            return HB_OK;
        }
    }
    return hb_fail(HB_ERR_INTERNAL, "--decide: --vs %s is not among this configuration's baselines", vs);
}

/* It stays within the error spent: whichever look k ended the window, the
 * wall interval at n_k misses with probability at most alpha_k, and these
 * sum to alpha over every k. */
static hb_status decide_on_wall(const hb_headline_input *in, hb_decision_record *d)
{
    size_t column[HB_SEQUENTIAL_MAX_SERIES], columns;
    HB_TRY(hb_decide_columns(in->participants, in->count, in->options.vs, column, &columns));
    const size_t n = d->last.rounds;
    double *log_ratios = malloc((n ? n : 1) * columns * sizeof *log_ratios);
    if (!log_ratios)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory re-judging --decide on the wall clock (%zu rounds)", n);
    const double *series[HB_SEQUENTIAL_MAX_SERIES];
    const double *cand = in->participants[CANDIDATE].samples->wall_ms.data;
    for (size_t c = 0; c < columns; c++) {
        double *x = log_ratios + c * n;
        const double *base = in->participants[column[c]].samples->wall_ms.data;
        for (size_t round = 0; round < n; round++)
            x[round] = hb_log_ratio(base[round], cand[round]);
        series[c] = x;
    }
    hb_look look;
    hb_status status = hb_look_at(series, columns, n, d->last.alpha, log1p(d->threshold), &look);
    free(log_ratios);
    HB_TRY(status);
    look.look = d->last.look;
    d->last = look;
    d->timer = HB_TIMER_WALL;
    return HB_OK;
}

hb_status hb_headline_decision(const hb_headline_input *in, hb_config_result *r)
{
    const hb_decision_record *window = in->options.decision;
    if (window && window != &r->decision)
        r->decision = *window;
    hb_decision_record *d = &r->decision;
    if (!d->ran || r->headline_timer != HB_TIMER_WALL || d->looks == 0)
        return HB_OK;
    return decide_on_wall(in, d);
}

hb_status hb_headline_reward_terms(const hb_headline_input *in, hb_config_result *r)
{
    const hb_reward_settings *settings = in->options.reward;
    if (!settings || !settings->on)
        return HB_OK;
    const char *vs = in->options.vs;
    hb_reward_record *reward = &r->reward;
    const hb_participant_result *named = hb_find_participant(r, vs);
    const char *row = named && named->max_of[0] ? named->max_of : vs;
    size_t ref = 0;
    while (ref < in->count && strcmp(in->participants[ref].name, row) != 0)
        ref++;
    if (ref == in->count) /* a -max row is missing only when a variant was not timed: a harness bug */
        return hb_fail(HB_ERR_INTERNAL, "--reward: no timed participant \"%s\" for --vs %s", row, vs);
    const int wall = r->headline_timer == HB_TIMER_WALL;
    const hb_participant_samples *t_ref = in->participants[ref].samples;
    const hb_participant_samples *t_cand = in->participants[CANDIDATE].samples;
    HB_TRY(hb_reward_compute(settings, wall ? t_ref->wall_ms.data : t_ref->event_ms.data,
                             wall ? t_cand->wall_ms.data : t_cand->event_ms.data, r->rounds, &r->battery.deviation,
                             reward));
    snprintf(reward->vs, sizeof reward->vs, "%s", vs);
    snprintf(reward->vs_participant, sizeof reward->vs_participant, "%s", row);
    snprintf(reward->timer, sizeof reward->timer, "%s", hb_timer_name(r->headline_timer));
    return HB_OK;
}

/* When the criterion ended the window, it decided on these very values
 * (same rounds, same seeds, same computation); a difference is a harness
 * bug. */
hb_status hb_headline_final_halfwidth(const hb_headline_input *in, hb_config_result *r)
{
    if (!(in->options.target_ci > 0))
        return HB_OK;
    double widest = 0;
    for (size_t i = 0; i < r->count; i++)
        if (!r->participants[i].is_candidate && r->participants[i].speedup_event.ci95_halfwidth > widest)
            widest = r->participants[i].speedup_event.ci95_halfwidth;
    hb_window_report *w = &r->window;
    w->final_halfwidth = widest;
    if (!strcmp(w->stopped_by, "target-ci") && w->decision_halfwidth != widest)
        hb_warn("--target-ci decided on a widest CI half-width of %.9g, the summary reports %.9g: a harness bug, "
                "please report it with this run's env.json", w->decision_halfwidth, widest);
    return HB_OK;
}
