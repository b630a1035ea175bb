#include "bench/result/trace_summary.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const hb_kernel_time *kernel_of(const hb_trace_summary *trace, const char *name)
{
    for (size_t i = 0; i < trace->count; i++)
        if (!strcmp(trace->name[i], name))
            return &trace->kernel[i];
    return NULL;
}

void hb_trace_summary_apply(hb_config_result *r, const hb_trace_summary *trace)
{
    snprintf(r->trace_note, sizeof r->trace_note, "%s", trace->ran ? "" : trace->note);
    snprintf(r->trace_file, sizeof r->trace_file, "%s", trace->ran ? trace->file : "");
    if (!trace->ran)
        return;
    for (size_t i = 0; i < r->count; i++) {
        hb_participant_result *p = &r->participants[i];
        const hb_kernel_time *k = kernel_of(trace, p->max_of[0] ? p->max_of : p->name);
        if (k)
            p->kernel = *k;
    }
    r->conduct = trace->conduct;
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
