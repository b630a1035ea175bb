#include "deviation_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../bench/cuda_check.h"

/* 0xFFFF is a NaN in IEEE binary16: an element the kernel never writes stays NaN. */
#define NAN_FILL_BYTE 0xFF

static hb_status run_checked_call(hb_participant *p, const hb_gemm_io *io, cudaStream_t stream)
{
    HB_CUDA_TRY(cudaMemsetAsync(io->c, NAN_FILL_BYTE, (size_t)io->m * (size_t)io->n * 2u, stream));
    HB_TRY(p->ops->launch(p, io, stream));
    cudaError_t err = cudaStreamSynchronize(stream);
    if (err != cudaSuccess)
        return hb_fail(p->is_candidate ? HB_ERR_CANDIDATE_FAULT : HB_ERR_CUDA, "%s failed during the correctness check: %s (%s)",
                       p->name, cudaGetErrorName(err), cudaGetErrorString(err));
    HB_TRY(p->ops->collect(p, io, stream));
    HB_CUDA_TRY(cudaStreamSynchronize(stream));
    return HB_OK;
}

static void describe_failure(const hb_participant *cand, const hb_deviation *d, const hb_gemm_io *io, double bound,
                             char *reason, size_t size)
{
    long row = (long)(d->worst_index / (uint64_t)io->n), col = (long)(d->worst_index % (uint64_t)io->n);
    if (d->non_finite)
        snprintf(reason, size, "%s wrote %llu NaN/Inf or unwritten outputs (first worst at C[%ld][%ld] = %g, expected %g)",
                 cand->name, (unsigned long long)d->non_finite, row, col, d->worst_value, d->worst_reference);
    else
        snprintf(reason, size, "%s max |C - ref| = %.6g at C[%ld][%ld] (got %.6g, expected %.6g) exceeds the cuBLAS bound %.6g",
                 cand->name, d->max_abs, row, col, d->worst_value, d->worst_reference, bound);
}

hb_status hb_check_deviation(hb_participant *const *participants, const hb_gemm_io *ios, size_t count,
                             const hb_gemm_io *inputs, float *ref, cudaStream_t stream, hb_check_result *out)
{
    memset(out, 0, sizeof *out);
    HB_CUDA_TRY(hb_reference_gemm_f32(inputs->a, inputs->b, ref, inputs->m, inputs->n, inputs->k, stream));
    const size_t elements = (size_t)inputs->m * (size_t)inputs->n;
    out->bound = 0;
    for (size_t i = 0; i < count; i++) {
        HB_TRY(run_checked_call(participants[i], &ios[i], stream));
        HB_CUDA_TRY(hb_max_deviation_f16(ios[i].c, ref, elements, &out->deviation[i], stream));
        if (participants[i]->bounds_deviation) {
            if (out->deviation[i].non_finite)
                return hb_fail(HB_ERR_CUDA, "baseline %s produced %llu NaN/Inf outputs on random normal inputs",
                               participants[i]->name, (unsigned long long)out->deviation[i].non_finite);
            out->bound = fmax(out->bound, out->deviation[i].max_abs);
        }
    }
    out->passed = 1;
    for (size_t i = 0; i < count; i++) {
        const hb_deviation *d = &out->deviation[i];
        if (!participants[i]->is_candidate)
            continue;
        if (d->non_finite || !(d->max_abs <= out->bound)) {
            out->passed = 0;
            describe_failure(participants[i], d, inputs, out->bound, out->reason, sizeof out->reason);
        }
    }
    return HB_OK;
}
