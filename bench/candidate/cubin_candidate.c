#include "bench/candidate/cubin_candidate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/launch_plan.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/guarded_alloc.h"

typedef struct candidate_impl {
    hb_candidate_kernel kernel;
    unsigned grid[3];
    long padded[3];
    int needs_padding;
    uint16_t *pad_a, *pad_b, *pad_b_col, *pad_c; /* only when needs_padding */
    void *workspace;
    size_t workspace_bytes;
} candidate_impl;

#define HALF_BYTES 2u

static hb_gemm_io padded_io(const candidate_impl *impl, const hb_gemm_io *io)
{
    if (!impl->needs_padding)
        return *io;
    hb_gemm_io padded = {impl->pad_a, impl->pad_b, impl->pad_b_col, impl->pad_c,
                         impl->padded[0], impl->padded[1], impl->padded[2]};
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

static hb_status candidate_prepare(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    candidate_impl *impl = self->impl;
    if (!impl->needs_padding)
        return HB_OK;
    const long mp = impl->padded[0], np = impl->padded[1], kp = impl->padded[2];
    HB_TRY(pad_copy(impl->pad_a, kp, mp, io->a, io->k, io->m, stream));
    HB_TRY(pad_copy(impl->pad_b, np, kp, io->b, io->n, io->k, stream));
    HB_TRY(pad_copy(impl->pad_b_col, kp, np, io->b_col, io->k, io->n, stream));
    return HB_OK;
}

static hb_status candidate_launch(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    candidate_impl *impl = self->impl;
    hb_gemm_io kernel_io = padded_io(impl, io);
    return hb_candidate_kernel_launch(&impl->kernel, impl->grid, &kernel_io, impl->workspace, stream);
}

static hb_status candidate_collect(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    candidate_impl *impl = self->impl;
    if (!impl->needs_padding)
        return HB_OK;
    HB_CUDA_TRY(cudaMemcpy2DAsync(io->c, (size_t)io->n * HALF_BYTES, impl->pad_c, (size_t)impl->padded[1] * HALF_BYTES,
                                  (size_t)io->n * HALF_BYTES, (size_t)io->m, cudaMemcpyDeviceToDevice, stream));
    return HB_OK;
}

/* NaN-fills every buffer the kernel may write, before every call: the
 * padded C too, so a kernel that leaves part of it unwritten cannot pass
 * with last call's values, and the workspace, so nothing a call leaves
 * there (a cached result, a sign of having been checked) reaches the next. */
static hb_status candidate_poison(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    candidate_impl *impl = self->impl;
    HB_CUDA_TRY(cudaMemsetAsync(io->c, HB_NAN_FILL_BYTE, (size_t)io->m * (size_t)io->n * HALF_BYTES, stream));
    if (impl->needs_padding)
        HB_CUDA_TRY(cudaMemsetAsync(impl->pad_c, HB_NAN_FILL_BYTE,
                                    (size_t)impl->padded[0] * (size_t)impl->padded[1] * HALF_BYTES, stream));
    if (impl->workspace_bytes)
        HB_CUDA_TRY(cudaMemsetAsync(impl->workspace, HB_NAN_FILL_BYTE, impl->workspace_bytes, stream));
    return HB_OK;
}

static const hb_participant_ops candidate_ops;

hb_gemm_io hb_candidate_kernel_io(const hb_participant *candidate, const hb_gemm_io *io)
{
    /* An A/A run's candidate is a library baseline (bench/driver/config_eval.c): no padding of its own. */
    if (candidate->ops != &candidate_ops)
        return *io;
    return padded_io(candidate->impl, io);
}

static void candidate_destroy(hb_participant *self)
{
    candidate_impl *impl = self->impl;
    if (!impl)
        return;
    hb_candidate_kernel_unload(&impl->kernel);
    hb_guarded_free(impl->pad_a);
    hb_guarded_free(impl->pad_b);
    hb_guarded_free(impl->pad_b_col);
    hb_guarded_free(impl->pad_c);
    hb_guarded_free(impl->workspace);
    free(impl);
    self->impl = NULL;
}

static const hb_participant_ops candidate_ops = {candidate_prepare, candidate_poison, candidate_launch,
                                                 candidate_collect, candidate_destroy, NULL};

static hb_status allocate_buffers(candidate_impl *impl)
{
    const size_t mp = (size_t)impl->padded[0], np = (size_t)impl->padded[1], kp = (size_t)impl->padded[2];
    if (impl->needs_padding) {
        HB_TRY(hb_guarded_malloc((void **)&impl->pad_a, mp * kp * HALF_BYTES, "padded A"));
        HB_TRY(hb_guarded_malloc((void **)&impl->pad_b, kp * np * HALF_BYTES, "padded B"));
        HB_TRY(hb_guarded_malloc((void **)&impl->pad_b_col, kp * np * HALF_BYTES, "padded B_col"));
        HB_TRY(hb_guarded_malloc((void **)&impl->pad_c, mp * np * HALF_BYTES, "padded C"));
    }
    if (impl->workspace_bytes)
        HB_TRY(hb_guarded_malloc(&impl->workspace, impl->workspace_bytes, "workspace"));
    return HB_OK;
}

static hb_status setup(candidate_impl *impl, const hb_manifest *manifest, const hb_device_limits *limits,
                       hb_acc_class run_acc, long m, long n, long k)
{
    hb_launch_plan plan;
    HB_TRY(hb_launch_plan_make(manifest, run_acc, m, n, k, &plan));
    memcpy(impl->padded, plan.padded, sizeof impl->padded);
    impl->needs_padding = plan.needs_padding;
    memcpy(impl->grid, plan.grid, sizeof impl->grid);
    impl->workspace_bytes = plan.workspace_bytes;
    HB_TRY(hb_candidate_kernel_load(manifest, limits, &impl->kernel));
    return allocate_buffers(impl);
}

hb_status hb_candidate_participant_create(const hb_manifest *manifest, const hb_device_limits *limits,
                                          hb_acc_class run_acc, long m, long n, long k, hb_participant *out)
{
    memset(out, 0, sizeof *out);
    candidate_impl *impl = calloc(1, sizeof *impl);
    if (!impl)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory creating the candidate");
    snprintf(out->name, sizeof out->name, "candidate");
    out->is_candidate = 1;
    out->ops = &candidate_ops;
    out->impl = impl;
    hb_status status = setup(impl, manifest, limits, run_acc, m, n, k);
    if (status != HB_OK) {
        candidate_destroy(out);
        return status;
    }
    hb_participant_desc *d = &out->desc;
    snprintf(d->compute_type, sizeof d->compute_type, "claimed-%s", hb_acc_class_name(manifest->accumulator));
    snprintf(d->scale_type, sizeof d->scale_type, "n/a");
    snprintf(d->algorithm, sizeof d->algorithm, "%.63s", manifest->entry);
    d->workspace_bytes = impl->workspace_bytes;
    d->b_layout = manifest->b_layout;
    memcpy(d->padded, impl->padded, sizeof d->padded);
    return HB_OK;
}
