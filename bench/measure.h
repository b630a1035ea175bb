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

/* Spot checks of timed calls (protocol 4.4): in a few randomly chosen
 * timed rounds the candidate's output is NaN-filled before the round and
 * compared after it, both outside the timed calls.  The rounds are drawn
 * with a probability set from the warm-up's round rate, so about
 * `max_checks` of them fall in the window; at least one always runs. */
typedef struct hb_spot_check {
    int max_checks;
    hb_status (*before)(void *context); /* untimed: NaN-fill the candidate's output */
    hb_status (*after)(void *context);  /* untimed: check it */
    void *context;
    int done;                           /* spot checks that ran */
} hb_spot_check;

typedef struct hb_window_options {
    double warmup_s;
    double time_s;
    hb_spot_check *spot; /* NULL: none */
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
