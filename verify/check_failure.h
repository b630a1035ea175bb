/* Why a candidate failed a correctness check: the check's stable name (as
 * results and verdict files spell it) and a one-line reason with the
 * position, the expected and the got value where there is one. */
#ifndef HB_CHECK_FAILURE_H
#define HB_CHECK_FAILURE_H

#include <stddef.h>

#include "bench/core/diag.h"
#include "bench/result/verdict.h" /* the check names */

typedef struct hb_check_failure {
    char check[24];   /* one of the names above; "" while nothing failed */
    char reason[512];
} hb_check_failure;

/* Records the failure and returns `status` (HB_ERR_INCORRECT or
 * HB_ERR_CANDIDATE_FAULT), so checks can `return hb_check_failed(...)`. */
hb_status hb_check_failed(hb_check_failure *failure, hb_status status, const char *check, const char *fmt, ...)
    HB_PRINTF(4, 5);

#endif
