#include "bench/core/status.h"

const char *hb_status_name(hb_status status)
{
    switch (status) {
    case HB_OK: return "ok";
    case HB_ERR_INTERNAL: return "internal-error";
    case HB_ERR_USAGE: return "usage";
    case HB_ERR_BAD_INPUT: return "bad-input";
    case HB_ERR_UNSUPPORTED: return "unsupported";
    case HB_ERR_CUDA: return "cuda-error";
    case HB_ERR_INCORRECT: return "incorrect";
    case HB_ERR_IO: return "io-error";
    case HB_ERR_CANDIDATE_FAULT: return "candidate-fault";
    case HB_ERR_TOO_SLOW: return "too-slow";
    case HB_ERR_IMPLAUSIBLE: return "implausible";
    case HB_ERR_BAD_RESULTS: return "bad-results";
    case HB_ERR_FORBIDDEN: return "forbidden";
    case HB_ERR_TIMER_MISMATCH: return "timer-mismatch";
    case HB_ERR_PUBLISHED_MISMATCH: return "published-mismatch";
    case HB_ERR_BELOW_PUBLISHED: return "below-published";
    case HB_ERR_BASELINE_INTERFERENCE: return "baseline-interference";
    }
    return "unknown";
}

int hb_status_severity(hb_status status)
{
    /* Harness-side failures outrank verdicts about the candidate: a run whose
     * results could not be written must not exit as if only the kernel was slow.
     * An implausible time outranks the candidate's other verdicts: an honest bug
     * crashes or computes wrongly, while a time faster than the hardware means
     * the measurement itself cannot be trusted, and timers that disagree (or
     * were tampered with) mean the same one step more surely.  Baselines
     * slowed in the candidate's process sit between the two: their figures,
     * not the candidate's, cannot be trusted. */
    switch (status) {
    case HB_OK: return 0;
    case HB_ERR_TOO_SLOW: return 1;
    case HB_ERR_FORBIDDEN: return 2; /* correct and timed, refused for what it did */
    case HB_ERR_UNSUPPORTED: return 3;
    case HB_ERR_INCORRECT: return 4;
    case HB_ERR_CANDIDATE_FAULT: return 5;
    case HB_ERR_IMPLAUSIBLE: return 6;
    case HB_ERR_BASELINE_INTERFERENCE: return 7; /* the baselines' figures cannot be trusted, the candidate's can */
    case HB_ERR_TIMER_MISMATCH: return 8;
    case HB_ERR_BELOW_PUBLISHED: return 1; /* compare's, never a run's: as gate's threshold */
    case HB_ERR_PUBLISHED_MISMATCH: return 10; /* compare's: input that cannot be compared, as bad results */
    case HB_ERR_BAD_INPUT: return 9;
    case HB_ERR_BAD_RESULTS: return 10;
    case HB_ERR_USAGE: return 11;
    case HB_ERR_CUDA: return 12;
    case HB_ERR_IO: return 13;
    case HB_ERR_INTERNAL: return 14;
    }
    return 14;
}
