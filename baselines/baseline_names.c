#include "baseline_names.h"

#include <string.h>

const char *const hb_timed_baseline_names[HB_N_TIMED_BASELINES] = {
    "torch",                 "cublas-nn",             "cublas-tn",             "cublaslt-heuristic-nn",
    "cublaslt-heuristic-tn", "cublaslt-autotune-nn", "cublaslt-autotune-tn"};

const hb_max_pair hb_max_pairs[HB_N_MAX_PAIRS] = {
    {"cublas-max", "cublas-nn", "cublas-tn"},
    {"cublaslt-heuristic-max", "cublaslt-heuristic-nn", "cublaslt-heuristic-tn"},
    {"cublaslt-autotune-max", "cublaslt-autotune-nn", "cublaslt-autotune-tn"}};

int hb_baseline_name_known(const char *name)
{
    for (int i = 0; i < HB_N_TIMED_BASELINES; i++)
        if (!strcmp(name, hb_timed_baseline_names[i]))
            return 1;
    for (int i = 0; i < HB_N_MAX_PAIRS; i++)
        if (!strcmp(name, hb_max_pairs[i].name))
            return 1;
    return 0;
}

const char *hb_baseline_name_list(void)
{
    return "torch, cublas-nn, cublas-tn, cublas-max, cublaslt-heuristic-nn, cublaslt-heuristic-tn, "
           "cublaslt-heuristic-max, cublaslt-autotune-nn, cublaslt-autotune-tn, cublaslt-autotune-max";
}
