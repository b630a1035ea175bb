#define _POSIX_C_SOURCE 200809L
#include "run_command.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../baselines/autotune_cache.h"
#include "config_eval.h"
#include "csv_writer.h"
#include "device_info.h"
#include "env_json.h"
#include "gate.h"
#include "isolate.h"
#include "report_table.h"
#include "run_dir.h"
#include "sanitize_pass.h"
#include "verdict_file.h"

/* The parent process of a run.  In an isolated run (the default) it never
 * touches CUDA: the device is read and each configuration evaluated in a
 * child (bench/isolate.h), so whatever a candidate does ends in a verdict. */
typedef struct run_state {
    hb_run_options *options;
    const char *command;
    hb_device_info device;
    char run_id[HB_RUN_ID_MAX];
    char run_path[4096];
    char sanitizer[4096];      /* compute-sanitizer's path, with --sanitize */
    FILE *summary;
    hb_config_result *results; /* one per configuration, for verdict.json */
    size_t done;
} run_state;

static hb_status read_device(void *context, void *result, size_t size)
{
    (void)size;
    const hb_run_options *options = context;
    return hb_device_open(options->device, result);
}

/* Reads the GPU's facts, in a child when isolated: the parent stays free of CUDA. */
static hb_status open_device(run_state *s)
{
    if (!s->options->isolate)
        return hb_device_open(s->options->device, &s->device);
    hb_child_outcome outcome;
    HB_TRY(hb_run_isolated(read_device, s->options, &s->device, sizeof s->device, s->options->timeout_s, &outcome));
    if (outcome.end != HB_CHILD_RETURNED)
        return hb_fail(HB_ERR_CUDA, "reading the GPU's properties failed: the process %s", outcome.message);
    return outcome.status;
}

/* --raw: <run>/raw/, where each configuration's child writes its samples. */
static hb_status make_raw_dir(run_state *s)
{
    static char raw_dir[4200];
    snprintf(raw_dir, sizeof raw_dir, "%s/raw", s->run_path);
    if (mkdir(raw_dir, 0777) != 0 && errno != EEXIST)
        return hb_fail(HB_ERR_IO, "cannot create %s: %s", raw_dir, strerror(errno));
    s->options->raw_dir = raw_dir;
    return HB_OK;
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
    hb_run_context ctx = {s->run_id, command_line, s->options, &s->device, hb_acc_class_name(s->options->acc), started};
    snprintf(path, sizeof path, "%s/env.json", s->run_path);
    HB_TRY(hb_env_json_write(path, &ctx));
    snprintf(path, sizeof path, "%s/summary.csv", s->run_path);
    s->summary = fopen(path, "w");
    if (!s->summary)
        return hb_fail(HB_ERR_IO, "cannot create %s", path);
    hb_csv_write_header(s->summary);
    fprintf(stderr, "hgemm-bench: %s %s on %s (%s), results in %s\n", s->command, s->run_id, s->device.name,
            s->device.uuid, s->run_path);
    return s->options->raw ? make_raw_dir(s) : HB_OK;
}

typedef struct config_job {
    const hb_run_options *options;
    size_t index;
} config_job;

static hb_status evaluate_in_child(void *context, void *result, size_t size)
{
    (void)size;
    const config_job *job = context;
    return hb_evaluate_config(job->options, job->index, result);
}

/* What a child that did not return leaves: crashed or timed-out, with why. */
static void record_abnormal_end(hb_config_result *r, const hb_child_outcome *outcome)
{
    r->status = HB_ERR_CANDIDATE_FAULT;
    r->seconds = outcome->seconds;
    if (outcome->end == HB_CHILD_TIMED_OUT) {
        r->verdict = HB_VERDICT_TIMED_OUT;
        snprintf(r->check, sizeof r->check, "timeout");
    } else {
        r->verdict = HB_VERDICT_CRASHED;
        snprintf(r->check, sizeof r->check, "execution");
    }
    snprintf(r->reason, sizeof r->reason, "the evaluating process %s", outcome->message);
}

static hb_status evaluate(run_state *s, size_t index, hb_config_result *r)
{
    if (!s->options->isolate)
        return hb_evaluate_config(s->options, index, r);
    config_job job = {s->options, index};
    hb_config_result_init(r, &s->options->configs[index]);
    hb_child_outcome outcome;
    hb_status status = hb_run_isolated(evaluate_in_child, &job, r, sizeof *r, s->options->timeout_s, &outcome);
    if (status != HB_OK) {
        r->status = status;
        r->verdict = hb_verdict_of_status(status);
        snprintf(r->reason, sizeof r->reason, "%s", hb_last_error());
        return status;
    }
    if (outcome.end != HB_CHILD_RETURNED)
        record_abnormal_end(r, &outcome); /* r still holds what init wrote: the child's bytes never arrived */
    return r->status;
}

static void record_timing_policy(const hb_run_options *o, hb_config_result *r)
{
    hb_timing_record *t = &r->timing;
    t->mode = o->mode;
    t->gap = o->gap;
    t->mean_gap_ms = o->mode == HB_MODE_SERVER ? o->mean_gap_ms : 0;
    t->l2 = o->l2;
    t->target_ci = o->target_ci;
    snprintf(t->aa_of, sizeof t->aa_of, "%s", o->aa ? o->aa : "");
}

