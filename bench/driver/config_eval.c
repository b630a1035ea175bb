#include "bench/driver/config_eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines/baseline_factory.h"
#include "bench/candidate/candidate_set.h"
#include "bench/candidate/cubin_candidate.h"
#include "bench/candidate/launcher_candidate.h"
#include "bench/candidate/replay_candidate.h"
#include "bench/core/clock.h"
#include "bench/core/code_pages.h"
#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/core/heartbeat.h"
#include "bench/core/thread_watch.h"
#include "bench/driver/baseline_context.h"
#include "bench/driver/isolate.h"
#include "bench/driver/profile_calls.h"
#include "bench/driver/reference_hold.h"
#include "bench/driver/sandbox.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/device.h"
#include "bench/gpu/entry_points.h"
#include "bench/measure/input_policy.h"
#include "bench/result/baseline_registry.h"
#include "bench/report/cross_check_file.h"
#include "bench/report/raw_samples.h"
#include "bench/report/trace_file.h"
#include "bench/result/gate.h"
#include "bench/result/headline.h"
#include "bench/result/headline_figures.h"
#include "bench/trace/call_monitor.h"
#include "verify/battery.h"
#include "verify/checked_call.h"
#include "verify/deviation_check.h"
#include "verify/module_state_check.h"
#include "verify/problem.h"

#define CANDIDATE 0 /* the candidate is participant 0 */

typedef struct config_state {
    const hb_run_options *options;
    const char *run_path;   /* the run's folder: trace/ goes in it; NULL: no trace file */
    size_t index;
    hb_call_monitor *monitor; /* NULL: no CUPTI, --no-trace or --no-isolate (result->trace_note says which) */
    hb_device_limits limits;
    hb_device_info device;
    hb_sample_timer timer;
    hb_code_pages *code;    /* every page of code, sealed before the candidate loads (NULL while profiling) */
    hb_participant candidate;
    hb_participant baselines[HB_N_BASELINES];
    hb_participant *parts[1 + HB_N_BASELINES];
    size_t count;
    hb_problem problem;
    hb_rng rng;
    uint64_t bootstrap_seed; /* the summary's CIs (participant i: + i), and --target-ci's */
    hb_rng search_rng;      /* the autotune searches' inputs and orders */
    hb_input_policy inputs; /* --l2: untimed work around the timed calls */
    hb_progress progress;
    hb_check_result check;  /* the first deviation check: every participant's figures for the results */
    hb_check_failure failure; /* a failed check of the GPU work (verify/, measure/): the first, it ends the work */
    hb_check_list checks;     /* the checks' outcomes for the headline (bench/result/headline.h) */
    hb_config_result *result;
    int profiling;          /* the profiled process of --profile: no timer is read, so none is checked */
    hb_thread_watch threads; /* a launcher's threads left running in the timed window */
    const hb_held_reference *reference; /* the baselines' clean-process reference; NULL: none */
    const char *replay_folder;          /* the launcher's replay to time in its place; NULL: none */
    double lap;             /* when the part of the item's cost being timed began (bench/result/item_cost.h) */
    int last_check;         /* the last check of the timers: every code page is checked whatever the form */
} config_state;

/* --- a process readied before its configuration is known (bench/driver/isolate.h) ------------------------ */

typedef struct ready_part {
    int done;                 /* hb_evaluation_ready ran in this process */
    hb_status status;         /* its end: a failure is the configuration's, reported with it */
    char error[512];
    hb_call_monitor *monitor;
    hb_device_info device;
    hb_device_limits limits;
    hb_sample_timer timer;
    hb_code_pages *code;
    hb_config_result scratch; /* what ready_up wrote: its trace note and its cost */
    int clear_fd;             /* the job pipe whose clear byte lets the GPU work begin; -1: none */
} ready_part;

static ready_part ready = {.clear_fd = -1};

uint64_t hb_config_seed(uint64_t run_seed, size_t index)
{
    hb_rng rng;
    hb_rng_seed(&rng, run_seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(index + 1)));
    return hb_rng_next(&rng);
}

uint64_t hb_bootstrap_seed(uint64_t config_seed)
{
    /* An arbitrary constant: the configuration's generator is seeded with
     * config_seed itself, and this stream must not repeat its draws. */
    hb_rng rng;
    hb_rng_seed(&rng, config_seed ^ 0xb0075eedc1c1c1c1ULL);
    return hb_rng_next(&rng);
}

static void record_participants(hb_config_result *r, hb_participant *const *parts, size_t count)
{
    r->count = count;
    for (size_t i = 0; i < count; i++) {
        hb_participant_result *p = &r->participants[i];
        snprintf(p->name, sizeof p->name, "%s", parts[i]->name);
        p->is_candidate = parts[i]->is_candidate;
        p->desc = parts[i]->desc;
        if (!p->is_candidate) {
            p->desc.padded[0] = r->mnk.m;
            p->desc.padded[1] = r->mnk.n;
            p->desc.padded[2] = r->mnk.k;
        }
    }
}

