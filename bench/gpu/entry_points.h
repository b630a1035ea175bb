/* The entry points the harness times with and times (docs/methodology.md,
 * "Timers out of the candidate's reach").  A launcher's host code runs in
 * the process that times it, and a library constructor can rewrite the
 * harness executable's dynamic-link (GOT) slots, or the first bytes of a
 * function, so that the harness's own calls land in candidate code: an event
 * pair read short, a baseline slowed.  So, before any candidate code is
 * loaded, hb_entry_points_seal() resolves every function the harness times
 * with (events, synchronizes, the clock) and calls as a participant (cuBLAS,
 * cuBLASLt) into a table on a page of its own, made read-only, and keeps a
 * copy of every GOT slot of the executable and of the first bytes of each
 * function.  The harness calls them through hb_entry() alone, so a rewritten
 * GOT slot does not move its timers; hb_entry_points_verify() (after every
 * window) finds any rewrite, names it and where it points now. */
#ifndef HB_ENTRY_POINTS_H
#define HB_ENTRY_POINTS_H

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <stddef.h>
#include <time.h>

#include "bench/core/status.h"

typedef struct hb_entry_points {
    cudaError_t (*event_record)(cudaEvent_t event, cudaStream_t stream);
    cudaError_t (*event_elapsed_time)(float *ms, cudaEvent_t start, cudaEvent_t end);
    cudaError_t (*device_synchronize)(void);
    cudaError_t (*stream_synchronize)(cudaStream_t stream);
    int (*clock_gettime)(int clock, struct timespec *ts); /* clockid_t is int on Linux; its header needs POSIX */
    cublasStatus_t (*gemm_ex)(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                              int k, const void *alpha, const void *a, cudaDataType a_type, int lda, const void *b,
                              cudaDataType b_type, int ldb, const void *beta, void *c, cudaDataType c_type, int ldc,
                              cublasComputeType_t compute_type, cublasGemmAlgo_t algo);
    cublasStatus_t (*lt_matmul)(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void *alpha, const void *a,
                                cublasLtMatrixLayout_t a_desc, const void *b, cublasLtMatrixLayout_t b_desc,
                                const void *beta, const void *c, cublasLtMatrixLayout_t c_desc, void *d,
                                cublasLtMatrixLayout_t d_desc, const cublasLtMatmulAlgo_t *algo, void *workspace,
                                size_t workspace_bytes, cudaStream_t stream);
} hb_entry_points;

/* Resolves the table, makes its page read-only and takes the copies the
 * checks compare with.  Once per process (later calls do nothing): call it
 * before anything loads candidate code.  HB_ERR_INTERNAL when the table
 * cannot be protected or the executable's dynamic section cannot be read. */
hb_status hb_entry_points_seal(void);

/* The sealed table (sealing it first if nobody has). */
const hb_entry_points *hb_entry(void);

/* Wall clock for the timers, seconds, through the sealed clock_gettime. */
double hb_entry_now_s(void);

/* What changed since the seal, in `what` (one line naming the entry, the
 * old and new address and the file the new one lies in); *changed 0 when
 * nothing did.  Checks the table's entries against their sealed values and
 * against what the dynamic linker resolves now, every GOT slot of the
 * executable, and the first HB_ENTRY_CODE_BYTES bytes of every entry. */
#define HB_ENTRY_CODE_BYTES 16
hb_status hb_entry_points_verify(int *changed, char *what, size_t what_size);

/* GOT slots of the executable the seal keeps (for the tests' own rewrite). */
size_t hb_entry_points_slot_count(void);

/* The address of the executable's GOT slot for `symbol`, NULL when it has
 * none (tests rewrite one to see the check find it). */
void **hb_entry_points_slot_of(const char *symbol);

#endif
