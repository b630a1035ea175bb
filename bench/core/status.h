/* Status codes shared by every layer of the harness.
 *
 * A function that can fail returns an hb_status; main() turns the first
 * failure into the process exit code, so these values ARE the documented exit
 * codes (docs/cli.md).  Keep them stable: pipelines branch on them. */
#ifndef HB_STATUS_H
#define HB_STATUS_H

typedef enum hb_status {
    HB_OK = 0,
    HB_ERR_INTERNAL = 1,    /* a bug in the harness or an unexpected libc failure */
    HB_ERR_USAGE = 2,       /* unknown flag, missing value, nonsense dimensions */
    HB_ERR_BAD_INPUT = 3,   /* candidate manifest or cubin missing or malformed */
    HB_ERR_UNSUPPORTED = 4, /* candidate cannot run here: architecture, resources, padding, class */
    HB_ERR_CUDA = 5,        /* no usable GPU, or a CUDA / cuBLAS call of the harness failed */
    HB_ERR_INCORRECT = 6,   /* candidate output failed the pre-timing check */
    HB_ERR_IO = 7,          /* results could not be written */
    HB_ERR_CANDIDATE_FAULT = 8, /* candidate crashed (CUDA error, signal) or hung */
    HB_ERR_TOO_SLOW = 9,    /* gate: every check passed, the speedup missed the threshold */
    HB_ERR_IMPLAUSIBLE = 10, /* run, gate: the measured time implies more than the GPU's peak tensor-core throughput */
    HB_ERR_BAD_RESULTS = 11, /* sweep --resume, merge, report, compare: a results folder, plan, journal or CSV that
                                is not what it should be (not a sweep, truncated, another tool's, shards of
                                different sweeps) */
    HB_ERR_FORBIDDEN = 12,   /* gate --strict / --forbid: correct (and fast enough), but the trace found conduct
                                the gate was told to refuse (bench/result/conduct.h) */
    HB_ERR_TIMER_MISMATCH = 13, /* run, gate: the timers disagree (CUDA events against CUPTI's own reading of the
                                  same events or the wall clock) or the harness's timing entry points were
                                  rewritten while candidate code ran (bench/result/timer_check.h): no figure can
                                  be trusted */
    HB_ERR_PUBLISHED_MISMATCH = 14, /* compare: the published file is of another mode than every configuration of
                                       the folders (without --mode), or of another accumulator class */
    HB_ERR_BELOW_PUBLISHED = 15,    /* compare --threshold: a configuration's speedup is below the published one by
                                       more than its noise and the threshold */
    HB_ERR_BASELINE_INTERFERENCE = 16 /* run, gate: a baseline ran in the candidate's process a kernel its clean
                                         process never ran, or slower than there beyond the tolerance
                                         (bench/result/baseline_reference.h): no speedup can be trusted */
} hb_status;

/* Short stable name of a status, for results files ("ok", "usage", ...). */
const char *hb_status_name(hb_status status);

/* When several configurations fail differently, the run's exit code is the
 * most severe one; this orders them (higher = more severe). */
int hb_status_severity(hb_status status);

/* Propagate an hb_status from a call that already reported its error. */
#define HB_TRY(call)                \
    do {                            \
        hb_status hb_s_ = (call);   \
        if (hb_s_ != HB_OK)         \
            return hb_s_;           \
    } while (0)

#endif
