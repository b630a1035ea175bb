/* The warm-up and timed windows of one configuration (protocol section 3).
 * A round times every participant once, in a freshly shuffled order;
 * rounds repeat until the window's length has passed (and, for the timed
 * window, at least HB_MIN_TIMED_ROUNDS rounds have run). */
#ifndef HB_MEASURE_H
#define HB_MEASURE_H

#include "participant.h"
#include "progress.h"
#include "rng.h"
#include "sample_timer.h"
#include "sample_vec.h"

#define HB_MIN_TIMED_ROUNDS 10
#define HB_MAX_PARTICIPANTS 16

typedef struct hb_window_options {
    double warmup_s;
    double time_s;
} hb_window_options;

/* Samples of one participant in the timed window, index = round. */
typedef struct hb_participant_samples {
    hb_sample_vec event_ms;
    hb_sample_vec wall_ms;
} hb_participant_samples;

/* `ios[i]` is participant i's view of the problem (its own output buffer). */
hb_status hb_measure_windows(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                             hb_sample_timer *timer, hb_rng *rng, const hb_window_options *options,
                             hb_progress *progress, hb_participant_samples *samples);

void hb_participant_samples_free(hb_participant_samples *samples);

#endif
