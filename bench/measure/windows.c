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
#include "bench/gpu/cuda_check.h"
#include "bench/measure/cross_check_rounds.h"
#include "bench/measure/output_watch.h"
#include "bench/measure/decide_criterion.h"
#include "bench/measure/stop_criterion.h"
#include "bench/measure/time_criterion.h"
#include "verify/checked_call.h"

/* One window's state: what every helper below reads or updates. */
typedef struct window {
    hb_participant *const *participants;
    const hb_gemm_io *ios;
    size_t count;
    hb_sample_timer *timer;
    hb_rng *rng;               /* round orders and spot-check draws */
    hb_rng *gap_rng;           /* idle gaps: their own stream, so a seed gives the same orders in both modes */
    hb_cross_rounds *cross;    /* the timed rounds CUPTI also reads the events of; NULL: none (the warm-up) */
    const hb_window_options *options;
    hb_participant_samples *samples; /* NULL in the warm-up */
    hb_output_watch *watch;    /* every call's output scanned, its counters read after every round */
    hb_check_failure *failure; /* where a candidate's unwritten output is recorded */
    double start_s;            /* window start, hb_now_s() */
    hb_window_progress now;    /* rounds kept, gaps so far; elapsed_s as of the last poll */
    size_t played;             /* rounds played, cross-checked ones included */
    hb_round_figures round;    /* this round's figures by participant: what the samples and the criteria get */
    int keep_outputs;          /* a checked round: poison the outputs after its check, not after each call */
    int crossed;               /* this round is cross-checked: CUPTI reads its events, the statistics leave it out */
    double *scan_s;            /* the report's output_scan_s: the read-backs' seconds, both windows */
} window;

/* One window's settings beside its criteria. */
typedef struct phase {
    const char *name;        /* in the progress line */
    double length_s;         /* for the progress line */
    hb_spot_check *spot;     /* NULL: none */
    double spot_probability; /* of a round being spot-checked */
} phase;

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
    w->now.gaps++;
    w->now.gap_total_s += slept;
    return slept;
}

/* A call's figures, kept with the round's until it ends (hb_keep_round). */
static void note_call(window *w, size_t i, size_t slot, double start_s, double gap_s, double event_ms, double wall_ms)
{
    hb_round_figures *r = &w->round;
    r->event_ms[i] = event_ms;
    r->wall_ms[i] = wall_ms;
    r->slot[i] = (double)slot;
    r->start_s[i] = start_s;
    r->gap_ms[i] = gap_s * 1e3;
}

/* What the call monitor is told of a call: its window, and for a timed call
 * its index among the participant's samples, or, in a cross-checked round,
 * among the cross-checked rounds (bench/result/watched_calls.h).  A
 * cross-checked call's kind is what makes the monitor read its events; the
 * participant's code is called alike. */
static hb_call_kind call_kind(const window *w)
{
    return !w->samples ? HB_CALL_WARMUP : w->crossed ? HB_CALL_CROSS_CHECKED : HB_CALL_TIMED;
}

static long call_sample(const window *w, size_t i)
{
    if (!w->samples)
        return -1;
    return w->crossed ? (long)w->cross->drawn - 1 : (long)w->samples[i].event_ms.len;
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
    HB_TRY(hb_time_one_call(w->timer, w->participants[i], &w->ios[i], call_kind(w), call_sample(w, i), &event_ms,
                            &wall_ms));
    note_call(w, i, slot, start_s, gap_s, event_ms, wall_ms);
    /* Untimed, both enqueued after the call's synchronize and its wall clock:
     * the scan of its whole output, then the poison for its next call (in
     * this order on one stream).  The next call's leading device synchronize
     * waits for both before its own clock starts. */
    HB_TRY(hb_output_watch_scan(w->watch, i, w->timer->stream));
    if (!w->keep_outputs)
        return hb_poison_call(w->participants[i], &w->ios[i], w->timer->stream);
    return HB_OK;
}

/* Every participant once, in a freshly shuffled order; then, untimed, the
 * round is kept in the samples (all of it, or, cross-checked, none of it)
 * and its output scans are read back and judged: a call that left any
 * output element poisoned, NaN or Inf ends the window. */
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
    if (w->samples)
        HB_TRY(hb_keep_round(w->samples, w->count, &w->round, w->crossed, w->options->keep_detail));
    const hb_watch_round at = {w->samples != NULL, w->played + 1};
    const double start = hb_now_s();
    hb_status status = hb_output_watch_after_round(w->watch, w->participants, w->timer->stream, at, w->failure);
    *w->scan_s += hb_now_s() - start;
    return status;
}

