/* The device state that host code running in the harness's process can
 * change and that the harness relies on (docs/launchers.md, "Device state"):
 * the current device (every later CUDA call of the harness goes to it), the
 * device flags (how the harness's synchronize waits: spinning or blocking,
 * which moves the wall time), the persisting-L2 limit (how much of the L2
 * the next participant's accesses may find set aside), the timed stream's
 * access-policy window (which lines of the next participant's kernels on it
 * are kept persisting, or streamed) and the persisting lines themselves
 * (bench/gpu/l2_persistence.h: they survive the flush).  Read once before a
 * launcher is loaded, compared after each of its calls and put back; the
 * persisting lines, which cannot be read, are reset after every call. */
#ifndef HB_DEVICE_STATE_H
#define HB_DEVICE_STATE_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "bench/core/status.h"

typedef struct hb_device_state {
    int device;                 /* cudaGetDevice */
    unsigned flags;             /* cudaGetDeviceFlags (cudaDeviceSchedule*, cudaDeviceMapHost, ...) */
    int has_persisting_l2;      /* 0: this device has no such limit to read (cudaErrorUnsupportedLimit) */
    size_t persisting_l2_bytes; /* cudaDeviceGetLimit(cudaLimitPersistingL2CacheSize), bytes */
    int persisting_lines;       /* 1: the device can keep lines persisting (hb_l2_persisting_supported): reset after each call */
    int windows;                /* 1: the device takes access-policy windows (hb_stream_windows_supported) */
    int legacy_window_readable; /* 1: cudaStreamLegacy has an access-policy window to read (hb_stream_window_readable) */
} hb_device_state;

/* The state now.  HB_ERR_CUDA when a query fails. */
hb_status hb_device_state_read(hb_device_state *out);

/* The current device alone, right after a call and before the harness's
 * own stop event and synchronize, which must reach the device they belong
 * to: one cudaGetDevice, and a cudaSetDevice back when it moved.  *strayed
 * gets the device it found (left as is when it found `want`'s).
 * HB_ERR_CUDA when either call fails. */
hb_status hb_device_state_keep_device(const hb_device_state *want, int *strayed);

/* Compares the state now with `want`, sets back what changed and writes one
 * line into `note` saying what changed and whether it could be set back ("" when nothing
 * changed).  `strayed` is the device hb_device_state_keep_device found, or
 * -1; `stream` the stream the call was given, whose access-policy window
 * must be none (the harness sets none; one is cleared).  Device flags are
 * set back with cudaSetDeviceFlags, which overwrites an active device's
 * flags since CUDA 12; when they still differ afterwards the note says so
 * and the harness goes on with them.  Last, on a device that has them, the
 * persisting lines are reset, changed or not.  HB_ERR_CUDA when a query, or
 * putting back the device, the limit or the window, or the reset, fails. */
hb_status hb_device_state_restore(const hb_device_state *want, int strayed, cudaStream_t stream, char *note,
                                  size_t size);

#endif
