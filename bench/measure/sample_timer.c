#include "bench/measure/sample_timer.h"

#include "bench/gpu/cuda_check.h"
#include "bench/gpu/entry_points.h"

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

/* Between the events, what a watcher and the call must see alike: the watch
 * points sit outside the event pair's start and inside its stop only by a
 * clock read each. */
static hb_status timed_body(hb_sample_timer *timer, hb_participant *participant, const hb_gemm_io *io,
                            const hb_entry_points *e, double *wall_start, cudaError_t *ended)
{
    *wall_start = hb_entry_now_s();
    HB_CUDA_TRY(e->event_record(timer->start, timer->stream));
    HB_TRY(hb_participant_launch(participant, io, timer->stream));
    HB_CUDA_TRY(e->event_record(timer->stop, timer->stream));
    *ended = e->device_synchronize();
    return HB_OK;
}

hb_status hb_time_one_call(hb_sample_timer *timer, hb_participant *participant, const hb_gemm_io *io,
                           hb_call_kind kind, long sample, double *event_ms, double *wall_ms)
{
    const hb_entry_points *e = hb_entry();
    /* Device-wide synchronize, as torch.cuda.synchronize() in Listing 1:
     * nothing of an earlier call can overlap this one. */
    HB_CUDA_TRY(e->device_synchronize());
    hb_watch_call_begin(participant, kind, sample);
    double wall_start = 0;
    cudaError_t err = cudaSuccess;
    hb_status status = timed_body(timer, participant, io, e, &wall_start, &err);
    double wall_end = hb_entry_now_s();
    hb_watch_call_end(participant);
    HB_TRY(status);
    if (err != cudaSuccess)
        return participant_error(participant, err, "failed while running");
    if (participant->ops->after_call) /* untimed: the wall clock has stopped */
        HB_TRY(participant->ops->after_call(participant));
    float ms = 0;
    HB_CUDA_TRY(e->event_elapsed_time(&ms, timer->start, timer->stop));
    hb_watch_call_timed(participant, ms, (wall_end - wall_start) * 1e3);
    *event_ms = ms;
    *wall_ms = (wall_end - wall_start) * 1e3;
    return HB_OK;
}
