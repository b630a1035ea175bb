/* The device records CUPTI delivered, copied out of its buffers (kernel
 * names included) before the buffers go back: kernels, copies and sets, and
 * the harness's CUDA events with the device timestamps CUPTI read of them.
 * The call monitor hands them to calls at its checkpoints
 * (bench/trace/attribute.h).  Plain data in the result layer's types; the
 * caller serializes access (the buffer callbacks run on CUPTI's thread). */
#ifndef HB_RECORD_STORE_H
#define HB_RECORD_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/result/call_trace.h"

/* A CUDA event recorded on the device, as CUPTI's CUDA_EVENT record says. */
typedef struct hb_traced_event {
    uint32_t correlation_id; /* of the API call that recorded it */
    uint32_t stream_id;      /* CUPTI's id of the stream it was recorded on */
    uint64_t device_ns;      /* the device's timestamp of the event, 0 when CUPTI took none */
} hb_traced_event;

typedef struct hb_record_store {
    hb_traced_kernel *kernels;
    hb_traced_copy *copies;
    hb_traced_event *events;
    size_t n_kernels, n_copies, n_events;
    size_t cap_kernels, cap_copies, cap_events;
    unsigned long long lost; /* records not stored: out of memory */
} hb_record_store;

/* Empties the store, keeping its memory. */
void hb_record_store_clear(hb_record_store *store);
void hb_record_store_free(hb_record_store *store);

/* Each appends a copy; on out of memory the record is counted in `lost`. */
void hb_record_store_add_kernel(hb_record_store *store, const hb_traced_kernel *kernel);
void hb_record_store_add_copy(hb_record_store *store, const hb_traced_copy *copy);
void hb_record_store_add_event(hb_record_store *store, const hb_traced_event *event);

/* Records stored since the last clear. */
size_t hb_record_store_size(const hb_record_store *store);

#endif
