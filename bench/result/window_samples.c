#include "bench/result/window_samples.h"

void hb_participant_samples_free(hb_participant_samples *samples)
{
    hb_sample_vec_free(&samples->event_ms);
    hb_sample_vec_free(&samples->wall_ms);
    hb_sample_vec_free(&samples->slot);
    hb_sample_vec_free(&samples->start_s);
    hb_sample_vec_free(&samples->gap_ms);
}
