#include "bench/result/library_kernel.h"

#include <stdio.h>
#include <string.h>

typedef enum match_kind { PREFIX, CONTAINS } match_kind;

typedef struct family {
    match_kind match;
    const char *pattern;
    const char *name;
} family;

/* Kernel-name families of cuBLAS and cuBLASLt (CUDA 11 to 13), as CUPTI
 * reports them: extern "C" names keep their prefix, C++ names are mangled,
 * so a namespace shows as its length and name ("8cublasLt").  Seen on H100
 * and A100 in the baselines' own traces (nvjet on Hopper, xmma and
 * ampere_ before it), and in cuBLAS's symbol tables (cuobjdump -symbols). */
static const family families[] = {
    {PREFIX, "nvjet_", "nvjet"},
    {CONTAINS, "_xmma_", "xmma"},
    {PREFIX, "xmma_", "xmma"},
    {CONTAINS, "cublasLt", "cublasLt"},
    {CONTAINS, "6cublas", "cublas"},
    {CONTAINS, "cutlass_80_", "cublas cutlass"},
    {CONTAINS, "cutlass_75_", "cublas cutlass"},
    {CONTAINS, "cutlass_90_", "cublas cutlass"},
    {PREFIX, "ampere_", "cublas ampere"},
    {PREFIX, "turing_", "cublas turing"},
    {PREFIX, "volta_", "cublas volta"},
    {PREFIX, "maxwell_", "cublas maxwell"},
    {CONTAINS, "gemmk1_kernel", "cublas gemmk1"},
    {CONTAINS, "gemmSN_", "cublas gemmSN"},
    {CONTAINS, "gemv2", "cublas gemv"},
    {CONTAINS, "splitKreduce_kernel", "cublas splitK"},
};

void hb_library_names_add(hb_library_names *names, const char *kernel_name)
{
    for (size_t i = 0; i < names->n; i++)
        if (!strcmp(names->name[i], kernel_name))
            return;
    if (names->n < HB_LIBRARY_NAMES)
        snprintf(names->name[names->n++], sizeof names->name[0], "%s", kernel_name);
}

const char *hb_library_family(const char *kernel_name)
{
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        const family *f = &families[i];
        int hit = f->match == PREFIX ? !strncmp(kernel_name, f->pattern, strlen(f->pattern))
                                     : strstr(kernel_name, f->pattern) != NULL;
        if (hit)
            return f->name;
    }
    return NULL;
}

int hb_is_library_kernel(const char *kernel_name, const hb_library_names *baselines)
{
    if (baselines)
        for (size_t i = 0; i < baselines->n; i++)
            if (!strcmp(baselines->name[i], kernel_name))
                return 1;
    return hb_library_family(kernel_name) != NULL;
}
