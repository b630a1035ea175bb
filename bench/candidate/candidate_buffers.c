#include "bench/candidate/candidate_buffers.h"

#include <string.h>

#include "bench/gpu/cuda_check.h"
#include "bench/gpu/guarded_alloc.h"

#define HALF_BYTES 2u

static hb_status allocate(hb_candidate_buffers *b)
{
    const size_t mp = (size_t)b->padded[0], np = (size_t)b->padded[1], kp = (size_t)b->padded[2];
    if (b->needs_padding) {
        HB_TRY(hb_guarded_malloc((void **)&b->a, mp * kp * HALF_BYTES, "padded A"));
        HB_TRY(hb_guarded_malloc((void **)&b->b, kp * np * HALF_BYTES, "padded B"));
        HB_TRY(hb_guarded_malloc((void **)&b->b_col, kp * np * HALF_BYTES, "padded B_col"));
        HB_TRY(hb_guarded_malloc((void **)&b->c, mp * np * HALF_BYTES, "padded C"));
    }
    if (b->workspace_bytes)
        HB_TRY(hb_guarded_malloc(&b->workspace, b->workspace_bytes, "workspace"));
    return HB_OK;
}

hb_status hb_candidate_buffers_create(const hb_launch_plan *plan, hb_candidate_buffers *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out->padded, plan->padded, sizeof out->padded);
    out->needs_padding = plan->needs_padding;
    out->workspace_bytes = plan->workspace_bytes;
    hb_status status = allocate(out);
    if (status != HB_OK)
        hb_candidate_buffers_free(out);
    return status;
}

void hb_candidate_buffers_free(hb_candidate_buffers *b)
{
    hb_guarded_free(b->a);
    hb_guarded_free(b->b);
    hb_guarded_free(b->b_col);
    hb_guarded_free(b->c);
    hb_guarded_free(b->workspace);
    b->a = b->b = b->b_col = b->c = NULL;
    b->workspace = NULL;
}

hb_gemm_io hb_candidate_buffers_io(const hb_candidate_buffers *b, const hb_gemm_io *io)
{
    if (!b->needs_padding)
        return *io;
    hb_gemm_io padded = {b->a, b->b, b->b_col, b->c, b->padded[0], b->padded[1], b->padded[2]};
    return padded;
}

/* Copies a rows x cols fp16 matrix into the top-left of a zeroed rows_p x cols_p one. */
static hb_status pad_copy(uint16_t *dst, long cols_p, long rows_p, const uint16_t *src, long cols, long rows,
                          cudaStream_t stream)
{
    HB_CUDA_TRY(cudaMemsetAsync(dst, 0, (size_t)rows_p * (size_t)cols_p * HALF_BYTES, stream));
    HB_CUDA_TRY(cudaMemcpy2DAsync(dst, (size_t)cols_p * HALF_BYTES, src, (size_t)cols * HALF_BYTES,
                                  (size_t)cols * HALF_BYTES, (size_t)rows, cudaMemcpyDeviceToDevice, stream));
    return HB_OK;
}

hb_status hb_candidate_prepare(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    const hb_candidate_buffers *b = self->impl;
    if (!b->needs_padding)
        return HB_OK;
    const long mp = b->padded[0], np = b->padded[1], kp = b->padded[2];
    HB_TRY(pad_copy(b->a, kp, mp, io->a, io->k, io->m, stream));
    HB_TRY(pad_copy(b->b, np, kp, io->b, io->n, io->k, stream));
    HB_TRY(pad_copy(b->b_col, kp, np, io->b_col, io->k, io->n, stream));
    return HB_OK;
}

/* NaN-fills every buffer the candidate may write, before every call: the
 * padded C too, so a candidate that leaves part of it unwritten cannot pass
 * with last call's values, and the workspace, so nothing a call leaves
 * there (a cached result, a sign of having been checked) reaches the next. */
hb_status hb_candidate_poison(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    const hb_candidate_buffers *b = self->impl;
    HB_CUDA_TRY(cudaMemsetAsync(io->c, HB_NAN_FILL_BYTE, (size_t)io->m * (size_t)io->n * HALF_BYTES, stream));
    if (b->needs_padding)
        HB_CUDA_TRY(cudaMemsetAsync(b->c, HB_NAN_FILL_BYTE, (size_t)b->padded[0] * (size_t)b->padded[1] * HALF_BYTES,
                                    stream));
    if (b->workspace_bytes)
        HB_CUDA_TRY(cudaMemsetAsync(b->workspace, HB_NAN_FILL_BYTE, b->workspace_bytes, stream));
    return HB_OK;
}

hb_status hb_candidate_collect(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    const hb_candidate_buffers *b = self->impl;
    if (!b->needs_padding)
        return HB_OK;
    HB_CUDA_TRY(cudaMemcpy2DAsync(io->c, (size_t)io->n * HALF_BYTES, b->c, (size_t)b->padded[1] * HALF_BYTES,
                                  (size_t)io->n * HALF_BYTES, (size_t)io->m, cudaMemcpyDeviceToDevice, stream));
    return HB_OK;
}

hb_gemm_io hb_candidate_kernel_io(const hb_participant *candidate, const hb_gemm_io *io)
{
    /* Not a candidate of any kind: an A/A run's candidate is a library
     * baseline (bench/driver/config_eval.c), with no padding of its own.
     * Told by poison, which every kind shares (a replay's prepare is its
     * own: it issues the prologue once). */
    if (candidate->ops->poison != hb_candidate_poison)
        return *io;
    return hb_candidate_buffers_io(candidate->impl, io);
}
