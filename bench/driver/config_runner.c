#include "bench/driver/config_runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/driver/child_verdict.h"
#include "bench/driver/config_eval.h"
#include "bench/driver/isolate.h"
#include "bench/driver/accumulator_audit.h"
#include "bench/driver/profile_calls.h"
#include "bench/driver/profile_pass.h"
#include "bench/driver/reference_pass.h"
#include "bench/driver/replay_pass.h"
#include "bench/driver/sanitize_pass.h"
#include "bench/result/headline.h"
#include "bench/result/telemetry_summary.h"

typedef struct config_job {
    const hb_run_options *options;
    const char *run_path;
    size_t index;
    const hb_held_reference *reference; /* inherited by the forked child */
    const char *replay_folder;          /* "" or the launcher's replay (bench/driver/replay_pass.h) */
    double started_at;                  /* hb_now_s() as the child was started */
} config_job;

/* The child's start and end stamped on the monotonic clock the parent reads too: its start-up (from `since`, when
 * the parent started it or sent its job, to `began`) and, after its result, its exit and reap are parts of the
 * item's cost (bench/result/item_cost.h). */
static void stamp_child(hb_config_result *r, double since, double began)
{
    hb_item_cost_add(&r->cost, HB_COST_PROCESS_START, began - since);
    r->cost.stamp_s = hb_now_s();
}

static hb_status evaluate_in_child(void *context, void *result, size_t size)
{
    (void)size;
    const config_job *job = context;
    const double began = hb_now_s();
    hb_status status = hb_evaluate_config(job->options, job->run_path, job->index, job->reference,
                                          job->replay_folder, result);
    stamp_child(result, job->started_at, began);
    return status;
}

/* --- a readied child's job (bench/driver/isolate.h) ------------------------------------------------------- */

/* What a readied child learns of its configuration: the settings that differ from item to item. */
typedef struct ready_job {
    size_t index;
    hb_mode mode;
    int retune;                     /* --retune, unless the clean process settled the choice */
    int has_reference;
    char run_path[4096], raw_dir[4200], replay_folder[4096];
    hb_held_reference reference;
    double sent_at;                 /* hb_now_s() as the job was sent */
} ready_job;

static void ready_in_child(void *context)
{
    hb_evaluation_ready(context);
}

static hb_status job_in_child(void *context, const void *bytes, int job_fd, void *result, size_t size)
{
    (void)size;
    const double began = hb_now_s();
    const ready_job *job = bytes;
    static hb_run_options options; /* the worker's, as of the fork, with this item's settings */
    options = *(const hb_run_options *)context;
    options.mode = job->mode;
    options.retune = job->retune;
    options.raw_dir = job->raw_dir[0] ? job->raw_dir : NULL;
    hb_evaluation_clear_fd(job_fd);
    hb_status status = hb_evaluate_config(&options, job->run_path[0] ? job->run_path : NULL, job->index,
                                          job->has_reference ? &job->reference : NULL, job->replay_folder, result);
    stamp_child(result, job->sent_at, began);
    return status;
}

static void ready_next(hb_evaluators *e, const hb_run_options *options)
{
    if (!e->next.live && hb_ready_child_start(&e->next, ready_in_child, job_in_child, (void *)options,
                                              sizeof(ready_job), sizeof(hb_config_result)) != HB_OK)
        e->next.live = 0; /* the next configuration forks its own */
}

void hb_evaluators_init(hb_evaluators *e)
{
    memset(e, 0, sizeof *e);
    e->next.result_fd = e->next.job_fd = e->exiting.result_fd = e->exiting.job_fd = -1;
}

/* The last configuration's process, left to exit, gone: before GPU work outside the readied child. */
static void settle_exiting(hb_evaluators *e)
{
    if (e->have_exiting)
        hb_ready_child_reap(&e->exiting);
    e->have_exiting = 0;
}

static void claim_gpu(void *context)
{
    settle_exiting(context);
}

void hb_evaluators_close(hb_evaluators *e)
{
    if (e->next.live)
        hb_ready_child_discard(&e->next);
    settle_exiting(e);
}

static hb_status fill_job(const hb_run_options *options, const char *run_path, size_t index,
                          const hb_held_reference *reference, const char *replay_folder, ready_job *job)
{
    memset(job, 0, sizeof *job);
    job->index = index;
    job->mode = options->mode;
    job->retune = options->retune;
    job->has_reference = reference != NULL;
    if (reference)
        job->reference = *reference;
    const char *raw = options->raw_dir ? options->raw_dir : "";
    if (snprintf(job->run_path, sizeof job->run_path, "%s", run_path ? run_path : "") >= (int)sizeof job->run_path ||
        snprintf(job->raw_dir, sizeof job->raw_dir, "%s", raw) >= (int)sizeof job->raw_dir ||
        snprintf(job->replay_folder, sizeof job->replay_folder, "%s", replay_folder ? replay_folder : "") >=
            (int)sizeof job->replay_folder)
        return hb_fail(HB_ERR_IO, "a path of configuration %zu is too long for its evaluating process", index);
    return HB_OK;
}

