#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "bench/measure/windows.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/heartbeat.h"
#include "bench/core/shuffle.h"
#include "bench/core/stats.h"

/* One window's state: what every helper below reads or updates. */
typedef struct window {
    hb_participant *const *participants;
    const hb_gemm_io *ios;
    size_t count;
    hb_sample_timer *timer;
    hb_rng *rng;               /* round orders and spot-check draws */
    hb_rng *gap_rng;           /* idle gaps: their own stream, so a seed gives the same orders in both modes */
    const hb_window_options *options;
    hb_participant_samples *samples; /* NULL in the warm-up */
    double start_s;            /* window start, hb_now_s() */
    size_t rounds;
    size_t gaps;
    double gap_total_s;
} window;

/* Sleeps `seconds` in slices of at most 0.5 s, with a heartbeat between
 * slices so a long gap is not mistaken for a hang. */
static void sleep_seconds(double seconds)
{
    const double until = hb_now_s() + seconds;
    for (double left = seconds; left > 0; left = until - hb_now_s()) {
        double slice = left < 0.5 ? left : 0.5;
        struct timespec ts = {(time_t)slice, (long)((slice - (double)(time_t)slice) * 1e9)};
        if (nanosleep(&ts, NULL) != 0 && errno != EINTR)
            break; /* cannot happen with a valid timespec; never spin on it */
        hb_heartbeat();
    }
}

/* An exponential idle gap (server mode); returns the seconds actually slept. */
static double idle_gap(window *w)
{
    double u = hb_rng_uniform(w->gap_rng);
    double gap = -w->options->pacing.mean_gap_s * log1p(-u);
    double before = hb_now_s();
    sleep_seconds(gap);
    double slept = hb_now_s() - before;
    w->gaps++;
    w->gap_total_s += slept;
    return slept;
}

static hb_status record_sample(window *w, size_t i, size_t slot, double start_s, double gap_s, double event_ms,
                               double wall_ms)
{
    hb_participant_samples *s = &w->samples[i];
    HB_TRY(hb_sample_vec_push(&s->event_ms, event_ms));
    HB_TRY(hb_sample_vec_push(&s->wall_ms, wall_ms));
    if (!w->options->keep_detail)
        return HB_OK;
    HB_TRY(hb_sample_vec_push(&s->slot, (double)slot));
    HB_TRY(hb_sample_vec_push(&s->start_s, start_s));
    return hb_sample_vec_push(&s->gap_ms, gap_s * 1e3);
}

/* One call: the untimed flush and gap first, then Listing 1. */
static hb_status time_call(window *w, size_t i, size_t slot, double gap_s)
{
    const hb_window_options *o = w->options;
    if (o->inputs.before_call)
        HB_TRY(o->inputs.before_call(o->inputs.context)); /* returns with the GPU idle */
    if (o->pacing.server && !o->pacing.per_round)
        gap_s = idle_gap(w);
    double start_s = hb_now_s() - w->start_s;
    double event_ms, wall_ms;
    HB_TRY(hb_time_one_call(w->timer, w->participants[i], &w->ios[i], &event_ms, &wall_ms));
    return w->samples ? record_sample(w, i, slot, start_s, gap_s, event_ms, wall_ms) : HB_OK;
}

/* Every participant once, in a freshly shuffled order. */
static hb_status play_round(window *w)
{
    size_t order[HB_MAX_PARTICIPANTS];
    hb_shuffle_order(w->rng, order, w->count);
    double gap_s = 0; /* per-round: the gap before the round belongs to its first call */
    if (w->options->pacing.server && w->options->pacing.per_round)
        gap_s = idle_gap(w);
    for (size_t slot = 0; slot < w->count; slot++) {
        HB_TRY(time_call(w, order[slot], slot, gap_s));
        gap_s = 0;
    }
    return HB_OK;
}

static hb_status refresh_inputs(window *w, int timing_inputs)
{
    const hb_input_hooks *h = &w->options->inputs;
    return h->before_round ? h->before_round(h->context, timing_inputs) : HB_OK;
}

/* A spot-checked round runs on the inputs the check's reference belongs to. */
static hb_status checked_round(window *w, hb_spot_check *spot)
{
    HB_TRY(refresh_inputs(w, 1));
    HB_TRY(spot->before(spot->context));
    HB_TRY(play_round(w));
    spot->done++;
    return spot->after(spot->context);
}

static hb_status round_of(window *w, hb_spot_check *spot, double spot_probability)
{
    if (spot && spot->done < spot->max_checks && hb_rng_uniform(w->rng) < spot_probability)
        return checked_round(w, spot);
    HB_TRY(refresh_inputs(w, 0));
    return play_round(w);
}

/* The largest CI half-width of the headline over the baselines so far. */
static hb_status widest_halfwidth(const window *w, double *widest)
{
    size_t cand = 0;
    while (cand < w->count && !w->participants[cand]->is_candidate)
        cand++;
    *widest = 0;
    for (size_t i = 0; i < w->count && cand < w->count; i++) {
        if (i == cand)
            continue;
        double halfwidth;
        HB_TRY(hb_speedup_ci_halfwidth(w->samples[i].event_ms.data, w->samples[cand].event_ms.data,
                                       w->samples[i].event_ms.len, 0x5eed + w->rounds, &halfwidth));
        if (halfwidth > *widest)
            *widest = halfwidth;
    }
    return HB_OK;
}

