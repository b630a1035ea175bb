/* One row-major HGEMM (C = A B, alpha = 1, beta = 0) described to cuBLASLt,
 * as the paper's Listings 7 and 8 do it, with every descriptor read back and
 * checked: every baseline is audited, not just called (docs/methodology.md).
 *
 * Row-major C = A B is column-major C^T = B^T A^T, so cuBLASLt's first
 * operand is our B and its second is our A, and C is N x M column-major:
 *   nn: B row-major (K x N)    -> cuBLASLt A = N x K col-major, ld N, op N
 *   tn: B_col (B column-major) -> cuBLASLt A = K x N col-major, ld K, op T
 *   A row-major (M x K)        -> cuBLASLt B = K x M col-major, ld K, op N
 *   C row-major (M x N)        -> cuBLASLt C = D = N x M col-major, ld N */
#ifndef HB_CUBLASLT_MATMUL_H
#define HB_CUBLASLT_MATMUL_H

#include <cublasLt.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/candidate/participant.h"
#include "bench/core/gemm_types.h"
#include "bench/core/status.h"

/* Most algorithms asked of the heuristic (paper Listing 8: "up to 100"). */
#define HB_LT_MAX_ALGOS 100

typedef struct hb_lt_matmul {
    cublasLtHandle_t handle;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t a_layout, b_layout, c_layout; /* cuBLASLt's A (our B), B (our A), C */
    cublasLtMatmulPreference_t preference;
    hb_b_layout b_source;       /* which copy of our B it reads: row (nn) or col (tn) */
    hb_acc_class acc;
    long m, n, k;
    void *workspace;
    size_t workspace_bytes;
} hb_lt_matmul;


/* Creates the handle, descriptors and workspace.  Reads back the compute
 * type, scale type and the workspace preference and fails (HB_ERR_INTERNAL)
 * if the library holds anything but what was set. */
hb_status hb_lt_matmul_create(hb_lt_matmul *mm, hb_acc_class acc, hb_b_layout b_source, long m, long n, long k,
                              size_t workspace_bytes);
void hb_lt_matmul_destroy(hb_lt_matmul *mm);

/* cublasLtMatmulAlgoGetHeuristic with up to `max` results.  Zero results,
 * or a result whose state is not success or that needs more workspace than
 * the run's, is an error naming the cuBLAS status (never a silent skip). */
hb_status hb_lt_matmul_heuristic(hb_lt_matmul *mm, int max, cublasLtMatmulHeuristicResult_t *results, int *count);

/* Asks the library whether `algo` fits this problem (e.g. an algorithm read
 * from the autotune cache) and what workspace it needs (bytes); HB_ERR_CUDA
 * naming the status if it does not fit or needs more than the run's. */
hb_status hb_lt_matmul_check_algo(hb_lt_matmul *mm, const cublasLtMatmulAlgo_t *algo, size_t *needed_workspace);

/* Enqueues one product on `stream`.  `b` is our B in the layout b_source. */
cublasStatus_t hb_lt_matmul_run(hb_lt_matmul *mm, const cublasLtMatmulAlgo_t *algo, const uint16_t *a,
                                 const uint16_t *b, uint16_t *c, cudaStream_t stream);

/* Fills the configuration fields of `out` (id, tile, stages, split-K,
 * reduction, swizzle, custom option, inner and cluster shape) from
 * cublasLtMatmulAlgoConfigGetAttribute, with cublasLt.h's enum names. */
hb_status hb_lt_algo_describe(const cublasLtMatmulAlgo_t *algo, hb_algo_record *out);

#endif
