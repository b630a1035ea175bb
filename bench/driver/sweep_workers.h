/* The GPUs of one host working through a sweep (docs/sweeps.md, "Several
 * GPUs"): one worker process per GPU, each evaluating one configuration at
 * a time exactly as `run` does (a child of its own per configuration,
 * bench/driver/config_runner.h), and the sweep's process handing out the
 * items and recording every result itself: summary.csv and the journal have
 * one writer.  A worker is a fork of the sweep's process running a
 * function (bench/core/process.h), holding no CUDA context, in the sweep's
 * process group, and dies with it (PR_SET_PDEATHSIG).
 *
 * The items are handed out one at a time, in order, to whichever GPU is
 * free: a slow configuration holds up only its own GPU. */
#ifndef HB_SWEEP_WORKERS_H
#define HB_SWEEP_WORKERS_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/config_result.h"
#include "bench/result/device_info.h"
#include "bench/result/run_options.h"
#include "bench/sweep/sweep_plan.h"

#define HB_MAX_WORKERS 64

typedef struct hb_sweep_hooks {
    void *context;
    /* All workers reported their GPU (status HB_OK) or why they have none;
     * devices[w] is worker w's.  A non-OK return ends the sweep before any item. */
    hb_status (*on_devices)(void *context, const hb_status *status, const hb_device_info *devices, size_t count);
    /* Item `item` finished on worker w: record it.  A non-OK return (the
     * results cannot be written) stops handing out items. */
    hb_status (*on_result)(void *context, size_t worker, size_t item, hb_config_result *result);
} hb_sweep_hooks;

typedef struct hb_sweep_work {
    const hb_run_options *options; /* configs are the plan's configurations */
    const hb_sweep_plan *plan;
    const int *ordinals;           /* one CUDA ordinal per worker */
    size_t workers;
    const size_t *items;           /* the items to run, in the order to hand them out */
    size_t count;
    const char *sanitizer;         /* compute-sanitizer's path, with --sanitize */
    const char *folder;            /* the sweep folder (memcheck logs, --raw files) */
} hb_sweep_work;

/* Runs the items.  Returns HB_OK when every item was handed out and
 * recorded or the sweep was interrupted (hb_interrupted() says), a hook's
 * failure, or HB_ERR_CUDA when no worker could open its GPU. */
hb_status hb_sweep_workers_run(const hb_sweep_work *work, const hb_sweep_hooks *hooks);

/* The number of CUDA devices, asked in a child (this process stays free of CUDA). */
hb_status hb_sweep_device_count(double timeout_s, int *count);

#endif
