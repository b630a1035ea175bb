/* What the writers know of a run as a whole (bench/report/sink.h): which
 * command made it, where its results go, on which GPU, with which settings,
 * and the constants of the engine below that env.json records.  The driver
 * fills it; plain data, so the writers need none of the layers that run the
 * GPU. */
#ifndef HB_RUN_RECORD_H
#define HB_RUN_RECORD_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/config_result.h"
#include "bench/result/device_info.h"
#include "bench/result/run_options.h"

/* Fixed facts of the measuring engine, for env.json: the values of the
 * constants the baselines and the timing windows are built with. */
typedef struct hb_engine_facts {
    int autotune_max_candidates;   /* heuristic results an autotune search times at most */
    int autotune_warmup_rounds;    /* its untimed rounds */
    int autotune_measured_rounds;  /* its timed rounds */
    int min_timed_rounds;          /* a timed window runs at least this many rounds */
    int target_ci_min_rounds;      /* --target-ci is judged after this many rounds at the earliest */
    size_t torch_workspace_bytes;  /* PyTorch's cuBLAS workspace on this GPU */
} hb_engine_facts;

typedef struct hb_run_record {
    const char *command;           /* "run", "check" or "gate" */
    const char *run_id;            /* "20261121T101500Z-3f2a" */
    const char *run_path;          /* the run's results folder */
    const char *command_line;      /* as typed, for env.json */
    const char *started_utc;       /* ISO 8601 */
    const hb_run_options *options;
    const hb_device_info *device;  /* NULL: the GPU was never opened (no configuration passed the checks before it) */
    const hb_device_info *devices; /* a sweep's GPUs, one per worker (device is the first); NULL for a run */
    size_t n_devices;
    hb_engine_facts engine;
} hb_run_record;

/* How the run ended, for verdict.json and the last line on stdout. */
typedef struct hb_run_outcome {
    hb_status status;                /* the run's exit status (128 + the signal when interrupted) */
    const hb_config_result *results; /* one per configuration evaluated */
    size_t count;
    int interrupted_by;              /* the signal that interrupted the run (SIGINT, ...); 0: not interrupted */
    const hb_mnk *not_run;           /* the configurations never evaluated, in --mnk order: after an */
    size_t not_run_count;            /* interruption or a harness failure that stopped the run */
} hb_run_outcome;

#endif
