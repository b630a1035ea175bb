#include "bench/measure/cross_check_rounds.h"

#include <string.h>

void hb_cross_rounds_init(hb_cross_rounds *c, double fraction, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->fraction = fraction > 0 ? fraction : 0;
    hb_rng_seed(&c->rng, seed);
}

int hb_cross_rounds_draw(hb_cross_rounds *c)
{
    const int drawn = hb_rng_uniform(&c->rng) < c->fraction;
    c->draws++;
    c->drawn += (size_t)drawn;
    return drawn;
}

hb_status hb_keep_round(hb_participant_samples *samples, size_t count, const hb_round_figures *round, int crossed,
                        int keep_detail)
{
    if (crossed)
        return HB_OK;
    for (size_t i = 0; i < count; i++) {
        hb_participant_samples *s = &samples[i];
        HB_TRY(hb_sample_vec_push(&s->event_ms, round->event_ms[i]));
        HB_TRY(hb_sample_vec_push(&s->wall_ms, round->wall_ms[i]));
        if (!keep_detail)
            continue;
        HB_TRY(hb_sample_vec_push(&s->slot, round->slot[i]));
        HB_TRY(hb_sample_vec_push(&s->start_s, round->start_s[i]));
        HB_TRY(hb_sample_vec_push(&s->gap_ms, round->gap_ms[i]));
    }
    return HB_OK;
}
