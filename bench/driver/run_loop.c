#define _POSIX_C_SOURCE 200809L
#include "bench/driver/run_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "baselines/autotune_cache.h"
#include "baselines/cublas_baselines.h"
#include "baselines/cublaslt_autotune.h"
#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/core/heartbeat.h"
#include "bench/core/run_dir.h"
#include "bench/core/signal_name.h"
#include "bench/driver/config_runner.h"
#include "bench/driver/interrupt.h"
#include "bench/driver/isolate.h"
#include "bench/driver/preflight.h"
#include "bench/driver/reward_source.h"
#include "bench/driver/sanitize_pass.h"
#include "bench/gpu/device.h"
#include "bench/measure/windows.h"
#include "bench/report/csv_writer.h"
#include "bench/report/env_json.h"
#include "bench/report/json_lines.h"
#include "bench/report/report_table.h"
#include "bench/report/verdict_file.h"
#include "bench/result/gate.h"

/* The parent process of a run.  In an isolated run (the default) it never
 * touches CUDA: the device is read and each configuration evaluated in a
 * child (bench/driver/isolate.h), so whatever a candidate does ends in a
 * verdict.  Results leave through the sinks (bench/report/sink.h). */
typedef struct run_state {
    hb_run_options *options;
    hb_device_info device;
    char run_id[HB_RUN_ID_MAX];
    char run_path[4096];
    char started_utc[32];
    char sanitizer[4096];      /* compute-sanitizer's path, with --sanitize */
    hb_run_record record;      /* what the sinks know of the run */
    hb_sinks sinks;
    int sinks_begun;           /* every sink began: the run folder, env.json and summary.csv exist */
    hb_config_result *results; /* one per configuration, for verdict.json */
    size_t pending;            /* configurations that passed the checks before the GPU (bench/driver/preflight.h) */
    int device_read;           /* the GPU's facts are in `device` (not when no configuration needed the GPU) */
    size_t done;
    hb_plausibility_warnings plausibility; /* said once per run */
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
    if (!s->options->isolate) {
        HB_TRY(hb_device_open(s->options->device, &s->device));
        s->device_read = 1;
        return HB_OK;
    }
    hb_child_outcome outcome;
    HB_TRY(hb_run_isolated(read_device, s->options, &s->device, sizeof s->device, s->options->timeout_s, &outcome));
    if (outcome.end == HB_CHILD_INTERRUPTED)
        return HB_OK; /* not read: the run writes what it has, with every configuration not run */
    if (outcome.end != HB_CHILD_RETURNED)
        return hb_fail(HB_ERR_CUDA, "reading the GPU's properties failed: the process %s", outcome.message);
    s->device_read = outcome.status == HB_OK;
    return outcome.status;
}

/* --raw: <run>/raw/, where each configuration's child writes its samples. */
static hb_status make_raw_dir(run_state *s)
{
    static char raw_dir[4200];
    snprintf(raw_dir, sizeof raw_dir, "%s/raw", s->run_path);
    HB_TRY(hb_make_folders(raw_dir, "raw samples folder"));
    s->options->raw_dir = raw_dir;
    return HB_OK;
}

/* The constants of the engine env.json records: they live in the layers
 * below, which the writers do not see. */
static hb_engine_facts engine_facts(const hb_device_info *device)
{
    hb_engine_facts facts = {
        .autotune_max_candidates = HB_LT_MAX_ALGOS,
        .autotune_warmup_rounds = HB_AUTOTUNE_WARMUP_ROUNDS,
        .autotune_measured_rounds = HB_AUTOTUNE_MEASURED_ROUNDS,
        .min_timed_rounds = HB_MIN_TIMED_ROUNDS,
        .target_ci_min_rounds = HB_TARGET_CI_MIN_ROUNDS,
        .torch_workspace_bytes = hb_torch_workspace_bytes(device->sm),
    };
    return facts;
}

/* env.json, summary.csv, the table on stdout (stderr with --json, whose lines take stdout) and verdict.json
 * (with a copy at --verdict). */
static hb_status add_sinks(run_state *s)
{
    HB_TRY(hb_sinks_add(&s->sinks, hb_env_json_sink()));
    HB_TRY(hb_sinks_add(&s->sinks, hb_summary_csv_sink()));
    /* --json: descriptor 1 already leads to stderr, and the lines have the original stdout */
    HB_TRY(hb_sinks_add(&s->sinks, hb_table_sink(s->options->json_lines ? stderr : stdout)));
    if (s->options->json_lines)
        HB_TRY(hb_sinks_add(&s->sinks, hb_json_lines_sink()));
    return hb_sinks_add(&s->sinks, hb_verdict_sink(s->options->verdict_path));
}