/* Clocks that dropped or a throttle reason in the timed window: say so where the user looks. */
static void warn_telemetry(const hb_config_result *r)
{
    char warning[256];
    if (r->measured && hb_telemetry_warning(&r->telemetry, warning, sizeof warning))
        fprintf(stderr, "hgemm-bench: warning: M=%ld N=%ld K=%ld: %s\n", r->mnk.m, r->mnk.n, r->mnk.k, warning);
}

static hb_status record(run_state *s, hb_config_result *r)
{
    record_timing_policy(s->options, r);
    warn_telemetry(r);
    if (s->options->gate)
        hb_gate_apply(r, s->options->vs, s->options->min_speedup);
    hb_status written = hb_csv_write_config(s->summary, s->run_id, hb_acc_class_name(s->options->acc), r);
    hb_report_config(stdout, r);
    fflush(stdout);
    s->done++;
    return written;
}

/* Harness-side failures end the run; verdicts about the candidate do not:
 * each configuration has a fresh process, so a crash or hang ends only its own. */
static int ends_run(hb_status status, int isolated)
{
    return status == HB_ERR_CUDA || status == HB_ERR_IO || status == HB_ERR_INTERNAL ||
           (status == HB_ERR_CANDIDATE_FAULT && !isolated);
}

static hb_status run_all(run_state *s)
{
    hb_status worst = HB_OK;
    for (size_t i = 0; i < s->options->n_configs; i++) {
        hb_config_result *r = &s->results[i];
        hb_status status = HB_OK;
        if (s->options->sanitize)
            HB_TRY(hb_sanitize_config(s->options, s->sanitizer, i, s->run_path, r, &status));
        if (status == HB_OK)
            evaluate(s, i, r);
        HB_TRY(record(s, r));
        if (hb_status_severity(r->status) > hb_status_severity(worst))
            worst = r->status;
        if (ends_run(r->status, s->options->isolate)) {
            fprintf(stderr, "hgemm-bench: stopping after %zu of %zu configurations: %s\n", i + 1,
                    s->options->n_configs, r->reason);
            break;
        }
    }
    return worst;
}

static hb_status write_verdict(run_state *s, hb_status status)
{
    hb_verdict_summary v = {s->command, s->run_id, s->run_path, s->options, status, s->results, s->done};
    char path[4200];
    snprintf(path, sizeof path, "%s/verdict.json", s->run_path);
    HB_TRY(hb_verdict_file_write(path, &v));
    if (s->options->verdict_path)
        HB_TRY(hb_verdict_file_write(s->options->verdict_path, &v));
    const char *reason = hb_overall_reason(status, s->results, s->done);
    fprintf(stdout, "\nverdict: %s (exit %d)%s%s\n", hb_overall_verdict(status, s->results, s->done), status,
            reason[0] ? ": " : "", reason);
    return HB_OK;
}

/* The autotune cache every configuration's child uses: --autotune-cache,
 * else the default path; "none" turns it off (NULL). */
static hb_status resolve_autotune_cache(hb_run_options *options)
{
    static char default_path[4096];
    if (options->autotune_cache && !strcmp(options->autotune_cache, "none")) {
        options->autotune_cache = NULL;
        return HB_OK;
    }
    if (options->autotune_cache)
        return HB_OK;
    hb_status status = hb_autotune_cache_default_path(default_path, sizeof default_path);
    if (status != HB_OK)
        return hb_fail(HB_ERR_USAGE, "no place for the cuBLASLt autotune cache: set HOME, HGEMM_BENCH_CACHE_DIR or "
                       "--autotune-cache FILE (or --autotune-cache none)");
    options->autotune_cache = default_path;
    return HB_OK;
}

static const char *command_name(const hb_run_options *o)
{
    return o->gate ? "gate" : o->check_only ? "check" : "run";
}

hb_status hb_run_command(hb_run_options *options, const char *command_line)
{
    static run_state state;
    run_state *s = &state;
    memset(s, 0, sizeof *s);
    s->options = options;
    s->command = command_name(options);
    hb_heartbeat_from_env(); /* when run by a parent harness under compute-sanitizer */
    if (!options->seed_given)
        options->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    s->results = calloc(options->n_configs, sizeof *s->results);
    if (!s->results)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu results", options->n_configs);
    hb_status status = options->sanitize ? hb_sanitizer_available(s->sanitizer, sizeof s->sanitizer) : HB_OK;
    if (status == HB_OK)
        status = resolve_autotune_cache(options);
    if (status == HB_OK)
        status = open_device(s);
    if (status == HB_OK)
        status = open_outputs(s, command_line);
    if (status == HB_OK)
        status = run_all(s);
    if (s->summary) {
        fclose(s->summary);
        hb_status written = write_verdict(s, status);
        if (written != HB_OK)
            status = written;
    }
    free(s->results);
    return status;
}
