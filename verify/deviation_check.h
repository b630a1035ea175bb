/* Baseline-bounded deviation (paper 2.3.2, protocol 4.3), run before any
 * timing: on the run's random-normal inputs, every participant's output is
 * compared element by element with an fp32 reference; the bound is the
 * largest deviation among the cuBLAS baselines; the candidate passes if it
 * wrote every element (the output is NaN-filled before the call), produced
 * no NaN/Inf, and its largest deviation is at most the bound. */
#ifndef HB_DEVIATION_CHECK_H
#define HB_DEVIATION_CHECK_H

#include "../bench/measure.h"
#include "gpu_kernels.h"

typedef struct hb_check_result {
    int passed;
    double bound;                               /* max |baseline - ref| over bounding baselines */
    hb_deviation deviation[HB_MAX_PARTICIPANTS]; /* per participant, index as given */
    char reason[512];                           /* why the candidate failed, for results and stdout */
} hb_check_result;

/* `inputs` holds the shared A, B, B_col; `ref` is scratch for M*N floats. */
hb_status hb_check_deviation(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                             const hb_gemm_io *inputs, float *ref, cudaStream_t stream, hb_check_result *out);

#endif
