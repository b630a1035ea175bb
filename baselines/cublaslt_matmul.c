#include "baselines/cublaslt_matmul.h"

#include <stdio.h>
#include <string.h>

#include "baselines/acc_class_types.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/entry_points.h"
#include "gen/lt_enum_names.h" /* generated from cublasLt.h by scripts/gen_lt_enum_names.sh */

#define HB_LT_TRY(call, what)                                                                                   \
    do {                                                                                                        \
        cublasStatus_t hb_lt_st_ = (call);                                                                      \
        if (hb_lt_st_ != CUBLAS_STATUS_SUCCESS)                                                                 \
            return hb_fail(HB_ERR_CUDA, "cuBLASLt rejected %s: %s returned %s", (what), #call,                   \
                           hb_cublas_status_name(hb_lt_st_));                                                   \
    } while (0)

static hb_status set_operations(hb_lt_matmul *mm)
{
    cublasOperation_t transa = mm->b_source == HB_B_COL ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t transb = CUBLAS_OP_N;
    HB_LT_TRY(cublasLtMatmulDescSetAttribute(mm->op, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa),
              "the operation of A");
    HB_LT_TRY(cublasLtMatmulDescSetAttribute(mm->op, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb),
              "the operation of B");
    return HB_OK;
}

static hb_status create_layouts(hb_lt_matmul *mm)
{
    const uint64_t m = (uint64_t)mm->m, n = (uint64_t)mm->n, k = (uint64_t)mm->k;
    if (mm->b_source == HB_B_COL)
        HB_LT_TRY(cublasLtMatrixLayoutCreate(&mm->a_layout, CUDA_R_16F, k, n, (int64_t)k), "the layout of B_col");
    else
        HB_LT_TRY(cublasLtMatrixLayoutCreate(&mm->a_layout, CUDA_R_16F, n, k, (int64_t)n), "the layout of B");
    HB_LT_TRY(cublasLtMatrixLayoutCreate(&mm->b_layout, CUDA_R_16F, k, m, (int64_t)k), "the layout of A");
    HB_LT_TRY(cublasLtMatrixLayoutCreate(&mm->c_layout, CUDA_R_16F, n, m, (int64_t)n), "the layout of C");
    return HB_OK;
}

/* Reads back what the library holds: a descriptor that silently kept
 * another compute type, scale type or workspace limit would make every
 * figure of this baseline wrong. */
static hb_status audit_descriptors(const hb_lt_matmul *mm)
{
    int32_t compute = -1, scale = -1;
    uint64_t workspace = 0;
    size_t written = 0;
    HB_LT_TRY(cublasLtMatmulDescGetAttribute(mm->op, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &compute, sizeof compute,
                                             &written),
              "reading back the compute type");
    HB_LT_TRY(cublasLtMatmulDescGetAttribute(mm->op, CUBLASLT_MATMUL_DESC_SCALE_TYPE, &scale, sizeof scale,
                                             &written),
              "reading back the scale type");
    HB_LT_TRY(cublasLtMatmulPreferenceGetAttribute(mm->preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                   &workspace, sizeof workspace, &written),
              "reading back the workspace limit");
    if (compute != (int32_t)hb_compute_type_of(mm->acc) || scale != (int32_t)hb_scale_type_of(mm->acc))
        return hb_fail(HB_ERR_INTERNAL, "cuBLASLt descriptor holds compute type %d and scale type %d, not %s / %s",
                       compute, scale, hb_compute_type_name(mm->acc), hb_scale_type_name(mm->acc));
    if (workspace != (uint64_t)mm->workspace_bytes)
        return hb_fail(HB_ERR_INTERNAL, "cuBLASLt preference holds a %llu-byte workspace limit, not the run's %zu bytes",
                       (unsigned long long)workspace, mm->workspace_bytes);
    return HB_OK;
}