/* The readied child evaluates; the next is readied while it measures; it is left to exit while the next
 * configuration sets up. */
static hb_status run_readied(hb_evaluators *e, const hb_run_options *options, const char *run_path, size_t index,
                             const hb_held_reference *reference, const char *replay_folder, hb_config_result *r,
                             hb_child_outcome *outcome)
{
    static ready_job job;
    HB_TRY(fill_job(options, run_path, index, reference, replay_folder, &job));
    ready_next(e, options); /* the first configuration: readied now */
    if (!e->next.live)
        return hb_fail(HB_ERR_INTERNAL, "cannot start the evaluating process: %s", hb_last_error());
    hb_ready_child current = e->next;
    e->next.live = 0;
    ready_next(e, options); /* readies while `current` measures */
    job.sent_at = hb_now_s();
    hb_status status = hb_ready_child_run(&current, &job, e->have_exiting ? &e->exiting : NULL, r,
                                          options->timeout_s, outcome);
    e->have_exiting = 0;
    if (status == HB_OK && outcome->end == HB_CHILD_RETURNED) {
        e->exiting = current;
        e->have_exiting = 1;
    } else {
        hb_ready_child_reap(&current);
    }
    return status;
}

static hb_status evaluate(const hb_run_options *options, const char *run_path, size_t index,
                          const hb_held_reference *reference, const char *replay_folder, hb_evaluators *evaluators,
                          hb_config_result *r, int *cut)
{
    const char *profile_calls = getenv(HB_PROFILE_CALLS_ENV);
    if (!options->isolate && options->check_only && profile_calls) /* this process is --profile's, under ncu */
        return hb_profile_config_calls(options, index, profile_calls, r);
    if (!options->isolate)
        return hb_evaluate_config(options, run_path, index, reference, replay_folder, r);
    config_job job = {options, run_path, index, reference, replay_folder, hb_now_s()};
    hb_config_result_init(r, &options->configs[index]);
    hb_child_outcome outcome;
    hb_status status = evaluators ? run_readied(evaluators, options, run_path, index, reference, replay_folder, r,
                                                &outcome)
                                  : hb_run_isolated(evaluate_in_child, &job, r, sizeof *r, options->timeout_s,
                                                    &outcome);
    if (r->cost.stamp_s > 0) /* its result, exit and reap (a readied child: its result alone) */
        hb_item_cost_add(&r->cost, HB_COST_RESULT, hb_now_s() - r->cost.stamp_s);
    if (status != HB_OK) {
        r->status = status;
        r->verdict = hb_verdict_of_status(status);
        snprintf(r->reason, sizeof r->reason, "%s", hb_last_error());
        return status;
    }
    *cut = outcome.end == HB_CHILD_INTERRUPTED;
    /* Not returned: r holds what init wrote, no bytes arrived.  Returned with a note: a process the candidate
     * forked, outside the child's group, made a call the sandbox refused. */
    if (outcome.end != HB_CHILD_RETURNED || outcome.note[0])
        hb_record_child_end(r, &outcome, "the evaluating process");
    return r->status;
}

/* The evaluation writes r afresh: what the recording found stays, with the
 * form the evaluation loaded. */
static void keep_replay_record(const hb_replay_record *recorded, hb_config_result *r)
{
    const hb_candidate_form timed = r->replay.form;
    r->replay = *recorded;
    if (timed != HB_FORM_NONE)
        r->replay.form = timed;
}

/* The parent's parts of the item's cost, which the evaluation's result (written afresh) does not hold. */
typedef struct parent_parts {
    double recording_s, reference_s;
    double reference_windows_s; /* a measured reference's windows, as set (each ends within a round of it) */
} parent_parts;

static void keep_parent_parts(const parent_parts *p, hb_config_result *r)
{
    hb_item_cost_add(&r->cost, HB_COST_RECORDING, p->recording_s);
    hb_item_cost_add(&r->cost, HB_COST_REFERENCE, p->reference_s);
    hb_item_cost_add(&r->cost, HB_COST_REFERENCE_WINDOWS, p->reference_windows_s);
}

/* Why a cubin or a replay gets no reference: the timed process holds no code of the candidate's but its kernels. */
#define HB_REFERENCE_NOT_NEEDED                                                                                    \
    "no candidate host code in the timed process (a cubin or a replay): nothing there can slow the baselines"

/* A launcher's replay recorded first (bench/driver/replay_pass.h), then the
 * baselines' clean-process reference (bench/driver/reference_pass.h), then
 * the evaluation that holds them to it; the clean process's failure is the
 * configuration's error, and nothing is evaluated. */