/* The untimed preparation every call gets, checked or not
 * (docs/methodology.md, "Indistinguishable calls"): every participant's
 * output and workspace are poisoned right after its call (after the round's
 * check, in a checked round: the check reads them), so they are poisoned
 * when it is next called; its own copies of the inputs are re-made after
 * the round's inputs (hb_remake_inputs).  Poisoning right after the call
 * rewrites lines that call just wrote: the L2 holds what it held before
 * the poisoning existed, and the calls stay back to back. */
static hb_status poison_all(window *w)
{
    for (size_t i = 0; i < w->count; i++)
        HB_TRY(hb_poison_call(w->participants[i], &w->ios[i], w->timer->stream));
    HB_CUDA_TRY(cudaStreamSynchronize(w->timer->stream));
    return HB_OK;
}

static hb_status prepare_round(window *w)
{
    cudaStream_t stream = w->timer->stream;
    const hb_input_hooks *h = &w->options->inputs;
    if (h->before_round)
        HB_TRY(h->before_round(h->context));
    for (size_t i = 0; i < w->count; i++)
        HB_TRY(hb_remake_inputs(w->participants[i], &w->ios[i], stream));
    HB_CUDA_TRY(cudaStreamSynchronize(stream));
    return HB_OK;
}

static hb_status checked_round(window *w, hb_spot_check *spot);

/* Every round is played the same way; whether it is checked is drawn
 * before it and acted on only after it, on the outputs it left.  Whether
 * CUPTI also reads its event pairs is drawn before it too, from the
 * cross-check's own stream (bench/measure/cross_check_rounds.h), and that
 * reading, inside each of its calls, is the only thing that differs. */
static hb_status round_of(window *w, hb_spot_check *spot, double spot_probability)
{
    const int checked = spot && spot->done < spot->max_checks && hb_rng_uniform(w->rng) < spot_probability;
    w->crossed = w->cross && hb_cross_rounds_draw(w->cross);
    if (checked)
        return checked_round(w, spot);
    HB_TRY(prepare_round(w));
    return play_round(w);
}

/* A round whose outputs are checked after it: the outputs are kept for
 * the check and poisoned after it. */
static hb_status checked_round(window *w, hb_spot_check *spot)
{
    HB_TRY(prepare_round(w));
    w->keep_outputs = 1;
    hb_status status = play_round(w);
    w->keep_outputs = 0;
    HB_TRY(status);
    spot->done++;
    HB_TRY(spot->after(spot->context));
    return poison_all(w);
}

/* Plays rounds until a criterion of `stop` ends the window; *decision says
 * at which round the window stands for the results. */
