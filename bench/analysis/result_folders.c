#include "bench/analysis/result_folders.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/analysis/bad_results.h"
#include "bench/analysis/summary_reader.h"
#include "bench/analysis/plan_missing.h"
#include "bench/core/diag.h"

#define PATH_SIZE 4200

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static hb_status join(char *out, const char *folder, const char *name)
{
    if ((size_t)snprintf(out, PATH_SIZE, "%s/%s", folder, name) >= PATH_SIZE)
        return hb_fail(HB_ERR_BAD_RESULTS, "path too long: %s/%s", folder, name);
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

/* The GPU of env.json's "gpu": {"name": ...}; a note where it is not known. */
static hb_status read_gpu(const char *folder, hb_result_set *set)
{
    char path[PATH_SIZE];
    HB_TRY(join(path, folder, "env.json"));
    if (!is_file(path))
        return hb_result_set_note(set, "%s has no env.json: the GPU it ran on is not known", folder);
    json_error_t error;
    json_t *env = json_load_file(path, 0, &error);
    if (!env)
        return hb_bad_results(path, (size_t)(error.line > 0 ? error.line : 0),
                              (size_t)(error.column > 0 ? error.column : 0), NULL, "not valid JSON: %s", error.text);
    const char *name = json_string_value(json_object_get(json_object_get(env, "gpu"), "name"));
    hb_status status = name ? hb_result_set_add_gpu(set, name)
                            : hb_result_set_note(set, "%s records no GPU (the run never opened one)", path);
    json_decref(env);
    return status;
}

hb_status hb_read_result_folders(const char *const *folders, size_t count, hb_result_set *set)
{
    char path[PATH_SIZE];
    for (size_t i = 0; i < count; i++) {
        HB_TRY(check_folder(folders[i]));
        char plan[PATH_SIZE];
        HB_TRY(join(path, folders[i], "summary.csv"));
        HB_TRY(join(plan, folders[i], "plan.json"));
        int has_summary = is_file(path), has_plan = is_file(plan);
        if (!has_summary && !has_plan)
            return hb_bad_results(folders[i], 0, 0, NULL,
                                  "not a result folder: it has neither summary.csv (a run's or a sweep's results) nor "
                                  "plan.json (a sweep's plan)");
        if (has_summary)
            HB_TRY(hb_read_summary(path, set));
        HB_TRY(read_gpu(folders[i], set));
    }
    /* every folder read: a plan's configuration is missing only if no folder has it */
    for (size_t i = 0; i < count; i++) {
        HB_TRY(join(path, folders[i], "plan.json"));
        if (is_file(path))
            HB_TRY(hb_plan_list_missing(folders[i], set));
    }
    if (set->n_gpus > 1)
        HB_TRY(hb_result_set_note(set, "the folders ran on %zu different GPUs: the tables mix them", set->n_gpus));
    return hb_result_set_sort(set);
}
