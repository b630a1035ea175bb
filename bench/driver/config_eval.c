#include "bench/driver/config_eval.h"

#include <stdio.h>
#include <string.h>

#include "baselines/baseline_factory.h"
#include "bench/candidate/candidate_set.h"
#include "bench/candidate/cubin_candidate.h"
#include "bench/candidate/launcher_candidate.h"
#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/heartbeat.h"
#include "bench/driver/isolate.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/device.h"
#include "bench/measure/input_policy.h"
#include "bench/report/raw_samples.h"
#include "bench/trace/tracer.h"
#include "bench/result/max_rows.h"
#include "verify/battery.h"
#include "verify/checked_call.h"
#include "verify/deviation_check.h"
#include "verify/module_state_check.h"
#include "verify/problem.h"

#define CANDIDATE 0 /* the candidate is participant 0 */

typedef struct config_state {
    const hb_run_options *options;
    size_t index;
    hb_device_limits limits;
    hb_device_info device;
    hb_sample_timer timer;
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
    hb_check_failure failure;
    hb_config_result *result;
} config_state;

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

static hb_status summarize(hb_config_result *r, hb_participant_samples *samples, uint64_t bootstrap_seed)
{
    const hb_participant_samples *cand = &samples[CANDIDATE];
    r->rounds = cand->event_ms.len;
    for (size_t i = 0; i < r->count; i++) {
        hb_participant_result *p = &r->participants[i];
        HB_TRY(hb_summarize_times(samples[i].event_ms.data, samples[i].event_ms.len, &p->event_ms));
        HB_TRY(hb_summarize_times(samples[i].wall_ms.data, samples[i].wall_ms.len, &p->wall_ms));
        if (p->is_candidate)
            continue;
        HB_TRY(hb_summarize_speedup(samples[i].event_ms.data, cand->event_ms.data, r->rounds, bootstrap_seed + i,
                                    &p->speedup_event));
        HB_TRY(hb_summarize_speedup(samples[i].wall_ms.data, cand->wall_ms.data, r->rounds, bootstrap_seed + i,
                                    &p->speedup_wall));
    }
    r->measured = 1;
    hb_add_max_rows(r);
    return HB_OK;
}

/* --target-ci: the widest half-width of the baselines' summaries.  When the
 * criterion ended the window, it decided on these very values (same rounds,
 * same seeds, same computation); a difference is a harness bug. */
