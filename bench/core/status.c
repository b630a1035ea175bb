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
    }
    return "unknown";
}

int hb_status_severity(hb_status status)
{
    /* Harness-side failures outrank verdicts about the candidate: a run whose
     * results could not be written must not exit as if only the kernel was slow.
     * An implausible time outranks the candidate's other verdicts: an honest bug
     * crashes or computes wrongly, while a time faster than the hardware means
     * the measurement itself cannot be trusted. */
    switch (status) {
    case HB_OK: return 0;
    case HB_ERR_TOO_SLOW: return 1;
    case HB_ERR_UNSUPPORTED: return 2;
    case HB_ERR_INCORRECT: return 3;
    case HB_ERR_CANDIDATE_FAULT: return 4;
    case HB_ERR_IMPLAUSIBLE: return 5;
    case HB_ERR_BAD_INPUT: return 6;
    case HB_ERR_BAD_RESULTS: return 7;
    case HB_ERR_USAGE: return 8;
    case HB_ERR_CUDA: return 9;
    case HB_ERR_IO: return 10;
    case HB_ERR_INTERNAL: return 11;
    }
    return 11;
}