static hb_status create_descriptors(hb_lt_matmul *mm)
{
    HB_LT_TRY(cublasLtCreate(&mm->handle), "a new handle");
    HB_LT_TRY(cublasLtMatmulDescCreate(&mm->op, hb_compute_type_of(mm->acc), hb_scale_type_of(mm->acc)),
              "the matmul descriptor");
    HB_TRY(set_operations(mm));
    HB_TRY(create_layouts(mm));
    HB_LT_TRY(cublasLtMatmulPreferenceCreate(&mm->preference), "the preference");
    uint64_t workspace = (uint64_t)mm->workspace_bytes; /* the attribute is uint64_t: no narrowing */
    HB_LT_TRY(cublasLtMatmulPreferenceSetAttribute(mm->preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                   &workspace, sizeof workspace),
              "the workspace limit");
    return audit_descriptors(mm);
}

hb_status hb_lt_matmul_create(hb_lt_matmul *mm, hb_acc_class acc, hb_b_layout b_source, long m, long n, long k,
                              size_t workspace_bytes)
{
    memset(mm, 0, sizeof *mm);
    mm->acc = acc;
    mm->b_source = b_source;
    mm->m = m;
    mm->n = n;
    mm->k = k;
    mm->workspace_bytes = workspace_bytes;
    if (workspace_bytes)
        HB_CUDA_TRY(cudaMalloc(&mm->workspace, workspace_bytes));
    return create_descriptors(mm);
}

void hb_lt_matmul_destroy(hb_lt_matmul *mm)
{
    if (mm->preference)
        cublasLtMatmulPreferenceDestroy(mm->preference);
    if (mm->c_layout)
        cublasLtMatrixLayoutDestroy(mm->c_layout);
    if (mm->b_layout)
        cublasLtMatrixLayoutDestroy(mm->b_layout);
    if (mm->a_layout)
        cublasLtMatrixLayoutDestroy(mm->a_layout);
    if (mm->op)
        cublasLtMatmulDescDestroy(mm->op);
    if (mm->handle)
        cublasLtDestroy(mm->handle);
    if (mm->workspace)
        cudaFree(mm->workspace);
    memset(mm, 0, sizeof *mm);
}

static const char *layout_name(const hb_lt_matmul *mm)
{
    return mm->b_source == HB_B_COL ? "tn" : "nn";
}

hb_status hb_lt_matmul_heuristic(hb_lt_matmul *mm, int max, cublasLtMatmulHeuristicResult_t *results, int *count)
{
    *count = 0;
    cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(mm->handle, mm->op, mm->a_layout, mm->b_layout,
                                                            mm->c_layout, mm->c_layout, mm->preference, max,
                                                            results, count);
    if (status != CUBLAS_STATUS_SUCCESS || *count <= 0)
        return hb_fail(HB_ERR_CUDA,
                       "cublasLtMatmulAlgoGetHeuristic found no algorithm for %s %s M=%ld N=%ld K=%ld with a %zu-byte "
                       "workspace: %s, %d results",
                       layout_name(mm), hb_acc_class_name(mm->acc), mm->m, mm->n, mm->k, mm->workspace_bytes,
                       hb_cublas_status_name(status), *count);
    for (int i = 0; i < *count; i++) {
        if (results[i].state != CUBLAS_STATUS_SUCCESS)
            return hb_fail(HB_ERR_CUDA, "cuBLASLt heuristic result %d of %d for %s M=%ld N=%ld K=%ld has state %s", i,
                           *count, layout_name(mm), mm->m, mm->n, mm->k, hb_cublas_status_name(results[i].state));
        if (results[i].workspaceSize > mm->workspace_bytes)
            return hb_fail(HB_ERR_CUDA, "cuBLASLt heuristic result %d needs %zu workspace bytes, more than the %zu given",
                           i, results[i].workspaceSize, mm->workspace_bytes);
    }
    return HB_OK;
}

hb_status hb_lt_matmul_check_algo(hb_lt_matmul *mm, const cublasLtMatmulAlgo_t *algo, size_t *needed_workspace)
{
    cublasLtMatmulHeuristicResult_t result;
    cublasStatus_t status = cublasLtMatmulAlgoCheck(mm->handle, mm->op, mm->a_layout, mm->b_layout, mm->c_layout,
                                                    mm->c_layout, algo, &result);
    if (status != CUBLAS_STATUS_SUCCESS)
        return hb_fail(HB_ERR_CUDA, "cublasLtMatmulAlgoCheck rejects the algorithm for %s M=%ld N=%ld K=%ld: %s",
                       layout_name(mm), mm->m, mm->n, mm->k, hb_cublas_status_name(status));
    if (result.workspaceSize > mm->workspace_bytes)
        return hb_fail(HB_ERR_CUDA, "the algorithm needs %zu workspace bytes, more than the %zu given",
                       result.workspaceSize, mm->workspace_bytes);
    *needed_workspace = result.workspaceSize;
    return HB_OK;
}

