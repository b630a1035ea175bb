#include "verify/deviation_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/gpu/cuda_check.h"
#include "verify/checked_call.h"

static hb_status fail_candidate(const hb_participant *cand, const hb_deviation *d, const hb_gemm_io *io, double bound,
                                const char *check, hb_check_failure *failure)
{
    long row = (long)(d->worst_index / (uint64_t)io->n), col = (long)(d->worst_index % (uint64_t)io->n);
    if (d->non_finite)
        return hb_check_failed(failure, HB_ERR_INCORRECT, HB_CHECK_NON_FINITE,
                               "%s wrote %llu NaN/Inf or unwritten outputs on random normal inputs (first worst at "
                               "C[%ld][%ld] = %g, expected %g)",
                               cand->name, (unsigned long long)d->non_finite, row, col, d->worst_value,
                               d->worst_reference);
    return hb_check_failed(failure, HB_ERR_INCORRECT, check,
                           "%s max |C - ref| = %.6g at C[%ld][%ld] (got %.6g, expected %.6g) exceeds the cuBLAS "
                           "bound %.6g",
                           cand->name, d->max_abs, row, col, d->worst_value, d->worst_reference, bound);
}

hb_status hb_check_against_bound(const hb_participant *candidate, const hb_gemm_io *io, const float *ref,
                                  double bound, const char *check, cudaStream_t stream, hb_check_failure *failure,
                                  hb_deviation *out)
{
    HB_CUDA_TRY(hb_max_deviation_f16(io->c, ref, (size_t)io->m * (size_t)io->n, out, stream));
    if (out->non_finite || !(out->max_abs <= bound))
        return fail_candidate(candidate, out, io, bound, check, failure);
    return HB_OK;
}

static hb_status run_all(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                         const hb_gemm_io *inputs, const float *ref, cudaStream_t stream, hb_check_result *out)
{
    const size_t elements = (size_t)inputs->m * (size_t)inputs->n;
    for (size_t i = 0; i < count; i++) {
        HB_TRY(hb_checked_call(participants[i], &ios[i], inputs, stream, &out->failure));
        HB_CUDA_TRY(hb_max_deviation_f16(ios[i].c, ref, elements, &out->deviation[i], stream));
        if (!participants[i]->bounds_deviation)
            continue;
        if (out->deviation[i].non_finite)
            return hb_fail(HB_ERR_CUDA, "baseline %s produced %llu NaN/Inf outputs on random normal inputs",
                           participants[i]->name, (unsigned long long)out->deviation[i].non_finite);
        out->bound = fmax(out->bound, out->deviation[i].max_abs);
    }
    return HB_OK;
}

hb_status hb_check_deviation(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                             const hb_gemm_io *inputs, float *ref, cudaStream_t stream, hb_check_result *out)
{
    memset(out, 0, sizeof *out);
    HB_CUDA_TRY(hb_reference_gemm_f32(inputs->a, inputs->b, ref, inputs->m, inputs->n, inputs->k, stream));
    hb_status status = run_all(participants, ios, count, inputs, ref, stream, out);
    for (size_t i = 0; i < count && status == HB_OK; i++) {
        const hb_deviation *d = &out->deviation[i];
        if (participants[i]->is_candidate && (d->non_finite || !(d->max_abs <= out->bound)))
            status = fail_candidate(participants[i], d, inputs, out->bound, HB_CHECK_DEVIATION, &out->failure);
    }
    out->passed = status == HB_OK;
    return status;
}
