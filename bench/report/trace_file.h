/* trace.json: the first calls of every participant of one configuration,
 * whole, as the call monitor recorded them, with the kernel time and the
 * findings judged over every call it saw (docs/trace.md, "The trace file";
 * format "hgemm-bench-trace/2"). */
#ifndef HB_TRACE_FILE_H
#define HB_TRACE_FILE_H

#include <stddef.h>

#include "bench/core/gemm_types.h"
#include "bench/core/status.h"
#include "bench/result/call_trace.h"

#define HB_TRACE_FORMAT "hgemm-bench-trace/2"

/* One participant of the file: its first calls, and what was judged over all of them. */
typedef struct hb_trace_file_entry {
    const hb_participant_trace *trace;
    const hb_kernel_time *time;
    const hb_conduct *conduct;
    int calls_watched;   /* every call the monitor saw, the first included */
    int timed_calls;
} hb_trace_file_entry;

/* Writes `count` participants to `path`, atomically. */
hb_status hb_trace_file_write(const char *path, const hb_mnk *mnk, const hb_trace_file_entry *entries, size_t count);

#endif