static void record_final_halfwidth(hb_config_result *r)
{
    double widest = 0;
    for (size_t i = 0; i < r->count; i++)
        if (!r->participants[i].is_candidate && r->participants[i].speedup_event.ci95_halfwidth > widest)
            widest = r->participants[i].speedup_event.ci95_halfwidth;
    hb_window_report *w = &r->window;
    w->final_halfwidth = widest;
    if (!strcmp(w->stopped_by, "target-ci") && w->decision_halfwidth != widest)
        hb_warn("--target-ci decided on a widest CI half-width of %.9g, the summary reports %.9g: a harness bug, "
                "please report it with this run's env.json", w->decision_halfwidth, widest);
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

/* --trace-timed: CUPTI's kernel activity on through both windows, to
 * measure what it costs the event times (docs/results.md); the records are
 * counted and dropped.  Off by default: the trace pass runs apart. */
static hb_status open_timed_tracer(const config_state *s, hb_tracer **tracer)
{
    *tracer = NULL;
    return s->options->trace_timed ? hb_tracer_open_kernels_only(tracer) : HB_OK;
}

static void close_timed_tracer(hb_tracer *tracer)
{
    if (!tracer)
        return;
    fprintf(stderr, "hgemm-bench: --trace-timed: CUPTI saw %llu kernel records during the windows\n",
            hb_tracer_records_seen(tracer));
    hb_tracer_close(tracer);
}

static hb_status measure(config_state *s, hb_participant_samples *samples)
{
    hb_spot_check spot = {s->options->spot_checks, spot_after, s, 0};
    HB_TRY(hb_input_policy_init(&s->inputs, s->options->l2, s->device.l2_bytes, &s->problem, hb_rng_next(&s->rng),
                                s->timer.stream));
    hb_window_options windows = window_options(s, &spot);
    hb_tracer *tracer;
    hb_status status = open_timed_tracer(s, &tracer);
    if (status == HB_OK)
        status = hb_measure_windows(s->parts, s->problem.ios, s->count, &s->timer, &s->rng, &windows, &s->progress,
                                    samples, &s->result->window, &s->result->telemetry);
    close_timed_tracer(tracer);
    hb_input_policy_free(&s->inputs);
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

static hb_status check_and_measure(config_state *s)
{
    hb_config_result *r = s->result;
    const hb_battery_options battery = battery_options(s->options);
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
    if (s->options->check_only)
        return HB_OK;
    static hb_participant_samples samples[HB_MAX_PARTICIPANTS];
    memset(samples, 0, sizeof samples);
    status = measure(s, samples);
    if (status == HB_OK)
        status = hb_battery_after_timing(s->parts, s->count, &s->problem, &battery, &s->rng, s->timer.stream,
                                         &r->battery, &s->failure);
    if (status == HB_OK)
        status = summarize(r, samples, s->bootstrap_seed);
    if (status == HB_OK && s->options->target_ci > 0)
        record_final_halfwidth(r);
    for (size_t i = 0; i < s->count; i++)
        hb_participant_samples_free(&samples[i]);
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
    if (manifest.kind == HB_CANDIDATE_LAUNCHER)
        /* Its module state is not audited (r->module_state stays unscanned):
         * host code can keep anything anywhere, so a launcher is held to the
         * changing inputs and the poisoning alone (docs/launchers.md). */
        return hb_launcher_participant_create(&manifest, &s->limits, s->options->acc, r->mnk.m, r->mnk.n, r->mnk.k,
                                              &s->candidate);
    HB_TRY(hb_candidate_participant_create(&manifest, &s->limits, s->options->acc, r->mnk.m, r->mnk.n, r->mnk.k,
                                           &s->candidate));
    return hb_check_module_state(&manifest, s->limits.sm, &r->module_state, &s->failure); /* before any launch */
}

/* What every baseline of this configuration is created with. */
static hb_baseline_context baseline_context(config_state *s)
{
    const hb_run_options *o = s->options;
    const hb_mnk *c = &s->result->mnk;
    hb_baseline_context context = {
        .acc = o->acc,
        .m = c->m,
        .n = c->n,
        .k = c->k,
        .workspace_bytes = o->workspace_bytes,
        .device = &s->device,
        .autotune_cache = o->autotune_cache,
        .retune = o->retune,
        .autotune_search = o->autotune_search,
        .search_rng = &s->search_rng,
        .stream = s->timer.stream,
    };
    return context;
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

static hb_status set_up(config_state *s)
{
    HB_TRY(hb_device_open(s->options->device, &s->device));
    s->limits = hb_device_limits_of(&s->device);
    HB_TRY(hb_sample_timer_create(&s->timer, s->options->stream));
    if (!s->options->aa)
        HB_TRY(load_candidate(s)); /* first: a candidate that cannot run costs no autotune search */
    HB_TRY(create_baselines(s));
    if (s->options->aa)
        HB_TRY(create_aa_candidate(s));
    s->parts[0] = &s->candidate;
    for (int i = 0; i < HB_N_BASELINES; i++)
        s->parts[1 + i] = &s->baselines[i];
    s->count = 1 + HB_N_BASELINES;
    record_participants(s->result, s->parts, s->count);
    return hb_problem_create(&s->result->mnk, s->count, hb_rng_next(&s->rng), s->timer.stream, &s->problem);
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
}

/* The failed check's name and reason; a fault without one is an execution error. */
static void record_failure(hb_config_result *r, hb_status status, const hb_check_failure *failure)
{
    r->status = status;
    r->verdict = hb_verdict_of_status(status);
    if (status == HB_OK)
        return;
    if (failure->check[0]) {
        snprintf(r->check, sizeof r->check, "%s", failure->check);
        snprintf(r->reason, sizeof r->reason, "%s", failure->reason);
        return;
    }
    if (status == HB_ERR_CANDIDATE_FAULT)
        snprintf(r->check, sizeof r->check, "%s", HB_CHECK_EXECUTION);
    snprintf(r->reason, sizeof r->reason, "%s", hb_last_error());
}

/* The one configuration a process evaluates (or traces): its state, zeroed,
 * with its result initialised and its generator seeded. */
static config_state *begin_config(const hb_run_options *options, size_t index, hb_config_result *out)
{
    static config_state state;
    config_state *s = &state;
    memset(s, 0, sizeof *s);
    s->options = options;
    s->index = index;
    s->result = out;
    hb_config_result_init(out, &options->configs[index]);
    hb_rng_seed(&s->rng, hb_config_seed(options->seed, index));
    return s;
}

hb_status hb_with_config_participants(const hb_run_options *options, size_t index, hb_config_result *out,
                                      hb_config_work work, void *context)
{
    config_state *s = begin_config(options, index, out);
    hb_status status = set_up(s);
    if (status == HB_OK)
        status = work(context, s->parts, s->count, &s->problem, s->timer.stream, out);
    tear_down(s);
    return status;
}

hb_status hb_evaluate_config(const hb_run_options *options, size_t index, hb_config_result *out)
{
    config_state *s = begin_config(options, index, out);
    s->bootstrap_seed = hb_bootstrap_seed(hb_config_seed(options->seed, index));
    hb_progress_init(&s->progress, options->progress);
    hb_progress_set_label(&s->progress, index, options->n_configs, out->mnk.m, out->mnk.n, out->mnk.k);
    const double start = hb_now_s();
    hb_status status = set_up(s);
    if (status == HB_OK)
        status = check_and_measure(s);
    tear_down(s);
    out->seconds = hb_now_s() - start;
    if (status != HB_OK)
        out->measured = 0; /* no speedup figure for a candidate that failed any check */
    record_failure(out, status, &s->failure);
    return status;
}
