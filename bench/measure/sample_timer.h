/* One sample = one call of one participant (paper Listing 1;
 * docs/methodology.md, "One sample"): synchronize, record start, launch, record stop, synchronize.
 * Both timers are taken: the event interval (default figure, what the paper
 * text uses) and the host wall time from just before the start event to just
 * after the final synchronize (what the public CUDA-L2 code uses). */
#ifndef HB_SAMPLE_TIMER_H
#define HB_SAMPLE_TIMER_H

#include <cuda_runtime_api.h>

#include "bench/candidate/participant.h"
#include "bench/core/timing_policy.h"

typedef struct hb_sample_timer {
    cudaStream_t stream; /* the timed stream: every participant runs here (--stream) */
    int own_stream;      /* 1: the harness created `stream` and destroys it */
    cudaEvent_t start, stop;
} hb_sample_timer;

/* HB_STREAM_LEGACY: the legacy default stream (cudaStreamLegacy), which
 * every blocking stream synchronizes with, so host code that launches with
 * no stream lands between the events; HB_STREAM_OWN: a non-blocking stream. */
hb_status hb_sample_timer_create(hb_sample_timer *timer, hb_stream_policy policy);
void hb_sample_timer_destroy(hb_sample_timer *timer);

/* Times one call; times in milliseconds.  A launch failure or an error
 * raised while the call runs is reported as the participant's (a candidate's
 * as HB_ERR_CANDIDATE_FAULT).  `kind` and `sample` go to the participant's
 * watcher (participant.h): a timed call's index among its samples, -1 in the
 * warm-up.  Every timer goes through the sealed entry points
 * (bench/gpu/entry_points.h), out of a launcher's reach. */
hb_status hb_time_one_call(hb_sample_timer *timer, hb_participant *participant, const hb_gemm_io *io,
                           hb_call_kind kind, long sample, double *event_ms, double *wall_ms);

#endif
