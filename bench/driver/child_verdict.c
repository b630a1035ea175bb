#include "bench/driver/child_verdict.h"

#include <stdio.h>

int hb_child_end_is_harness_fault(const hb_child_outcome *outcome)
{
    return outcome->end == HB_CHILD_INTERRUPTED ||
           (outcome->end == HB_CHILD_TIMED_OUT && outcome->phase == HB_PHASE_SETUP);
}

void hb_record_child_end(hb_config_result *r, const hb_child_outcome *outcome, const char *what)
{
    r->seconds = outcome->seconds;
    r->check[0] = '\0';
    if (hb_child_end_is_harness_fault(outcome)) {
        r->status = HB_ERR_CUDA;
        r->verdict = HB_VERDICT_ERROR;
        snprintf(r->reason, sizeof r->reason, "%s %s: the harness's fault, not the candidate's", what,
                 outcome->message);
        return;
    }
    r->status = HB_ERR_CANDIDATE_FAULT;
    r->verdict = outcome->end == HB_CHILD_TIMED_OUT ? HB_VERDICT_TIMED_OUT : HB_VERDICT_CRASHED;
    snprintf(r->check, sizeof r->check, "%s", outcome->end == HB_CHILD_TIMED_OUT ? "timeout" : "execution");
    snprintf(r->reason, sizeof r->reason, "%s %s", what, outcome->message);
}
