/* Random fp16 matrices generated on the GPU, for the timed inputs, the
 * correctness checks and the autotune search.  Implemented in CUDA C
 * (fill.cu), callable from C11; each returns the CUDA runtime's error code. */
#ifndef HB_FILL_H
#define HB_FILL_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills a rows x cols fp16 matrix with N(0, 1) values.  The value at logical
 * (r, c) depends only on (seed, r, c), not on the storage order, so B and
 * B_col filled with the same seed hold the same matrix. */
cudaError_t hb_fill_normal_f16(uint16_t *dst, long rows, long cols, int col_major, uint64_t seed,
                               cudaStream_t stream);

/* Small integers for the exact-match check (docs/methodology.md): {0, 1} with a
 * one drawn with probability p_nonzero (signed_values = 0), or {-1, 0, 1}
 * with -1 and 1 each drawn with probability p_nonzero / 2 (signed_values =
 * 1).  Like hb_fill_normal_f16, the value at (r, c) depends only on (seed,
 * r, c), so B and B_col filled with the same seed hold the same matrix. */
cudaError_t hb_fill_small_int_f16(uint16_t *dst, long rows, long cols, int col_major, uint64_t seed,
                                  double p_nonzero, int signed_values, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
