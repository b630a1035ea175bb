#define _POSIX_C_SOURCE 200809L /* glob */
#include "bench/driver/reproduce_sweep.h"

#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/analysis/result_folders.h"
#include "bench/analysis/result_set.h"
#include "bench/core/diag.h"
#include "bench/core/folders.h"
#include "bench/sweep/plan_file.h"

#define PATH_SIZE 4200

static int exists_in(const char *folder, const char *name)
{
    char path[PATH_SIZE];
    struct stat st;
    return (size_t)snprintf(path, sizeof path, "%s/%s", folder, name) < sizeof path && lstat(path, &st) == 0;
}

static void add_mode(hb_repro_sweep *out, hb_mode mode)
{
    if (!hb_repro_sweep_has_mode(out, mode) && out->n_modes < 2)
        out->modes[out->n_modes++] = mode;
}

/* The plan of `folder`'s plan.json (a shard's names the whole plan). */
static hb_status from_plan(const char *folder, hb_repro_sweep *out)
{
    static hb_plan_file plan; /* large: the configurations and the command line */
    HB_TRY(hb_plan_file_read(folder, &plan));
    out->planned = 1;
    out->n_configs = plan.plan.n_configs;
    for (size_t m = 0; m < plan.plan.n_modes; m++)
        add_mode(out, plan.plan.modes[m]);
    return HB_OK;
}

/* A folder with summary.csv and no plan.json: the modes and sizes its rows
 * hold, read as `report` reads them (so a damaged one fails here, the same
 * way, before anything is written). */
static hb_status from_rows(const char *folder, hb_repro_sweep *out)
{
    hb_result_set set;
    hb_result_set_init(&set);
    hb_status status = hb_read_result_folders(&folder, 1, &set);
    for (size_t i = 0; status == HB_OK && i < set.count; i++)
        add_mode(out, set.entries[i].key.mode);
    if (status == HB_OK && out->n_modes == 2) { /* offline first, as a plan without --modes has them */
        out->modes[0] = HB_MODE_OFFLINE;
        out->modes[1] = HB_MODE_SERVER;
    }
    for (size_t i = 0; status == HB_OK && i < set.count; i++) {
        hb_config_key twin = set.entries[i].key;
        twin.mode = HB_MODE_OFFLINE;
        /* a size measured in both modes counts once: at its offline entry */
        out->n_configs += set.entries[i].key.mode == HB_MODE_OFFLINE || !hb_result_set_find(&set, &twin);
    }
    hb_result_set_free(&set);
    if (status == HB_OK && out->n_modes == 0)
        return hb_fail(HB_ERR_BAD_RESULTS, "reproduce --tables-only: %s/summary.csv holds no configuration and "
                       "the folder has no plan.json: nothing was measured there", folder);
    return status;
}

hb_status hb_repro_sweep_read(const char *out_dir, const char *sweep_dir, const char *measure_command,
                              hb_repro_sweep *out)
{
    memset(out, 0, sizeof *out);
    if (exists_in(sweep_dir, "plan.json"))
        return from_plan(sweep_dir, out);
    if (exists_in(sweep_dir, "summary.csv"))
        return from_rows(sweep_dir, out);
    char pattern[PATH_SIZE];
    snprintf(pattern, sizeof pattern, "%s-shard-*-of-*", sweep_dir); /* OUT/sweep: OUT/sweep-shard-I-of-N */
    glob_t g;
    if (glob(pattern, 0, NULL, &g) == 0) { /* the shards' sweeps, merged by the tables' first stage */
        hb_status status = from_plan(g.gl_pathv[0], out);
        globfree(&g);
        return status;
    }
    const char *why = !hb_is_folder(out_dir)        ? "there is no such folder"
                      : hb_is_folder(sweep_dir)     ? "its sweep/ holds neither plan.json nor summary.csv, and there is "
                                                   "no sweep-shard-I-of-N/ beside it"
                                                 : "it has no sweep/ and no sweep-shard-I-of-N/";
    return hb_fail(HB_ERR_BAD_RESULTS,
                   "reproduce --tables-only: nothing measured in %s (%s): the tables are made from a reproduction's "
                   "sweep. Measure first, on a GPU host, with the same command without --tables-only: `%s` (with "
                   "the plan and timing flags you want); then --tables-only rewrites the tables from it, anywhere",
                   out_dir, why, measure_command);
}

int hb_repro_sweep_has_mode(const hb_repro_sweep *sweep, hb_mode mode)
{
    for (size_t i = 0; i < sweep->n_modes; i++)
        if (sweep->modes[i] == mode)
            return 1;
    return 0;
}
