/* trace.json: every traced call of every participant of one configuration,
 * as the trace pass recorded it, with the judge's kernel time and findings
 * (docs/trace.md, "The trace file"; format "hgemm-bench-trace/1"). */
#ifndef HB_TRACE_FILE_H
#define HB_TRACE_FILE_H

#include <stddef.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/result/call_trace.h"

#define HB_TRACE_FORMAT "hgemm-bench-trace/1"

/* Writes `count` participants' traces to `path`, atomically. */
hb_status hb_trace_file_write(const char *path, const hb_mnk *mnk, const hb_participant_trace *const *traces,
                              size_t count);

#endif
