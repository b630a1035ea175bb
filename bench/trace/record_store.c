#include "bench/trace/record_store.h"

#include <stdlib.h>
#include <string.h>

#include "bench/core/array_room.h"

#define APPEND(store, array, count, cap, value)                                                         \
    do {                                                                                                \
        if (hb_array_room((void **)&(store)->array, &(store)->cap, (store)->count, sizeof *(store)->array)) \
            (store)->array[(store)->count++] = (value);                                                 \
        else                                                                                            \
            (store)->lost++;                                                                            \
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
