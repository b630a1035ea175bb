#include "bench/gpu/device_state.h"

#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/gpu/cuda_check.h"
#include "bench/gpu/l2_persistence.h"

static hb_status read_persisting_limit(hb_device_state *out)
{
    cudaError_t err = cudaDeviceGetLimit(&out->persisting_l2_bytes, cudaLimitPersistingL2CacheSize);
    if (err == cudaErrorUnsupportedLimit) {
        cudaGetLastError(); /* expected here: clear it, so no later check of the harness's trips over it */
        return HB_OK;
    }
    HB_CUDA_TRY(err);
    out->has_persisting_l2 = 1;
    return HB_OK;
}

hb_status hb_device_state_read(hb_device_state *out)
{
    memset(out, 0, sizeof *out);
    HB_CUDA_TRY(cudaGetDevice(&out->device));
    HB_CUDA_TRY(cudaGetDeviceFlags(&out->flags));
    HB_TRY(read_persisting_limit(out));
    HB_TRY(hb_l2_persisting_supported(&out->persisting_lines));
    HB_TRY(hb_stream_windows_supported(&out->windows));
    return out->windows ? hb_stream_window_readable(cudaStreamLegacy, &out->legacy_window_readable) : HB_OK;
}

hb_status hb_device_state_keep_device(const hb_device_state *want, int *strayed)
{
    int device = 0;
    HB_CUDA_TRY(cudaGetDevice(&device));
    if (device == want->device)
        return HB_OK;
    *strayed = device;
    HB_CUDA_TRY(cudaSetDevice(want->device));
    return HB_OK;
}

/* Appends one clause to the note, "; " between clauses. */
static void add(char *note, size_t size, const char *fmt, ...) HB_PRINTF(3, 4);
static void add(char *note, size_t size, const char *fmt, ...)
{
    size_t used = strlen(note);
    if (used + 3 >= size)
        return;
    if (used) {
        memcpy(note + used, "; ", 3);
        used += 2;
    }
    va_list args;
    va_start(args, fmt);
    vsnprintf(note + used, size - used, fmt, args);
    va_end(args);
}

/* cudaGetDeviceFlags may report cudaDeviceMapHost, which the runtime implies
 * and cudaSetDeviceFlags need not take: without it on a second try. */
static unsigned set_back_flags(unsigned want)
{
    unsigned now = want + 1;
    if (cudaSetDeviceFlags(want) != cudaSuccess && cudaSetDeviceFlags(want & ~(unsigned)cudaDeviceMapHost) != cudaSuccess)
        cudaGetLastError(); /* the failure is reported through the note below */
    if (cudaGetDeviceFlags(&now) != cudaSuccess)
        cudaGetLastError();
    return now;
}

static hb_status restore_flags(const hb_device_state *want, char *note, size_t size)
{
    unsigned flags = 0;
    HB_CUDA_TRY(cudaGetDeviceFlags(&flags));
    if (flags == want->flags)
        return HB_OK;
    unsigned after = set_back_flags(want->flags);
    add(note, size, "device flags 0x%x instead of 0x%x (%s)", flags, want->flags,
        after == want->flags ? "set back" : "could not be set back: the rest of the configuration ran with them");
    return HB_OK;
}

static hb_status restore_persisting_l2(const hb_device_state *want, char *note, size_t size)
{
    if (!want->has_persisting_l2)
        return HB_OK;
    size_t bytes = 0;
    HB_CUDA_TRY(cudaDeviceGetLimit(&bytes, cudaLimitPersistingL2CacheSize));
    if (bytes == want->persisting_l2_bytes)
        return HB_OK;
    HB_CUDA_TRY(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, want->persisting_l2_bytes));
    add(note, size, "persisting-L2 limit %zu B instead of %zu B (set back)", bytes, want->persisting_l2_bytes);
    return HB_OK;
}

/* The harness sets no access-policy window: one found was the call's. */
static hb_status clear_window(const hb_device_state *want, cudaStream_t stream, char *note, size_t size)
{
    if (!want->windows || (stream == cudaStreamLegacy && !want->legacy_window_readable))
        return HB_OK; /* a device or a handle without one: nothing a call could set either */
    hb_access_window window;
    HB_TRY(hb_stream_window_read(stream, &window));
    if (window.bytes == 0)
        return HB_OK;
    HB_TRY(hb_stream_window_clear(stream));
    char what[160];
    hb_access_window_describe(&window, what, sizeof what);
    add(note, size, "%s on the timed stream (cleared)", what);
    return HB_OK;
}

hb_status hb_device_state_restore(const hb_device_state *want, int strayed, cudaStream_t stream, char *note,
                                  size_t size)
{
    note[0] = '\0';
    if (strayed >= 0)
        add(note, size, "current device %d instead of %d (set back right after the call)", strayed, want->device);
    int device = want->device;
    HB_TRY(hb_device_state_keep_device(want, &device)); /* first: flags and limit are the current device's */
    if (device != want->device)
        add(note, size, "current device %d instead of %d (set back)", device, want->device);
    HB_TRY(restore_flags(want, note, size));
    HB_TRY(restore_persisting_l2(want, note, size));
    HB_TRY(clear_window(want, stream, note, size));
    /* Last, with the limit and the window put back: whatever the call marked
     * persisting is normal again, so the flush before the next call evicts it. */
    return want->persisting_lines ? hb_l2_persisting_reset() : HB_OK;
}
