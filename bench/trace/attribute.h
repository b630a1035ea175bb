/* Which traced call each stored record belongs to (docs/trace.md,
 * "Attribution").  An API call is a call's when it carries the call's
 * external correlation id (it was made inside launch, on the harness's
 * thread), or when it was made on another thread and started inside the
 * call's window.  A kernel, copy or set is the call's when the API call that
 * made it is (same correlation id); one whose API call was not recorded is
 * the call's when it started inside the window (the device is idle at a
 * window's start: the harness synchronizes before it).  No CUDA: tests feed
 * it made-up stores. */
#ifndef HB_ATTRIBUTE_H
#define HB_ATTRIBUTE_H

#include <stdint.h>

#include "bench/result/call_trace.h"
#include "bench/trace/record_store.h"

typedef struct hb_attribution {
    uint64_t first_external_id; /* call i was traced with external id first_external_id + i */
    uint32_t harness_thread;    /* CUPTI's id of the thread that called launch */
    int harness_thread_known;   /* 0: the window of other threads' calls ends when launch returns,
                                   so the harness's own synchronize is not taken for the call's */
} hb_attribution;

/* Fills the records of trace->call[0 .. trace->calls - 1], whose index and
 * windows are set, from `store`: each kind in start order, the first
 * HB_TRACE_MAX_* kept and the rest counted as dropped; an API call made
 * inside another of the same thread (the driver calls of a runtime call)
 * marked nested.  0, or -1 on out of memory. */
int hb_attribute_records(const hb_record_store *store, const hb_attribution *how, hb_participant_trace *trace);

/* The probe: the set of `bytes` bytes whose API call carried `external_id`
 * (else the only such set that started between from_ns and to_ns); its
 * stream id and, when its API call was recorded, that call's thread id.
 * 0, or -1 when no set matches. */
int hb_find_probe(const hb_record_store *store, uint64_t external_id, uint64_t bytes, uint64_t from_ns, uint64_t to_ns,
                  uint32_t *stream_id, uint32_t *thread_id, int *thread_known);

#endif
