#include "bench/measure/output_watch.h"

#include <stdio.h>
#include <string.h>

#include "bench/candidate/candidate_buffers.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/output_scan.h"

static hb_output_region region_of(hb_participant *p, const hb_gemm_io *io)
{
    /* A padding candidate's code writes its padded C, whose rows are the
     * padded N apart; collect copies it into io->c only for a check, so
     * io->c itself still holds the poison after a timed call. */
    const hb_gemm_io seen = hb_candidate_kernel_io(p, io);
    hb_output_region r = {seen.c, io->m, io->n, seen.n};
    return r;
}

hb_status hb_output_watch_create(hb_output_watch *w, hb_participant *const *parts, const hb_gemm_io *ios,
                                 size_t count)
{
    memset(w, 0, sizeof *w);
    if (count > HB_MAX_PARTICIPANTS)
        return hb_fail(HB_ERR_INTERNAL, "%zu participants to watch (at most %d)", count, HB_MAX_PARTICIPANTS);
    w->count = count;
    for (size_t i = 0; i < count; i++)
        w->region[i] = region_of(parts[i], &ios[i]);
    const size_t bytes = count * sizeof *w->device;
    cudaError_t err = cudaMalloc((void **)&w->device, bytes);
    if (err == cudaSuccess)
        err = cudaMemset(w->device, 0, bytes);
    if (err == cudaSuccess)
        err = cudaMallocHost((void **)&w->host, bytes);
    if (err != cudaSuccess) {
        hb_output_watch_free(w);
        return hb_fail(HB_ERR_CUDA, "allocating the output scan's %zu counters failed: %s (%s); is the GPU out of "
                       "memory or in an error state?", count, cudaGetErrorName(err), cudaGetErrorString(err));
    }
    return HB_OK;
}

void hb_output_watch_free(hb_output_watch *w)
{
    if (w->device)
        cudaFree(w->device);
    if (w->host)
        cudaFreeHost(w->host);
    w->device = NULL;
    w->host = NULL;
}

hb_status hb_output_watch_scan(hb_output_watch *w, size_t i, cudaStream_t stream)
{
    const hb_output_region *r = &w->region[i];
    cudaError_t err = hb_count_nonfinite_f16(r->c, r->rows, r->cols, r->ld, &w->device[i], stream);
    if (err != cudaSuccess)
        return hb_fail(HB_ERR_CUDA, "enqueuing the output scan of participant %zu (%ld x %ld, rows %ld apart) "
                       "failed: %s (%s)", i, r->rows, r->cols, r->ld, cudaGetErrorName(err), cudaGetErrorString(err));
    w->scans++;
    return HB_OK;
}

void hb_unwritten_reason(char *out, size_t size, hb_watch_round at, uint64_t found, uint64_t elements)
{
    snprintf(out, size,
             "a %s call (round %zu of the %s) left %llu of %llu output elements unwritten or non-finite (the poison "
             "0xFFFF, NaN or Inf)",
             at.timed ? "timed" : "warm-up", at.round, at.timed ? "timed window" : "warm-up",
             (unsigned long long)found, (unsigned long long)elements);
}

hb_status hb_output_watch_judge(hb_participant *const *parts, const uint64_t *found, size_t count, uint64_t elements,
                                hb_watch_round at, hb_check_failure *failure)
{
    char reason[sizeof failure->reason];
    /* Baselines first: a round in which a reference library left its output
     * unwritten cannot be judged at all. */
    for (size_t i = 0; i < count; i++)
        if (found[i] && !parts[i]->is_candidate) {
            hb_unwritten_reason(reason, sizeof reason, at, found[i], elements);
            return hb_fail(HB_ERR_CUDA, "baseline %s: %s; a baseline's output is the harness's to trust, so this "
                           "is a harness or library fault (check the GPU, driver and cuBLAS), not a verdict",
                           parts[i]->name, reason);
        }
    for (size_t i = 0; i < count; i++)
        if (found[i]) {
            hb_unwritten_reason(reason, sizeof reason, at, found[i], elements);
            return hb_check_failed(failure, HB_ERR_INCORRECT, HB_CHECK_UNWRITTEN_OUTPUT, "%s", reason);
        }
    return HB_OK;
}

hb_status hb_output_watch_after_round(hb_output_watch *w, hb_participant *const *parts, cudaStream_t stream,
                                      hb_watch_round at, hb_check_failure *failure)
{
    const size_t bytes = w->count * sizeof *w->host;
    /* Untimed: the round's last call is over; the copy waits for its scan. */
    cudaError_t err = cudaMemcpyAsync(w->host, w->device, bytes, cudaMemcpyDeviceToHost, stream);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(stream);
    if (err != cudaSuccess)
        return hb_fail(HB_ERR_CUDA, "reading the output scan's counters back after a round failed: %s (%s); the "
                       "GPU is in an error state (see any earlier message)", cudaGetErrorName(err),
                       cudaGetErrorString(err));
    uint64_t found[HB_MAX_PARTICIPANTS];
    for (size_t i = 0; i < w->count; i++) {
        found[i] = w->host[i] - w->judged[i];
        w->judged[i] = w->host[i];
    }
    /* Every participant writes the same M x N elements: one call's output. */
    const uint64_t elements = (uint64_t)w->region[0].rows * (uint64_t)w->region[0].cols;
    return hb_output_watch_judge(parts, found, w->count, elements, at, failure);
}
