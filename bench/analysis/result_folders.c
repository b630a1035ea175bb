#define _POSIX_C_SOURCE 200809L /* lstat */
#include "bench/analysis/result_folders.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/analysis/bad_results.h"
#include "bench/analysis/build_reasons.h"
#include "bench/analysis/plan_missing.h"
#include "bench/analysis/run_protocol.h"
#include "bench/analysis/summary_reader.h"
#include "bench/core/diag.h"
#include "bench/core/input_file.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/sweep_files.h"

#define PATH_SIZE 4200

/* env.json is a few KiB (one run's GPU, software and flags); 16 MiB is no env.json. */
#define ENV_MAX_BYTES ((size_t)16 << 20)

static hb_status join(char *out, const char *folder, const char *name)
{
    if ((size_t)snprintf(out, PATH_SIZE, "%s/%s", folder, name) >= PATH_SIZE)
        return hb_fail(HB_ERR_BAD_RESULTS, "path too long: %s/%s", folder, name);
    return HB_OK;
}

/* Whether a folder's file is there: *present = 0 only when nothing is under
 * its name.  Something there that is not a regular file (a folder, a FIFO, a
 * symbolic-link loop, a link to nothing) is refused, not taken for absent:
 * an unreadable summary.csv must not read as "nothing was run". */
static hb_status probe(const char *path, int *present)
{
    struct stat st;
    *present = 0;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return HB_OK;
        return hb_bad_results(path, 0, 0, NULL, "cannot be read: %s", strerror(errno));
    }
    const char *kind = hb_input_kind(path);
    if (strcmp(kind, "a regular file"))
        return hb_bad_results(path, 0, 0, NULL, "is %s, not a regular file", kind);
    *present = 1;
    return HB_OK;
}

