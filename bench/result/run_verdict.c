#include "bench/result/run_verdict.h"

#include <stdio.h>

#include "bench/core/signal_name.h"

const char *hb_overall_verdict(hb_status status, const hb_config_result *results, size_t count)
{
    /* The verdict of the configuration that set the exit status, so the two agree. */
    for (size_t i = 0; i < count; i++)
        if (results[i].status == status)
            return hb_verdict_name(results[i].verdict);
    return hb_verdict_name(hb_verdict_of_status(status));
}

const char *hb_overall_reason(hb_status status, const hb_config_result *results, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (results[i].status == status && status != HB_OK)
            return results[i].reason;
    return "";
}

const char *hb_outcome_verdict(const hb_run_outcome *o)
{
    return o->interrupted_by ? "interrupted" : hb_overall_verdict(o->status, o->results, o->count);
}

const char *hb_outcome_reason(const hb_run_outcome *o, char *buffer, size_t size)
{
    if (!o->interrupted_by)
        return hb_overall_reason(o->status, o->results, o->count);
    snprintf(buffer, size, "interrupted by %s after %zu of %zu configurations (%zu not run)",
             hb_signal_name(o->interrupted_by), o->count, o->count + o->not_run_count, o->not_run_count);
    return buffer;
}
