/* The verdict on one configuration (docs/gate.md), as results,
 * stdout and verdict files name it.  A verdict maps to the process exit
 * status (bench/core/status.h), which is what pipelines branch on. */
#ifndef HB_VERDICT_H
#define HB_VERDICT_H

#include "bench/core/status.h"

/* The checks, by the names results, verdict files and the reason lines give
 * them (a configuration's `check`, at most 23 characters): stable, pipelines
 * and tests match on them.  One list, whichever layer runs the check; each
 * ends in the verdict its status names (bench/result/headline.h assembles
 * it; docs/architecture.md, "Adding a check"). */
/* the correctness battery (verify/) and the calls around it */
#define HB_CHECK_EXECUTION "execution"       /* launch or run raised a CUDA error */
#define HB_CHECK_TIMEOUT "timeout"           /* no progress within --timeout-s */
#define HB_CHECK_EXACT_BINARY "exact-binary" /* {0,1} inputs, exact match below 2048 */
#define HB_CHECK_EXACT_SIGNED "exact-signed" /* {-1,0,1} inputs, K <= 2048 */
#define HB_CHECK_DEVIATION "deviation"       /* baseline-bounded deviation */
#define HB_CHECK_NON_FINITE "non-finite"     /* NaN/Inf or unwritten outputs */
#define HB_CHECK_GUARD_BAND "guard-band"     /* wrote outside a buffer */
#define HB_CHECK_INPUT_WRITE "input-write"   /* wrote into A, B or B_col */
#define HB_CHECK_SPOT "spot-check"           /* a timed call's output was wrong */
#define HB_CHECK_POST_TIMING "post-timing"   /* wrong on fresh inputs after timing */
#define HB_CHECK_UNWRITTEN_OUTPUT "unwritten-output" /* a warm-up or timed call left outputs poisoned, NaN or Inf
                                                        (bench/measure/output_watch.h) */
#define HB_CHECK_MEMCHECK "memcheck"         /* compute-sanitizer memcheck found errors */
#define HB_CHECK_MODULE_STATE "module-state" /* the cubin can keep a result between calls (verify/module_state_check.h) */
/* the timers (bench/result/timer_check.h) */
#define HB_CHECK_TIMER_INTEGRITY "timer-integrity"     /* the harness's timing entry points were rewritten */
#define HB_CHECK_TIMER_CROSS_CHECK "timer-cross-check" /* events disagree with CUPTI's reading or the wall clock */
/* the code (bench/core/code_pages.h) */
#define HB_CHECK_CODE_INTEGRITY "code-integrity"       /* a page of code present before the candidate loaded changed */
/* the sandbox (bench/driver/sandbox.h) */
#define HB_CHECK_SANDBOX "sandbox" /* a call the sandbox refuses (bench/driver/sandbox.h), decided by the parent */
/* the parent's, on the configuration's figures */
#define HB_CHECK_PEAK_THROUGHPUT "peak-throughput" /* faster than the GPU's peak (bench/result/plausibility.h) */
#define HB_CHECK_SPEEDUP "speedup"           /* gate: below --min-speedup, or not shown above it (bench/result/gate.h) */
#define HB_CHECK_CONDUCT "conduct"           /* gate --strict / --forbid: a refused finding (bench/result/gate.h) */

typedef enum hb_verdict {
    HB_VERDICT_PASS,        /* every check passed (and, for gate, the speedup met the threshold) */
    HB_VERDICT_TOO_SLOW,    /* gate: correct, but slower than the threshold */
    HB_VERDICT_UNSUPPORTED, /* cannot run here: architecture, padding rules, resources, class */
    HB_VERDICT_INCORRECT,   /* a correctness check failed (which one: the check name) */
    HB_VERDICT_CRASHED,     /* CUDA error, sticky error or a signal */
    HB_VERDICT_TIMED_OUT,   /* no progress within the timeout; killed */
    HB_VERDICT_BAD_INPUT,   /* manifest or cubin missing or malformed */
    HB_VERDICT_ERROR,       /* the harness itself failed (GPU, cuBLAS, disk) */
    HB_VERDICT_IMPLAUSIBLE, /* measured faster than the GPU's peak tensor-core throughput allows */
    HB_VERDICT_FORBIDDEN,   /* gate --strict / --forbid: the trace found conduct the gate refuses */
    HB_VERDICT_TIMER_MISMATCH, /* the timers disagree or were tampered with (bench/result/timer_check.h) */
    HB_VERDICT_UNDECIDED,   /* gate --decide: correct, but the window ended before the speedup's interval left the
                               threshold (exit 9, as too-slow: speed not shown to meet it) */
    HB_VERDICT_BASELINE_INTERFERENCE, /* a baseline ran, in the candidate's process, a kernel or a time its clean
                                         process did not (bench/result/baseline_reference.h) */
    HB_VERDICT_COUNT
} hb_verdict;

/* "pass", "too-slow", "unsupported", "incorrect", "crashed", "timed-out",
 * "bad-input", "error", "implausible", "forbidden", "timer-mismatch",
 * "undecided", "baseline-interference". */
const char *hb_verdict_name(hb_verdict verdict);

/* The verdict `name` names, into *out; 0 when it names none. */
int hb_verdict_parse(const char *name, hb_verdict *out);

/* The verdict a status implies (HB_ERR_CANDIDATE_FAULT: crashed). */
hb_verdict hb_verdict_of_status(hb_status status);

/* Whether a configuration with this verdict can end with this status.
 * Every verdict admits exactly one status but error, which admits each
 * failure of the harness (internal-error, usage, cuda-error, io-error,
 * bad-results): the verdict does not say which one it was.  Two verdicts
 * share a status: crashed and timed-out (candidate-fault), too-slow and
 * undecided (too-slow). */
int hb_verdict_admits(hb_verdict verdict, hb_status status);

/* The status a configuration with this verdict ends with: the one it
 * admits, for error the first (internal-error). */
hb_status hb_verdict_status(hb_verdict verdict);

#endif
