#include "bench/trace/record_store.h"

#include <stdlib.h>
#include <string.h>

/* Room for one more element of `size` bytes in *items (capacity doubled, from
 * 256); 0 on out of memory, the array left as it was. */
static int grow(void **items, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 1;
    size_t more = *cap ? *cap * 2 : 256;
    void *bigger = realloc(*items, more * size);
    if (!bigger)
        return 0;
    *items = bigger;
    *cap = more;
    return 1;
}

#define APPEND(store, array, count, cap, value)                                                   \
    do {                                                                                          \
        if (grow((void **)&(store)->array, &(store)->cap, (store)->count, sizeof *(store)->array)) \
            (store)->array[(store)->count++] = (value);                                           \
        else                                                                                      \
            (store)->lost++;                                                                      \
    } while (0)

void hb_record_store_add_kernel(hb_record_store *store, const hb_traced_kernel *kernel)
{
    APPEND(store, kernels, n_kernels, cap_kernels, *kernel);
}

void hb_record_store_add_copy(hb_record_store *store, const hb_traced_copy *copy)
{
    APPEND(store, copies, n_copies, cap_copies, *copy);
}

void hb_record_store_add_event(hb_record_store *store, const hb_traced_event *event)
{
    APPEND(store, events, n_events, cap_events, *event);
}

size_t hb_record_store_size(const hb_record_store *store)
{
    return store->n_kernels + store->n_copies + store->n_events;
}

void hb_record_store_clear(hb_record_store *store)
{
    store->n_kernels = store->n_copies = store->n_events = 0;
    store->lost = 0;
}

void hb_record_store_free(hb_record_store *store)
{
    free(store->kernels);
    free(store->copies);
    free(store->events);
    memset(store, 0, sizeof *store);
}
