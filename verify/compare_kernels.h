/* The correctness checks' own GPU kernels: the fp32 reference product, the
 * comparisons of an output with the fp32 and the fp64 reference, and the
 * helpers of the fp64 reference.  Implemented in CUDA C (reference.cu,
 * deviation.cu, exact_compare.cu, excess.cu), callable from C11; each
 * returns the CUDA runtime's error code. */
#ifndef HB_COMPARE_KERNELS_H
#define HB_COMPARE_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/result/battery_record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ref = A * B in fp32 arithmetic (inputs exact in fp32, products and sums in
 * fp32, summed in k order).  A: M x K row-major fp16, B: K x N row-major fp16,
 * ref: M x N row-major fp32. */
cudaError_t hb_reference_gemm_f32(const uint16_t *a, const uint16_t *b, float *ref, long m, long n, long k,
                                  cudaStream_t stream);

/* Compares every element of an fp16 output with the fp32 reference.
 * Synchronous: returns when *out is filled.  n must be below 2^32. */
cudaError_t hb_max_deviation_f16(const uint16_t *c, const float *ref, size_t n, hb_deviation *out,
                                 cudaStream_t stream);

typedef struct hb_exact_compare {
    uint64_t compared;       /* positions whose reference magnitude is below the limit */
    uint64_t mismatches;     /* compared positions that differ, plus NaN/Inf anywhere */
    uint64_t non_finite;     /* NaN or Inf outputs, anywhere */
    uint64_t first_index;    /* lowest mismatching row-major index (when mismatches > 0) */
    double first_value;      /* c there */
    double first_reference;  /* ref there */
} hb_exact_compare;

/* Exact comparison where |ref| < limit (2048 for the binary check).
 * Synchronous. */
cudaError_t hb_compare_exact_f16(const uint16_t *c, const float *ref, size_t n, float limit,
                                 hb_exact_compare *out, cudaStream_t stream);

/* Excess of an fp16 output over the fp64 reference (bench/result/battery_record.h):
 * per element max(0, |c - ref| - ulp16(c) / 2), the largest with its
 * position, how many are nonzero, NaN/Inf count.  Synchronous; n < 2^32. */
cudaError_t hb_excess_f16(const uint16_t *c, const double *ref, size_t n, hb_excess *out, cudaStream_t stream);

/* Sum of squares of n doubles (for the reference's root mean square).  Synchronous. */
cudaError_t hb_sum_squares_f64(const double *x, size_t n, double *out, cudaStream_t stream);

/* dst[i] = (double)src[i] for n fp16 values (exact). */
cudaError_t hb_widen_f16_f64(const uint16_t *src, double *dst, size_t n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
