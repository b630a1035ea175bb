#include "bench/driver/reference_eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines/baseline_factory.h"
#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/heartbeat.h"
#include "bench/driver/baseline_context.h"
#include "bench/driver/config_eval.h"
#include "bench/driver/sandbox.h"
#include "bench/gpu/device.h"
#include "bench/gpu/entry_points.h"
#include "bench/measure/input_policy.h"
#include "bench/measure/sample_timer.h"
#include "bench/measure/windows.h"
#include "bench/trace/call_monitor.h"
#include "verify/problem.h"

typedef struct reference_state {
    const hb_run_options *options;
    const hb_mnk *mnk;
    hb_call_monitor *monitor; /* NULL: --no-trace, or CUPTI refused (the figures then say untraced) */
    hb_device_info device;
    hb_sample_timer timer;
    hb_participant baselines[HB_N_BASELINES];
    hb_participant *parts[HB_N_BASELINES];
    size_t count;
    hb_problem problem;
    hb_rng rng, search_rng;
    hb_input_policy inputs;
} reference_state;

/* As the candidate's process opens it (bench/driver/config_eval.c): every
 * part, or those HB_MONITOR_PARTS names, before the CUDA context. */
static void open_monitor(reference_state *s)
{
    if (!s->options->trace)
        return;
    unsigned parts = HB_MONITOR_ALL;
    const char *list = getenv(HB_MONITOR_PARTS_ENV);
    char bad[64];
    if (list && !hb_monitor_parts(list, &parts, bad, sizeof bad))
        return;
    if (hb_monitor_open(s->options->trace_calls, parts, &s->monitor) != HB_OK)
        s->monitor = NULL; /* the same refusal reaches the candidate's process, whose trace_note says it */
}

/* The search draws from a generator seeded by the configuration's first
 * draw, as in the candidate's process: the same inputs and orders. */
static hb_status create_baselines(reference_state *s)
{
    const hb_run_options *o = s->options;
    hb_rng_seed(&s->search_rng, hb_rng_next(&s->rng));
    hb_baseline_context context = hb_baseline_context_of(o, s->mnk, &s->device, &s->search_rng, s->timer.stream);
    for (int i = 0; i < HB_N_BASELINES; i++) {
        HB_TRY(hb_baseline_create(&hb_baselines[i], &context, &s->baselines[i]));
        s->parts[i] = &s->baselines[i];
        s->count = (size_t)i + 1;
        hb_heartbeat();
    }
    return HB_OK;
}

static hb_status set_up(reference_state *s)
{
    HB_TRY(hb_entry_points_seal()); /* the baselines call through the sealed table, as in the candidate's process */
    open_monitor(s);
    HB_TRY(hb_device_open(s->options->device, &s->device));
    HB_TRY(hb_sample_timer_create(&s->timer, s->options->stream));
    /* As in the candidate's process: under the sandbox a system call costs more (bench/driver/sandbox.h). */
    char sandbox[HB_CHILD_NOTE_SANDBOX];
    HB_TRY(hb_sandbox_enter(s->options, sandbox, sizeof sandbox));
    HB_TRY(create_baselines(s));
    HB_TRY(hb_problem_create(s->mnk, s->count, hb_rng_next(&s->rng), s->timer.stream, &s->problem));
    return s->monitor ? hb_monitor_attach(s->monitor, s->parts, s->count, s->timer.stream) : HB_OK;
}

static void tear_down(reference_state *s)
{
    hb_problem_free(&s->problem);
    for (size_t i = 0; i < s->count; i++)
        if (s->baselines[i].ops)
            s->baselines[i].ops->destroy(&s->baselines[i]);
    hb_sample_timer_destroy(&s->timer);
    hb_monitor_close(s->monitor); /* after the participants: their watcher points into it */
    s->monitor = NULL;
}

/* The monitor's work between rounds and windows, as in the candidate's process. */
static hb_status between_rounds(void *context)
{
    reference_state *s = context;
    return s->monitor && hb_monitor_due(s->monitor) ? hb_monitor_checkpoint(s->monitor) : HB_OK;
}

