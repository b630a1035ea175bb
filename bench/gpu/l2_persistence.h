/* The L2's persisting lines and a stream's access-policy window
 * (docs/methodology.md, "L2 policy").  From Ampere on, part of the L2 can be
 * set aside (cudaLimitPersistingL2CacheSize) for lines marked persisting,
 * and a stream's access-policy window (cudaStreamAttributeAccessPolicyWindow)
 * marks the lines its kernels touch in an address range persisting.  A
 * persisting line survives a flush that writes twice the L2 with normal
 * stores, and it stays persisting until it is reset
 * (cudaCtxResetPersistingL2Cache) or, at a time the hardware chooses, ages
 * out; a window stays on its stream, for every later kernel on it, until it
 * is set again.  So a launcher that marks its inputs persisting, or leaves a
 * window on the timed stream, would keep them in L2 across the flush, or
 * change what the baselines' kernels keep there. */
#ifndef HB_L2_PERSISTENCE_H
#define HB_L2_PERSISTENCE_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "bench/core/status.h"

/* A stream's access-policy window; bytes 0: none (what the harness sets). */
typedef struct hb_access_window {
    const void *base;
    size_t bytes;
    float hit_ratio;   /* the share of the range's accesses that get hit_prop */
    int hit_prop;      /* cudaAccessProperty: normal, streaming or persisting */
    int miss_prop;
} hb_access_window;

/* 1 in *out when the current device can set L2 aside for persisting lines
 * (cudaDevAttrMaxPersistingL2CacheSize above 0: Ampere on); then there are
 * lines to reset.  HB_ERR_CUDA when the query fails. */
hb_status hb_l2_persisting_supported(int *out);

/* 1 in *out when the current device takes access-policy windows
 * (cudaDevAttrMaxAccessPolicyWindowSize above 0: Ampere on).  HB_ERR_CUDA
 * when the query fails. */
hb_status hb_stream_windows_supported(int *out);

/* Every persisting line of the L2 made normal again, so that the next normal
 * stores can evict it (cudaCtxResetPersistingL2Cache; the device must be
 * idle for it to mean "before the next call").  HB_ERR_CUDA on failure. */
hb_status hb_l2_persisting_reset(void);

/* 1 in *out when `stream`'s window can be read.  The runtime documents
 * cudaErrorInvalidResourceHandle for a handle that has no attributes; such an
 * answer is 0 (and cleared, so no later check trips over it).  Called before
 * any candidate code, on the handles the harness times on.  HB_ERR_CUDA for
 * any other error. */
hb_status hb_stream_window_readable(cudaStream_t stream, int *out);

/* `stream`'s window now.  HB_ERR_CUDA when it cannot be read. */
hb_status hb_stream_window_read(cudaStream_t stream, hb_access_window *out);

/* `stream`'s window set to none (bytes 0, which disables it).  HB_ERR_CUDA on
 * failure. */
hb_status hb_stream_window_clear(cudaStream_t stream);

/* "access-policy window 4194304 B at 0x7f0000000000, hits persisting (ratio
 * 1.00), misses streaming". */
void hb_access_window_describe(const hb_access_window *window, char *out, size_t size);

#endif
