/* What the call monitor found of one participant over every call it made in
 * the process (docs/trace.md): the tally its conduct is judged from, its
 * first calls kept whole for trace.json, and per timed call the kernel span,
 * the kernel sum and CUPTI's own reading of the harness's event pair, by the
 * call's index among the participant's timed samples (so they pair with its
 * event and wall samples, round by round), and per cross-checked round its
 * event time and CUPTI's reading of the same events, by the round's index
 * among the cross-checked rounds (so they pair across participants).  Plain
 * data, no CUDA: the trace layer folds calls into it, the evaluation reads it. */
#ifndef HB_WATCHED_CALLS_H
#define HB_WATCHED_CALLS_H

#include "bench/core/sample_vec.h"
#include "bench/result/call_trace.h"
#include "bench/result/conduct_tally.h"
#include "bench/result/library_kernel.h"

typedef struct hb_watched {
    char name[64];
    int is_candidate;
    int detail_calls;                 /* calls kept whole in detail (--trace-calls) */
    hb_conduct_tally tally;
    hb_participant_trace *detail;     /* its first calls, whole; owned */
    hb_sample_vec timed_span_us;      /* by timed sample index; NaN: no timed kernel seen */
    hb_sample_vec timed_sum_us;
    hb_sample_vec timed_event_device_us; /* NaN: CUPTI did not report both events */
    hb_sample_vec device_diff_us;     /* event - CUPTI's device reading of the same events, every call that has both
                                         (the warm-up's: the event records are watched there, docs/trace.md), the
                                         cross-checked rounds' apart */
    hb_sample_vec cross_event_us;     /* by cross-checked round: the harness's event time of the call */
    hb_sample_vec cross_device_us;    /* ... and CUPTI's device reading of the same two events; NaN: not both seen */
    hb_sample_vec later_span_us;      /* the untimed calls after the first, in order */
    hb_sample_vec later_sum_us;
    hb_sample_vec later_wall_us;
} hb_watched;

/* HB_OK, or HB_ERR_INTERNAL when out of memory for the detail. */
hb_status hb_watched_init(hb_watched *w, const char *name, int is_candidate, int detail_calls);
void hb_watched_free(hb_watched *w);

/* Folds one call of the participant (in the order it made them). */
hb_status hb_watched_add(hb_watched *w, const hb_call_trace *call);

/* Keeps the timed calls of the first `rounds` rounds (the window's decision). */
void hb_watched_truncate_timed(hb_watched *w, size_t rounds);

/* Its kernel-only time: over the timed calls when it was timed, else over
 * the calls after the first; `timed_wall_us` are the timed calls' wall
 * samples (microseconds, by sample index; NULL when untimed). */
void hb_watched_kernel_time(const hb_watched *w, const double *timed_wall_us, size_t timed, hb_kernel_time *out);

/* The kernel names the baselines among `all` ran: a candidate's kernel of
 * the same name is the vendor library's (library_kernel.h). */
void hb_watched_library_names(const hb_watched *all, size_t count, hb_library_names *out);

#endif