cublasStatus_t hb_lt_matmul_run(hb_lt_matmul *mm, const cublasLtMatmulAlgo_t *algo, const uint16_t *a,
                                 const uint16_t *b, uint16_t *c, cudaStream_t stream)
{
    return hb_entry()->lt_matmul(mm->handle, mm->op, hb_scale_one(mm->acc), b, mm->a_layout, a, mm->b_layout,
                          hb_scale_zero(mm->acc), c, mm->c_layout, c, mm->c_layout, algo, mm->workspace,
                          mm->workspace_bytes, stream);
}

static hb_status config_attribute(const cublasLtMatmulAlgo_t *algo, cublasLtMatmulAlgoConfigAttributes_t attribute,
                                  void *value, size_t size, const char *what)
{
    size_t written = 0;
    HB_LT_TRY(cublasLtMatmulAlgoConfigGetAttribute(algo, attribute, value, size, &written), what);
    if (written != size)
        return hb_fail(HB_ERR_INTERNAL, "cuBLASLt reports %s in %zu bytes, expected %zu", what, written, size);
    return HB_OK;
}

/* The enum's name, `zero` for 0, or "#<number>" if this toolkit's header
 * does not know it. */
static void enum_name(const hb_lt_enum_name *table, size_t count, unsigned value, const char *zero, char *out,
                      size_t size)
{
    const char *name = value == 0 ? zero : NULL;
    for (size_t i = 0; !name && i < count; i++)
        if (table[i].value == value)
            name = table[i].name;
    if (name)
        snprintf(out, size, "%s", name);
    else
        snprintf(out, size, "#%u", value);
}

#define ENUM_NAME(table, value, zero, out) \
    enum_name((table), sizeof(table) / sizeof((table)[0]), (value), (zero), (out), sizeof(out))

static const char *reduction_name(uint32_t scheme)
{
    switch (scheme) {
    case CUBLASLT_REDUCTION_SCHEME_NONE: return "none";
    case CUBLASLT_REDUCTION_SCHEME_INPLACE: return "inplace";
    case CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE: return "compute-type";
    case CUBLASLT_REDUCTION_SCHEME_OUTPUT_TYPE: return "output-type";
    default: return "other";
    }
}

hb_status hb_lt_algo_describe(const cublasLtMatmulAlgo_t *algo, hb_algo_record *out)
{
    int32_t id = 0, splitk = 0;
    uint32_t tile = 0, stages = 0, reduction = 0, swizzle = 0, custom = 0;
    uint16_t inner = 0, cluster = 0;
    HB_TRY(config_attribute(algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, "the algorithm id"));
    HB_TRY(config_attribute(algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, "the tile"));
    HB_TRY(config_attribute(algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, "the stages"));
    HB_TRY(config_attribute(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof splitk, "split-K"));
    HB_TRY(config_attribute(algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, &reduction, sizeof reduction,
                            "the reduction scheme"));
    HB_TRY(config_attribute(algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &swizzle, sizeof swizzle, "the CTA swizzling"));
    HB_TRY(config_attribute(algo, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, &custom, sizeof custom, "the custom option"));
    HB_TRY(config_attribute(algo, CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, &inner, sizeof inner, "the inner shape"));
    HB_TRY(config_attribute(algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &cluster, sizeof cluster,
                            "the cluster shape"));
    out->known = 1;
    out->id = id;
    out->splitk = splitk;
    out->swizzle = swizzle;
    out->custom = custom;
    ENUM_NAME(hb_lt_tile_names, tile, "undefined", out->tile);
    ENUM_NAME(hb_lt_stages_names, stages, "undefined", out->stages);
    ENUM_NAME(hb_lt_inner_names, inner, "undefined", out->inner);
    ENUM_NAME(hb_lt_cluster_names, cluster, "auto", out->cluster);
    snprintf(out->reduction, sizeof out->reduction, "%s", reduction_name(reduction));
    return HB_OK;
}
