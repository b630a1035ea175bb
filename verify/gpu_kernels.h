/* Host entry points of the harness's own GPU helper kernels (fills,
 * reference product, comparisons).  Implemented in CUDA C (.cu), callable
 * from C11; they return the CUDA runtime's error code. */
#ifndef HB_GPU_KERNELS_H
#define HB_GPU_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills a rows x cols fp16 matrix with N(0, 1) values.  The value at logical
 * (r, c) depends only on (seed, r, c), not on the storage order, so B and
 * B_col filled with the same seed hold the same matrix. */
cudaError_t hb_fill_normal_f16(uint16_t *dst, long rows, long cols, int col_major, uint64_t seed,
                               cudaStream_t stream);

/* Small integers for the exact-match check (protocol 4.2): {0, 1} with a
 * one drawn with probability p_nonzero (signed_values = 0), or {-1, 0, 1}
 * with -1 and 1 each drawn with probability p_nonzero / 2 (signed_values =
 * 1).  Like hb_fill_normal_f16, the value at (r, c) depends only on (seed,
 * r, c), so B and B_col filled with the same seed hold the same matrix. */
cudaError_t hb_fill_small_int_f16(uint16_t *dst, long rows, long cols, int col_major, uint64_t seed,
                                  double p_nonzero, int signed_values, cudaStream_t stream);

/* ref = A * B in fp32 arithmetic (inputs exact in fp32, products and sums in
 * fp32, summed in k order).  A: M x K row-major fp16, B: K x N row-major fp16,
 * ref: M x N row-major fp32. */
cudaError_t hb_reference_gemm_f32(const uint16_t *a, const uint16_t *b, float *ref, long m, long n, long k,
                                  cudaStream_t stream);

typedef struct hb_deviation {
    double max_abs;          /* largest |c - ref| over finite outputs; +inf if any output is NaN/Inf */
    uint64_t worst_index;    /* row-major index of that element */
    uint64_t non_finite;     /* count of NaN or Inf outputs */
    double worst_value;      /* c at worst_index */
    double worst_reference;  /* ref at worst_index */
} hb_deviation;

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

/* 64-bit fingerprint of `bytes` bytes of device memory.  Synchronous. */
cudaError_t hb_hash_buffer(const void *data, size_t bytes, uint64_t *out, cudaStream_t stream);

typedef struct hb_byte_scan {
    uint64_t changed_bytes;  /* bytes that differ from the expected fill */
    uint64_t first_offset;   /* lowest such offset (when changed_bytes > 0) */
} hb_byte_scan;

/* Counts bytes of a device buffer that are not `expected`.  Synchronous. */
cudaError_t hb_scan_bytes(const void *data, size_t bytes, unsigned char expected, hb_byte_scan *out,
                          cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
