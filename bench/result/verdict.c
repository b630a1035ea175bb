#include "bench/result/verdict.h"

const char *hb_verdict_name(hb_verdict verdict)
{
    switch (verdict) {
    case HB_VERDICT_PASS: return "pass";
    case HB_VERDICT_TOO_SLOW: return "too-slow";
    case HB_VERDICT_UNSUPPORTED: return "unsupported";
    case HB_VERDICT_INCORRECT: return "incorrect";
    case HB_VERDICT_CRASHED: return "crashed";
    case HB_VERDICT_TIMED_OUT: return "timed-out";
    case HB_VERDICT_BAD_INPUT: return "bad-input";
    case HB_VERDICT_ERROR: return "error";
    case HB_VERDICT_IMPLAUSIBLE: return "implausible";
    case HB_VERDICT_FORBIDDEN: return "forbidden";
    case HB_VERDICT_TIMER_MISMATCH: return "timer-mismatch";
    case HB_VERDICT_UNDECIDED: return "undecided";
    }
    return "error";
}

hb_verdict hb_verdict_of_status(hb_status status)
{
    switch (status) {
    case HB_OK: return HB_VERDICT_PASS;
    case HB_ERR_TOO_SLOW: return HB_VERDICT_TOO_SLOW;
    case HB_ERR_UNSUPPORTED: return HB_VERDICT_UNSUPPORTED;
    case HB_ERR_INCORRECT: return HB_VERDICT_INCORRECT;
    case HB_ERR_CANDIDATE_FAULT: return HB_VERDICT_CRASHED;
    case HB_ERR_BAD_INPUT: return HB_VERDICT_BAD_INPUT;
    case HB_ERR_IMPLAUSIBLE: return HB_VERDICT_IMPLAUSIBLE;
    case HB_ERR_FORBIDDEN: return HB_VERDICT_FORBIDDEN;
    case HB_ERR_TIMER_MISMATCH: return HB_VERDICT_TIMER_MISMATCH;
    case HB_ERR_USAGE:
    case HB_ERR_BAD_RESULTS:
    case HB_ERR_PUBLISHED_MISMATCH:
    case HB_ERR_BELOW_PUBLISHED:
    case HB_ERR_CUDA:
    case HB_ERR_IO:
    case HB_ERR_INTERNAL: return HB_VERDICT_ERROR;
    }
    return HB_VERDICT_ERROR;
}
