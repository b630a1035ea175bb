#include "bench/result/window_samples.h"

void hb_participant_samples_truncate(hb_participant_samples *samples, size_t rounds)
{
    hb_sample_vec_truncate(&samples->event_ms, rounds);
    hb_sample_vec_truncate(&samples->wall_ms, rounds);
    hb_sample_vec_truncate(&samples->slot, rounds);
    hb_sample_vec_truncate(&samples->start_s, rounds);
    hb_sample_vec_truncate(&samples->gap_ms, rounds);
}

void hb_participant_samples_free(hb_participant_samples *samples)
{
    hb_sample_vec_free(&samples->event_ms);
    hb_sample_vec_free(&samples->wall_ms);
    hb_sample_vec_free(&samples->slot);
    hb_sample_vec_free(&samples->start_s);
    hb_sample_vec_free(&samples->gap_ms);
}
