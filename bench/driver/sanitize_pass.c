#define _POSIX_C_SOURCE 200809L
#include "bench/driver/sanitize_pass.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/core/toolkit_program.h"
#include "bench/driver/child_verdict.h"
#include "bench/driver/config_eval.h"
#include "bench/driver/isolate.h"
#include "bench/driver/watched_exec.h"

hb_status hb_sanitizer_available(char *path, size_t size)
{
    switch (hb_toolkit_program_find("compute-sanitizer", "HB_COMPUTE_SANITIZER", path, size)) {
    case HB_PROGRAM_FOUND:
        return HB_OK;
    case HB_PROGRAM_NAMED_BAD:
        return hb_fail(HB_ERR_USAGE, "--sanitize: HB_COMPUTE_SANITIZER=%s is not an executable", path);
    case HB_PROGRAM_MISSING:
        break;
    }
    return hb_fail(HB_ERR_USAGE, "--sanitize needs compute-sanitizer (CUDA Toolkit); put it on PATH or set "
                                 "HB_COMPUTE_SANITIZER to its path");
}

/* Flags the pass sets itself whatever the run's are; every other flag
 * `check` takes goes to the inner run as the user gave it (--device, --acc,
 * --workspace, ...).  --sanitize and --verdict must not: no second pass
 * inside the first, and the user's verdict file is the outer run's. */
const char *const hb_sanitize_pass_flags[] = {"mnk", "seed", "out", "no-isolate", "exact-reps", "no-progress",
                                              "autotune-cache", "no-autotune-search", "retune", "sanitize",
                                              "verdict", "json", NULL};

/* Reports printed in full: every one must be, for those in the library's kernels to be told apart. */
#define HB_SANITIZE_PRINT_LIMIT_TEXT "1000"

typedef struct sanitize_job {
    char log[4200], out[4200];
    hb_argv argv;
} sanitize_job;

/* In the watched child: becomes compute-sanitizer running `hgemm-bench check` (bench/driver/watched_exec.h). */
static hb_status exec_sanitizer(void *context, void *result, size_t size)
{
    (void)result;
    (void)size;
    sanitize_job *job = context;
    hb_exec_watched(job->argv.word, "compute-sanitizer", NULL);
}

hb_status hb_sanitize_tool_command(const hb_run_options *o, const char *sanitizer, hb_sanitizer_tool tool,
                                   const char *self, size_t index, const char *out_dir, const char *log, hb_argv *argv)
{
    const hb_mnk *c = &o->configs[index];
    char mnk[96], seed[32];
    snprintf(mnk, sizeof mnk, "%ld,%ld,%ld", c->m, c->n, c->k);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)hb_config_seed(o->seed, index));
    /* --report-api-errors no: a failed API call is not a memory error, and
     * the harness makes one on purpose: it counts a cubin's parameters with
     * cuFuncGetParamInfo until CUDA_ERROR_INVALID_VALUE.  With the default
     * (explicit), memcheck counted that one error against every cubin (seen
     * on an H100, 2026-11-26: sample_simple "incorrect / memcheck"); the
     * candidate's own failed calls are the harness's to see, and it does. */
    const char *const command[] = {sanitizer, "--tool", hb_sanitizer_tool_name(tool), "--report-api-errors", "no",
                                   "--error-exitcode", HB_MEMCHECK_ERROR_EXIT_TEXT, "--print-limit",
                                   HB_SANITIZE_PRINT_LIMIT_TEXT, "--log-file", log, self, "check", NULL};
    for (const char *const *word = command; *word; word++)
        hb_argv_add(argv, *word);
    HB_TRY(hb_argv_add_options(argv, o, HB_CMD_CHECK, hb_sanitize_pass_flags));
    /* This configuration with its own seed, checked once, in the process
     * the tool watches.  The autotune baselines take the cached choice or the
     * heuristic's: a search under a sanitizer takes ~100x longer, and this pass
     * judges the tool's errors only. */
    const char *const pass[] = {"--mnk", mnk, "--seed", seed, "--out", out_dir, "--no-isolate", "--exact-reps", "1",
                                "--no-progress", "--autotune-cache", o->autotune_cache ? o->autotune_cache : "none",
                                "--no-autotune-search", NULL};
    for (const char *const *word = pass; *word; word++)
        hb_argv_add(argv, *word);
    return argv->overflow ? hb_fail(HB_ERR_INTERNAL, "the %s pass's command line is too long",
                                    hb_sanitizer_tool_name(tool))
                          : HB_OK;
}

hb_status hb_sanitize_command(const hb_run_options *o, const char *sanitizer, const char *self, size_t index,
                              const char *out_dir, const char *log, hb_argv *argv)
{
    return hb_sanitize_tool_command(o, sanitizer, HB_SANITIZE_MEMCHECK, self, index, out_dir, log, argv);
}

/* The tool's log, read whole (bench/result/sanitize_record.h): its summary,
 * and which reports are in the library's kernels. */