static hb_status run_window(window *w, hb_stop_criteria *stop, const phase *ph, hb_progress *progress,
                            hb_stop_decision *decision)
{
    HB_TRY(poison_all(w)); /* the first calls too find their buffers poisoned */
    w->start_s = hb_now_s();
    for (;;) {
        w->now.elapsed_s = hb_now_s() - w->start_s;
        HB_TRY(hb_stop_criteria_poll(stop, &w->now, decision));
        if (decision->finished)
            break;
        hb_progress_update(progress, ph->name, w->now.elapsed_s, ph->length_s, w->now.rounds);
        hb_heartbeat();
        HB_TRY(round_of(w, ph->spot, ph->spot_probability));
        w->played++;
        if (w->options->hooks.between_rounds)
            HB_TRY(w->options->hooks.between_rounds(w->options->hooks.context));
        if (w->crossed)
            continue; /* out of the statistics: no criterion judges it */
        w->now.rounds++;
        HB_TRY(hb_stop_criteria_add_round(stop, w->round.event_ms, w->count));
    }
    /* A window cut short of its rounds still guarantees one spot check.  Its
     * round comes after the decision's, so the window does not keep it. */
    w->crossed = 0;
    if (ph->spot && ph->spot->max_checks > 0 && ph->spot->done == 0)
        HB_TRY(checked_round(w, ph->spot));
    if (w->options->hooks.after_window)
        HB_TRY(w->options->hooks.after_window(w->options->hooks.context));
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

/* The window as the decision has it: the samples of its first at.rounds
 * rounds only (--target-ci decides on an earlier round than the last), and
 * the counts of that round. */
static void keep_decided_rounds(window *w, const hb_stop_decision *d, hb_window_report *report)
{
    const hb_window_progress *at = &d->at;
    for (size_t i = 0; i < w->count; i++)
        hb_participant_samples_truncate(&w->samples[i], at->rounds);
    snprintf(report->stopped_by, sizeof report->stopped_by, "%s", d->by);
    report->decision_halfwidth = d->halfwidth;
    report->timed_rounds = at->rounds;
    report->timed_s = at->elapsed_s;
    report->gaps = at->gaps;
    report->gap_mean_ms = at->gaps ? at->gap_total_s / (double)at->gaps * 1e3 : 0;
    report->gap_fraction = at->elapsed_s > 0 ? at->gap_total_s / at->elapsed_s : 0;
    report->achieved_rate_per_s = at->elapsed_s > 0 ? (double)at->gaps / at->elapsed_s : 0;
}

/* Adds the time criterion: `length_s` and `min_rounds`. */
static hb_status push_time(hb_stop_criteria *stop, double length_s, size_t min_rounds, int caps_target)
{
    hb_stop_criterion time;
    HB_TRY(hb_time_criterion_create(length_s, min_rounds, caps_target, &time));
    return hb_stop_criteria_push(stop, time);
}

/* The candidate's participant index; `flag` names the criterion that needs it. */
static hb_status candidate_index(const window *w, const char *flag, size_t *out)
{
    size_t cand = 0;
    while (cand < w->count && !w->participants[cand]->is_candidate)
        cand++;
    if (cand == w->count)
        return hb_fail(HB_ERR_INTERNAL, "%s: no candidate among the %zu participants", flag, w->count);
    *out = cand;
    return HB_OK;
}

/* --decide: the sequential test, which is its own cap (its last look comes at the window's length). */
static hb_status push_decide(const window *w, hb_stop_criteria *stop)
{
    const hb_decide_rule *rule = &w->options->decide;
    hb_decide_setup setup = {
        .alpha = rule->alpha,
        .log_threshold = rule->log_threshold,
        .cap_s = w->options->time_s,
        .min_rounds = HB_MIN_TIMED_ROUNDS,
        .columns = rule->columns,
        .count = w->count,
        .record = rule->record,
    };
    HB_TRY(candidate_index(w, "--decide", &setup.candidate));
    for (size_t c = 0; c < rule->columns; c++)
        setup.column[c] = rule->column[c];
    hb_stop_criterion decide;
    HB_TRY(hb_decide_criterion_create(&setup, &decide));
    return hb_stop_criteria_push(stop, decide);
}

static hb_status push_target_ci(const window *w, hb_stop_criteria *stop)
{
    const hb_stop_rule *rule = &w->options->stop;
    size_t cand;
    HB_TRY(candidate_index(w, "--target-ci", &cand));
    hb_target_ci_setup setup = {
        .halfwidth = rule->halfwidth,
        .min_time_s = rule->min_time_s,
        .min_rounds = HB_TARGET_CI_MIN_ROUNDS,
        .every_s = HB_TARGET_CI_EVERY_S,
        .bootstrap_seed = rule->bootstrap_seed,
        .candidate = cand,
        .count = w->count,
    };
    hb_stop_criterion target;
    HB_TRY(hb_target_ci_criterion_create(&setup, &target));
    return hb_stop_criteria_push(stop, target);
}

/* The timed window's criteria: --decide alone (it caps itself); else
 * --target-ci first, so a target met at the same poll as the cap wins, then
 * time (the cap when a target is set). */
static hb_status timed_criteria(const window *w, hb_stop_criteria *stop)
{
    if (w->options->decide.alpha > 0) {
        hb_status status = push_decide(w, stop);
        if (status != HB_OK)
            hb_stop_criteria_destroy(stop);
        return status;
    }
    int target = w->options->stop.halfwidth > 0;
    hb_status status = target ? push_target_ci(w, stop) : HB_OK;
    if (status == HB_OK)
        status = push_time(stop, w->options->time_s, HB_MIN_TIMED_ROUNDS, target);
    if (status != HB_OK)
        hb_stop_criteria_destroy(stop);
    return status;
}

/* Runs the timed window between its criteria's creation and destruction
 * (which joins --target-ci's worker) and NVML's start and stop. */
static hb_status timed_window(window *w, hb_progress *progress, double round_s, hb_window_report *report,
                              hb_telemetry_summary *telemetry)
{
    const hb_window_options *o = w->options;
    hb_telemetry sampler;
    memset(telemetry, 0, sizeof *telemetry);
    snprintf(telemetry->why, sizeof telemetry->why, "not requested");
    hb_stop_criteria stop = {.count = 0};
    HB_TRY(timed_criteria(w, &stop));
    hb_status status = o->telemetry_uuid ? hb_telemetry_start(&sampler, o->telemetry_uuid, HB_TELEMETRY_PERIOD_S)
                                         : HB_OK;
    if (status != HB_OK) {
        hb_stop_criteria_destroy(&stop);
        return status;
    }
    phase timed = {"timed", o->time_s, o->spot, spot_probability(o, round_s)};
    hb_stop_decision decision;
    status = run_window(w, &stop, &timed, progress, &decision);
    if (o->telemetry_uuid)
        hb_telemetry_stop(&sampler, telemetry);
    hb_stop_criteria_destroy(&stop);
    if (status == HB_OK)
        keep_decided_rounds(w, &decision, report);
    report->cross_checked_rounds = w->cross ? w->cross->drawn : 0;
    return status;
}

/* At least one warm-up round even with --warmup-s 0: the first call of a
 * cuBLAS handle or a freshly loaded module pays one-time costs. */
static hb_status warm_up(window *w, hb_progress *progress)
{
    hb_stop_criteria stop = {.count = 0};
    HB_TRY(push_time(&stop, w->options->warmup_s, 1, 0));
    phase warm = {"warm-up", w->options->warmup_s, NULL, 0};
    hb_stop_decision decision;
    hb_status status = run_window(w, &stop, &warm, progress, &decision);
    hb_stop_criteria_destroy(&stop);
    return status;
}

/* Both windows, with the output watch they share. */
static hb_status both_windows(window *warm, hb_cross_rounds *cross, hb_progress *progress,
                              hb_participant_samples *samples, hb_window_report *report,
                              hb_telemetry_summary *telemetry)
{
    double start = hb_now_s();
    HB_TRY(warm_up(warm, progress));
    report->warmup_s = hb_now_s() - start;
    report->warmup_rounds = warm->now.rounds;
    double round_s = warm->now.rounds ? report->warmup_s / (double)warm->now.rounds : 0;
    const hb_window_hooks *hooks = &warm->options->hooks;
    if (hooks->before_timed)
        HB_TRY(hooks->before_timed(hooks->context));
    window timed = *warm;
    timed.samples = samples;
    timed.now = (hb_window_progress){.rounds = 0};
    timed.played = 0;
    timed.cross = cross;
    HB_TRY(timed_window(&timed, progress, round_s, report, telemetry));
    hb_progress_done(progress);
    return HB_OK;
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
    const uint64_t gap_seed = hb_rng_next(rng);
    hb_rng_seed(&gap_rng, gap_seed);
    /* The cross-check's stream from the same draw, so that no other stream's
     * draws move with it (an arbitrary constant keeps it apart from the gaps'). */
    hb_cross_rounds cross;
    const int crossing = options->cross_check_fraction > 0;
    hb_cross_rounds_init(&cross, crossing ? options->cross_check_fraction : 0, gap_seed ^ 0xc7055c4ec4ed0a11ULL);
    hb_output_watch watch;
    HB_TRY(hb_output_watch_create(&watch, participants, ios, count));
    hb_check_failure unrecorded = {"", ""}; /* options->failure NULL: the status and the message say it */
    window warm = {.participants = participants, .ios = ios, .count = count, .timer = timer, .rng = rng,
                   .gap_rng = &gap_rng, .options = options, .samples = NULL, .watch = &watch,
                   .failure = options->failure ? options->failure : &unrecorded, .scan_s = &report->output_scan_s};
    hb_status status = both_windows(&warm, crossing ? &cross : NULL, progress, samples, report, telemetry);
    hb_output_watch_free(&watch);
    if (status == HB_ERR_INCORRECT && warm.failure == &unrecorded && unrecorded.check[0])
        return hb_fail(status, "%s: %s", unrecorded.check, unrecorded.reason);
    return status;
}
