/* Creates the participant for one row of the baseline registry
 * (bench/result/baseline_registry.h): the registry says what a baseline is,
 * this file which code builds it. */
#ifndef HB_BASELINE_FACTORY_H
#define HB_BASELINE_FACTORY_H

#include <cuda_runtime_api.h>

#include "bench/candidate/participant.h"
#include "bench/core/rng.h"
#include "bench/result/baseline_registry.h"
#include "bench/result/device_info.h"

/* Everything a baseline of one configuration may need. */
typedef struct hb_baseline_context {
    hb_acc_class acc;              /* the run's class (torch stays fp32) */
    long m, n, k;
    size_t workspace_bytes;        /* the run's one cuBLAS / cuBLASLt workspace (--workspace) */
    const hb_device_info *device;  /* torch's workspace size; the autotune cache's key */
    const char *autotune_cache;    /* cache file; NULL: none */
    int retune;                    /* search even where the cache has a choice */
    int autotune_search;           /* 0: a cache miss takes the heuristic's pick */
    hb_rng *search_rng;            /* the autotune search's inputs and orders */
    cudaStream_t stream;           /* the timed stream, bound to every handle */
} hb_baseline_context;

/* Fills `out` (named and bounding as the row says).  A cuBLASLt search calls
 * hb_heartbeat() as it goes.  Errors are the library's, with its status. */
hb_status hb_baseline_create(const hb_baseline_entry *entry, const hb_baseline_context *context, hb_participant *out);

#endif