/* The part of the item's cost that ends now (bench/result/item_cost.h). */
static void lap(config_state *s, hb_cost_part part)
{
    hb_item_cost_lap(&s->result->cost, part, &s->lap, hb_now_s());
}

/* --- the timers' check (bench/gpu/entry_points.h) ------------------------------------------ */

/* Every page of code is hashed again (40 ms on an H200's host) after each step where candidate host code may have
 * run: a launcher timed as itself.  A cubin or a replay puts no code of the candidate's in this process, so its
 * pages are checked once, after the last step: a change there is the environment's doing, still caught. */
static int code_check_due(const config_state *s)
{
    return s->result->replay.form == HB_FORM_LAUNCHER || s->last_check;
}

/* The timing entry points as sealed?  A rewrite found after candidate code
 * ran is the candidate's doing: a verdict, not a figure. */
static hb_status verify_timers(config_state *s, const char *when)
{
    int changed = 0;
    char what[700];
    HB_TRY(hb_entry_points_verify(&changed, what, sizeof what));
    s->result->integrity_checked = 1;
    if (changed)
        return hb_check_failed(&s->failure, HB_ERR_TIMER_MISMATCH, HB_CHECK_TIMER_INTEGRITY,
                               "%.440s (found %s): the harness's timers cannot be trusted", what, when);
    if (s->code && code_check_due(s))
        HB_TRY(hb_code_pages_verify(s->code, &changed, what, sizeof what));
    if (changed && s->options->aa) /* no candidate code ever ran */
        return hb_fail(HB_ERR_INTERNAL, "%.440s (found %s) with no candidate loaded: something in this process "
                       "(LD_PRELOAD? a debugger or profiler?) rewrites code", what, when);
    if (changed)
        return hb_check_failed(&s->failure, HB_ERR_TIMER_MISMATCH, HB_CHECK_CODE_INTEGRITY,
                               "%.440s (found %s): the timers and baselines cannot be trusted", what, when);
    return HB_OK;
}

/* Before any candidate code: a rewrite here is the environment's (LD_PRELOAD, a debugger), not the candidate's. */
static hb_status timers_untouched(void)
{
    int changed = 0;
    char what[700];
    HB_TRY(hb_entry_points_verify(&changed, what, sizeof what));
    if (changed)
        return hb_fail(HB_ERR_INTERNAL, "%s before any candidate code ran: something in this process (LD_PRELOAD? "
                       "a debugger or profiler?) rewrites the harness's timing entry points", what);
    return HB_OK;
}

/* --- the call monitor (bench/trace/call_monitor.h) ------------------------------------------ */

/* CUPTI first, before the CUDA context exists.  Without it the run goes on:
 * no kernel time, no conduct, and the note says why. */
static void open_monitor(config_state *s)
{
    hb_config_result *r = s->result;
    if (!s->options->trace) {
        snprintf(r->trace_note, sizeof r->trace_note, "--no-trace");
        return;
    }
    if (!s->options->isolate) {
        snprintf(r->trace_note, sizeof r->trace_note, "--no-isolate runs no call monitor");
        return;
    }
    unsigned parts = HB_MONITOR_ALL;
    const char *list = getenv(HB_MONITOR_PARTS_ENV);
    char bad[64];
    if (list && !hb_monitor_parts(list, &parts, bad, sizeof bad)) {
        snprintf(r->trace_note, sizeof r->trace_note, "%s=%s: \"%s\" is not one of kernels, copies, events, "
                 "callbacks: no call monitor", HB_MONITOR_PARTS_ENV, list, bad);
        return;
    }
    if (hb_monitor_open(s->options->trace_calls, parts, &s->monitor) != HB_OK)
        snprintf(r->trace_note, sizeof r->trace_note, "%s", hb_last_error());
    else if (parts != HB_MONITOR_ALL)
        snprintf(r->trace_note, sizeof r->trace_note, "%s=%s: a cost measurement, not every part of the call "
                 "monitor ran", HB_MONITOR_PARTS_ENV, list);
}

/* Between rounds, when enough has gathered: the records handed to their calls. */
static hb_status between_rounds(void *context)
{
    config_state *s = context;
    return s->monitor && hb_monitor_due(s->monitor) ? hb_monitor_checkpoint(s->monitor) : HB_OK;
}

/* The event records' device timestamps cost 4 to 12 us inside every event
 * pair on an H100 (docs/trace.md, "What it costs"): CUPTI reads them through
 * the warm-up, not the timed window (but for the calls of its cross-checked
 * rounds, which the statistics leave out), so no headline carries that cost. */
static hb_status before_timed(void *context)
{
    config_state *s = context;
    HB_TRY(hb_thread_watch_window_begin(&s->threads));
    return s->monitor ? hb_monitor_event_timestamps(s->monitor, 0) : HB_OK;
}

