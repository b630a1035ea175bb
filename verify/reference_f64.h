/* The fp64 reference product that the deviation rule measures against
 * (docs/methodology.md, "The deviation rule"): A and B widened to double
 * (exact: every fp16 is a double) and multiplied by cuBLAS DGEMM in native
 * fp64 (CUBLAS_DEFAULT_MATH: no fixed-point emulation).  Each product of two
 * fp16 values is exact in double and K <= 2^18 sums lose under 2^-34 of
 * sum |a b|: the reference is exact for every purpose of an fp16 output.
 * DGEMM is fast on A100/H100 (docs/validation.md has its time at 16384^3);
 * on GPUs with slow fp64 (GeForce: 1/64 rate) it is the check's largest cost. */
#ifndef HB_REFERENCE_F64_H
#define HB_REFERENCE_F64_H

#include <cuda_runtime_api.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"

typedef struct hb_reference64 {
    void *handle;          /* cublasHandle_t, kept opaque so callers need no cuBLAS header */
    double *a, *b;         /* A (M x K) and B (K x N), row-major doubles */
    double *c;             /* the reference, M x N row-major */
    long m, n, k;
    double rms;            /* root mean square of c, from the last compute */
} hb_reference64;

/* Allocates 8 (MK + KN + MN) bytes of device memory and a cuBLAS handle on `stream`. */
hb_status hb_reference64_create(long m, long n, long k, cudaStream_t stream, hb_reference64 *out);

/* c = A B for the inputs' A and B, and its rms.  Synchronous. */
hb_status hb_reference64_compute(hb_reference64 *ref, const hb_gemm_io *inputs, cudaStream_t stream);

void hb_reference64_free(hb_reference64 *ref);

#endif