/* --target-ci: 1 when the rule ends the window now. */
static hb_status target_met(window *w, double elapsed, double *next_check, hb_window_report *report, int *met)
{
    const hb_stop_rule *rule = &w->options->stop;
    *met = 0;
    if (!w->samples || rule->halfwidth <= 0 || w->rounds < HB_TARGET_CI_MIN_ROUNDS || elapsed < rule->min_time_s ||
        elapsed < *next_check)
        return HB_OK;
    *next_check = elapsed + HB_TARGET_CI_EVERY_S;
    HB_TRY(widest_halfwidth(w, &report->final_halfwidth));
    *met = report->final_halfwidth < rule->halfwidth;
    return HB_OK;
}

/* Runs rounds for window_s seconds (and min_rounds), or until --target-ci is met. */
static hb_status run_window(window *w, double window_s, size_t min_rounds, const char *phase, hb_progress *progress,
                            hb_spot_check *spot, double spot_probability, hb_window_report *report)
{
    w->start_s = hb_now_s();
    double next_check = 0;
    snprintf(report->stopped_by, sizeof report->stopped_by, "time");
    for (;;) {
        double elapsed = hb_now_s() - w->start_s;
        int met;
        HB_TRY(target_met(w, elapsed, &next_check, report, &met));
        if (met) {
            snprintf(report->stopped_by, sizeof report->stopped_by, "target-ci");
            break;
        }
        if (elapsed >= window_s && w->rounds >= min_rounds)
            break;
        hb_progress_update(progress, phase, elapsed, window_s, w->rounds);
        hb_heartbeat();
        HB_TRY(round_of(w, spot, spot_probability));
        w->rounds++;
    }
    /* A window cut short of its rounds still guarantees one spot check. */
    if (spot && spot->max_checks > 0 && spot->done == 0)
        HB_TRY(checked_round(w, spot));
    return HB_OK;
}

static double spot_probability(const hb_window_options *options, double round_s)
{
    if (!options->spot || options->spot->max_checks <= 0)
        return 0;
    double expected_rounds = round_s > 0 ? options->time_s / round_s : 0;
    if (expected_rounds < HB_MIN_TIMED_ROUNDS)
        expected_rounds = HB_MIN_TIMED_ROUNDS;
    double p = options->spot->max_checks / expected_rounds;
    return p > 1 ? 1 : p;
}

static void finish_report(const window *w, double timed_s, hb_window_report *report)
{
    const hb_window_options *o = w->options;
    report->timed_rounds = w->rounds;
    report->timed_s = timed_s;
    report->gaps = w->gaps;
    report->gap_mean_ms = w->gaps ? w->gap_total_s / (double)w->gaps * 1e3 : 0;
    report->gap_fraction = timed_s > 0 ? w->gap_total_s / timed_s : 0;
    report->achieved_rate_per_s = timed_s > 0 ? (double)w->gaps / timed_s : 0;
    if (o->stop.halfwidth > 0 && strcmp(report->stopped_by, "target-ci") != 0)
        snprintf(report->stopped_by, sizeof report->stopped_by, "time-cap");
}

static hb_status timed_window(window *w, hb_progress *progress, double round_s, hb_window_report *report,
                              hb_telemetry_summary *telemetry)
{
    const hb_window_options *o = w->options;
    hb_telemetry sampler;
    memset(telemetry, 0, sizeof *telemetry);
    snprintf(telemetry->why, sizeof telemetry->why, "not requested");
    if (o->telemetry_uuid)
        HB_TRY(hb_telemetry_start(&sampler, o->telemetry_uuid, HB_TELEMETRY_PERIOD_S));
    double start = hb_now_s();
    hb_status status = run_window(w, o->time_s, HB_MIN_TIMED_ROUNDS, "timed", progress, o->spot,
                                  spot_probability(o, round_s), report);
    double timed_s = hb_now_s() - start;
    if (o->telemetry_uuid)
        hb_telemetry_stop(&sampler, telemetry);
    finish_report(w, timed_s, report);
    if (status == HB_OK && o->stop.halfwidth > 0 && w->rounds > 1) /* where the rule stood at the end */
        status = widest_halfwidth(w, &report->final_halfwidth);
    return status;
}

hb_status hb_measure_windows(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                             hb_sample_timer *timer, hb_rng *rng, const hb_window_options *options,
                             hb_progress *progress, hb_participant_samples *samples, hb_window_report *report,
                             hb_telemetry_summary *telemetry)
{
    if (count == 0 || count > HB_MAX_PARTICIPANTS)
        return hb_fail(HB_ERR_INTERNAL, "%zu participants (1..%d supported)", count, HB_MAX_PARTICIPANTS);
    memset(report, 0, sizeof *report);
    hb_rng gap_rng;
    hb_rng_seed(&gap_rng, hb_rng_next(rng));
    /* At least one warm-up round even with --warmup-s 0: the first call of
     * a cuBLAS handle or a freshly loaded module pays one-time costs. */
    window warm = {.participants = participants, .ios = ios, .count = count, .timer = timer, .rng = rng,
                   .gap_rng = &gap_rng, .options = options, .samples = NULL};
    hb_window_report warm_report = {0};
    double start = hb_now_s();
    HB_TRY(run_window(&warm, options->warmup_s, 1, "warm-up", progress, NULL, 0, &warm_report));
    report->warmup_s = hb_now_s() - start;
    report->warmup_rounds = warm.rounds;
    double round_s = warm.rounds ? report->warmup_s / (double)warm.rounds : 0;
    window timed = warm;
    timed.samples = samples;
    timed.rounds = timed.gaps = 0;
    timed.gap_total_s = 0;
    HB_TRY(timed_window(&timed, progress, round_s, report, telemetry));
    hb_progress_done(progress);
    return HB_OK;
}
