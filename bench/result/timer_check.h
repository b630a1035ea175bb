/* Which timer a configuration's headline comes from, and whether its timers
 * can be trusted at all (docs/methodology.md, "A call's time covers all of
 * its work" and "Timers out of the candidate's reach").  Pure: it reads
 * every participant's timed calls, paired by round, and decides.
 *
 * The headline is on CUDA events unless the events may miss part of a
 * call's work; then it is on the wall clock around a device synchronize
 * (which waits for every stream), for every participant of the
 * configuration, as the CUDA-L2 authors timed.  The reasons:
 *   other-stream       a participant's calls put work on another stream;
 *   event-below-kernel a participant's median event time is below its
 *                      median kernel span (CUPTI), which one stream cannot do;
 *   host-gap           the candidate's wall - event exceeds every
 *                      baseline's by more than their host path explains.
 * The timers disagree, which no honest call can make them do, when CUDA
 * events read other than CUPTI's own device timestamps of the same two
 * events (by the median of the per-call difference), or read longer than
 * the wall clock around them (in more than a tenth of the calls): that is a
 * verdict (timer-mismatch, check timer-cross-check), not a speedup. */
#ifndef HB_TIMER_CHECK_H
#define HB_TIMER_CHECK_H

#include <stddef.h>

#include "bench/result/participant_desc.h"
#include "bench/result/verdict.h" /* HB_CHECK_TIMER_INTEGRITY, HB_CHECK_TIMER_CROSS_CHECK */

typedef enum hb_timer { HB_TIMER_EVENT, HB_TIMER_WALL } hb_timer;

/* "event", "wall". */
const char *hb_timer_name(hb_timer timer);

#define HB_TIMER_REASON_OTHER_STREAM 1u
#define HB_TIMER_REASON_EVENT_BELOW_KERNEL 2u
#define HB_TIMER_REASON_HOST_GAP 4u

/* The reasons of `mask` by name, "other-stream,host-gap"; "" for none. */
void hb_timer_reason_names(unsigned mask, char *out, size_t size);

/* Tolerances, microseconds unless said.  CUDA events tick at about 0.5 us;
 * CUPTI's device timestamps are nanoseconds of the same GPU timer. */
/* |median of event - CUPTI's device reading|, plus the fraction below: on an
 * H100 (2026-11-26) the median stayed within 0.01 us offline and read +1.3 to
 * +1.7 us in server mode (a call after an idle gap), at 64^3 to 4096^3. */
#define HB_TIMER_DEVICE_TOLERANCE_US 2.5
#define HB_TIMER_DEVICE_TOLERANCE_FRACTION 0.01
#define HB_TIMER_WALL_TOLERANCE_US 1.0      /* event may exceed wall by this much (clock reads, rounding) */
/* Events and CUPTI's device reading disagree when the median of their
 * per-call difference is beyond the tolerance: a rewrite shifts every call
 * it touches.  Not a count of calls out of tolerance: on an H100 honest calls
 * often differ by microseconds (2026-11-26: 1 % of the sample's calls at
 * 64^3 offline, up to 30 us; 26 % in server mode, up to 28 us; 27 % of a
 * launcher's calls whose kernel ran on another stream, up to 7 us), because
 * CUPTI takes its timestamps beside the event, not from it, while the median
 * stayed within 0.2 us.  Events longer than the wall clock around them are
 * never honest: more than this share of the calls (and at least the count
 * below) is a verdict. */
#define HB_TIMER_BAD_CALL_FRACTION 0.10
#define HB_TIMER_BAD_CALL_MIN 3             /* ... and at least this many */
/* A median of CUPTI's readings over fewer calls than this decides nothing:
 * a warm-up of a few rounds (a sweep's 0.05 s in server mode: 2 or 3 calls,
 * one of them 28 us off) is not a sample of the offset. */
#define HB_TIMER_DEVICE_MIN_CALLS 30
#define HB_TIMER_KERNEL_TOLERANCE_US 0.5    /* median kernel span above median event time by more than this */
#define HB_TIMER_KERNEL_TOLERANCE_FRACTION 0.02 /* ... plus this share of the event time */
#define HB_TIMER_HOST_GAP_US 5.0            /* candidate's wall - event beyond the baselines' by more than this */
#define HB_TIMER_HOST_GAP_FRACTION 0.05     /* ... or this share of its wall time, whichever is larger */

/* One participant's timed calls, paired by round (index i is round i). */
typedef struct hb_timer_series {
    const char *name;
    int is_candidate;
    size_t n;
    const double *event_ms, *wall_ms;   /* n each */
    const double *kernel_us;            /* n, NaN where unknown; NULL: no trace */
    const double *device_diff_us;       /* event - CUPTI's device reading of the same two events, microseconds, for
                                           the calls CUPTI read them (the warm-up's); NULL or n_device 0: none */
    size_t n_device;
    int other_stream_calls;             /* calls that put work on another stream (the monitor's tally) */
} hb_timer_series;

/* How well a participant's events agree with the other clocks. */
typedef struct hb_timer_agreement {
    int compared;          /* calls with CUPTI's device reading of both events (warm-up calls) */
    int beyond;            /* of those, |event - device| beyond the tolerance */
    double max_diff_us;    /* the largest |event - device| */
    double median_diff_us; /* median of event - device (signed) */
    int above_wall;        /* calls whose event time exceeds the wall time beyond the tolerance */
    double host_gap_us;    /* median of wall - event: the host path the events do not see */
} hb_timer_agreement;

typedef struct hb_timer_decision {
    hb_timer timer;
    unsigned reasons;           /* HB_TIMER_REASON_* behind a wall headline */
    char why[400];              /* one line: what each reason saw */
    int mismatch;               /* 1: the timers disagree (a verdict) */
    char mismatch_why[480];     /* which participant, both figures */
    hb_timer_agreement agreement[HB_MAX_PARTICIPANTS];
} hb_timer_decision;

void hb_decide_timer(const hb_timer_series *series, size_t count, hb_timer_decision *out);

#endif