static void read_log(const char *path, hb_sanitizer_log *log)
{
    hb_sanitizer_log_init(log);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f))
        hb_sanitizer_log_line(log, line);
    fclose(f);
}

static hb_status prepare_job(const hb_run_options *o, const char *sanitizer, hb_sanitizer_tool tool, size_t index,
                             const char *run_path, sanitize_job *job)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot find this program's path: %s", strerror(errno));
    self[n] = '\0';
    const hb_mnk *c = &o->configs[index];
    const char *name = hb_sanitizer_tool_name(tool);
    snprintf(job->out, sizeof job->out, "%s/%s", run_path, name);
    snprintf(job->log, sizeof job->log, "%s/%s/%ld_%ld_%ld.log", run_path, name, c->m, c->n, c->k);
    HB_TRY(hb_make_folders(job->out, "sanitizer folder"));
    return hb_sanitize_tool_command(o, sanitizer, tool, self, index, job->out, job->log, &job->argv);
}

static void fail_config(hb_config_result *r, hb_status status, hb_verdict verdict, hb_sanitizer_tool tool,
                        const char *check, const char *reason, const char *log)
{
    r->status = status;
    r->verdict = verdict;
    snprintf(r->check, sizeof r->check, "%s", check);
    snprintf(r->reason, sizeof r->reason, "compute-sanitizer %s: %.200s (log: %.250s)", hb_sanitizer_tool_name(tool),
             reason, log);
}

/* One tool's pass.  *stop = 1 when no further tool should run (interrupted, the harness failed, timed out). */
static hb_status run_tool(const hb_run_options *options, const char *sanitizer, hb_sanitizer_tool tool, size_t index,
                          const char *run_path, hb_config_result *r, int *stop)
{
    static sanitize_job job;
    memset(&job, 0, sizeof job);
    HB_TRY(prepare_job(options, sanitizer, tool, index, run_path, &job));
    hb_child_outcome outcome;
    char nothing;
    /* The tools run kernels 10-100x slower and instrument every module at load. */
    HB_TRY(hb_run_isolated(exec_sanitizer, &job, &nothing, 0, options->timeout_s * 10, &outcome));
    *stop = 1;
    const unsigned bit = HB_SANITIZE_BIT(tool);
    if (outcome.end == HB_CHILD_INTERRUPTED) {
        return HB_OK; /* the run loop sees the signal and lists this configuration as not run */
    } else if (hb_child_end_is_harness_fault(&outcome)) {
        /* Silent before the inner run reached candidate code: compute-sanitizer or the harness's set-up. */
        fail_config(r, HB_ERR_CUDA, HB_VERDICT_ERROR, tool, "", outcome.message, job.log);
        return HB_OK;
    } else if (outcome.end == HB_CHILD_TIMED_OUT) {
        fail_config(r, HB_ERR_CANDIDATE_FAULT, HB_VERDICT_TIMED_OUT, tool, "timeout", outcome.message, job.log);
        return HB_OK;
    } else if (outcome.end == HB_CHILD_EXITED && outcome.exit_code == 127) {
        return hb_fail(HB_ERR_INTERNAL, "could not start %s", job.argv.word[0]);
    }
    *stop = 0;
    static hb_sanitizer_log log;
    read_log(job.log, &log);
    long errors = hb_sanitizer_log_candidate_errors(&log);
    const int flagged = outcome.end == HB_CHILD_EXITED && outcome.exit_code == HB_MEMCHECK_ERROR_EXIT;
    /* The exit status says errors were found; the summary says how many (racecheck's warnings alone are none),
     * and those in the library's kernels (the baselines') are not the candidate's. */
    if (flagged && errors < 0)
        errors = 1;
    r->sanitize.ran |= bit;
    r->sanitize.errors[tool] = errors > 0 ? errors : 0;
    r->sanitize.library_errors[tool] = log.library_reports;
    if (flagged && errors > 0) {
        r->sanitize.failed |= bit;
        if (r->status == HB_OK) /* the first tool that found errors gives the verdict */
            fail_config(r, HB_ERR_INCORRECT, HB_VERDICT_INCORRECT, tool, hb_sanitizer_tool_name(tool),
                        log.first[0] ? log.first : "see the log", job.log);
    }
    /* Anything else (clean, or a failure the normal evaluation will name in detail) goes on. */
    return HB_OK;
}

hb_status hb_sanitize_config(const hb_run_options *options, const char *sanitizer, size_t index, const char *run_path,
                             hb_config_result *r, hb_status *status)
{
    hb_config_result_init(r, &options->configs[index]);
    int stop = 0;
    for (int t = 0; t < HB_N_SANITIZER_TOOLS && !stop; t++)
        if (options->sanitize_tools & HB_SANITIZE_BIT(t))
            HB_TRY(run_tool(options, sanitizer, (hb_sanitizer_tool)t, index, run_path, r, &stop));
    *status = r->status;
    return HB_OK;
}
