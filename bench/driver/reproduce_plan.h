/* What `reproduce` measures: the plan the flags give (every file of the set
 * without one), narrowed to the configurations the set has a file for, then
 * sampled.  The result is written as an --mnk-file that the import and the
 * sweep both take, so they agree on it on every machine and every shard,
 * and a rerun into the same folder can tell whether it is the same plan. */
#ifndef HB_REPRODUCE_PLAN_H
#define HB_REPRODUCE_PLAN_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/import/import_format.h"
#include "bench/result/run_options.h"
#include "bench/sweep/shard.h"
#include "bench/sweep/sweep_plan.h"

typedef struct hb_repro_plan {
    hb_sweep_plan plan;   /* the configurations, in plan order, and the modes */
    size_t set_files;     /* files of the format in the set's folder (CUDA-L2: M_N_K.cu) */
    size_t from_flags;    /* configurations the plan flags gave (the set's files without any) */
    size_t without_file;  /* of those, dropped: the set has no file for them */
    size_t sampled_from;  /* configurations --sample drew from (0: no --sample) */
    char source[160];     /* how it was drawn, for the summary page: "--grid paper", ... */
} hb_repro_plan;

/* The plan of `run`'s flags (or every file of `kernels_dir`, as `format`
 * names its files), kept to the configurations with a file there, sampled with --sample and --seed, in the
 * modes of --modes (default offline,server).  HB_ERR_USAGE for bad flags or an
 * empty result, HB_ERR_IO when the folder cannot be read. */
hb_status hb_repro_plan_make(const hb_run_options *run, const hb_import_format *format, const char *kernels_dir,
                             hb_repro_plan *out);

/* Writes the configurations `shard` holds an item of (all with a whole-plan
 * shard) as an --mnk-file at `path`, atomically; a file already there with
 * other contents is HB_ERR_USAGE (the folder holds another reproduction),
 * one with the same is left as it is. */
hb_status hb_repro_plan_write(const hb_repro_plan *p, const hb_shard *shard, const char *path);

#endif
