#include "bench/driver/config_trace.h"

#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/core/heartbeat.h"
#include "bench/driver/child_verdict.h"
#include "bench/driver/config_eval.h"
#include "bench/driver/isolate.h"
#include "bench/report/trace_file.h"
#include "bench/result/call_trace.h"
#include "bench/result/trace_summary.h"
#include "bench/trace/tracer.h"

typedef struct trace_job {
    const hb_run_options *options; /* the run's, with the autotune baselines held to the evaluation's choice */
    size_t index;
    char path[4096];               /* the trace file */
    hb_tracer *tracer;
} trace_job;

/* Participants' traces: large, and one pass per process. */
static hb_participant_trace traces[HB_MAX_PARTICIPANTS];

static hb_status trace_each(void *context, hb_participant *const *parts, size_t count, const hb_problem *problem,
                            cudaStream_t stream, hb_config_result *r)
{
    (void)r;
    trace_job *job = context;
    hb_heartbeat_phase(HB_PHASE_CANDIDATE); /* a crash or hang from here on is the participant's */
    for (size_t i = 0; i < count; i++) {
        HB_TRY(hb_trace_participant(job->tracer, parts[i], &problem->ios[i], stream, job->options->trace_calls,
                                    &traces[i]));
        hb_heartbeat();
    }
    return HB_OK;
}

/* In the child: CUPTI first (before the CUDA context exists), then the
 * participants, their traced calls, the judgement and the file. */
static hb_status trace_in_child(void *context, void *result, size_t size)
{
    (void)size;
    trace_job *job = context;
    hb_trace_summary *out = result;
    memset(out, 0, sizeof *out);
    hb_status status = hb_tracer_open(&job->tracer);
    if (status != HB_OK) {
        snprintf(out->note, sizeof out->note, "%s", hb_last_error());
        return HB_OK; /* no CUPTI: the run goes on without kernel time */
    }
    static hb_config_result scratch;
    status = hb_with_config_participants(job->options, job->index, &scratch, trace_each, job);
    if (status == HB_OK) {
        out->count = scratch.count;
        for (size_t i = 0; i < scratch.count; i++) {
            hb_conduct conduct;
            memset(&conduct, 0, sizeof conduct);
            hb_judge_conduct(&traces[i], &out->kernel[i], &conduct);
            snprintf(out->name[i], sizeof out->name[i], "%.63s", traces[i].name);
            if (scratch.participants[i].is_candidate)
                out->conduct = conduct;
        }
        const hb_participant_trace *list[HB_MAX_PARTICIPANTS];
        for (size_t i = 0; i < scratch.count; i++)
            list[i] = &traces[i];
        status = hb_trace_file_write(job->path, &scratch.mnk, list, scratch.count);
    }
    hb_tracer_close(job->tracer);
    if (status != HB_OK) {
        snprintf(out->note, sizeof out->note, "the trace pass failed: %s", hb_last_error());
        return status;
    }
    out->ran = 1;
    snprintf(out->file, sizeof out->file, "%s", job->path);
    return HB_OK;
}

/* No trace for this configuration, and why. */
static hb_status untraced(hb_config_result *r, const char *why)
{
    snprintf(r->trace_note, sizeof r->trace_note, "%s", why);
    return HB_OK;
}

static hb_status prepare_job(const hb_run_options *options, const char *run_path, size_t index, trace_job *job)
{
    static hb_run_options held;
    held = *options;
    /* The autotune baselines run what the evaluation chose (its cache),
     * never a search of their own: a search would trace another algorithm. */
    held.autotune_search = 0;
    held.retune = 0;
    const hb_mnk *c = &options->configs[index];
    char folder[3900];
    if ((size_t)snprintf(folder, sizeof folder, "%s/trace", run_path) >= sizeof folder)
        return hb_fail(HB_ERR_IO, "the run folder's path is too long for its trace folder: %s", run_path);
    HB_TRY(hb_make_folders(folder, "trace folder"));
    snprintf(job->path, sizeof job->path, "%s/%ld_%ld_%ld.%s.json", folder, c->m, c->n, c->k,
             hb_mode_name(options->mode));
    job->options = &held;
    job->index = index;
    return HB_OK;
}

hb_status hb_trace_config(const hb_run_options *options, const char *run_path, size_t index, hb_config_result *r,
                          int *cut)
{
    *cut = 0;
    if (!options->trace)
        return untraced(r, "--no-trace");
    if (!options->isolate)
        return untraced(r, "--no-isolate runs no trace pass");
    if (r->status != HB_OK)
        return untraced(r, "not traced: the candidate did not pass its checks");
    static trace_job job;
    memset(&job, 0, sizeof job);
    HB_TRY(prepare_job(options, run_path, index, &job));
    static hb_trace_summary summary;
    hb_child_outcome outcome;
    HB_TRY(hb_run_isolated(trace_in_child, &job, &summary, sizeof summary, options->timeout_s, &outcome));
    if (outcome.end == HB_CHILD_INTERRUPTED) {
        *cut = 1;
        return HB_OK;
    }
    if (outcome.end != HB_CHILD_RETURNED) {
        const double evaluation_s = r->seconds;
        hb_record_child_end(r, &outcome, "the trace pass");
        r->seconds += evaluation_s;
        r->measured = 0; /* a candidate that crashes when traced gets no speedup */
        return HB_OK;
    }
    r->seconds += outcome.seconds;
    if (outcome.status != HB_OK && !summary.note[0])
        snprintf(summary.note, sizeof summary.note, "the trace pass failed (%s)", hb_status_name(outcome.status));
    hb_trace_summary_apply(r, &summary);
    return HB_OK;
}
