#include "bench/result/module_state.h"

#include <stdio.h>

/* "(largest: name, N B)" when a variable is named, "" otherwise. */
static void largest_text(const hb_module_state *s, char *out, size_t size)
{
    out[0] = '\0';
    if (s->largest_symbol[0])
        snprintf(out, size, " (largest: %s, %llu B)", s->largest_symbol, (unsigned long long)s->largest_bytes);
}

int hb_module_state_refused(const hb_module_state *s, char *reason, size_t size)
{
    reason[0] = '\0';
    if (!s->scanned)
        return 0;
    const int over = s->global_bytes > HB_MODULE_STATE_LIMIT;
    if (!over && !s->device_malloc)
        return 0;
    if (over) {
        char largest[128];
        largest_text(s, largest, sizeof largest);
        snprintf(reason, size,
                 "module-scope device memory of %llu B%s is over the limit of %d B%s: __device__ variables keep "
                 "their values from one call to the next, so they could carry a result between calls instead of "
                 "computing it; keep per-call scratch in the manifest's workspace",
                 (unsigned long long)s->global_bytes, largest, HB_MODULE_STATE_LIMIT,
                 s->device_malloc ? " and the cubin calls device-side malloc" : "");
        return 1;
    }
    snprintf(reason, size,
             "the cubin calls the device-heap allocator %s (module-scope device memory %llu B, limit %d B): a heap "
             "block outlives the call that allocated it and a module global can keep its address, so it could "
             "carry a result between calls; use the manifest's workspace instead",
             s->malloc_symbol, (unsigned long long)s->global_bytes, HB_MODULE_STATE_LIMIT);
    return 1;
}
