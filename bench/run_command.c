#define _POSIX_C_SOURCE 200809L
#include "run_command.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../baselines/cublas_baselines.h"
#include "candidate_participant.h"
#include "candidate_set.h"
#include "csv_writer.h"
#include "cuda_check.h"
#include "device_info.h"
#include "env_json.h"
#include "problem.h"
#include "report_table.h"
#include "run_dir.h"

#define N_BASELINES 3

typedef struct run_state {
    hb_run_options *options;
    hb_device_info device;
    hb_device_limits limits;
    hb_sample_timer timer;
    hb_participant baselines[N_BASELINES];
    hb_rng rng;
    hb_progress progress;
    char run_id[HB_RUN_ID_MAX];
    char run_path[4096];
    FILE *summary;
} run_state;

static hb_status create_baselines(run_state *s)
{
    static const hb_cublas_variant variants[N_BASELINES] = {HB_TORCH, HB_CUBLAS_NN, HB_CUBLAS_TN};
    for (int i = 0; i < N_BASELINES; i++)
        HB_TRY(hb_cublas_baseline_create(variants[i], HB_ACC_FP32, s->device.sm, s->timer.stream, &s->baselines[i]));
    return HB_OK;
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
    const hb_participant_samples *cand = &samples[0]; /* the candidate is participant 0 */
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
    return HB_OK;
}

static hb_status check_and_measure(run_state *s, hb_participant *const *parts, size_t count, hb_problem *problem,
                                   hb_config_result *r)
{
    for (size_t i = 0; i < count; i++)
        HB_TRY(parts[i]->ops->prepare(parts[i], &problem->ios[i], s->timer.stream));
    hb_check_result check;
    HB_TRY(hb_check_deviation(parts, problem->ios, count, &problem->inputs, problem->reference, s->timer.stream, &check));
    r->checked = 1;
    r->deviation_bound = check.bound;
    for (size_t i = 0; i < count; i++)
        r->participants[i].deviation = check.deviation[i];
    if (!check.passed) {
        snprintf(r->reason, sizeof r->reason, "%s", check.reason);
        return HB_ERR_INCORRECT;
    }
    hb_window_options windows = {s->options->warmup_s, s->options->time_s};
    hb_participant_samples samples[HB_MAX_PARTICIPANTS];
    memset(samples, 0, sizeof samples);
    hb_status status = hb_measure_windows(parts, problem->ios, count, &s->timer, &s->rng, &windows, &s->progress, samples);
    if (status == HB_OK)
        status = summarize(r, samples);
    for (size_t i = 0; i < count; i++)
        hb_participant_samples_free(&samples[i]);
    return status;
}

static hb_status load_candidate(run_state *s, const hb_mnk *c, hb_participant *candidate, hb_config_result *r)
{
    char manifest_path[HB_PATH_MAX];
    HB_TRY(hb_candidate_manifest_path(s->options->candidate_path, c->m, c->n, c->k, manifest_path));
    snprintf(r->manifest_path, sizeof r->manifest_path, "%s", manifest_path);
    hb_manifest manifest;
    HB_TRY(hb_manifest_load(manifest_path, &manifest));
    return hb_candidate_participant_create(&manifest, &s->limits, HB_ACC_FP32, c->m, c->n, c->k, candidate);
}

static hb_status run_config(run_state *s, const hb_mnk *c, hb_config_result *r)
{
    memset(r, 0, sizeof *r);
    r->mnk = *c;
    hb_participant candidate;
    hb_status status = load_candidate(s, c, &candidate, r);
    if (status != HB_OK) {
        r->count = 1; /* a row for the candidate, carrying the verdict */
        snprintf(r->participants[0].name, sizeof r->participants[0].name, "candidate");
        r->participants[0].is_candidate = 1;
        return status;
    }
    hb_participant *parts[1 + N_BASELINES] = {&candidate, &s->baselines[0], &s->baselines[1], &s->baselines[2]};
    const size_t count = 1 + N_BASELINES;
    record_participants(r, parts, count);
    hb_problem problem;
    status = hb_problem_create(c, count, hb_rng_next(&s->rng), s->timer.stream, &problem);
    if (status == HB_OK)
        status = check_and_measure(s, parts, count, &problem, r);
    hb_problem_free(&problem);
    candidate.ops->destroy(&candidate);
    return status;
}