static hb_status after_window(void *context)
{
    config_state *s = context;
    HB_TRY(hb_thread_watch_window_end(&s->threads));
    HB_TRY(verify_timers(s, "after a timing window"));
    return s->monitor ? hb_monitor_checkpoint(s->monitor) : HB_OK;
}

/* The timed calls' microseconds of one vector, by round (NaN past its end). */
static double *per_round_us(const hb_sample_vec *v, size_t rounds, double scale)
{
    double *out = malloc((rounds + 1) * sizeof *out);
    if (!out)
        return NULL;
    for (size_t i = 0; i < rounds; i++)
        out[i] = i < v->len ? v->data[i] * scale : NAN;
    return out;
}

/* Each participant's kernel time; the candidate's conduct; trace.json. */
static hb_status judge_watched(config_state *s, const hb_participant_samples *samples, size_t timed)
{
    hb_config_result *r = s->result;
    static hb_library_names library;
    hb_watched_library_names(hb_monitor_watched(s->monitor, 0), s->count, &library);
    static hb_conduct conduct[HB_MAX_PARTICIPANTS];
    static hb_trace_file_entry entries[HB_MAX_PARTICIPANTS];
    for (size_t i = 0; i < s->count; i++) {
        hb_watched *w = hb_monitor_watched(s->monitor, i);
        hb_watched_truncate_timed(w, timed);
        double *wall_us = timed ? per_round_us(&samples[i].wall_ms, timed, 1e3) : NULL;
        if (timed && !wall_us)
            return hb_fail(HB_ERR_INTERNAL, "out of memory judging the kernel times");
        hb_watched_kernel_time(w, wall_us, timed, &r->participants[i].kernel);
        free(wall_us);
        snprintf(w->detail->device_state, sizeof w->detail->device_state, "%s", s->parts[i]->device_state);
        w->detail->records_dropped = w->tally.records_dropped;
        hb_judge_tally(&w->tally, &r->participants[i].kernel, s->parts[i]->device_state, &library, &conduct[i]);
        entries[i] = (hb_trace_file_entry){w->detail, &r->participants[i].kernel, &conduct[i], w->tally.calls,
                                           w->tally.timed_calls};
    }
    r->conduct = conduct[CANDIDATE];
    for (size_t j = s->count; j < r->count; j++) { /* a -max row takes its variant's kernel time */
        const hb_participant_result *variant = hb_find_participant(r, r->participants[j].max_of);
        if (variant)
            r->participants[j].kernel = variant->kernel;
    }
    if (!s->run_path)
        return HB_OK;
    char folder[3900];
    if ((size_t)snprintf(folder, sizeof folder, "%s/trace", s->run_path) >= sizeof folder)
        return hb_fail(HB_ERR_IO, "the run folder's path is too long for its trace folder: %s", s->run_path);
    HB_TRY(hb_make_folders(folder, "trace folder"));
    snprintf(r->trace_file, sizeof r->trace_file, "%s/%ld_%ld_%ld.%s.json", folder, r->mnk.m, r->mnk.n, r->mnk.k,
             hb_mode_name(s->options->mode));
    HB_TRY(hb_trace_file_write(r->trace_file, &r->mnk, entries, s->count));
    return HB_OK;
}

/* The last records handed to their calls and judged, pass or fail: a
 * candidate that fails a check still shows what it did.  Nothing to judge
 * after a fault that left the device unusable. */
static void finish_watch(config_state *s, const hb_participant_samples *samples, size_t timed)
{
    if (!s->monitor || s->count == 0 || !hb_monitor_watched(s->monitor, s->count - 1))
        return; /* set-up ended before the participants were watched: no call to judge */
    hb_status status = hb_monitor_checkpoint(s->monitor);
    if (status == HB_OK)
        status = judge_watched(s, samples, timed);
    if (status != HB_OK)
        snprintf(s->result->trace_note, sizeof s->result->trace_note, "the call monitor failed: %.200s",
                 hb_last_error());
}

/* The timed rounds CUPTI also read, judged (bench/result/cross_check.h);
 * with --raw, written beside the samples. */
static hb_status cross_check_timed(config_state *s)
{
    hb_config_result *r = s->result;
    if (!s->monitor)
        return HB_OK;
    const hb_watched *watched[HB_MAX_PARTICIPANTS];
    for (size_t i = 0; i < s->count; i++)
        watched[i] = hb_monitor_watched(s->monitor, i);
    HB_TRY(hb_judge_cross_checked_calls(watched, s->count, r->window.cross_checked_rounds, &r->cross_check));
    if (s->options->raw && s->options->raw_dir && r->window.cross_checked_rounds > 0) {
        char path[HB_PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%04zu_%ldx%ldx%ld.cross.csv", s->options->raw_dir, s->index, r->mnk.m,
                 r->mnk.n, r->mnk.k);
        hb_cross_series series[HB_MAX_PARTICIPANTS];
        hb_cross_series_of(watched, s->count, series);
        HB_TRY(hb_cross_check_file_write(path, series, s->count, r->window.cross_checked_rounds));
    }
    if (r->cross_check.mismatch)
        return hb_check_failed(&s->failure, HB_ERR_TIMER_MISMATCH, HB_CHECK_TIMER_CROSS_CHECK, "%s",
                               r->cross_check.why);
    return HB_OK;
}

