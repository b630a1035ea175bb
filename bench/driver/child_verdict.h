/* Whose fault a child's abnormal end is (docs/cli.md, "Isolation and the
 * timeout"): a crash or a silence once candidate code runs is the
 * candidate's (crashed / timed-out, exit 8); a silence before that, while
 * the harness opens the device, creates cuBLAS handles or runs an autotune
 * search, is the harness's own failure (error, exit 5), which stops the run
 * like any other.  A call the sandbox refused (bench/driver/sandbox.h) is
 * timer-mismatch, check sandbox (exit 13), whatever the end that followed:
 * the child's note names the call. */
#ifndef HB_CHILD_VERDICT_H
#define HB_CHILD_VERDICT_H

#include "bench/driver/isolate.h"
#include "bench/result/config_result.h"

/* Fills r's status, verdict, check, reason and seconds for a child that did
 * not return (outcome->end != HB_CHILD_RETURNED) or left a note of a
 * refused call (outcome->note), and its sandbox where the child's result
 * did not say it; `what` names the child in the reason ("the evaluating
 * process"). */
void hb_record_child_end(hb_config_result *r, const hb_child_outcome *outcome, const char *what);

/* 1 when that end is the harness's failure, not the candidate's. */
int hb_child_end_is_harness_fault(const hb_child_outcome *outcome);

#endif
