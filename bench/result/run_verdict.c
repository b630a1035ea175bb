#include "bench/result/run_verdict.h"

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
