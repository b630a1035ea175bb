#include "config_eval.h"

#include <stdio.h>
#include <string.h>

#include "../baselines/cublas_baselines.h"
#include "../baselines/cublaslt_baselines.h"
#include "../verify/checked_call.h"
#include "candidate_participant.h"
#include "candidate_set.h"
#include "clock.h"
#include "cuda_check.h"
#include "device_info.h"
#include "isolate.h"
#include "max_rows.h"
#include "problem.h"

#define N_CUBLAS_BASELINES 3
#define N_LT_BASELINES 4
#define N_BASELINES (N_CUBLAS_BASELINES + N_LT_BASELINES)
#define CANDIDATE 0 /* the candidate is participant 0 */

typedef struct config_state {
    const hb_run_options *options;
    hb_device_limits limits;
    hb_device_info device;
    hb_sample_timer timer;
    hb_participant candidate;
    hb_participant baselines[N_BASELINES];
    hb_participant *parts[1 + N_BASELINES];
    size_t count;
    hb_problem problem;
    hb_rng rng;
    hb_progress progress;
    hb_check_result check;  /* deviation check of the timing inputs: the spot checks' bound */
    hb_check_failure failure;
    hb_config_result *result;
} config_state;

uint64_t hb_config_seed(uint64_t run_seed, size_t index)
{
    hb_rng rng;
    hb_rng_seed(&rng, run_seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(index + 1)));
    return hb_rng_next(&rng);
}

