#include "bench/candidate/cubin_candidate.h"

#include <stdlib.h>
#include <string.h>

#include "bench/candidate/candidate_buffers.h"
#include "bench/candidate/candidate_row.h"
#include "bench/candidate/launch_plan.h"

typedef struct candidate_impl {
    hb_candidate_buffers buffers; /* first: the shared ops read the impl as these (candidate_buffers.h) */
    hb_candidate_kernel kernel;
    unsigned grid[3];
} candidate_impl;

static hb_status candidate_launch(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    candidate_impl *impl = self->impl;
    hb_gemm_io kernel_io = hb_candidate_buffers_io(&impl->buffers, io);
    return hb_candidate_kernel_launch(&impl->kernel, impl->grid, &kernel_io, impl->buffers.workspace, stream);
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

static const hb_participant_ops candidate_ops = {hb_candidate_prepare, hb_candidate_poison, candidate_launch,
                                                 hb_candidate_collect, candidate_destroy,   NULL};

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
    HB_TRY(hb_candidate_participant_init(out, &candidate_ops, sizeof(candidate_impl)));
    candidate_impl *impl = out->impl;
    hb_status status = setup(impl, manifest, limits, run_acc, m, n, k);
    if (status != HB_OK) {
        candidate_destroy(out);
        return status;
    }
    hb_candidate_describe(manifest, &impl->buffers, &out->desc);
    return HB_OK;
}