/* A spot check, after a timed round drawn at random: guards and inputs,
 * then every participant's output of that round against the references of
 * its inputs (docs/methodology.md, "Indistinguishable calls"). */
static hb_status spot_after(void *context)
{
    config_state *s = context;
    HB_TRY(hb_check_guards(s->timer.stream, &s->failure));
    const char *changed = NULL;
    HB_TRY(hb_problem_inputs_intact(&s->problem, s->timer.stream, &changed));
    if (changed)
        return hb_check_failed(&s->failure, HB_ERR_INCORRECT, HB_CHECK_INPUT_WRITE,
                               "a timed round changed the input %s (its hash differs from the fill's)", changed);
    for (size_t i = 0; i < s->count; i++)
        HB_TRY(s->parts[i]->ops->collect(s->parts[i], &s->problem.ios[i], s->timer.stream));
    static hb_check_result check; /* large: keep it off the stack */
    const hb_judge_setup setup = {s->options->deviation_rule, s->options->acc, HB_CHECK_SPOT};
    hb_status status = hb_judge_outputs(s->parts, s->problem.ios, s->count, &s->problem, &setup, s->timer.stream,
                                        &check);
    if (status == HB_OK || status == HB_ERR_INCORRECT)
        hb_deviation_record_add(&s->result->battery.deviation, &check.figures);
    if (status == HB_ERR_INCORRECT)
        s->failure = check.failure;
    return status;
}

/* --- gate --decide (bench/measure/decide_criterion.h) ------------------------------------------ */

/* The participants the decision judges (bench/result/headline_figures.h), by name. */
static hb_status decide_columns(const config_state *s, hb_decide_rule *rule)
{
    hb_headline_participant named[HB_MAX_PARTICIPANTS];
    for (size_t i = 0; i < s->count; i++)
        named[i] = (hb_headline_participant){.name = s->parts[i]->name, .is_candidate = s->parts[i]->is_candidate};
    return hb_decide_columns(named, s->count, s->options->vs, rule->column, &rule->columns);
}

static hb_status decide_rule(config_state *s, hb_decide_rule *rule)
{
    const hb_run_options *o = s->options;
    *rule = (hb_decide_rule){.alpha = 0};
    if (!o->gate || !o->decide)
        return HB_OK;
    HB_TRY(decide_columns(s, rule));
    rule->alpha = o->decide_alpha;
    rule->log_threshold = log1p(o->min_speedup); /* -1 (any speed): -INFINITY, every interval is above it */
    rule->record = &s->result->decision;
    hb_decision_record *d = rule->record;
    snprintf(d->vs, sizeof d->vs, "%s", o->vs);
    d->threshold = o->min_speedup;
    return HB_OK;
}

static hb_window_options window_options(config_state *s, hb_spot_check *spot)
{
    const hb_run_options *o = s->options;
    hb_window_options w = {
        .warmup_s = o->warmup_s,
        .time_s = o->time_s,
        .spot = spot,
        .inputs = hb_input_policy_hooks(&s->inputs),
        .pacing = {o->mode == HB_MODE_SERVER, o->gap == HB_GAP_PER_ROUND, o->mean_gap_ms * 1e-3},
        .stop = {o->target_ci, o->min_time_s < o->time_s ? o->min_time_s : o->time_s, s->bootstrap_seed},
        .keep_detail = o->raw,
        .telemetry_uuid = s->device.uuid,
        .hooks = {between_rounds, before_timed, after_window, s},
        .cross_check_fraction = s->monitor ? o->cross_check_rounds : 0, /* the monitor reads their events */
        .failure = &s->failure, /* the output scan's verdict, as the spot checks' */
    };
    return w;
}

