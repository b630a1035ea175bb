/* Device allocations with guard bands (docs/methodology.md, "Correctness before timing"): every buffer a
 * candidate can reach (inputs, output, padded copies, workspace) sits
 * between two bands of HB_GUARD_BYTES filled with HB_GUARD_FILL.  After
 * each checked call every band of every live allocation is scanned; a
 * changed byte is a write out of bounds, named by buffer and offset.
 *
 * The registry is per process: the harness evaluates each configuration
 * in a child process of its own (bench/driver/isolate.h). */
#ifndef HB_GUARDED_ALLOC_H
#define HB_GUARDED_ALLOC_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "bench/core/status.h"

/* 1 MiB each side: a kernel that overruns by a row or a tile lands in the
 * band; keeps the user pointer 256-byte aligned like cudaMalloc's. */
#define HB_GUARD_BYTES ((size_t)1 << 20)
#define HB_GUARD_FILL 0xA5
#define HB_GUARDED_MAX 64

/* cudaMalloc of bytes + 2 bands; *ptr is the usable middle. `label` names
 * the buffer in reports ("A", "C of candidate", ...); it is copied. */
hb_status hb_guarded_malloc(void **ptr, size_t bytes, const char *label);

/* Frees an allocation made by hb_guarded_malloc; NULL is ignored. */
void hb_guarded_free(void *ptr);

/* Scans every band of every live allocation.  *violated = 1 and `reason`
 * says which buffer and where when any byte changed. */
hb_status hb_guard_check_all(cudaStream_t stream, int *violated, char *reason, size_t reason_size);

#endif
