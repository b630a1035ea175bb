#define _POSIX_C_SOURCE 200809L /* strsignal */
#include "bench/driver/child_verdict.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bench/result/verdict.h"

int hb_child_end_is_harness_fault(const hb_child_outcome *outcome)
{
    return outcome->end == HB_CHILD_INTERRUPTED ||
           (outcome->end == HB_CHILD_TIMED_OUT && outcome->phase == HB_PHASE_SETUP);
}

/* The sandbox's ending: its note names the call; a death by SIGSYS under a
 * sandbox is one whose handler could not run (the candidate blocked
 * SIGSYS), the call unnamed.  0 when the end is not the sandbox's. */
static int record_sandbox_end(hb_config_result *r, const hb_child_outcome *outcome, const char *what)
{
    int unnamed = !outcome->note[0] && outcome->sandbox[0] && outcome->end == HB_CHILD_SIGNALED &&
                  outcome->signal == SIGSYS;
    if (!outcome->note[0] && !unnamed)
        return 0;
    r->status = HB_ERR_TIMER_MISMATCH;
    r->verdict = HB_VERDICT_TIMER_MISMATCH;
    r->measured = 0; /* a figure from a process that made such a call is no figure */
    snprintf(r->check, sizeof r->check, "%s", HB_CHECK_SANDBOX);
    if (unnamed)
        snprintf(r->reason, sizeof r->reason, "%s was killed by SIGSYS: it made a call the sandbox refuses while "
                 "SIGSYS was blocked, so the sandbox could not name it; refused by the sandbox, which guards the "
                 "harness's timers and code", what);
    else
        snprintf(r->reason, sizeof r->reason, "%s: refused by the sandbox, which guards the harness's timers and "
                 "code", outcome->note);
    return 1;
}

void hb_record_child_end(hb_config_result *r, const hb_child_outcome *outcome, const char *what)
{
    r->seconds = outcome->seconds;
    if (!r->sandbox[0])
        snprintf(r->sandbox, sizeof r->sandbox, "%s", outcome->sandbox);
    r->check[0] = '\0';
    if (record_sandbox_end(r, outcome, what))
        return;
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