static hb_status before_timed(void *context)
{
    reference_state *s = context;
    return s->monitor ? hb_monitor_event_timestamps(s->monitor, 0) : HB_OK;
}

static hb_status after_window(void *context)
{
    reference_state *s = context;
    return s->monitor ? hb_monitor_checkpoint(s->monitor) : HB_OK;
}

/* The run's pacing and L2 policy over the reference's windows; no spot
 * check (untimed, it reads outputs only), no stopping rule but the time. */
static hb_status window(reference_state *s, hb_participant_samples *samples, hb_window_report *report)
{
    const hb_run_options *o = s->options;
    HB_TRY(hb_input_policy_init(&s->inputs, o->l2, s->device.l2_bytes, &s->problem, hb_rng_next(&s->rng),
                                s->timer.stream));
    hb_window_options w = {
        .warmup_s = o->reference_warmup_s,
        .time_s = o->reference_time_s,
        .inputs = hb_input_policy_hooks(&s->inputs),
        .pacing = {o->mode == HB_MODE_SERVER, o->gap == HB_GAP_PER_ROUND, o->mean_gap_ms * 1e-3},
        .stop = {0, o->reference_time_s, 0},
        .hooks = {between_rounds, before_timed, after_window, s},
    };
    hb_progress quiet;
    hb_progress_init(&quiet, 0);
    hb_telemetry_summary telemetry;
    hb_status status = hb_measure_windows(s->parts, s->problem.ios, s->count, &s->timer, &s->rng, &w, &quiet,
                                          samples, report, &telemetry);
    hb_input_policy_free(&s->inputs);
    return status;
}

/* Each baseline's figures from its samples and what the monitor kept of it. */
static hb_status figures(reference_state *s, const hb_participant_samples *samples, size_t rounds,
                         hb_baseline_reference *out)
{
    if (s->monitor)
        HB_TRY(hb_monitor_checkpoint(s->monitor));
    out->count = s->count;
    out->rounds = rounds;
    for (size_t i = 0; i < s->count; i++) {
        static hb_participant_result p; /* large: off the stack */
        memset(&p, 0, sizeof p);
        snprintf(p.name, sizeof p.name, "%s", s->parts[i]->name);
        p.desc = s->parts[i]->desc;
        HB_TRY(hb_summarize_times(samples[i].event_ms.data, samples[i].event_ms.len, &p.event_ms));
        HB_TRY(hb_summarize_times(samples[i].wall_ms.data, samples[i].wall_ms.len, &p.wall_ms));
        hb_baseline_figures_of(&p, s->monitor ? hb_monitor_watched(s->monitor, i) : NULL, rounds, &out->baseline[i]);
    }
    return HB_OK;
}

hb_status hb_measure_baseline_reference(const hb_run_options *options, size_t index, hb_baseline_reference *out)
{
    static reference_state state;
    reference_state *s = &state;
    memset(s, 0, sizeof *s);
    memset(out, 0, sizeof *out);
    s->options = options;
    s->mnk = &options->configs[index];
    hb_rng_seed(&s->rng, hb_config_seed(options->seed, index));
    const double start = hb_now_s();
    static hb_participant_samples samples[HB_N_BASELINES];
    memset(samples, 0, sizeof samples);
    static hb_window_report report;
    hb_status status = set_up(s);
    if (status == HB_OK)
        status = window(s, samples, &report);
    if (status == HB_OK)
        status = figures(s, samples, report.timed_rounds, out);
    for (size_t i = 0; i < HB_N_BASELINES; i++)
        hb_participant_samples_free(&samples[i]);
    tear_down(s);
    out->warmup_s = options->reference_warmup_s;
    out->time_s = options->reference_time_s;
    out->seconds = hb_now_s() - start;
    hb_utc_now(out->created, sizeof out->created);
    return status;
}
