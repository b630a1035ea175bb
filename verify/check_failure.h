/* Why a candidate failed a correctness check: the check's stable name (as
 * results and verdict files spell it) and a one-line reason with the
 * position, the expected and the got value where there is one. */
#ifndef HB_CHECK_FAILURE_H
#define HB_CHECK_FAILURE_H

#include <stddef.h>

#include "bench/core/diag.h"

/* Check names, stable: pipelines and tests match on them. */
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

typedef struct hb_check_failure {
    char check[24];   /* one of the names above; "" while nothing failed */
    char reason[512];
} hb_check_failure;

/* Records the failure and returns `status` (HB_ERR_INCORRECT or
 * HB_ERR_CANDIDATE_FAULT), so checks can `return hb_check_failed(...)`. */
hb_status hb_check_failed(hb_check_failure *failure, hb_status status, const char *check, const char *fmt, ...)
    HB_PRINTF(4, 5);

#endif
