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

/* The stir of an N(0, 1) fill (docs/methodology.md, "L2 policy"): one
 * element of every row (per_column = 0) or of every column (per_column = 1)
 * of the rows x cols matrix hb_fill_normal_f16 filled with `fill_seed` gets a
 * fresh N(0, 1) value other than the fill's.  Its position along the line and
 * its value depend only on (stir_seed, per_column, line), like the fill's on
 * (seed, r, c): B and B_col stirred alike hold the same matrix.  First the
 * element an earlier stir with `undo_seed` changed is set back to the fill's
 * value, so the matrix is always the fill plus one stir.  A seed of 0 is no
 * stir: undo_seed 0 sets nothing back, stir_seed 0 only sets back. */
cudaError_t hb_stir_normal_f16(uint16_t *dst, long rows, long cols, int col_major, uint64_t fill_seed, int per_column,
                               uint64_t undo_seed, uint64_t stir_seed, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
