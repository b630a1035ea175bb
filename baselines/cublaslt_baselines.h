/* Baselines called through cublasLtMatmul (docs/methodology.md, "Participants"):
 *   cublaslt-heuristic-nn/tn - the top result (index 0) of
 *       cublasLtMatmulAlgoGetHeuristic, chosen once before timing (Listing 7).
 *   cublaslt-autotune-nn/tn  - the fastest of up to 100 heuristic results by
 *       median time (Listing 8, baselines/cublaslt_autotune.h), cached on disk
 *       (baselines/autotune_cache.h) so a later run reuses the choice.
 * Each has its own cuBLASLt handle and workspace and runs on the harness's
 * stream.  The chosen algorithm goes into the participant's desc.algo. */
#ifndef HB_CUBLASLT_BASELINES_H
#define HB_CUBLASLT_BASELINES_H

#include "bench/candidate/participant.h"
#include "bench/core/rng.h"
#include "bench/result/device_info.h"

typedef enum hb_lt_strategy { HB_LT_HEURISTIC, HB_LT_AUTOTUNE } hb_lt_strategy;

/* What the autotune baseline needs besides the problem. */
typedef struct hb_lt_tuning {
    const hb_device_info *device; /* the cache key's GPU, driver and cuBLASLt version */
    const char *cache_path;       /* the autotune cache file; NULL or "" for none */
    int retune;                   /* 1: search even when the cache has an answer, and replace it */
    int search;                   /* 0: never search; a cache miss takes the heuristic's top pick ("fallback") */
    hb_rng *rng;                  /* the search's input seeds and orders */
} hb_lt_tuning;

typedef struct hb_lt_baseline_spec {
    const char *name;             /* the registry's, for the participant and its messages */
    hb_lt_strategy strategy;
    hb_b_layout b_layout;         /* HB_B_ROW: nn, HB_B_COL: tn */
    hb_acc_class acc;
    long m, n, k;
    size_t workspace_bytes;       /* the run's one cuBLAS / cuBLASLt workspace size */
} hb_lt_baseline_spec;

/* Fills `out`.  Every cuBLASLt status is checked: a rejected descriptor or
 * an empty heuristic answer is HB_ERR_CUDA naming the status. */
hb_status hb_cublaslt_baseline_create(const hb_lt_baseline_spec *spec, const hb_lt_tuning *tuning,
                                      cudaStream_t stream, hb_participant *out);

#endif
