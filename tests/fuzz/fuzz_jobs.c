/* The commands that write, each set up in a case's folder with what it
 * reads, where it writes, and the exit codes of its success and of its
 * refusals: report --out, compare --out, merge, sweep --resume (with
 * --verdict) and check --verdict (of a configuration found unsupported
 * before the GPU, so that it writes its run folder and verdict without one). */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/core/status.h"
#include "tests/fuzz/fuzz.h"

/* The names each writes, beside its outputs' own: temporaries, its lock,
 * its list, a staging folder's (a name its mkdtemp would not pick, but one
 * a cleaner of stale staging folders would find). */
static const char *const report_names[] = {
    "report.md", "report.json", "table1.csv", "excluded.csv", "speedup_offline.csv", ".hgemm-report.files",
    ".hgemm-lock", "report.md.tmp", "table1.csv.tmp", ".hgemm-report-AAAAAA", ".report.md.AAAAAA", NULL};
static const char *const compare_names[] = {
    "compare.md", "compare.json", "compare_summary.csv", "compare_status.csv", ".hgemm-compare.files",
    ".hgemm-lock", "compare.md.tmp", ".hgemm-report-AAAAAA", NULL};
static const char *const merge_names[] = {"out.partial", NULL};
static const char *const resume_names[] = {
    "verdict.json.tmp", "verdict.json", "summary.csv.tmp", "journal.jsonl.tmp", "plan.json.tmp", "env.json.tmp",
    ".hgemm-lock", ".verdict.json.AAAAAA", NULL};
static const char *const verdict_names[] = {"v.json.tmp", "v.json", NULL};
static const char *const sweep_inputs[] = {"summary.csv", "journal.jsonl", "plan.json", "env.json", NULL};
static const char *const none[] = {NULL};

static const char *fold(fuzz_job *job, size_t slot, const char *dir, const char *name)
{
    fuzz_join(job->paths[slot], dir, name);
    return job->paths[slot];
}

void fuzz_job_allow(fuzz_job *job, int code)
{
    if (job->n_allowed < FUZZ_COUNT(job->allowed) && !fuzz_allowed(code, job->allowed, job->n_allowed))
        job->allowed[job->n_allowed++] = code;
}

/* report or compare of a seed: in place (its absolute path: the output is
 * then the corpus's reference, byte for byte) or a copy the case may harm. */
static int make_reader(const fuzz_corpus *c, const char *dir, hb_rng *rng, int copy, int compare, fuzz_job *job)
{
    const int of_sweep = (int)fuzz_below(rng, 2);
    const char *seed = of_sweep ? c->sweep : c->run;
    const char *operand = seed;
    if (copy) {
        operand = "s";
        if (fuzz_copy_tree(seed, fold(job, 0, dir, "s")) != 0)
            return -1;
        snprintf(job->input, sizeof job->input, "%s", job->paths[0]);
        job->inputs = sweep_inputs;
    }
    fold(job, 1, dir, "d");
    if (mkdir(job->paths[1], 0755) != 0)
        return -1;
    snprintf(job->output, sizeof job->output, "%s", job->paths[1]);
    size_t n = 0;
    job->argv[n++] = "hgemm-bench";
    job->argv[n++] = compare ? "compare" : "report";
    job->argv[n++] = operand;
    if (compare) {
        job->argv[n++] = "--published";
        job->argv[n++] = c->published;
    }
    job->argv[n++] = "--out";
    job->argv[n++] = "d";
    job->argv[n] = NULL;
    job->name = compare ? "compare" : "report";
    job->owner = job->name;
    job->names = compare ? compare_names : report_names;
    job->reference = compare ? (of_sweep ? c->compare_sweep : c->compare_run) : (of_sweep ? c->report_sweep
                                                                                            : c->report_run);
    fuzz_job_allow(job, 0);
    if (compare)
        fuzz_job_allow(job, HB_ERR_PUBLISHED_MISMATCH);
    return 0;
}

static int make_merge(const fuzz_corpus *c, const char *dir, fuzz_job *job)
{
    if (fuzz_copy_tree(c->shard[0], fold(job, 0, dir, "s")) != 0 ||
        fuzz_copy_tree(c->shard[1], fold(job, 1, dir, "t")) != 0)
        return -1;
    snprintf(job->input, sizeof job->input, "%s", job->paths[0]);
    snprintf(job->output, sizeof job->output, "%s", dir);
    fold(job, 2, dir, "out");
    const char *argv[] = {"hgemm-bench", "merge", "out", "s", "t", NULL};
    memcpy(job->argv, argv, sizeof argv);
    job->name = "merge";
    job->names = merge_names;
    job->inputs = sweep_inputs;
    fuzz_job_allow(job, 0);
    return 0;
}

static void keep_before(fuzz_job *job)
{
    char path[FUZZ_PATH];
    fuzz_join(path, job->input, "journal.jsonl");
    job->journal = fuzz_read_file(path, &job->journal_size);
    fuzz_join(path, job->input, "summary.csv");
    job->csv = fuzz_read_file(path, &job->csv_size);
}

