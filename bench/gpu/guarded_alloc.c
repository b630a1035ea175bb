#include "bench/gpu/guarded_alloc.h"

#include <stdio.h>
#include <string.h>

#include "bench/gpu/buffer_check.h"
#include "bench/gpu/cuda_check.h"

typedef struct guarded_entry {
    unsigned char *base; /* cudaMalloc's pointer: band, buffer, band */
    size_t bytes;        /* usable bytes between the bands */
    char label[48];
} guarded_entry;

static guarded_entry registry[HB_GUARDED_MAX];

static guarded_entry *free_slot(void)
{
    for (size_t i = 0; i < HB_GUARDED_MAX; i++)
        if (!registry[i].base)
            return &registry[i];
    return NULL;
}

hb_status hb_guarded_malloc(void **ptr, size_t bytes, const char *label)
{
    *ptr = NULL;
    guarded_entry *slot = free_slot();
    if (!slot)
        return hb_fail(HB_ERR_INTERNAL, "more than %d guarded buffers live at once", HB_GUARDED_MAX);
    unsigned char *base = NULL;
    const size_t total = bytes + 2 * HB_GUARD_BYTES;
    cudaError_t err = cudaMalloc((void **)&base, total);
    if (err != cudaSuccess)
        return hb_fail(HB_ERR_CUDA, "cannot allocate %zu bytes on the GPU for %s: %s (a smaller M, N, K fits)", total,
                       label, cudaGetErrorString(err));
    /* The whole allocation: the bands keep the fill, the middle is overwritten by its owner. */
    err = cudaMemset(base, HB_GUARD_FILL, total);
    if (err != cudaSuccess) {
        cudaFree(base);
        return hb_fail(HB_ERR_CUDA, "cudaMemset of the guard bands of %s failed: %s", label, cudaGetErrorString(err));
    }
    slot->base = base;
    slot->bytes = bytes;
    snprintf(slot->label, sizeof slot->label, "%s", label);
    *ptr = base + HB_GUARD_BYTES;
    return HB_OK;
}

void hb_guarded_free(void *ptr)
{
    if (!ptr)
        return;
    for (size_t i = 0; i < HB_GUARDED_MAX; i++) {
        if (registry[i].base && registry[i].base + HB_GUARD_BYTES == ptr) {
            cudaFree(registry[i].base);
            memset(&registry[i], 0, sizeof registry[i]);
            return;
        }
    }
}

static hb_status scan_band(const guarded_entry *e, int after, cudaStream_t stream, int *violated, char *reason,
                           size_t size)
{
    const unsigned char *band = after ? e->base + HB_GUARD_BYTES + e->bytes : e->base;
    hb_byte_scan scan;
    HB_CUDA_TRY(hb_scan_bytes(band, HB_GUARD_BYTES, HB_GUARD_FILL, &scan, stream));
    if (scan.changed_bytes == 0)
        return HB_OK;
    *violated = 1;
    if (after)
        snprintf(reason, size, "wrote %llu bytes past the end of %s (first at byte %llu after its end)",
                 (unsigned long long)scan.changed_bytes, e->label, (unsigned long long)scan.first_offset);
    else
        snprintf(reason, size, "wrote %llu bytes before the start of %s (first at byte -%llu)",
                 (unsigned long long)scan.changed_bytes, e->label,
                 (unsigned long long)(HB_GUARD_BYTES - scan.first_offset));
    return HB_OK;
}

hb_status hb_guard_check_all(cudaStream_t stream, int *violated, char *reason, size_t reason_size)
{
    *violated = 0;
    for (size_t i = 0; i < HB_GUARDED_MAX && !*violated; i++) {
        if (!registry[i].base)
            continue;
        HB_TRY(scan_band(&registry[i], 0, stream, violated, reason, reason_size));
        if (!*violated)
            HB_TRY(scan_band(&registry[i], 1, stream, violated, reason, reason_size));
    }
    return HB_OK;
}
