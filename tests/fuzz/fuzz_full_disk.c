/* A full disk, without root: the command's child may make no file larger
 * than a random room (RLIMIT_FSIZE, with SIGXFSZ ignored, so a write past
 * it fails with EFBIG as one on a full disk fails with ENOSPC; gnuplot
 * inherits both).  Whatever the room, the command exits 0 with its outputs
 * whole, or 7 (or 11 where it refuses its input first); never 0 with a
 * file cut short or empty.  A report's or compare's --out holds the set it
 * held before or the whole new one, and no staging folder or temporary;
 * a merge that failed made no OUT; a sweep after a resume, failed or not,
 * kept every finished item; a verdict is whole JSON or not there. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/figures.h"
#include "bench/core/status.h"
#include "tests/fuzz/fuzz.h"

/* How much room: none, a few bytes to a page, a few pages, or enough for
 * most outputs (a report's files are 0.1-25 KB, its figures 10-200 KB, a
 * merged summary.csv some 80 KB). */
static long long draw_room(hb_rng *rng)
{
    static const double bounds[4][2] = {{0, 0}, {1, 4096}, {4096, 131072}, {131072, 4194304}};
    const uint64_t band = fuzz_below(rng, 20);
    const double *b = bounds[band < 3 ? 0 : band < 10 ? 1 : band < 17 ? 2 : 3];
    if (b[1] == 0)
        return 0;
    return (long long)(b[0] * pow(b[1] / b[0], hb_rng_uniform(rng))); /* log-uniform */
}

/* No file but hidden ones in `folder`. */
static int holds_nothing(const char *folder)
{
    DIR *d = opendir(folder);
    struct dirent *e;
    int nothing = 1;
    while (d && (e = readdir(d)))
        nothing &= e->d_name[0] == '.';
    if (d)
        closedir(d);
    return nothing;
}

/* report or compare --out: the old set or the whole new one. */
static void check_published(const fuzz_job *job, int code, const char *old, fuzz_outcome *out)
{
    char why[256];
    if (code == 0) {
        if (!fuzz_published_is(job->output, job->owner, job->reference, why, sizeof why))
            return fuzz_broke(out, "exit 0, but %s is not the whole new set: %s", job->output, why);
        fuzz_check_listed(job->output, job->owner, out);
    } else if (!fuzz_published_is(job->output, job->owner, job->reference, why, sizeof why) &&
               !(old ? fuzz_published_is(job->output, job->owner, old, why, sizeof why)
                     : holds_nothing(job->output))) {
        return fuzz_broke(out, "exit %d, and %s holds neither the set it held before nor the whole new one (%s)",
                          code, job->output, why);
    }
    fuzz_check_no_leftovers(job->output, out);
}

/* A merge that succeeded made a whole sweep folder; one that failed made no OUT. */
static void check_merged(const fuzz_corpus *c, const fuzz_job *job, int code, fuzz_outcome *out)
{
    char merged[FUZZ_PATH], path[FUZZ_PATH], env[FUZZ_PATH];
    fuzz_join(merged, job->dir, "out");
    if (code != 0) {
        if (fuzz_exists(merged))
            fuzz_broke(out, "exit %d, yet OUT was made", code);
        return;
    }
    static const char *const json[] = {"plan.json", "verdict.json", "merge.json", "env.json"};
    for (size_t i = 0; i < FUZZ_COUNT(json) && !out->failed; i++) {
        fuzz_join(path, merged, json[i]);
        if (!fuzz_json_whole(path))
            fuzz_broke(out, "exit 0, but OUT's %s is missing or not whole JSON", json[i]);
    }
    fuzz_join(path, merged, "env.json");
    fuzz_join(env, c->shard[0], "env.json");
    size_t a, b;
    char *copied = fuzz_read_file(path, &a), *first = fuzz_read_file(env, &b);
    if (!out->failed && (!copied || !first || a != b || memcmp(copied, first, a)))
        fuzz_broke(out, "exit 0, but OUT's env.json is not the first shard's, whole");
    free(copied);
    free(first);
    const char *report[] = {"hgemm-bench", "report", "out", NULL};
    fuzz_outcome again = {0};
    int read = out->failed ? 0 : fuzz_command(job->dir, report, &again);
    if (read != 0)
        fuzz_broke(out, "exit 0, but report of OUT exits %d (its files cut short?)", read);
}

void fuzz_full_disk_case(const fuzz_corpus *c, const char *dir, hb_rng *rng, fuzz_outcome *out)
{
    static fuzz_job job;
    static const int kinds[] = {FUZZ_JOB_REPORT, FUZZ_JOB_REPORT, FUZZ_JOB_REPORT, FUZZ_JOB_COMPARE,
                                FUZZ_JOB_MERGE,  FUZZ_JOB_RESUME, FUZZ_JOB_RESUME, FUZZ_JOB_CHECK};
    char how[400];
    if (fuzz_job_make(c, dir, kinds[fuzz_below(rng, FUZZ_COUNT(kinds))], rng, 0, &job) != 0)
        return fuzz_broke(out, "cannot set up the case");
    fuzz_job_refusals(&job);
    const char *old = NULL;
    int plots = 0;
    if (job.owner) {
        const int report = job.kind == FUZZ_JOB_REPORT;
        const char *sets[2] = {report ? c->report_sweep : c->compare_sweep, report ? c->report_run : c->compare_run};
        if (fuzz_below(rng, 2)) { /* an older set there: the other seed's */
            old = !strcmp(job.reference, sets[0]) ? sets[1] : sets[0];
            fuzz_remove_tree(job.output);
            if (fuzz_copy_tree(old, job.output) != 0)
                return fuzz_broke(out, "cannot copy the older set");
        }
        if (fuzz_below(rng, 4) == 0 && hb_gnuplot_available()) {
            plots = 1;
            size_t n = 0;
            while (job.argv[n])
                n++;
            job.argv[n] = "--plots";
            job.argv[n + 1] = NULL;
        }
    }
    const fuzz_how full = {.quiet = 1, .full_disk = 1, .room = draw_room(rng)};
    snprintf(how, sizeof how, "%s%s%s with room for %lld bytes a file", job.name, plots ? " --plots" : "",
             old ? " over an older set" : "", full.room);
    int code = fuzz_command_as(dir, job.argv, &full, out);
    fuzz_judge(out, job.name, code, job.allowed, job.n_allowed);
    if (!out->failed) {
        if (job.owner)
            check_published(&job, code, old, out);
        else if (job.kind == FUZZ_JOB_MERGE)
            check_merged(c, &job, code, out);
        if (job.kind == FUZZ_JOB_RESUME && code != HB_ERR_BAD_RESULTS)
            fuzz_check_kept(job.input, job.journal, job.journal_size, job.csv, job.csv_size, out);
        if (!out->failed)
            fuzz_job_check_written(&job, code, out);
    }
    fuzz_job_free(&job);
    fuzz_say_how(out, how);
}