static int make_resume(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_job *job)
{
    const char *seed = fuzz_below(rng, 2) ? c->sweep : c->partial;
    if (fuzz_copy_tree(seed, fold(job, 0, dir, "s")) != 0 || mkdir(fold(job, 1, dir, "vd"), 0755) != 0)
        return -1;
    snprintf(job->input, sizeof job->input, "%s", job->paths[0]);
    snprintf(job->output, sizeof job->output, "%s", job->paths[0]);
    size_t n = 0;
    job->argv[n++] = "hgemm-bench";
    job->argv[n++] = "sweep";
    job->argv[n++] = "--resume";
    job->argv[n++] = "s";
    job->argv[n++] = "--no-progress";
    if (fuzz_below(rng, 2)) {
        job->argv[n++] = "--verdict";
        job->argv[n++] = "vd/v.json";
        job->verdict = 1;
        snprintf(job->verdict_dir, sizeof job->verdict_dir, "%s", job->paths[1]);
    }
    job->argv[n] = NULL;
    job->name = "resume";
    job->names = resume_names;
    job->inputs = sweep_inputs;
    keep_before(job);
    /* items left and the GPU hidden: 5; none left: the most severe item's status */
    fuzz_job_allow(job, HB_ERR_CUDA);
    fuzz_job_allow(job, job->journal ? fuzz_worst_status(job->journal, job->journal_size) : 0);
    return 0;
}

static int make_check(const fuzz_corpus *c, const char *dir, fuzz_job *job)
{
    if (mkdir(fold(job, 0, dir, "vd"), 0755) != 0)
        return -1;
    snprintf(job->output, sizeof job->output, "%s", job->paths[0]);
    fuzz_join(job->paths[1], c->cubin_set, "manifest.json");
    /* the sample claims fp32: at --acc fp16 every configuration is unsupported before the GPU */
    const char *argv[] = {"hgemm-bench", "check", "--candidate", job->paths[1], "--mnk", "64,64,64", "--acc", "fp16",
                          "--no-progress", "--out", "o", "--verdict", "vd/v.json", NULL};
    memcpy(job->argv, argv, sizeof argv);
    job->name = "check";
    job->names = verdict_names;
    job->inputs = none;
    job->verdict = 1;
    snprintf(job->verdict_dir, sizeof job->verdict_dir, "%s", job->paths[0]);
    fuzz_job_allow(job, HB_ERR_UNSUPPORTED);
    return 0;
}

int fuzz_job_make(const fuzz_corpus *c, const char *dir, int kind, hb_rng *rng, int copy, fuzz_job *job)
{
    memset(job, 0, sizeof *job);
    job->kind = kind;
    snprintf(job->dir, sizeof job->dir, "%s", dir);
    job->inputs = none;
    switch (kind) {
    case FUZZ_JOB_REPORT:
        return make_reader(c, dir, rng, copy, 0, job);
    case FUZZ_JOB_COMPARE:
        return make_reader(c, dir, rng, copy, 1, job);
    case FUZZ_JOB_MERGE:
        return make_merge(c, dir, job);
    case FUZZ_JOB_RESUME:
        return make_resume(c, dir, rng, job);
    default:
        return make_check(c, dir, job);
    }
}

void fuzz_job_refusals(fuzz_job *job)
{
    fuzz_job_allow(job, HB_ERR_IO);
    fuzz_job_allow(job, HB_ERR_BAD_RESULTS);
}

void fuzz_job_free(fuzz_job *job)
{
    free(job->journal);
    free(job->csv);
    job->journal = job->csv = NULL;
}

/* The run folder check made under o/: its files whole. */
static void check_run_folder(const char *dir, int code, fuzz_outcome *out)
{
    char o[FUZZ_PATH], run[FUZZ_PATH], path[FUZZ_PATH];
    fuzz_join(o, dir, "o");
    DIR *d = opendir(o);
    struct dirent *e;
    run[0] = '\0';
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.')
            fuzz_join(run, o, e->d_name);
    if (d)
        closedir(d);
    if (!run[0])
        return fuzz_broke(out, "exit %d, but check wrote no run folder in %s", code, o);
    static const char *const json[] = {"env.json", "verdict.json"};
    for (size_t i = 0; i < FUZZ_COUNT(json) && !out->failed; i++) {
        fuzz_join(path, run, json[i]);
        if (!fuzz_json_whole(path))
            fuzz_broke(out, "exit %d, but %s is missing or not whole JSON (cut short)", code, path);
    }
    size_t size;
    fuzz_join(path, run, "summary.csv");
    char *csv = fuzz_read_file(path, &size);
    if (!out->failed && (!csv || size == 0 || csv[size - 1] != '\n' || !memchr(csv, '\n', size - 1)))
        fuzz_broke(out, "exit %d, but %s is missing, empty or cut short", code, path);
    free(csv);
}

void fuzz_job_check_written(const fuzz_job *job, int code, fuzz_outcome *out)
{
    char paths[2][FUZZ_PATH];
    size_t n = 0;
    /* refused, or ended by a signal: nothing was promised; a resume that
     * finds no GPU stops before it changes the folder (docs/sweeps.md) */
    const int refused = code == HB_ERR_IO || code == HB_ERR_BAD_RESULTS || code < 0 || code > 128 ||
                        (job->kind == FUZZ_JOB_RESUME && code == HB_ERR_CUDA);
    if (job->kind == FUZZ_JOB_RESUME)
        fuzz_join(paths[n++], job->input, "verdict.json");
    if (job->verdict)
        fuzz_join(paths[n++], job->verdict_dir, "v.json");
    for (size_t i = 0; i < n && !out->failed; i++) {
        struct stat st;
        const int there = lstat(paths[i], &st) == 0 && S_ISREG(st.st_mode);
        if (!there && !refused)
            fuzz_broke(out, "exit %d, but %s was not written", code, paths[i]);
        else if (there && !fuzz_json_whole(paths[i]))
            fuzz_broke(out, "%s is not whole JSON (cut short)", paths[i]);
    }
    if (job->kind == FUZZ_JOB_CHECK && !refused && !out->failed)
        check_run_folder(job->dir, code, out);
}
