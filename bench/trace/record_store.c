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

void hb_record_store_add_api(hb_record_store *store, const hb_traced_api *api)
{
    APPEND(store, api, n_api, cap_api, *api);
}

void hb_record_store_add_kernel(hb_record_store *store, const hb_traced_kernel *kernel)
{
    APPEND(store, kernels, n_kernels, cap_kernels, *kernel);
}

void hb_record_store_add_copy(hb_record_store *store, const hb_traced_copy *copy)
{
    APPEND(store, copies, n_copies, cap_copies, *copy);
}

void hb_record_store_add_link(hb_record_store *store, uint32_t correlation_id, uint64_t external_id)
{
    hb_external_link link = {correlation_id, external_id};
    APPEND(store, links, n_links, cap_links, link);
}

uint64_t hb_record_store_external_id(const hb_record_store *store, uint32_t correlation_id, int *found)
{
    /* Linear: a participant's trace holds a few thousand links at most. */
    for (size_t i = 0; i < store->n_links; i++)
        if (store->links[i].correlation_id == correlation_id) {
            *found = 1;
            return store->links[i].external_id;
        }
    *found = 0;
    return 0;
}

void hb_record_store_clear(hb_record_store *store)
{
    store->n_api = store->n_kernels = store->n_copies = store->n_links = 0;
    store->lost = 0;
}

void hb_record_store_free(hb_record_store *store)
{
    free(store->api);
    free(store->kernels);
    free(store->copies);
    free(store->links);
    memset(store, 0, sizeof *store);
}
