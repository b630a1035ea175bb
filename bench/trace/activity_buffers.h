/* CUPTI's activity buffers: the two callbacks CUPTI calls to get an empty
 * buffer and to hand a full one back, and where the records of a full one
 * go.  CUPTI registers callbacks for the whole process, so there is one sink
 * at a time: the call monitor's.  The completion callback may run on CUPTI's
 * own thread; it holds the lock while it writes to the sink, and the monitor
 * takes the same lock (hb_activity_lock) to read it after a flush, never
 * while a call is in flight (a timed call must not wait for it). */
#ifndef HB_ACTIVITY_BUFFERS_H
#define HB_ACTIVITY_BUFFERS_H

#include "bench/core/status.h"
#include "bench/gpu/cupti_runtime.h"
#include "bench/trace/record_store.h"

/* 8 MiB per buffer: about 25,000 kernel records.  CUPTI asks for 8-byte alignment. */
#define HB_ACTIVITY_BUFFER_BYTES (8u << 20)
#define HB_ACTIVITY_BUFFER_ALIGN 8u

typedef struct hb_activity_sink {
    hb_record_store *store;                       /* NULL: count the records only */
    unsigned long long seen;                      /* records handed back */
    unsigned long long dropped;                   /* records CUPTI reports it dropped (a buffer was full or refused) */
    unsigned long long refused;                   /* buffers we could not allocate */
} hb_activity_sink;

/* Registers the callbacks with CUPTI (once per process) and makes `sink`
 * the one that receives records; HB_ERR_CUDA when CUPTI refuses. */
hb_status hb_activity_attach(const hb_cupti_api *api, hb_activity_sink *sink);

/* No sink any more: buffers handed back later are dropped unread. */
void hb_activity_detach(void);

/* Every record CUPTI holds handed to the sink (a forced flush: the caller
 * synchronizes the device first so that the records are complete). */
hb_status hb_activity_flush(const hb_cupti_api *api);

/* The sink's lock, for reading it between flushes. */
void hb_activity_lock(void);
void hb_activity_unlock(void);

#endif
