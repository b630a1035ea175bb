#include "bench/candidate/cubin_candidate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/candidate/candidate_desc.h"
#include "bench/candidate/launch_plan.h"
#include "bench/core/diag.h"

typedef struct candidate_impl {
    hb_candidate_kernel kernel;
    unsigned grid[3];
    hb_candidate_buffers buffers;
} candidate_impl;

static hb_status candidate_prepare(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    candidate_impl *impl = self->impl;
    return hb_candidate_buffers_prepare(&impl->buffers, io, stream);
}

static hb_status candidate_launch(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    candidate_impl *impl = self->impl;
    hb_gemm_io kernel_io = hb_candidate_buffers_io(&impl->buffers, io);
    return hb_candidate_kernel_launch(&impl->kernel, impl->grid, &kernel_io, impl->buffers.workspace, stream);
}

static hb_status candidate_collect(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    candidate_impl *impl = self->impl;
    return hb_candidate_buffers_collect(&impl->buffers, io, stream);
}

static hb_status candidate_poison(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    candidate_impl *impl = self->impl;
    return hb_candidate_buffers_poison(&impl->buffers, io, stream);
}

static void candidate_destroy(hb_participant *self)
{
    candidate_impl *impl = self->impl;
    if (!impl)
        return;
    hb_candidate_kernel_unload(&impl->kernel);
    hb_candidate_buffers_free(&impl->buffers);
    free(impl);
    self->impl = NULL;
}

static const hb_participant_ops candidate_ops = {candidate_prepare, candidate_poison, candidate_launch,
                                                 candidate_collect, candidate_destroy, NULL};

const hb_candidate_buffers *hb_cubin_candidate_buffers(const hb_participant *participant)
{
    if (participant->ops != &candidate_ops)
        return NULL;
    const candidate_impl *impl = participant->impl;
    return &impl->buffers;
}

static hb_status setup(candidate_impl *impl, const hb_manifest *manifest, const hb_device_limits *limits,
                       hb_acc_class run_acc, long m, long n, long k)
{
    hb_launch_plan plan;
    HB_TRY(hb_launch_plan_make(manifest, run_acc, m, n, k, &plan));
    memcpy(impl->grid, plan.grid, sizeof impl->grid);
    HB_TRY(hb_candidate_kernel_load(manifest, limits, &impl->kernel));
    return hb_candidate_buffers_create(&plan, &impl->buffers);
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
    hb_candidate_describe(manifest, &impl->buffers, &out->desc);
    return HB_OK;
}
