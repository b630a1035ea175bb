#include "baseline_names.h"

#include <stdio.h>
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

/* Appends ", name" (or "name" first) to `list`. */
static void append_name(char *list, size_t size, const char *name)
{
    size_t used = strlen(list);
    snprintf(list + used, size - used, "%s%s", used ? ", " : "", name);
}

const char *hb_baseline_name_list(void)
{
    static char list[512];
    if (list[0])
        return list;
    for (int i = 0; i < HB_N_TIMED_BASELINES; i++)
        append_name(list, sizeof list, hb_timed_baseline_names[i]);
    for (int i = 0; i < HB_N_MAX_PAIRS; i++)
        append_name(list, sizeof list, hb_max_pairs[i].name);
    return list;
}
