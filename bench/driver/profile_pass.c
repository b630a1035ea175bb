#define _POSIX_C_SOURCE 200809L
#include "bench/driver/profile_pass.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/analysis/ncu_csv.h"
#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/core/out_file.h"
#include "bench/core/toolkit_program.h"
#include "bench/driver/config_eval.h"
#include "bench/driver/interrupt.h"
#include "bench/driver/isolate.h"
#include "bench/driver/profile_calls.h"
#include "bench/driver/profile_output.h"
#include "bench/driver/watched_exec.h"
#include "bench/import/command_run.h"
#include "bench/result/baseline_registry.h"
#include "bench/result/gate.h"

/* Flags the pass sets itself, or leaves out (--sanitize: no tool under ncu;
 * --verdict: the user's file is the outer run's; --retune: no search under
 * ncu; --json: the outer run's lines alone are the loop's); every other
 * flag `check` takes reaches the profiled process as the run gave it
 * (--device, --acc, --workspace, --stream, ...). */
static const char *const pass_flags[] = {"mnk", "seed", "out", "no-isolate", "exact-reps", "no-progress",
                                         "autotune-cache", "no-autotune-search", "retune", "sanitize", "verdict",
                                         "json", NULL};

size_t hb_profile_participants(const hb_run_options *o, const hb_config_result *r, const char **names, size_t max)
{
    size_t count = 0;
    names[count++] = "candidate";
    const char *vs = o->vs ? o->vs : "torch";
    const hb_participant_result *row = hb_find_participant(r, vs);
    if (hb_baseline_find(vs)) {
        names[count++] = vs;
        return count;
    }
    if (row && row->max_of[0]) { /* the layout the -max row took */
        names[count++] = row->max_of;
        return count;
    }
    for (size_t i = 0; i < hb_max_pair_count() && count + 2 <= max; i++) {
        hb_max_pair pair = hb_max_pair_at(i);
        if (!strcmp(pair.name, vs)) {
            names[count++] = pair.nn;
            names[count++] = pair.tn;
        }
    }
    return count;
}

hb_status hb_profile_command(const hb_run_options *o, const char *ncu, const char *self, size_t index,
                             const char *participant, const char *out_dir, const char *report, hb_argv *argv)
{
    const hb_mnk *c = &o->configs[index];
    char mnk[96], seed[32], range[128], metrics[1024];
    snprintf(mnk, sizeof mnk, "%ld,%ld,%ld", c->m, c->n, c->k);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)hb_config_seed(o->seed, index));
    /* "NAME/": kernels launched inside the push/pop range NAME, and no other. */
    snprintf(range, sizeof range, "%s%s/", HB_PROFILE_RANGE_PREFIX, participant);
    hb_profile_metric_list(metrics, sizeof metrics);
    /* The raw page: every metric by its own name, in its base unit (bytes, ns), one row per kernel (as an H100 with
     * CUDA 13's ncu printed it); a unit the table does not expect is refused by the parser, not guessed at. */
    /* --log-file: ncu's own output, the CSV with it, goes to `report`, apart from the profiled process's stdout,
     * where candidate code runs and could print rows that read like ncu's. */
    const char *const command[] = {ncu, "--log-file", report, "--nvtx", "--nvtx-include", range, "--metrics", metrics,
                                   "--csv", "--page", "raw", self, "check", NULL};
    for (const char *const *word = command; *word; word++)
        hb_argv_add(argv, *word);
    HB_TRY(hb_argv_add_options(argv, o, HB_CMD_CHECK, pass_flags));
    /* The autotune baselines take the choice the evaluation cached (or the heuristic's): no search under ncu. */
    const char *const pass[] = {"--mnk", mnk, "--seed", seed, "--out", out_dir, "--no-isolate", "--exact-reps", "1",
                                "--no-progress", "--autotune-cache", o->autotune_cache ? o->autotune_cache : "none",
                                "--no-autotune-search", NULL};
    for (const char *const *word = pass; *word; word++)
        hb_argv_add(argv, *word);
    return argv->overflow ? hb_fail(HB_ERR_INTERNAL, "the profile pass's command line is too long") : HB_OK;
}

typedef struct profile_job {
    hb_profile_output files; /* ncu's report (--log-file: the CSV), and every other output of the process */
    char out[4200];
    const char *participant;
    hb_argv argv;
} profile_job;

/* In the watched child: stdout and stderr (the profiled process's, and
 * whatever ncu prints outside its report) to the log, then ncu running
 * `hgemm-bench check` with the participant to call in its environment; ncu
 * writes its report itself (--log-file). */
static hb_status exec_ncu(void *context, void *result, size_t size)
{
    (void)result;
    (void)size;
    profile_job *job = context;
    if (setenv(HB_PROFILE_CALLS_ENV, job->participant, 1) != 0) {
        fprintf(stderr, "hgemm-bench: cannot set the profiled process's environment: %s\n", strerror(errno));
        _exit(126);
    }
    hb_exec_watched(job->argv.word, "ncu", job->files.log);
}

