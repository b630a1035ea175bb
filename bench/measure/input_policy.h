/* The L2 policy's untimed work during the timing windows (docs/methodology.md,
 * "L2 policy"): fresh inputs before every round (fresh), or a stir of the
 * same inputs before every round (warm and flush: one fresh element in every
 * row of A and column of B, verify/problem.h) and, under flush, an L2 flush
 * before every call.  The same work precedes every participant's call, so
 * the policy favours none of them. */
#ifndef HB_INPUT_POLICY_H
#define HB_INPUT_POLICY_H

#include "bench/core/rng.h"
#include "bench/core/timing_policy.h"
#include "bench/measure/windows.h"
#include "verify/problem.h"

typedef struct hb_input_policy {
    hb_l2_policy policy;
    hb_problem *problem;
    cudaStream_t stream;
    hb_rng rng;               /* seeds of the fresh inputs, or of the stirs */
    unsigned char *flush;     /* --l2 flush: a device buffer of flush_bytes */
    size_t flush_bytes;       /* twice the L2 size: a write of it leaves none of the inputs in L2 */
    unsigned flushes;
    int persisting;           /* --l2 flush on a device that keeps lines persisting: reset before every flush */
} hb_input_policy;

/* Call after the checks that precede timing: fills the timing inputs
 * (fresh ones, drawn from `seed`). */
hb_status hb_input_policy_init(hb_input_policy *policy, hb_l2_policy kind, size_t l2_bytes, hb_problem *problem,
                               uint64_t seed, cudaStream_t stream);

/* The hooks hb_measure_windows calls. */
hb_input_hooks hb_input_policy_hooks(hb_input_policy *policy);

/* Frees the flush buffer. */
void hb_input_policy_free(hb_input_policy *policy);

#endif