static hb_status open_outputs(run_state *s, const char *command, const char *command_line)
{
    HB_TRY(hb_run_dir_create(s->options->out_dir, s->options->seed ^ (unsigned long long)getpid(), s->run_id,
                             s->run_path, sizeof s->run_path));
    hb_utc_now(s->started_utc, sizeof s->started_utc);
    s->record = (hb_run_record){
        .command = command,
        .run_id = s->run_id,
        .run_path = s->run_path,
        .command_line = command_line,
        .started_utc = s->started_utc,
        .options = s->options,
        .device = s->device_read ? &s->device : NULL,
        .engine = engine_facts(&s->device),
    };
    HB_TRY(add_sinks(s));
    HB_TRY(hb_sinks_begin(&s->sinks, &s->record));
    s->sinks_begun = 1;
    if (s->device_read)
        fprintf(stderr, "hgemm-bench: %s %s on %s (%s), results in %s\n", command, s->run_id, s->device.name,
                s->device.uuid, s->run_path);
    else
        fprintf(stderr, "hgemm-bench: %s %s: %s; results in %s\n", command, s->run_id,
                hb_interrupted() ? "interrupted before the GPU was read"
                                 : "no configuration passed the checks before the GPU, which was not opened",
                s->run_path);
    return s->options->raw ? make_raw_dir(s) : HB_OK;
}

static hb_status record(run_state *s, hb_config_result *r)
{
    hb_config_finish(s->options, s->device_read ? &s->device : NULL, &s->plausibility, r);
    s->done++;
    return hb_sinks_config(&s->sinks, &s->record, r);
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
        if (hb_interrupted())
            break; /* this configuration and the rest are not run */
        int cut = 0;
        if (r->status == HB_OK) /* else it failed the checks before the GPU: its verdict is in r */
            HB_TRY(hb_config_run(s->options, s->device_read ? &s->device : NULL, s->sanitizer, s->run_path, i, NULL, r,
                                 &cut));
        if (cut)
            break; /* its worker killed by the signal: listed as not run, like the rest */
        HB_TRY(record(s, r)); /* finished, even if a signal came meanwhile (--no-isolate): kept */
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

/* The autotune cache every configuration's child uses: --autotune-cache,
 * else the default path; "none" turns it off (NULL). */
hb_status hb_resolve_autotune_cache(hb_run_options *options)
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

/* The run's verdict goes to verdict.json and stdout, with the
 * configurations never evaluated; a failure to write it becomes the run's
 * status. */
static hb_status end_run(run_state *s, hb_status status, int signal_number)
{
    const hb_run_options *o = s->options;
    hb_run_outcome outcome = {
        .status = status,
        .results = s->results,
        .count = s->done,
        .interrupted_by = signal_number,
        .not_run = o->configs + s->done,
        .not_run_count = o->n_configs - s->done,
    };
    hb_status written = hb_sinks_end(&s->sinks, &s->record, &outcome);
    return written != HB_OK ? written : status;
}

/* SIGINT, SIGTERM or SIGHUP: exit 128 + the signal, as a shell reports it. */
static hb_status interrupted_status(const run_state *s, int signal_number)
{
    fprintf(stderr, "hgemm-bench: interrupted by %s after %zu of %zu configurations; %s\n",
            hb_signal_name(signal_number), s->done, s->options->n_configs,
            s->sinks_begun ? "the results so far, and the configurations not run, are in the run folder"
                           : "no results were written");
    return (hb_status)(128 + signal_number);
}

hb_status hb_run_command(const hb_command_entry *self, hb_cli *cli, const char *command_line)
{
    const char *command = self->name;
    hb_run_options *options = &cli->run;
    static run_state state;
    run_state *s = &state;
    memset(s, 0, sizeof *s);
    s->options = options;
    hb_heartbeat_from_env(); /* when run by a parent harness under compute-sanitizer */
    if (options->json_lines)
        HB_TRY(hb_json_lines_open()); /* before anything can print on stdout */
    if (!options->seed_given)
        options->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    s->results = calloc(options->n_configs, sizeof *s->results);
    if (!s->results)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu results", options->n_configs);
    /* From here a signal is noted, not fatal: the run still writes what it has. */
    hb_status status = hb_interrupt_install();
    if (status == HB_OK && options->sanitize)
        status = hb_sanitizer_available(s->sanitizer, sizeof s->sanitizer);
    if (status == HB_OK)
        status = hb_resolve_autotune_cache(options);
    if (status == HB_OK)
        status = hb_reward_source_measure(options);
    if (status == HB_OK) /* before the GPU: input errors get their own exit code on any machine */
        status = hb_preflight(options, s->results, &s->pending);
    if (status == HB_OK && s->pending > 0 && !hb_interrupted())
        status = open_device(s);
    if (status == HB_OK)
        status = open_outputs(s, command, command_line);
    if (status == HB_OK)
        status = run_all(s);
    const int signal_number = hb_interrupted();
    if (signal_number)
        status = interrupted_status(s, signal_number);
    if (s->sinks_begun) /* else no verdict: the results folder is not there to hold it */
        status = end_run(s, status, signal_number);
    hb_sinks_close(&s->sinks);
    hb_interrupt_restore();
    free(s->results);
    return status;
}
