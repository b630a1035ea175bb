#include "bench/result/config_result.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void hb_config_result_init(hb_config_result *r, const hb_mnk *mnk)
{
    memset(r, 0, sizeof *r);
    r->mnk = *mnk;
    r->count = 1; /* a row for the candidate, carrying the verdict */
    snprintf(r->participants[0].name, sizeof r->participants[0].name, "candidate");
    r->participants[0].is_candidate = 1;
    r->gpu.ordinal = -1;
}

const hb_speedup_summary *hb_headline_speedup(const hb_config_result *r, const hb_participant_result *p)
{
    return r->headline_timer == HB_TIMER_WALL ? &p->speedup_wall : &p->speedup_event;
}

const hb_time_summary *hb_headline_times(const hb_config_result *r, const hb_participant_result *p)
{
    return r->headline_timer == HB_TIMER_WALL ? &p->wall_ms : &p->event_ms;
}

double hb_kernel_speedup(const hb_config_result *r, const hb_participant_result *p)
{
    const hb_participant_result *candidate = NULL;
    for (size_t i = 0; i < r->count && !candidate; i++)
        if (r->participants[i].is_candidate)
            candidate = &r->participants[i];
    if (!candidate || p->is_candidate || !candidate->kernel.traced || !p->kernel.traced ||
        !(candidate->kernel.span_us > 0))
        return NAN;
    return p->kernel.span_us / candidate->kernel.span_us - 1.0;
}