void hb_config_result_init(hb_config_result *r, const hb_mnk *mnk)
{
    memset(r, 0, sizeof *r);
    r->mnk = *mnk;
    r->count = 1; /* a row for the candidate, carrying the verdict */
    snprintf(r->participants[0].name, sizeof r->participants[0].name, "candidate");
    r->participants[0].is_candidate = 1;
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

static hb_status summarize(hb_config_result *r, hb_participant_samples *samples)
{
    const hb_participant_samples *cand = &samples[CANDIDATE];
    r->rounds = cand->event_ms.len;
    for (size_t i = 0; i < r->count; i++) {
        hb_participant_result *p = &r->participants[i];
        HB_TRY(hb_summarize_times(samples[i].event_ms.data, samples[i].event_ms.len, &p->event_ms));
        HB_TRY(hb_summarize_times(samples[i].wall_ms.data, samples[i].wall_ms.len, &p->wall_ms));
        if (p->is_candidate)
            continue;
        HB_TRY(hb_summarize_speedup(samples[i].event_ms.data, cand->event_ms.data, r->rounds, &p->speedup_event));
        HB_TRY(hb_summarize_speedup(samples[i].wall_ms.data, cand->wall_ms.data, r->rounds, &p->speedup_wall));
    }
    r->measured = 1;
    hb_add_max_rows(r);
    return HB_OK;
}

/* Spot check, before a chosen timed round: NaN-fill the candidate's output. */
static hb_status spot_before(void *context)
{
    config_state *s = context;
    HB_TRY(s->candidate.ops->poison(&s->candidate, &s->problem.ios[CANDIDATE], s->timer.stream));
    HB_CUDA_TRY(cudaStreamSynchronize(s->timer.stream));
    return HB_OK;
}

/* After it: guards, then the output against the reference and bound of these inputs. */
static hb_status spot_after(void *context)
{
    config_state *s = context;
    const hb_gemm_io *io = &s->problem.ios[CANDIDATE];
    HB_TRY(hb_check_guards(s->timer.stream, &s->failure));
    HB_TRY(s->candidate.ops->collect(&s->candidate, io, s->timer.stream));
    hb_deviation d;
    return hb_check_against_bound(&s->candidate, io, s->problem.reference, s->check.bound, HB_CHECK_SPOT,
                                  s->timer.stream, &s->failure, &d);
}

static hb_status measure(config_state *s, hb_participant_samples *samples)
{
    hb_spot_check spot = {s->options->spot_checks, spot_before, spot_after, s, 0};
    hb_window_options windows = {s->options->warmup_s, s->options->time_s, &spot};
    hb_status status = hb_measure_windows(s->parts, s->problem.ios, s->count, &s->timer, &s->rng, &windows,
                                          &s->progress, samples);
    s->result->spot_checks = spot.done;
    return status;
}

static hb_status check_and_measure(config_state *s)
{
    hb_config_result *r = s->result;
    hb_battery_options battery = {s->options->exact_reps, s->options->exact_time_s};
    hb_status status = hb_battery_before_timing(s->parts, s->count, CANDIDATE, &s->problem, &battery, &s->rng,
                                                s->timer.stream, &r->battery, &s->check, &s->failure);
    if (r->battery.deviation_ran) { /* both figures go into the results, pass or fail */
        r->checked = 1;
        r->deviation_bound = s->check.bound;
        for (size_t i = 0; i < s->count; i++)
            r->participants[i].deviation = s->check.deviation[i];
    }
    HB_TRY(status);
    if (s->options->check_only)
        return HB_OK;
    static hb_participant_samples samples[HB_MAX_PARTICIPANTS];
    memset(samples, 0, sizeof samples);
    status = measure(s, samples);
    if (status == HB_OK)
        status = hb_battery_after_timing(s->parts, s->count, CANDIDATE, &s->problem, &s->rng, s->timer.stream,
                                         &r->battery, &s->failure);
    if (status == HB_OK)
        status = summarize(r, samples);
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
    return hb_candidate_participant_create(&manifest, &s->limits, s->options->acc, r->mnk.m, r->mnk.n, r->mnk.k,
                                           &s->candidate);
}

static hb_status create_cublas_baselines(config_state *s)
{
    static const hb_cublas_variant variants[N_CUBLAS_BASELINES] = {HB_TORCH, HB_CUBLAS_NN, HB_CUBLAS_TN};
    for (int i = 0; i < N_CUBLAS_BASELINES; i++)
        HB_TRY(hb_cublas_baseline_create(variants[i], s->options->acc, s->device.sm, s->options->workspace_bytes,
                                         s->timer.stream, &s->baselines[i]));
    return HB_OK;
}

/* Heuristic NN/TN, then autotune NN/TN (each may search: heartbeats inside). */
static hb_status create_lt_baselines(config_state *s)
{
    const hb_run_options *o = s->options;
    const hb_mnk *c = &s->result->mnk;
    /* The search draws from its own generator, seeded by one draw of the
     * configuration's: the inputs that follow are the same whether the
     * cache answered or a search ran. */
    hb_rng search_rng;
    hb_rng_seed(&search_rng, hb_rng_next(&s->rng));
    hb_lt_tuning tuning = {&s->device, o->autotune_cache, o->retune, o->autotune_search, &search_rng};
    for (int i = 0; i < N_LT_BASELINES; i++) {
        hb_lt_baseline_spec spec = {i < 2 ? HB_LT_HEURISTIC : HB_LT_AUTOTUNE, i % 2 ? HB_B_COL : HB_B_ROW, o->acc,
                                    c->m, c->n, c->k, o->workspace_bytes};
        HB_TRY(hb_cublaslt_baseline_create(&spec, &tuning, s->timer.stream, &s->baselines[N_CUBLAS_BASELINES + i]));
        hb_heartbeat();
    }
    return HB_OK;
}

static hb_status set_up(config_state *s)
{
    HB_TRY(hb_device_open(s->options->device, &s->device));
    s->limits = hb_device_limits_of(&s->device);
    HB_TRY(hb_sample_timer_create(&s->timer));
    HB_TRY(create_cublas_baselines(s));
    hb_heartbeat();
    HB_TRY(load_candidate(s)); /* before the cuBLASLt set-up: a candidate that cannot run costs no search */
    HB_TRY(create_lt_baselines(s));
    s->parts[0] = &s->candidate;
    for (int i = 0; i < N_BASELINES; i++)
        s->parts[1 + i] = &s->baselines[i];
    s->count = 1 + N_BASELINES;
    record_participants(s->result, s->parts, s->count);
    return hb_problem_create(&s->result->mnk, s->count, hb_rng_next(&s->rng), s->timer.stream, &s->problem);
}

static void tear_down(config_state *s)
{
    hb_problem_free(&s->problem);
    if (s->candidate.ops)
        s->candidate.ops->destroy(&s->candidate);
    for (int i = 0; i < N_BASELINES; i++)
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

hb_status hb_evaluate_config(const hb_run_options *options, size_t index, hb_config_result *out)
{
    static config_state state;
    config_state *s = &state;
    memset(s, 0, sizeof *s);
    s->options = options;
    s->result = out;
    hb_config_result_init(out, &options->configs[index]);
    hb_rng_seed(&s->rng, hb_config_seed(options->seed, index));
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
