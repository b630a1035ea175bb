/* The records CUPTI delivered, copied out of its buffers (its kernel names
 * included) before the buffers go back: API calls, kernels, copies and sets,
 * and the external correlations that tie an API call to a traced call.
 * Plain data in the result layer's types; the caller serializes access (the
 * buffer callbacks run on CUPTI's thread). */
#ifndef HB_RECORD_STORE_H
#define HB_RECORD_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/result/call_trace.h"

/* An API call's external correlation id (the id pushed around a traced call). */
typedef struct hb_external_link {
    uint32_t correlation_id;
    uint64_t external_id;
} hb_external_link;

typedef struct hb_record_store {
    hb_traced_api *api;
    hb_traced_kernel *kernels;
    hb_traced_copy *copies;
    hb_external_link *links;
    size_t n_api, n_kernels, n_copies, n_links;
    size_t cap_api, cap_kernels, cap_copies, cap_links;
    unsigned long long lost; /* records not stored: out of memory */
} hb_record_store;

/* Empties the store, keeping its memory. */
void hb_record_store_clear(hb_record_store *store);
void hb_record_store_free(hb_record_store *store);

/* Each appends a copy; on out of memory the record is counted in `lost`. */
void hb_record_store_add_api(hb_record_store *store, const hb_traced_api *api);
void hb_record_store_add_kernel(hb_record_store *store, const hb_traced_kernel *kernel);
void hb_record_store_add_copy(hb_record_store *store, const hb_traced_copy *copy);
void hb_record_store_add_link(hb_record_store *store, uint32_t correlation_id, uint64_t external_id);

/* The external id of an API call's correlation id; 0 and *found = 0 when none. */
uint64_t hb_record_store_external_id(const hb_record_store *store, uint32_t correlation_id, int *found);

#endif
