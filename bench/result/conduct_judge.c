/* hb_judge_conduct (call_trace.h): the judge of the calls of one trace,
 * through the tally the call monitor keeps for every call
 * (conduct_tally.h), so that a trace of a few calls and a million calls are
 * judged by the same code. */
#include <string.h>

#include "bench/result/call_trace.h"
#include "bench/result/conduct_tally.h"

/* The later calls are 1..calls-1; with one call, that call. */
static int first_later(const hb_participant_trace *trace) { return trace->calls > 1 ? 1 : 0; }

void hb_judge_conduct(const hb_participant_trace *trace, hb_kernel_time *time, hb_conduct *conduct)
{
    memset(time, 0, sizeof *time);
    memset(conduct, 0, sizeof *conduct);
    if (trace->calls < 1 || trace->calls > HB_TRACE_MAX_CALLS)
        return;
    static hb_conduct_tally tally;
    static hb_call_trace call; /* large: off the stack */
    hb_conduct_tally_init(&tally);
    tally.records_dropped = trace->records_dropped;
    double span[HB_TRACE_MAX_CALLS], sum[HB_TRACE_MAX_CALLS], wall[HB_TRACE_MAX_CALLS];
    int n = 0;
    for (int c = 0; c < trace->calls; c++) {
        call = trace->call[c];
        if (!call.timed_stream_id) /* a trace names its timed stream once */
            call.timed_stream_id = trace->timed_stream_id;
        if (hb_conduct_tally_add(&tally, &call) != 0) {
            hb_conduct_tally_free(&tally);
            return;
        }
        if (c >= first_later(trace)) {
            span[n] = hb_call_kernel_span_us(&call);
            sum[n] = hb_call_kernel_sum_us(&call);
            wall[n++] = call.wall_us;
        }
    }
    hb_kernel_time_of(span, sum, wall, n, 0, &tally, time);
    hb_judge_tally(&tally, time, trace->device_state, NULL, conduct);
    hb_conduct_tally_free(&tally);
}
