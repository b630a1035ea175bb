/* The trace pass's tracer (docs/trace.md): CUPTI records, for a few calls of
 * a participant made apart from the timed windows, the kernels each call ran,
 * its copies and sets, and the CUDA runtime and driver calls made inside it;
 * hb_judge_conduct (bench/result/call_trace.h) reads them.  One tracer at a
 * time per process (CUPTI's buffers are the process's); open it after the
 * device is set. */
#ifndef HB_TRACER_H
#define HB_TRACER_H

#include <cuda_runtime_api.h>

#include "bench/candidate/participant.h"
#include "bench/core/status.h"
#include "bench/result/call_trace.h"

typedef struct hb_tracer hb_tracer;

/* Loads CUPTI and turns on the activity kinds the trace reads: concurrent
 * kernels (kernels still overlap), copies, sets, runtime and driver calls,
 * external correlations.  HB_ERR_UNSUPPORTED, with a message naming what was
 * searched, when CUPTI is missing; also when CUPTI refuses to trace (another
 * profiler attached). */
hb_status hb_tracer_open(hb_tracer **out);

/* Traces `calls` calls (1 .. HB_TRACE_MAX_CALLS, the first included) of p on
 * io.  Before each call, untimed and outside the traced window: p's poison and
 * prepare, then a device synchronize.  The call: an external correlation id
 * pushed, the host clock and CUPTI's read, launch(p, io, timed_stream), the id
 * popped, a device synchronize, the clocks read again; then p's after_call
 * when it has one.  After the calls: a flush, and every record given to its
 * call (bench/trace/attribute.h).  The timed stream's CUPTI id comes from a
 * 1-byte set on it made before the first call (the legacy default stream
 * works too).  A failure of p's own operations is p's: HB_ERR_CANDIDATE_FAULT
 * for a candidate, as in the timed calls. */
hb_status hb_trace_participant(hb_tracer *tracer, hb_participant *p, const hb_gemm_io *io, cudaStream_t timed_stream,
                               int calls, hb_participant_trace *out);

/* Turns the activity kinds off, frees the tracer; NULL is allowed. */
void hb_tracer_close(hb_tracer *tracer);

/* An experiment for the lead: only kernel activity turned on, records counted
 * (not kept), for a whole timed window. */
hb_status hb_tracer_open_kernels_only(hb_tracer **out);

/* Records handed back so far, after a flush of what CUPTI holds (so this
 * waits for CUPTI's buffers, not for the device). */
unsigned long long hb_tracer_records_seen(const hb_tracer *tracer);

/* Records CUPTI reported dropped (its buffers were full or refused) so far. */
unsigned long long hb_tracer_records_dropped(const hb_tracer *tracer);

#endif
