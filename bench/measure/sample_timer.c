#include "bench/measure/sample_timer.h"

#include "bench/core/clock.h"
#include "bench/gpu/cuda_check.h"

hb_status hb_sample_timer_create(hb_sample_timer *timer, hb_stream_policy policy)
{
    if (policy == HB_STREAM_OWN) {
        HB_CUDA_TRY(cudaStreamCreateWithFlags(&timer->stream, cudaStreamNonBlocking));
        timer->own_stream = 1;
    } else {
        timer->stream = cudaStreamLegacy;
        timer->own_stream = 0;
    }
    HB_CUDA_TRY(cudaEventCreate(&timer->start));
    HB_CUDA_TRY(cudaEventCreate(&timer->stop));
    return HB_OK;
}

void hb_sample_timer_destroy(hb_sample_timer *timer)
{
    if (timer->start)
        cudaEventDestroy(timer->start);
    if (timer->stop)
        cudaEventDestroy(timer->stop);
    if (timer->stream && timer->own_stream)
        cudaStreamDestroy(timer->stream);
    timer->start = timer->stop = NULL;
    timer->stream = NULL;
}

static hb_status participant_error(const hb_participant *p, cudaError_t err, const char *when)
{
    return hb_fail(p->is_candidate ? HB_ERR_CANDIDATE_FAULT : HB_ERR_CUDA, "%s %s: %s (%s)", p->name, when,
                   cudaGetErrorName(err), cudaGetErrorString(err));
}

hb_status hb_time_one_call(hb_sample_timer *timer, hb_participant *participant, const hb_gemm_io *io,
                           double *event_ms, double *wall_ms)
{
    /* Device-wide synchronize, as torch.cuda.synchronize() in Listing 1:
     * nothing of an earlier call can overlap this one. */
    HB_CUDA_TRY(cudaDeviceSynchronize());
    double wall_start = hb_now_s();
    HB_CUDA_TRY(cudaEventRecord(timer->start, timer->stream));
    HB_TRY(participant->ops->launch(participant, io, timer->stream));
    HB_CUDA_TRY(cudaEventRecord(timer->stop, timer->stream));
    cudaError_t err = cudaDeviceSynchronize();
    double wall_end = hb_now_s();
    if (err != cudaSuccess)
        return participant_error(participant, err, "failed while running");
    if (participant->ops->after_call) /* untimed: the wall clock has stopped */
        HB_TRY(participant->ops->after_call(participant));
    float ms = 0;
    HB_CUDA_TRY(cudaEventElapsedTime(&ms, timer->start, timer->stop));
    *event_ms = ms;
    *wall_ms = (wall_end - wall_start) * 1e3;
    return HB_OK;
}
