/* What the call monitor writes down while calls run (bench/trace/
 * call_monitor.h): each call's window on CUPTI's clock, the API calls of the
 * conduct classes made inside it, and which API calls recorded the harness's
 * start and stop events.  Written by the harness's thread and by any thread
 * of the participant's during a call (under the monitor's lock), read at a
 * checkpoint, when no call is in flight.  No CUDA. */
#ifndef HB_CALL_LOG_H
#define HB_CALL_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "bench/result/call_trace.h"

#define HB_NO_PARTICIPANT ((size_t)-1) /* the monitor's own probe, not a participant's call */

typedef struct hb_logged_call {
    size_t participant;
    int ordinal;               /* the participant's calls before this one in the process */
    hb_call_kind kind;
    long sample;               /* timed: its index among the participant's timed samples (cross-checked: among the
                                  cross-checked rounds); else -1 */
    uint64_t window_start_ns, launch_start_ns, launch_end_ns, window_end_ns; /* CUPTI clock; end 0 while open */
    size_t first_api, n_api;   /* its API calls: log->api[first_api .. first_api + n_api) */
    int open;
    double event_us;           /* what cudaEventElapsedTime read of it; NaN: not timed */
} hb_logged_call;

/* A harness event record made inside a call's window: the start or the stop event. */
typedef struct hb_event_mark {
    uint32_t correlation_id;
    size_t call;               /* index into log->calls */
    int stop;                  /* 0: the start event, 1: the stop event */
} hb_event_mark;

typedef struct hb_call_log {
    hb_logged_call *calls;
    hb_traced_api *api;
    hb_event_mark *marks;
    size_t n_calls, n_api, n_marks;
    size_t cap_calls, cap_api, cap_marks;
    unsigned long long lost;   /* entries not kept: out of memory */
} hb_call_log;

/* Opens a call (the one before must be closed); 0, or -1 on out of memory. */
int hb_call_log_open(hb_call_log *log, const hb_logged_call *call);

/* The open call, NULL when none. */
hb_logged_call *hb_call_log_current(hb_call_log *log);

/* Closes the open call at `end_ns`. */
void hb_call_log_close(hb_call_log *log, uint64_t end_ns);

/* An API call of the open call; its index, or -1 when none is open or out of memory. */
long hb_call_log_api(hb_call_log *log, const hb_traced_api *api);

/* The harness's event time of the call just closed, microseconds. */
void hb_call_log_timed(hb_call_log *log, double event_us);

/* A harness event record of the open call. */
void hb_call_log_mark(hb_call_log *log, uint32_t correlation_id, int stop);

void hb_call_log_clear(hb_call_log *log);
void hb_call_log_free(hb_call_log *log);

#endif
