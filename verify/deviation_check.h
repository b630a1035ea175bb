/* Baseline-bounded deviation (paper 2.3.2; docs/methodology.md, "Correctness before timing"): on random-normal
 * inputs, every participant's output is compared element by element with
 * an fp32 reference; the bound is the largest deviation among the bounding
 * baselines (cuBLAS; cuBLASLt when it joins); the candidate passes if it
 * wrote every element (outputs are NaN-filled before each call), produced
 * no NaN/Inf, and its largest deviation is at most the bound.  Each call
 * runs under the per-call checks of verify/checked_call.h. */
#ifndef HB_DEVIATION_CHECK_H
#define HB_DEVIATION_CHECK_H

#include "bench/candidate/participant.h"
#include "verify/check_failure.h"
#include "verify/compare_kernels.h"

typedef struct hb_check_result {
    int passed;
    double bound;                               /* max |baseline - ref| over bounding baselines */
    hb_deviation deviation[HB_MAX_PARTICIPANTS]; /* per participant, index as given */
    hb_check_failure failure;                   /* why the candidate failed */
} hb_check_result;

/* `inputs` holds the shared A, B, B_col; `ref` is scratch for M*N floats.
 * A candidate verdict (incorrect, fault) is in out->failure with passed =
 * 0 and the matching status returned; HB_OK means every call ran. */
hb_status hb_check_deviation(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                             const hb_gemm_io *inputs, float *ref, cudaStream_t stream, hb_check_result *out);

/* Compares the candidate's output alone with `ref` against an already
 * known bound (spot checks of timed calls).  HB_ERR_INCORRECT with
 * `failure` filled (check `check`) when it exceeds the bound. */
hb_status hb_check_against_bound(const hb_participant *candidate, const hb_gemm_io *io, const float *ref,
                                  double bound, const char *check, cudaStream_t stream, hb_check_failure *failure,
                                  hb_deviation *out);

#endif