static hb_status prepare_job(const hb_run_options *o, const char *ncu, size_t index, const char *run_path,
                             const char *participant, profile_job *job)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot find this program's path: %s", strerror(errno));
    self[n] = '\0';
    const hb_mnk *c = &o->configs[index];
    job->participant = participant;
    snprintf(job->out, sizeof job->out, "%s/profile", run_path);
    const char *mode = hb_mode_name(o->mode); /* a sweep profiles a configuration once per mode */
    snprintf(job->files.csv, sizeof job->files.csv, "%s/%ld_%ld_%ld.%s.%s.csv", job->out, c->m, c->n, c->k, mode,
             participant);
    snprintf(job->files.log, sizeof job->files.log, "%s/%ld_%ld_%ld.%s.%s.log", job->out, c->m, c->n, c->k, mode,
             participant);
    return hb_profile_command(o, ncu, self, index, participant, job->out, job->files.csv, &job->argv);
}

/* One ncu process for one participant.  0 when the pass must stop (interrupted, or ncu cannot run). */
static int profile_participant(const hb_run_options *o, const char *ncu, size_t index, const char *run_path,
                               const char *participant, hb_profile_record *p)
{
    static profile_job job;
    memset(&job, 0, sizeof job);
    if (prepare_job(o, ncu, index, run_path, participant, &job) != HB_OK) {
        hb_profile_note(p, "%s", hb_last_error());
        return 0;
    }
    hb_child_outcome outcome;
    char nothing;
    /* ncu replays every kernel once per group of counters, and instruments the process at start. */
    if (hb_run_isolated(exec_ncu, &job, &nothing, 0, o->timeout_s * 10, &outcome) != HB_OK) {
        hb_profile_note(p, "%s", hb_last_error());
        return 0;
    }
    if (outcome.end == HB_CHILD_INTERRUPTED) {
        hb_profile_note(p, "interrupted");
        return 0;
    }
    if (outcome.end == HB_CHILD_EXITED && (outcome.exit_code == 127 || outcome.exit_code == 126)) {
        hb_profile_note(p, "could not start %s (log %s)", ncu, job.files.log);
        return 0;
    }
    if (outcome.end == HB_CHILD_TIMED_OUT || outcome.end == HB_CHILD_SIGNALED) {
        hb_profile_note(p, "%s: ncu %s (log %s)", participant, outcome.message, job.files.log);
        return 1;
    }
    char ended[300];
    if (outcome.end == HB_CHILD_EXITED) /* ncu passes on the profiled process's exit status */
        snprintf(ended, sizeof ended, "exited with status %d", outcome.exit_code);
    else
        snprintf(ended, sizeof ended, "%s", outcome.message);
    hb_profile_output_read(&job.files, participant, ended, p);
    return 1;
}

/* ncu's "Version ..." line, or "" when it does not say; asked once per process (a run's or a sweep worker's ncu is
 * the same for every configuration). */
static void read_version(const char *ncu, const char *run_path, hb_profile_record *p)
{
    static char known[sizeof p->version];
    if (!known[0]) {
        char out[4300], log[4300];
        snprintf(out, sizeof out, "%s/profile/ncu-version.txt", run_path);
        snprintf(log, sizeof log, "%s/profile/ncu-version.log", run_path);
        char *const argv[] = {(char *)ncu, "--version", NULL};
        hb_command_end end;
        if (hb_command_run(argv, NULL, out, log, 30, &end) == HB_OK && end.exited && end.code == 0)
            hb_profile_version_read(out, p);
        snprintf(known, sizeof known, "%s", p->version);
    }
    snprintf(p->version, sizeof p->version, "%s", known);
}

/* ncu's path into `path`, or 0 with the note saying where it was looked for. */
static int find_ncu(hb_profile_record *p, char *path, size_t size)
{
    switch (hb_toolkit_program_find("ncu", HB_NCU_ENV, path, size)) {
    case HB_PROGRAM_FOUND:
        return 1;
    case HB_PROGRAM_NAMED_BAD:
        hb_profile_note(p, "%s=%s is not an executable: no profile", HB_NCU_ENV, path);
        return 0;
    case HB_PROGRAM_MISSING:
        break;
    }
    hb_profile_note(p, "Nsight Compute (ncu) not found in $%s, $CUDA_HOME/bin, /usr/local/cuda/bin or PATH: no profile "
            "(install the CUDA Toolkit's Nsight Compute, or set %s to its ncu)", HB_NCU_ENV, HB_NCU_ENV);
    return 0;
}

void hb_profile_config(const hb_run_options *o, size_t index, const char *run_path, hb_config_result *r)
{
    hb_profile_record *p = &r->profile;
    memset(p, 0, sizeof *p);
    p->asked = 1;
    if (r->status != HB_OK) {
        hb_profile_note(p, "not profiled: the configuration did not pass its checks (%s)", hb_verdict_name(r->verdict));
        return;
    }
    const double start = hb_now_s();
    char ncu[4096];
    char folder[4200];
    snprintf(folder, sizeof folder, "%s/profile", run_path);
    if (hb_make_folders(folder, "profile folder") != HB_OK)
        hb_profile_note(p, "%s", hb_last_error());
    else if (find_ncu(p, ncu, sizeof ncu)) {
        read_version(ncu, run_path, p);
        const char *names[HB_PROFILE_MAX_PARTICIPANTS];
        size_t count = hb_profile_participants(o, r, names, HB_PROFILE_MAX_PARTICIPANTS);
        for (size_t i = 0; i < count && !hb_interrupted(); i++)
            if (!profile_participant(o, ncu, index, run_path, names[i], p))
                break;
        p->ran = p->count > 0;
    }
    p->seconds = hb_now_s() - start;
}