static hb_status open_outputs(run_state *s, const char *command_line)
{
    HB_TRY(hb_run_dir_create(s->options->out_dir, s->options->seed ^ (unsigned long long)getpid(), s->run_id,
                             s->run_path, sizeof s->run_path));
    char started[32], path[4200];
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &utc);
    hb_run_context ctx = {s->run_id, command_line, s->options, &s->device, "fp32", started};
    snprintf(path, sizeof path, "%s/env.json", s->run_path);
    HB_TRY(hb_env_json_write(path, &ctx));
    snprintf(path, sizeof path, "%s/summary.csv", s->run_path);
    s->summary = fopen(path, "w");
    if (!s->summary)
        return hb_fail(HB_ERR_IO, "cannot create %s", path);
    hb_csv_write_header(s->summary);
    fprintf(stderr, "hgemm-bench: run %s on %s (%s), results in %s\n", s->run_id, s->device.name, s->device.uuid,
            s->run_path);
    return HB_OK;
}

/* Harness-side failures end the run; verdicts about the candidate do not,
 * except a fault, which may leave the CUDA context unusable (process
 * isolation per configuration is what lets a run go on after one). */
static int ends_run(hb_status status)
{
    return status == HB_ERR_CUDA || status == HB_ERR_IO || status == HB_ERR_INTERNAL ||
           status == HB_ERR_CANDIDATE_FAULT;
}

static hb_status run_all(run_state *s)
{
    hb_status worst = HB_OK;
    static hb_config_result result; /* large: keep it off the stack */
    for (size_t i = 0; i < s->options->n_configs; i++) {
        const hb_mnk *c = &s->options->configs[i];
        hb_progress_set_label(&s->progress, i, s->options->n_configs, c->m, c->n, c->k);
        hb_status status = run_config(s, c, &result);
        result.verdict = status;
        if (status != HB_OK && !result.reason[0])
            snprintf(result.reason, sizeof result.reason, "%s", hb_last_error());
        hb_status written = hb_csv_write_config(s->summary, s->run_id, "fp32", &result);
        hb_report_config(stdout, &result);
        fflush(stdout);
        if (hb_status_severity(status) > hb_status_severity(worst))
            worst = status;
        if (written != HB_OK)
            return written;
        if (ends_run(status)) {
            fprintf(stderr, "hgemm-bench: stopping after %zu of %zu configurations: %s\n", i + 1,
                    s->options->n_configs, hb_last_error());
            break;
        }
    }
    return worst;
}

static void release(run_state *s)
{
    for (int i = 0; i < N_BASELINES; i++)
        if (s->baselines[i].ops)
            s->baselines[i].ops->destroy(&s->baselines[i]);
    hb_sample_timer_destroy(&s->timer);
    if (s->summary)
        fclose(s->summary);
}

hb_status hb_run_command(hb_run_options *options, const char *command_line)
{
    static run_state state;
    run_state *s = &state;
    memset(s, 0, sizeof *s);
    s->options = options;
    if (!options->seed_given)
        options->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    hb_rng_seed(&s->rng, options->seed);
    hb_progress_init(&s->progress, options->progress);
    hb_status status = hb_device_open(options->device, &s->device);
    if (status == HB_OK) {
        s->limits = hb_device_limits_of(&s->device);
        status = hb_sample_timer_create(&s->timer);
    }
    if (status == HB_OK)
        status = create_baselines(s);
    if (status == HB_OK)
        status = open_outputs(s, command_line);
    if (status == HB_OK)
        status = run_all(s);
    release(s);
    return status;
}
