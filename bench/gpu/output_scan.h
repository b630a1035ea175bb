/* The per-call output scan (docs/methodology.md, "Every call's output
 * scanned"): counts the elements of an fp16 output whose exponent bits are
 * all ones, which is the harness's poison 0xFFFF (an element no kernel
 * wrote), any other NaN, and +-Inf.  Implemented in CUDA C (output_scan.cu),
 * callable from C11; returns the CUDA runtime's error code. */
#ifndef HB_OUTPUT_SCAN_H
#define HB_OUTPUT_SCAN_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues on `stream` a count of the non-finite elements of the rows x
 * cols region of a row-major fp16 matrix whose rows start `ld` elements
 * apart (ld >= cols: a padded output's logical region; its padding is not
 * read), and adds the count to the device counter *counter.  Asynchronous:
 * nothing is read back.  cudaErrorInvalidValue when ld < cols or a
 * dimension is negative; an empty region enqueues nothing. */
cudaError_t hb_count_nonfinite_f16(const uint16_t *data, long rows, long cols, long ld,
                                   unsigned long long *counter, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
