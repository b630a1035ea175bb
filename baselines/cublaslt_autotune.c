#include "baselines/cublaslt_autotune.h"

#include <string.h>

#include "bench/core/clock.h"
#include "bench/core/heartbeat.h"
#include "bench/core/shuffle.h"
#include "bench/core/stats.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/entry_points.h"
#include "bench/gpu/fill.h"

typedef struct search_state {
    hb_lt_matmul *mm;
    cudaStream_t stream;
    hb_rng *rng;
    cublasLtMatmulHeuristicResult_t results[HB_LT_MAX_ALGOS];
    int count;
    uint16_t *a, *b, *c;                            /* the search's own inputs and output */
    cudaEvent_t start[HB_LT_MAX_ALGOS], stop[HB_LT_MAX_ALGOS]; /* one event pair per candidate */
    double times_ms[HB_LT_MAX_ALGOS][HB_AUTOTUNE_MEASURED_ROUNDS];
} search_state;

static hb_status allocate(search_state *s)
{
    const size_t m = (size_t)s->mm->m, n = (size_t)s->mm->n, k = (size_t)s->mm->k;
    HB_CUDA_TRY(cudaMalloc((void **)&s->a, m * k * 2u));
    HB_CUDA_TRY(cudaMalloc((void **)&s->b, k * n * 2u));
    HB_CUDA_TRY(cudaMalloc((void **)&s->c, m * n * 2u));
    for (int i = 0; i < s->count; i++) {
        HB_CUDA_TRY(cudaEventCreate(&s->start[i]));
        HB_CUDA_TRY(cudaEventCreate(&s->stop[i]));
    }
    return HB_OK;
}

static void release(search_state *s)
{
    for (int i = 0; i < s->count; i++) {
        if (s->start[i])
            cudaEventDestroy(s->start[i]);
        if (s->stop[i])
            cudaEventDestroy(s->stop[i]);
    }
    cudaFree(s->a);
    cudaFree(s->b);
    cudaFree(s->c);
}

/* Fresh N(0,1) inputs, outside any timed interval. */
static hb_status fill_inputs(search_state *s)
{
    const hb_lt_matmul *mm = s->mm;
    HB_CUDA_TRY(hb_fill_normal_f16(s->a, mm->m, mm->k, 0, hb_rng_next(s->rng), s->stream));
    HB_CUDA_TRY(hb_fill_normal_f16(s->b, mm->k, mm->n, mm->b_source == HB_B_COL, hb_rng_next(s->rng), s->stream));
    return HB_OK;
}

static hb_status run_candidate(search_state *s, int index)
{
    cublasStatus_t status = hb_lt_matmul_run(s->mm, &s->results[index].algo, s->a, s->b, s->c, s->stream);
    if (status != CUBLAS_STATUS_SUCCESS)
        return hb_fail(HB_ERR_CUDA, "cublasLtMatmul refused heuristic result %d of %d (M=%ld N=%ld K=%ld) during "
                       "the autotune search: %s",
                       index, s->count, s->mm->m, s->mm->n, s->mm->k, hb_cublas_status_name(status));
    return HB_OK;
}

/* One round: fresh inputs, a new order, one untimed call of the order's
 * last candidate (Listing 8), then every candidate between its own events. */
static hb_status run_round(search_state *s, int round)
{
    size_t order[HB_LT_MAX_ALGOS];
    HB_TRY(fill_inputs(s));
    hb_shuffle_order(s->rng, order, (size_t)s->count);
    HB_TRY(run_candidate(s, (int)order[s->count - 1]));
    for (int i = 0; i < s->count; i++) {
        int index = (int)order[i];
        HB_CUDA_TRY(hb_entry()->event_record(s->start[index], s->stream));
        HB_TRY(run_candidate(s, index));
        HB_CUDA_TRY(hb_entry()->event_record(s->stop[index], s->stream));
    }
    HB_CUDA_TRY(hb_entry()->stream_synchronize(s->stream));
    int measured = round - HB_AUTOTUNE_WARMUP_ROUNDS;
    for (int i = 0; measured >= 0 && i < s->count; i++) {
        float ms = 0;
        HB_CUDA_TRY(hb_entry()->event_elapsed_time(&ms, s->start[i], s->stop[i]));
        s->times_ms[i][measured] = ms;
    }
    return HB_OK;
}

static hb_status median_us(const search_state *s, int index, double *out)
{
    hb_time_summary summary;
    HB_TRY(hb_summarize_times(s->times_ms[index], HB_AUTOTUNE_MEASURED_ROUNDS, &summary));
    *out = summary.median * 1e3;
    return HB_OK;
}

static hb_status pick_winner(const search_state *s, hb_autotune_search *out)
{
    out->winner = 0;
    out->winner_median_us = 0;
    for (int i = 0; i < s->count; i++) {
        double median = 0;
        HB_TRY(median_us(s, i, &median));
        if (i == 0)
            out->first_median_us = median;
        if (i == 0 || median < out->winner_median_us) {
            out->winner = i;
            out->winner_median_us = median;
        }
    }
    return HB_OK;
}

static hb_status search(search_state *s, hb_autotune_search *out)
{
    HB_TRY(hb_lt_matmul_heuristic(s->mm, HB_LT_MAX_ALGOS, s->results, &s->count));
    out->candidates = s->count;
    HB_TRY(allocate(s));
    for (int round = 0; round < HB_AUTOTUNE_WARMUP_ROUNDS + HB_AUTOTUNE_MEASURED_ROUNDS; round++) {
        HB_TRY(run_round(s, round));
        hb_heartbeat();
    }
    return pick_winner(s, out);
}

hb_status hb_autotune_search_run(hb_lt_matmul *mm, hb_rng *rng, cudaStream_t stream, cublasLtMatmulAlgo_t *winner,
                                 hb_autotune_search *out)
{
    static search_state state; /* ~80 KiB of times: not on the stack */
    search_state *s = &state;
    memset(s, 0, sizeof *s);
    memset(out, 0, sizeof *out);
    s->mm = mm;
    s->stream = stream;
    s->rng = rng;
    const double start = hb_now_s();
    hb_status status = search(s, out);
    release(s);
    out->seconds = hb_now_s() - start;
    if (status == HB_OK)
        *winner = s->results[out->winner].algo;
    return status;
}
