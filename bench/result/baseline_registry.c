#include "bench/result/baseline_registry.h"

#include <stdio.h>
#include <string.h>

/* Colours by family, NN solid with round points, TN dashed with squares. */
#define STYLE(colour, dash, point) "lc rgb '" colour "' dt " #dash " pt " #point

const hb_baseline_entry hb_baselines[HB_N_BASELINES] = {
    {"torch", HB_KIND_TORCH, HB_B_ROW, 0, NULL, STYLE("#222222", 1, 9),
     "what torch.matmul runs for fp16: cublasGemmEx NN with the operands swapped, CUBLAS_COMPUTE_32F, "
     "PyTorch's workspace (same library call as cublas-nn, so it does not set the bound)", "torch.matmul"},
    {"cublas-nn", HB_KIND_CUBLAS, HB_B_ROW, 1, "cublas-max", STYLE("#1f77b4", 1, 7),
     "cublasGemmEx, B row-major (paper Listing 6)", "cuBLAS-nn"},
    {"cublas-tn", HB_KIND_CUBLAS, HB_B_COL, 1, "cublas-max", STYLE("#1f77b4", 2, 5),
     "cublasGemmEx, B column-major (paper Listing 6)", "cuBLAS-tn"},
    {"cublaslt-heuristic-nn", HB_KIND_LT_HEURISTIC, HB_B_ROW, 1, "cublaslt-heuristic-max", STYLE("#ff7f0e", 1, 7),
     "cublasLtMatmul with the heuristic's top algorithm, B row-major (Listing 7)", "cuBLASLt-heuristic-nn"},
    {"cublaslt-heuristic-tn", HB_KIND_LT_HEURISTIC, HB_B_COL, 1, "cublaslt-heuristic-max", STYLE("#ff7f0e", 2, 5),
     "cublasLtMatmul with the heuristic's top algorithm, B column-major (Listing 7)", "cuBLASLt-heuristic-tn"},
    {"cublaslt-autotune-nn", HB_KIND_LT_AUTOTUNE, HB_B_ROW, 1, "cublaslt-autotune-max", STYLE("#2ca02c", 1, 7),
     "cublasLtMatmul with the fastest of up to 100 heuristic algorithms, B row-major (Listing 8; cached)",
     "cuBLASLt-auto-tuning-nn"},
    {"cublaslt-autotune-tn", HB_KIND_LT_AUTOTUNE, HB_B_COL, 1, "cublaslt-autotune-max", STYLE("#2ca02c", 2, 5),
     "cublasLtMatmul with the fastest of up to 100 heuristic algorithms, B column-major (Listing 8; cached)",
     "cuBLASLt-auto-tuning-tn"},
};

/* The TN row sharing `nn`'s -max figure. */
static const hb_baseline_entry *tn_partner(const hb_baseline_entry *nn)
{
    for (size_t i = 0; i < HB_N_BASELINES; i++) {
        const hb_baseline_entry *e = &hb_baselines[i];
        if (e->b_layout == HB_B_COL && e->max_row && !strcmp(e->max_row, nn->max_row))
            return e;
    }
    return NULL;
}

static int heads_a_pair(const hb_baseline_entry *e)
{
    return e->b_layout == HB_B_ROW && e->max_row && tn_partner(e);
}

size_t hb_max_pair_count(void)
{
    size_t count = 0;
    for (size_t i = 0; i < HB_N_BASELINES; i++)
        count += heads_a_pair(&hb_baselines[i]);
    return count;
}

hb_max_pair hb_max_pair_at(size_t index)
{
    hb_max_pair pair = {NULL, NULL, NULL, ""};
    for (size_t i = 0; i < HB_N_BASELINES; i++) {
        const hb_baseline_entry *e = &hb_baselines[i];
        if (!heads_a_pair(e) || index-- > 0)
            continue;
        pair.name = e->max_row;
        pair.nn = e->name;
        pair.tn = tn_partner(e)->name;
        /* The published files name a -max column as its NN column, with "max" for "nn". */
        size_t family = strlen(e->published) - strlen("nn");
        snprintf(pair.published, sizeof pair.published, "%.*smax", (int)family, e->published);
        break;
    }
    return pair;
}

const hb_baseline_entry *hb_baseline_find(const char *name)
{
    for (size_t i = 0; i < HB_N_BASELINES; i++)
        if (!strcmp(name, hb_baselines[i].name))
            return &hb_baselines[i];
    return NULL;
}

int hb_baseline_name_known(const char *name)
{
    if (hb_baseline_find(name))
        return 1;
    for (size_t i = 0; i < hb_max_pair_count(); i++)
        if (!strcmp(name, hb_max_pair_at(i).name))
            return 1;
    return 0;
}

/* Appends ", name" (or "name" first) to `list`. */
static void append_name(char *list, size_t size, const char *name)
{
    size_t used = strlen(list);
    snprintf(list + used, size - used, "%s%s", used ? ", " : "", name);
}

const char *hb_baseline_name_list(int with_max)
{
    static char lists[2][512];
    char *list = lists[with_max != 0];
    if (list[0])
        return list;
    for (size_t i = 0; i < HB_N_BASELINES; i++)
        append_name(list, sizeof lists[0], hb_baselines[i].name);
    for (size_t i = 0; with_max && i < hb_max_pair_count(); i++)
        append_name(list, sizeof lists[0], hb_max_pair_at(i).name);
    return list;
}