static hb_status check_folder(const char *folder)
{
    struct stat st;
    if (stat(folder, &st) != 0)
        return hb_bad_results(folder, 0, 0, NULL, "not a result folder: %s", strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return hb_bad_results(folder, 0, 0, NULL,
                              "not a folder: give a run's results folder (results/<run-id>/) or a sweep's folder");
    return HB_OK;
}

/* What env.json says of the configurations read from a folder (entries
 * `first` on): their candidate; and of the folder, its GPU and the
 * protocol line (bench/analysis/run_protocol.h). */
static hb_status use_env(const char *folder, const char *path, const json_t *env, const hb_plan_file *plan,
                         size_t first, hb_result_set *set)
{
    const char *candidate = json_string_value(json_object_get(env, "candidate"));
    const char *kept = candidate && candidate[0] ? hb_result_set_add_candidate(set, candidate) : NULL;
    if (candidate && candidate[0] && !kept)
        return HB_ERR_INTERNAL;
    for (size_t i = first; i < set->count; i++)
        set->entries[i].candidate = kept;
    HB_TRY(hb_run_protocol_note(folder, env, plan, set->count - first, set));
    const char *name = json_string_value(json_object_get(json_object_get(env, "gpu"), "name"));
    return name ? hb_result_set_add_gpu(set, name)
                : hb_result_set_note(set, "%s records no GPU (the run never opened one)", path);
}

/* env.json: the GPU of its "gpu": {"name": ...}, the candidate and the
 * protocol; a note where there is none. */
static hb_status read_env(const char *folder, const hb_plan_file *plan, size_t first, hb_result_set *set)
{
    char path[PATH_SIZE], *text;
    size_t size;
    HB_TRY(join(path, folder, "env.json"));
    HB_TRY(hb_input_inside_folder(path, HB_ERR_BAD_RESULTS));
    HB_TRY(hb_input_read(path, NULL, ENV_MAX_BYTES, HB_ERR_BAD_RESULTS, 1, &text, &size));
    if (!text)
        return hb_result_set_note(set, "%s has no env.json: the GPU it ran on is not known", folder);
    size_t nul_line, nul_column;
    if (hb_text_nul_at(text, size, &nul_line, &nul_column)) {
        free(text);
        return hb_bad_results(path, nul_line, nul_column, NULL, "a NUL byte: not text (damaged)");
    }
    json_error_t error;
    json_t *env = json_loadb(text, size, 0, &error);
    free(text);
    if (!env)
        return hb_bad_results(path, (size_t)(error.line > 0 ? error.line : 0),
                              (size_t)(error.column > 0 ? error.column : 0), NULL, "not valid JSON: %s", error.text);
    hb_status status = use_env(folder, path, env, plan, first, set);
    json_decref(env);
    return status;
}

/* A sweep's folder: its journal and summary.csv checked against each other
 * (bench/sweep/sweep_files.h), then the rows the journal vouches for read;
 * rows after them (an item in flight) are left out, with a note.  A plan of
 * an earlier version is noted: it had no plan_sha256 to check. */
static hb_status read_sweep(const char *folder, hb_plan_file *plan, hb_result_set *set)
{
    static hb_sweep_files files;
    HB_TRY(hb_plan_file_read(folder, plan));
    if (plan->version != HB_PLAN_VERSION)
        HB_TRY(hb_result_set_note(set, "%s/plan.json is a plan of version %d (harness %s), written before plans "
                                  "carried " HB_PLAN_DIGEST_KEY ": read with every check of the folder but that one",
                                  folder, plan->version, plan->harness_commit));
    hb_status status = hb_sweep_files_read(folder, plan, 0, &files);
    if (status == HB_OK && files.has_csv)
        status = hb_read_summary_text(files.csv_path, files.csv, files.vouched, set);
    if (status == HB_OK && files.csv_size > files.vouched)
        status = hb_result_set_note(set, "%s: %zu bytes of rows of %s after the journal's last line (an item in "
                                    "flight, or cut short) are left out", files.csv_path,
                                    files.csv_size - files.vouched, files.tail_config);
    hb_sweep_files_free(&files);
    return status;
}

static hb_status read_folder(const char *folder, hb_result_set *set)
{
    char summary[PATH_SIZE], plan_path[PATH_SIZE], journal[PATH_SIZE];
    int has_summary, has_plan, has_journal;
    HB_TRY(check_folder(folder));
    HB_TRY(join(summary, folder, "summary.csv"));
    HB_TRY(join(plan_path, folder, "plan.json"));
    HB_TRY(join(journal, folder, HB_JOURNAL_NAME));
    HB_TRY(probe(summary, &has_summary));
    HB_TRY(probe(plan_path, &has_plan));
    HB_TRY(probe(journal, &has_journal));
    if (has_journal && !has_plan)
        return hb_bad_results(folder, 0, 0, NULL, "a sweep folder without its plan.json (it has %s): put the "
                              "sweep's plan.json back", HB_JOURNAL_NAME);
    if (!has_summary && !has_plan)
        return hb_bad_results(folder, 0, 0, NULL,
                              "not a result folder: it has neither summary.csv (a run's or a sweep's results) nor "
                              "plan.json (a sweep's plan)");
    static hb_plan_file plan;
    size_t first = set->count;
    if (has_plan)
        HB_TRY(read_sweep(folder, &plan, set));
    else if (hb_input_inside_folder(summary, HB_ERR_BAD_RESULTS) == HB_OK)
        HB_TRY(hb_read_summary(summary, set));
    else
        return HB_ERR_BAD_RESULTS;
    return read_env(folder, has_plan ? &plan : NULL, first, set);
}

hb_status hb_read_result_folders(const char *const *folders, size_t count, hb_result_set *set)
{
    char path[PATH_SIZE];
    for (size_t i = 0; i < count; i++)
        HB_TRY(read_folder(folders[i], set));
    /* every folder read: a plan's configuration is missing only if no folder has it */
    for (size_t i = 0; i < count; i++) {
        int has_plan;
        HB_TRY(join(path, folders[i], "plan.json"));
        HB_TRY(probe(path, &has_plan));
        if (has_plan)
            HB_TRY(hb_plan_list_missing(folders[i], set));
    }
    if (set->n_gpus > 1)
        HB_TRY(hb_result_set_note(set, "the folders ran on %zu different GPUs: the tables mix them", set->n_gpus));
    if (set->n_candidates > 1)
        HB_TRY(hb_result_set_note(set, "the folders ran %zu different candidates: the tables mix them",
                                  set->n_candidates));
    HB_TRY(hb_apply_build_reasons(set));
    return hb_result_set_sort(set);
}
