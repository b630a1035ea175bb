#include "bench/candidate/candidate_io.h"

#include "bench/candidate/cubin_candidate.h"
#include "bench/candidate/launcher_candidate.h"

hb_gemm_io hb_candidate_kernel_io(const hb_participant *candidate, const hb_gemm_io *io)
{
    const hb_candidate_buffers *buffers = hb_cubin_candidate_buffers(candidate);
    if (!buffers)
        buffers = hb_launcher_candidate_buffers(candidate);
    /* Neither: an A/A run's candidate is a library baseline (bench/driver/config_eval.c), with no padding. */
    return buffers ? hb_candidate_buffers_io(buffers, io) : *io;
}
