/* Every sample of the timed window: what the summaries are computed from
 * and what --raw writes.  Plain data. */
#ifndef HB_WINDOW_SAMPLES_H
#define HB_WINDOW_SAMPLES_H

#include "bench/core/sample_vec.h"

/* Samples of one participant in the timed window, index = round. */
typedef struct hb_participant_samples {
    hb_sample_vec event_ms;
    hb_sample_vec wall_ms;
    /* Kept only for --raw (hb_window_options.keep_detail): */
    hb_sample_vec slot;    /* the call's position in its round's shuffled order, 0-based */
    hb_sample_vec start_s; /* seconds from the timed window's start to the call's start */
    hb_sample_vec gap_ms;  /* idle gap slept just before this call, milliseconds (0 offline) */
} hb_participant_samples;

/* Keeps the first `rounds` rounds of every vector (a window decided at an
 * earlier round than its last). */
void hb_participant_samples_truncate(hb_participant_samples *samples, size_t rounds);

/* Frees every vector of `samples`. */
void hb_participant_samples_free(hb_participant_samples *samples);

#endif
