#include "bench/import/cuda_l2/l2_build_cost.h"

#include <string.h>

/* What a file includes, as its build's cost tells them apart. */
typedef enum { PLAIN, TEMPLATES, ADAPTER, N_CLASSES } cost_class;

/* Fitted to compiles of the H100 set measured on a 2-core host without a GPU (CUDA 13.0, sm_90a, CUTLASS
 * v4.2.1; docs/importer.md, "Where a build's time goes"): plain 256_128_2048 (3.2 KiB, 10.0 s) and 512_256_64
 * (46.7 KiB, 11.0 s); CuTe 256_8192_64 (11.6 KiB, 58 s, its fixed part the front end and host compile of CuTe's
 * headers, 15 s); adapter 1024_4096_12288 (7.0 KiB, 100 s) and 2048_64_4096 (58.7 KiB, 308 s). */
static const struct {
    double fixed_s;
    double per_kib_s;
} costs[N_CLASSES] = {
    [PLAIN] = {10.0, 0.02},
    [TEMPLATES] = {15.0, 3.7},
    [ADAPTER] = {71.0, 4.0},
};

static cost_class class_of(const char *text, const hb_file_facts *facts)
{
    if (strcmp(facts->kind, "adapter") == 0)
        return ADAPTER;
    if (strstr(text, "cute/") || strstr(text, "cutlass/"))
        return TEMPLATES;
    return PLAIN;
}

double hb_l2_build_cost_s(const char *text, size_t size, const hb_file_facts *facts)
{
    cost_class c = class_of(text, facts);
    return costs[c].fixed_s + costs[c].per_kib_s * (double)size / 1024.0;
}