static void evaluate_held(const hb_run_options *options, const hb_device_info *device, const char *run_path,
                          size_t index, hb_evaluators *evaluators, hb_config_result *r, int *cut)
{
    static hb_reference_pass pass; /* the reference is 30 KB */
    static char replay_folder[4096];
    parent_parts parts = {0, 0, 0};
    double start = hb_now_s();
    /* a recording or a clean process that runs: the GPU is its alone */
    const hb_gpu_claim claim = {evaluators ? claim_gpu : NULL, evaluators};
    hb_status prepared = hb_replay_prepare(options, device, run_path, index, &claim, r, replay_folder,
                                           sizeof replay_folder, cut);
    parts.recording_s = hb_now_s() - start;
    if (prepared != HB_OK || *cut) {
        keep_parent_parts(&parts, r);
        return;
    }
    static hb_replay_record recorded;
    recorded = r->replay;
    start = hb_now_s();
    if (hb_host_code_timed(options, index, &recorded))
        prepared = hb_reference_prepare(options, device, index, &claim, &pass, r, cut);
    else
        hb_reference_not_needed(options, device, &pass, HB_REFERENCE_NOT_NEEDED);
    parts.reference_s = hb_now_s() - start;
    if (pass.record.source == HB_REF_MEASURED)
        parts.reference_windows_s = pass.held.reference.warmup_s + pass.held.reference.time_s;
    if (prepared != HB_OK) {
        hb_reference_settle(&pass, r); /* r holds the clean process's error */
        keep_replay_record(&recorded, r);
        keep_parent_parts(&parts, r);
        return;
    }
    if (*cut)
        return;
    evaluate(hb_reference_evaluation_options(options, &pass), run_path, index, pass.have ? &pass.held : NULL,
             replay_folder, evaluators, r, cut);
    hb_reference_settle(&pass, r);
    keep_replay_record(&recorded, r);
    keep_parent_parts(&parts, r);
}

/* A pass cut short by a signal leaves the flag set, and the evaluation's
 * child then ends at once as cut too. */
hb_status hb_config_run(const hb_run_options *options, const hb_device_info *device, const char *sanitizer,
                        const char *run_path, size_t index, hb_evaluators *evaluators, hb_config_result *r, int *cut)
{
    hb_status status = HB_OK;
    *cut = 0;
    if (options->sanitize && evaluators)
        settle_exiting(evaluators); /* the sanitizers' process runs on the GPU: its alone */
    if (options->sanitize)
        HB_TRY(hb_sanitize_config(options, sanitizer, index, run_path, r, &status));
    if (status == HB_OK) {
        const hb_sanitize_record tools = r->sanitize; /* the evaluation writes r afresh */
        evaluate_held(options, device, run_path, index, evaluators, r, cut);
        r->sanitize = tools;
    }
    if (options->profile && !*cut && evaluators)
        settle_exiting(evaluators); /* ncu's process too */
    if (options->profile && !*cut) /* apart from the timed windows, after them: the autotune cache holds their choice */
        hb_profile_config(options, index, run_path, r);
    return HB_OK;
}

static void record_timing_policy(const hb_run_options *o, hb_config_result *r)
{
    hb_timing_record *t = &r->timing;
    t->mode = o->mode;
    t->gap = o->gap;
    t->mean_gap_ms = o->mode == HB_MODE_SERVER ? o->mean_gap_ms : 0;
    t->l2 = o->l2;
    t->stream = o->stream;
    t->target_ci = o->target_ci;
    snprintf(t->aa_of, sizeof t->aa_of, "%s", o->aa ? o->aa : "");
}

static void record_device(const hb_device_info *device, hb_config_result *r)
{
    r->gpu.ordinal = device ? device->ordinal : -1;
    snprintf(r->gpu.uuid, sizeof r->gpu.uuid, "%s", device ? device->uuid : "");
    snprintf(r->gpu.name, sizeof r->gpu.name, "%s", device ? device->name : "");
}

/* Clocks that dropped or a throttle reason in the timed window: say so where the user looks. */
static void warn_telemetry(const hb_config_result *r)
{
    char warning[256];
    if (r->measured && hb_telemetry_warning(&r->telemetry, warning, sizeof warning))
        fprintf(stderr, "hgemm-bench: warning: M=%ld N=%ld K=%ld: %s\n", r->mnk.m, r->mnk.n, r->mnk.k, warning);
}

/* trace_note is empty only where the call monitor judged the candidate's
 * calls: a configuration that ended before its first call (no manifest, a
 * load or device failure, no GPU) or whose child died with its judgement
 * was never traced, and its row says so rather than look traced. */
static void note_untraced(hb_config_result *r)
{
    if (!r->conduct.traced && !r->trace_note[0])
        snprintf(r->trace_note, sizeof r->trace_note, "the call monitor judged no call of the candidate (the "
                 "configuration ended before its first call, or its process ended without a result)");
}

void hb_config_finish(const hb_run_options *options, const hb_device_info *device, hb_plausibility_warnings *once,
                      hb_config_result *r)
{
    note_untraced(r); /* before the gate, whose conduct verdict names it */
    record_timing_policy(options, r);
    record_device(device, r);
    warn_telemetry(r);
    if (device)
        hb_plausibility_warn(once, r, device, options->peak_tflops);
    hb_accumulator_audit(options, device, r); /* before the gate: --forbid takes its findings */
    hb_headline_input headline = {.options = hb_headline_options_of(options)};
    headline.options.device = device;
    hb_headline_decide(&headline, HB_HEADLINE_GATE, r); /* plausibility, the gate, the reward settled last */
}
