/* Which call each device record belongs to (docs/trace.md, "Attribution").
 * Every call starts and ends with the device idle (the harness synchronizes
 * the whole device before and after it), so a kernel, copy or set belongs to
 * the call in whose window it started, whichever stream or thread launched
 * it; the API calls were given to their call as they were made (call_log.h);
 * the harness's start and stop events to the call that marked them.  No
 * CUDA: tests feed it made-up stores and logs. */
#ifndef HB_ATTRIBUTE_H
#define HB_ATTRIBUTE_H

#include <stdint.h>

#include "bench/result/call_trace.h"
#include "bench/trace/call_log.h"
#include "bench/trace/record_store.h"

/* Called once per logged call, in order, with the call's records (each kind
 * in start order, the first HB_TRACE_MAX_* kept and the rest counted as
 * dropped). */
typedef void (*hb_call_fold)(void *context, const hb_logged_call *logged, const hb_call_trace *call);

/* Sorts the store in place, builds each logged call in `scratch` and hands
 * it to `fold`.  `stream_id` is the timed stream's CUPTI id for calls whose
 * start event CUPTI did not report.  Closed calls only: the caller checks
 * that none is open. */
void hb_attribute_calls(hb_record_store *store, const hb_call_log *log, uint32_t stream_id, hb_call_trace *scratch,
                        hb_call_fold fold, void *context);

#endif
