#include "bench/result/config_result.h"

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
