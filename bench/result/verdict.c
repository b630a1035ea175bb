#include "bench/result/verdict.h"

#include <string.h>

/* Each verdict's name and the statuses a configuration with it ends with,
 * one bit per hb_status: one table for both directions, so a verdict read
 * back from a file and the status recorded beside it can be held to each
 * other (bench/sweep/candidate_rows.h). */
#define STATUS_BIT(status) (1u << (status))
static const struct {
    const char *name;
    unsigned statuses;
} verdicts[HB_VERDICT_COUNT] = {
    [HB_VERDICT_PASS] = {"pass", STATUS_BIT(HB_OK)},
    [HB_VERDICT_TOO_SLOW] = {"too-slow", STATUS_BIT(HB_ERR_TOO_SLOW)},
    [HB_VERDICT_UNSUPPORTED] = {"unsupported", STATUS_BIT(HB_ERR_UNSUPPORTED)},
    [HB_VERDICT_INCORRECT] = {"incorrect", STATUS_BIT(HB_ERR_INCORRECT)},
    [HB_VERDICT_CRASHED] = {"crashed", STATUS_BIT(HB_ERR_CANDIDATE_FAULT)},
    [HB_VERDICT_TIMED_OUT] = {"timed-out", STATUS_BIT(HB_ERR_CANDIDATE_FAULT)},
    [HB_VERDICT_BAD_INPUT] = {"bad-input", STATUS_BIT(HB_ERR_BAD_INPUT)},
    /* the harness's own failures; compare's statuses (published-mismatch,
     * below-published) are never a configuration's */
    [HB_VERDICT_ERROR] = {"error", STATUS_BIT(HB_ERR_INTERNAL) | STATUS_BIT(HB_ERR_USAGE) | STATUS_BIT(HB_ERR_CUDA) |
                                       STATUS_BIT(HB_ERR_IO) | STATUS_BIT(HB_ERR_BAD_RESULTS)},
    [HB_VERDICT_IMPLAUSIBLE] = {"implausible", STATUS_BIT(HB_ERR_IMPLAUSIBLE)},
    [HB_VERDICT_FORBIDDEN] = {"forbidden", STATUS_BIT(HB_ERR_FORBIDDEN)},
    [HB_VERDICT_TIMER_MISMATCH] = {"timer-mismatch", STATUS_BIT(HB_ERR_TIMER_MISMATCH)},
    [HB_VERDICT_UNDECIDED] = {"undecided", STATUS_BIT(HB_ERR_TOO_SLOW)},
    [HB_VERDICT_BASELINE_INTERFERENCE] = {"baseline-interference", STATUS_BIT(HB_ERR_BASELINE_INTERFERENCE)},
};

static int known(hb_verdict verdict)
{
    return (unsigned)verdict < HB_VERDICT_COUNT;
}

const char *hb_verdict_name(hb_verdict verdict)
{
    return verdicts[known(verdict) ? verdict : HB_VERDICT_ERROR].name;
}

int hb_verdict_parse(const char *name, hb_verdict *out)
{
    for (int v = 0; v < HB_VERDICT_COUNT; v++)
        if (!strcmp(name, verdicts[v].name)) {
            *out = (hb_verdict)v;
            return 1;
        }
    return 0;
}

int hb_verdict_admits(hb_verdict verdict, hb_status status)
{
    return known(verdict) && (unsigned)status < 32 && (verdicts[verdict].statuses & STATUS_BIT(status));
}

/* The first verdict in the table's order: crashed before timed-out, too-slow
 * before undecided; a status no configuration ends with is the harness's error. */
hb_verdict hb_verdict_of_status(hb_status status)
{
    for (int v = 0; v < HB_VERDICT_COUNT; v++)
        if (hb_verdict_admits((hb_verdict)v, status))
            return (hb_verdict)v;
    return HB_VERDICT_ERROR;
}

hb_status hb_verdict_status(hb_verdict verdict)
{
    for (unsigned status = 0; status < 32; status++)
        if (hb_verdict_admits(verdict, (hb_status)status))
            return (hb_status)status;
    return HB_ERR_INTERNAL;
}