/* --raw: <run>/raw/<index>_<M>x<N>x<K>.bin (bench/report/raw_samples.h). */
static hb_status write_raw(config_state *s, const hb_participant_samples *samples)
{
    const hb_run_options *o = s->options;
    const hb_mnk *c = &s->result->mnk;
    char path[HB_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%04zu_%ldx%ldx%ld.bin", o->raw_dir, s->index, c->m, c->n, c->k);
    const char *names[HB_MAX_PARTICIPANTS];
    for (size_t i = 0; i < s->count; i++)
        names[i] = s->parts[i]->name;
    hb_raw_meta meta = {
        .m = c->m,
        .n = c->n,
        .k = c->k,
        .mode = hb_mode_name(o->mode),
        .gap = hb_gap_name(o->mode, o->gap),
        .mean_gap_ms = o->mode == HB_MODE_SERVER ? o->mean_gap_ms : 0,
        .l2_policy = hb_l2_policy_name(o->l2),
        .timer_note = "event_us: CUDA events; wall_us: host clock around launch and sync",
        .seed = (unsigned long long)hb_config_seed(o->seed, s->index),
    };
    return hb_raw_samples_write(path, &meta, names, samples, s->count);
}

static hb_status measure(config_state *s, hb_participant_samples *samples)
{
    hb_spot_check spot = {s->options->spot_checks, spot_after, s, 0};
    hb_decide_rule decide;
    HB_TRY(decide_rule(s, &decide));
    HB_TRY(hb_input_policy_init(&s->inputs, s->options->l2, s->device.l2_bytes, &s->problem, hb_rng_next(&s->rng),
                                s->timer.stream));
    hb_window_options windows = window_options(s, &spot);
    windows.decide = decide;
    hb_status status = hb_measure_windows(s->parts, s->problem.ios, s->count, &s->timer, &s->rng, &windows,
                                          &s->progress, samples, &s->result->window, &s->result->telemetry);
    hb_input_policy_free(&s->inputs);
    /* the windows' own lengths; what ran around them (the L2 policy's set-up) is left to the cost's "other" */
    hb_item_cost *cost = &s->result->cost;
    hb_item_cost_add(cost, HB_COST_WARMUP, s->result->window.warmup_s);
    hb_item_cost_add(cost, HB_COST_TIMED, s->result->window.timed_s);
    hb_item_cost_add(cost, HB_COST_OUTPUT_SCAN, s->result->window.output_scan_s);
    s->lap = hb_now_s();
    s->result->spot_checks = spot.done;
    if (status == HB_OK && s->options->raw && s->options->raw_dir)
        status = write_raw(s, samples);
    return status;
}

static hb_battery_options battery_options(const hb_run_options *o)
{
    hb_battery_options b = {
        .exact_reps = o->exact_reps,
        .exact_time_s = o->exact_time_s,
        .deviation_reps = o->deviation_reps,
        .rule = o->deviation_rule,
        .acc = o->acc,
    };
    return b;
}

/* --- the headline (bench/result/headline.h) ------------------------------------------------ */

/* Every participant's timed rounds and the call monitor's figures of them. */
static hb_status headline_participants(config_state *s, const hb_participant_samples *samples,
                                       hb_headline_participant *out)
{
    const size_t rounds = samples[CANDIDATE].event_ms.len;
    for (size_t i = 0; i < s->count; i++) {
        hb_watched *w = s->monitor ? hb_monitor_watched(s->monitor, i) : NULL;
        if (w && rounds > 0 && w->timed_span_us.len < rounds) /* NaN where the monitor saw no kernel */
            HB_TRY(hb_sample_vec_set(&w->timed_span_us, rounds - 1, NAN));
        out[i] = (hb_headline_participant){
            .name = s->parts[i]->name,
            .is_candidate = s->parts[i]->is_candidate,
            .samples = &samples[i],
            .kernel_us = w ? w->timed_span_us.data : NULL,
            .device_diff_us = w ? w->device_diff_us.data : NULL,
            .n_device = w ? w->device_diff_us.len : 0,
            .other_stream_calls = w ? w->tally.other_stream_calls : 0,
        };
    }
    return HB_OK;
}

/* The summaries, the headline timer and its cross-check, the -max rows and
 * the reward's terms, from the timed window. */
static hb_status headline_figures(config_state *s, const hb_participant_samples *samples)
{
    static hb_headline_participant participants[HB_MAX_PARTICIPANTS];
    HB_TRY(headline_participants(s, samples, participants));
    hb_headline_input in = {
        .participants = participants,
        .count = s->count,
        .timed = 1,
        .checks = &s->checks,
        .options = hb_headline_options_of(s->options),
    };
    in.options.decision = &s->result->decision; /* where the window's decide criterion wrote it */
    in.options.bootstrap_seed = s->bootstrap_seed;
    return hb_headline_decide(&in, HB_HEADLINE_FIGURES, s->result);
}

/* A readied process starts its GPU work once the worker's previous process has exited (bench/driver/isolate.h). */
static hb_status wait_for_the_gpu(config_state *s)
{
    if (ready.clear_fd < 0)
        return HB_OK;
    const int cleared = hb_ready_child_wait_clear(ready.clear_fd);
    ready.clear_fd = -1;
    lap(s, HB_COST_RESULT); /* the last item's exit, waited for here rather than by the worker */
    return cleared ? HB_OK : hb_fail(HB_ERR_INTERNAL, "the harness ended before this configuration's GPU work began");
}

static hb_status check_and_measure(config_state *s, hb_participant_samples *samples)
{
    hb_config_result *r = s->result;
    const hb_battery_options battery = battery_options(s->options);
    HB_TRY(wait_for_the_gpu(s));
    hb_heartbeat_phase(HB_PHASE_CANDIDATE); /* a silence from here on is the candidate's (bench/driver/child_verdict.h) */
    hb_status status = hb_battery_before_timing(s->parts, s->count, CANDIDATE, &s->problem, &battery, &s->rng,
                                                s->timer.stream, &r->battery, &s->check, &s->failure);
    if (r->battery.deviation_ran) { /* the figures go into the results, pass or fail */
        r->checked = 1;
        r->deviation_bound = s->check.figures.paper_bound;
        for (size_t i = 0; i < s->count; i++) {
            r->participants[i].deviation = s->check.deviation[i];
            r->participants[i].excess = s->check.excess[i];
        }
    }
    HB_TRY(status);
    lap(s, HB_COST_BATTERY);
    s->last_check = s->options->check_only; /* `check` times nothing: this is its last */
    HB_TRY(verify_timers(s, "after the checks before timing"));
    lap(s, HB_COST_CODE_CHECK);
    if (s->options->check_only)
        return HB_OK;
    status = measure(s, samples);
    if (status == HB_OK)
        status = hb_battery_after_timing(s->parts, s->count, &s->problem, &battery, &s->rng, s->timer.stream,
                                         &r->battery, &s->failure);
    s->last_check = 1;
    if (status == HB_OK)
        status = verify_timers(s, "after the checks after timing");
    if (status == HB_OK && s->monitor)
        status = hb_monitor_checkpoint(s->monitor); /* the timed calls' kernel spans, for the headline */
    if (status == HB_OK)
        status = headline_figures(s, samples);
    if (status == HB_OK)
        status = cross_check_timed(s);
    if (status == HB_OK) /* the baselines held to their clean process (bench/driver/reference_hold.h) */
        status = hb_hold_baselines(s->reference, r, s->monitor ? hb_monitor_watched(s->monitor, 0) : NULL, s->count,
                                   &s->failure);
    lap(s, HB_COST_CHECKS_AFTER);
    return status;
}

static hb_status load_candidate(config_state *s)
{
    hb_config_result *r = s->result;
    char manifest_path[HB_PATH_MAX];
    HB_TRY(hb_candidate_manifest_path(s->options->candidate_path, r->mnk.m, r->mnk.n, r->mnk.k, manifest_path));
    snprintf(r->manifest_path, sizeof r->manifest_path, "%s", manifest_path);
    static hb_manifest manifest;
    HB_TRY(hb_manifest_load(manifest_path, &manifest));
    if (manifest.kind == HB_CANDIDATE_LAUNCHER && s->replay_folder) {
        r->replay.form = HB_FORM_REPLAY; /* its recorded launches, no host code of its own (bench/driver/replay_pass.h) */
        HB_TRY(hb_replay_participant_create(&manifest, s->replay_folder, &s->limits, s->options->acc, r->mnk.m,
                                            r->mnk.n, r->mnk.k, &s->candidate));
        /* its cubins are all it can keep state in: audited as a cubin's, before any launch */
        return hb_check_replay_module_state(s->replay_folder, &r->module_state, &s->failure);
    }
    if (manifest.kind == HB_CANDIDATE_LAUNCHER) {
        r->replay.form = HB_FORM_LAUNCHER;
        HB_TRY(hb_thread_watch_begin(&s->threads)); /* the threads before its library loads are the harness's */
        /* Its module state is not audited (r->module_state stays unscanned):
         * host code can keep anything anywhere, so a launcher is held to the
         * changing inputs and the poisoning alone (docs/launchers.md). */
        return hb_launcher_participant_create(&manifest, &s->limits, s->options->acc, r->mnk.m, r->mnk.n, r->mnk.k,
                                              &s->candidate);
    }
    r->replay.form = HB_FORM_CUBIN;
    HB_TRY(hb_candidate_participant_create(&manifest, &s->limits, s->options->acc, r->mnk.m, r->mnk.n, r->mnk.k,
                                           &s->candidate));
    return hb_check_module_state(&manifest, s->limits.sm, &r->module_state, &s->failure); /* before any launch */
}

/* What every baseline of this configuration is created with. */
static hb_baseline_context baseline_context(config_state *s)
{
    return hb_baseline_context_of(s->options, &s->result->mnk, &s->device, &s->search_rng, s->timer.stream);
}

/* Every row of the baseline registry, in its order (a cuBLASLt autotune
 * baseline may search: heartbeats inside). */
static hb_status create_baselines(config_state *s)
{
    /* The search draws from its own generator, seeded by one draw of the
     * configuration's: the inputs that follow are the same whether the
     * cache answered or a search ran. */
    hb_rng_seed(&s->search_rng, hb_rng_next(&s->rng));
    hb_baseline_context context = baseline_context(s);
    for (int i = 0; i < HB_N_BASELINES; i++) {
        HB_TRY(hb_baseline_create(&hb_baselines[i], &context, &s->baselines[i]));
        if (hb_baselines[i].kind == HB_KIND_LT_AUTOTUNE) /* its cache lookup or search, within the handles' time */
            hb_item_cost_add(&s->result->cost, HB_COST_AUTOTUNE, s->baselines[i].desc.algo.setup_s);
        hb_heartbeat();
    }
    return HB_OK;
}

static int same_algorithm(const hb_algo_record *a, const hb_algo_record *b)
{
    return a->id == b->id && a->splitk == b->splitk && a->swizzle == b->swizzle && a->custom == b->custom &&
           !strcmp(a->tile, b->tile) && !strcmp(a->stages, b->stages) && !strcmp(a->reduction, b->reduction) &&
           !strcmp(a->inner, b->inner) && !strcmp(a->cluster, b->cluster);
}

/* --aa: a second instance of the named baseline (its own handle, workspace
 * and output) takes the candidate's place.  An A/A pair must run the same
 * algorithm, which a second autotune search need not pick: the copy then
 * reads the first's choice from the cache, and a mismatch is an error. */
static hb_status create_aa_candidate(config_state *s)
{
    const hb_baseline_entry *entry = hb_baseline_find(s->options->aa);
    if (!entry)
        return hb_fail(HB_ERR_USAGE, "--aa %s: not a baseline (%s)", s->options->aa, hb_baseline_name_list(0));
    hb_baseline_context context = baseline_context(s);
    HB_TRY(hb_baseline_create(entry, &context, &s->candidate));
    hb_participant *copy = &s->candidate, *original = &s->baselines[entry - hb_baselines];
    if (copy->desc.algo.known && !same_algorithm(&copy->desc.algo, &original->desc.algo))
        return hb_fail(HB_ERR_CUDA, "--aa %s: the second instance chose another algorithm than the first (no "
                       "autotune cache?); give --autotune-cache FILE so both run the same one", s->options->aa);
    snprintf(copy->name, sizeof copy->name, "aa:%s", s->options->aa);
    copy->is_candidate = 1;
    copy->bounds_deviation = 0;
    const hb_mnk *c = &s->result->mnk;
    copy->desc.padded[0] = c->m;
    copy->desc.padded[1] = c->n;
    copy->desc.padded[2] = c->k;
    return HB_OK;
}

/* The set-up no configuration decides: the seals, the call monitor, the GPU and the timed stream. */
static hb_status ready_up(config_state *s)
{
    HB_TRY(hb_entry_points_seal()); /* before any candidate code is loaded */
    lap(s, HB_COST_CODE_CHECK);
    open_monitor(s);                /* before the CUDA context */
    lap(s, HB_COST_CUPTI);
    HB_TRY(hb_device_open(s->options->device, &s->device));
    s->limits = hb_device_limits_of(&s->device);
    HB_TRY(hb_sample_timer_create(&s->timer, s->options->stream));
    lap(s, HB_COST_CONTEXT);
    if (!s->profiling) /* a profiler injects itself; the profiled calls time nothing */
        HB_TRY(timers_untouched());
    if (!s->profiling) /* libcuda, CUPTI, cuBLAS are loaded now, the candidate's library is not */
        HB_TRY(hb_code_pages_seal(&s->code));
    lap(s, HB_COST_CODE_CHECK);
    return HB_OK;
}


/* The readied part handed to the configuration: its state, its note, its cost as done ahead. */
static hb_status adopt_ready(config_state *s)
{
    s->monitor = ready.monitor;
    s->device = ready.device;
    s->limits = ready.limits;
    s->timer = ready.timer;
    s->code = ready.code;
    ready.monitor = NULL;
    ready.code = NULL;
    hb_config_result *r = s->result;
    snprintf(r->trace_note, sizeof r->trace_note, "%s", ready.scratch.trace_note);
    for (int i = 0; i < HB_COST_PART_COUNT; i++)
        r->cost.ahead_s[i] = ready.scratch.cost.part_s[i];
    if (ready.status != HB_OK)
        return hb_fail(ready.status, "%s", ready.error);
    return HB_OK;
}

static hb_status set_up(config_state *s)
{
    if (ready.done)
        HB_TRY(adopt_ready(s));
    else
        HB_TRY(ready_up(s));
    /* The sandbox: after every seal of the harness's own, before any candidate code (bench/driver/sandbox.h). */
    HB_TRY(hb_sandbox_enter(s->options, s->result->sandbox, sizeof s->result->sandbox));
    lap(s, HB_COST_SANDBOX);
    if (!s->options->aa)
        HB_TRY(load_candidate(s)); /* first: a candidate that cannot run costs no autotune search */
    lap(s, HB_COST_LIBRARY_LOAD);
    HB_TRY(create_baselines(s));
    if (s->options->aa)
        HB_TRY(create_aa_candidate(s));
    lap(s, HB_COST_HANDLES);
    s->parts[0] = &s->candidate;
    for (int i = 0; i < HB_N_BASELINES; i++)
        s->parts[1 + i] = &s->baselines[i];
    s->count = 1 + HB_N_BASELINES;
    record_participants(s->result, s->parts, s->count);
    HB_TRY(hb_problem_create(&s->result->mnk, s->count, hb_rng_next(&s->rng), s->timer.stream, &s->problem));
    lap(s, HB_COST_PROBLEM);
    if (!s->profiling)
        HB_TRY(verify_timers(s, "once the candidate's library was loaded")); /* its constructors have run */
    lap(s, HB_COST_CODE_CHECK);
    HB_TRY(s->monitor ? hb_monitor_attach(s->monitor, s->parts, s->count, s->timer.stream) : HB_OK);
    lap(s, HB_COST_PROBLEM);
    return HB_OK;
}

static void tear_down(config_state *s)
{
    hb_problem_free(&s->problem);
    if (s->candidate.ops)
        s->candidate.ops->destroy(&s->candidate);
    for (int i = 0; i < HB_N_BASELINES; i++)
        if (s->baselines[i].ops)
            s->baselines[i].ops->destroy(&s->baselines[i]);
    hb_sample_timer_destroy(&s->timer);
    hb_monitor_close(s->monitor); /* after the participants: their watcher points into it */
    s->monitor = NULL;
    hb_thread_watch_free(&s->threads);
    s->result->code_pages = hb_code_pages_cost_of(s->code);
    hb_code_pages_free(s->code);
    s->code = NULL;
}

/* How the evaluation ended, after the calls were judged and the GPU work
 * torn down (an error's reason is the last message then), into the list:
 * the headline's verdict (bench/result/headline.h). */
static void record_verdict(config_state *s, hb_status status)
{
    if (status != HB_OK && !hb_check_list_failure(&s->checks)) /* not a check the headline recorded already */
        hb_check_list_add_ending(&s->checks, status, s->failure.check, s->failure.reason, hb_last_error());
    const hb_headline_input verdict = {.checks = &s->checks};
    hb_headline_decide(&verdict, HB_HEADLINE_VERDICT, s->result);
}

/* The one configuration a process evaluates (or traces): its state, zeroed,
 * with its result initialised and its generator seeded. */
static config_state *begin_config(const hb_run_options *options, const char *run_path, size_t index,
                                  hb_config_result *out)
{
    static config_state state;
    config_state *s = &state;
    memset(s, 0, sizeof *s);
    s->options = options;
    s->run_path = run_path;
    s->index = index;
    s->result = out;
    hb_config_result_init(out, &options->configs[index]);
    hb_rng_seed(&s->rng, hb_config_seed(options->seed, index));
    return s;
}

hb_status hb_evaluate_config(const hb_run_options *options, const char *run_path, size_t index,
                             const hb_held_reference *reference, const char *replay_folder, hb_config_result *out)
{
    config_state *s = begin_config(options, run_path, index, out);
    s->reference = reference;
    s->replay_folder = replay_folder && replay_folder[0] ? replay_folder : NULL;
    s->bootstrap_seed = hb_bootstrap_seed(hb_config_seed(options->seed, index));
    hb_progress_init(&s->progress, options->progress);
    hb_progress_set_label(&s->progress, index, options->n_configs, out->mnk.m, out->mnk.n, out->mnk.k);
    const double start = hb_now_s();
    s->lap = start;
    static hb_participant_samples samples[HB_MAX_PARTICIPANTS];
    memset(samples, 0, sizeof samples);
    hb_status status = set_up(s);
    if (status == HB_OK)
        status = check_and_measure(s, samples);
    s->lap = hb_now_s(); /* a part that failed midway leaves its time to the cost's "other" */
    finish_watch(s, samples, status == HB_OK ? out->rounds : 0);
    if (out->conduct.traced && s->threads.line[0]) /* a finding beside the call monitor's (bench/core/thread_watch.h) */
        hb_conduct_add(&out->conduct, HB_FINDING_THREAD, "thread: %s", s->threads.line);
    for (size_t i = 0; i < HB_MAX_PARTICIPANTS; i++)
        hb_participant_samples_free(&samples[i]);
    tear_down(s);
    lap(s, HB_COST_TEARDOWN);
    out->seconds = hb_now_s() - start;
    record_verdict(s, status); /* no speedup figure for a candidate that failed any check */
    return status;
}

hb_status hb_profile_config_calls(const hb_run_options *options, size_t index, const char *names,
                                  hb_config_result *out)
{
    config_state *s = begin_config(options, NULL, index, out);
    s->profiling = 1;
    const double start = hb_now_s();
    hb_status status = set_up(s);
    if (status == HB_OK)
        status = hb_profile_calls(s->parts, s->problem.ios, s->count, names, s->timer.stream);
    tear_down(s);
    out->seconds = hb_now_s() - start;
    record_verdict(s, status);
    return status;
}

void hb_evaluation_ready(const hb_run_options *options)
{
    config_state *s = begin_config(options, NULL, 0, &ready.scratch);
    s->lap = hb_now_s();
    ready.status = ready_up(s);
    if (ready.status != HB_OK)
        snprintf(ready.error, sizeof ready.error, "%s", hb_last_error());
    ready.monitor = s->monitor;
    ready.device = s->device;
    ready.limits = s->limits;
    ready.timer = s->timer;
    ready.code = s->code;
    ready.done = 1;
}

void hb_evaluation_clear_fd(int job_fd)
{
    ready.clear_fd = job_fd;
}
