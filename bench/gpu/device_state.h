/* The device state that host code running in the harness's process can
 * change and that the harness relies on (docs/launchers.md, "Device state"):
 * the current device (every later CUDA call of the harness goes to it), the
 * device flags (how the harness's synchronize waits: spinning or blocking,
 * which moves the wall time) and the persisting-L2 limit (how much of the L2
 * the next participant's accesses may find set aside).  Read once before a
 * launcher is loaded, compared after each of its calls and put back. */
#ifndef HB_DEVICE_STATE_H
#define HB_DEVICE_STATE_H

#include <stddef.h>

#include "bench/core/status.h"

typedef struct hb_device_state {
    int device;                 /* cudaGetDevice */
    unsigned flags;             /* cudaGetDeviceFlags (cudaDeviceSchedule*, cudaDeviceMapHost, ...) */
    int has_persisting_l2;      /* 0: this device has no such limit to read (cudaErrorUnsupportedLimit) */
    size_t persisting_l2_bytes; /* cudaDeviceGetLimit(cudaLimitPersistingL2CacheSize), bytes */
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
 * -1.  Device flags are set back with cudaSetDeviceFlags, which overwrites
 * an active device's flags since CUDA 12; when they still differ afterwards
 * the note says so and the harness goes on with them.  HB_ERR_CUDA when a
 * query, or putting back the device or the limit, fails. */
hb_status hb_device_state_restore(const hb_device_state *want, int strayed, char *note, size_t size);

#endif
