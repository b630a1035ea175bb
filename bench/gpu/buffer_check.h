/* Reading device memory back as a summary, without copying it to the host:
 * a fingerprint (to see whether a buffer changed across a call) and a count
 * of bytes that differ from a fill (to scan guard bands).  Implemented in
 * CUDA C (buffer_hash.cu, byte_scan.cu); each returns the CUDA runtime's
 * error code. */
#ifndef HB_BUFFER_CHECK_H
#define HB_BUFFER_CHECK_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
