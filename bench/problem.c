#include "problem.h"

#include <string.h>

#include "../verify/gpu_kernels.h"
#include "cuda_check.h"

static hb_status allocate(const hb_mnk *mnk, size_t count, hb_problem *p)
{
    const size_t m = (size_t)mnk->m, n = (size_t)mnk->n, k = (size_t)mnk->k, half = 2;
    HB_CUDA_TRY(cudaMalloc((void **)&p->inputs.a, m * k * half));
    HB_CUDA_TRY(cudaMalloc((void **)&p->inputs.b, k * n * half));
    HB_CUDA_TRY(cudaMalloc((void **)&p->inputs.b_col, k * n * half));
    for (size_t i = 0; i < count; i++)
        HB_CUDA_TRY(cudaMalloc((void **)&p->outputs[i], m * n * half));
    HB_CUDA_TRY(cudaMalloc((void **)&p->reference, m * n * sizeof(float)));
    return HB_OK;
}

hb_status hb_problem_create(const hb_mnk *mnk, size_t count, uint64_t seed, cudaStream_t stream, hb_problem *out)
{
    memset(out, 0, sizeof *out);
    out->count = count;
    out->inputs.m = mnk->m;
    out->inputs.n = mnk->n;
    out->inputs.k = mnk->k;
    hb_status status = allocate(mnk, count, out);
    if (status != HB_OK) {
        hb_problem_free(out);
        return status;
    }
    uint16_t *a = (uint16_t *)out->inputs.a, *b = (uint16_t *)out->inputs.b, *b_col = (uint16_t *)out->inputs.b_col;
    /* A and B get different streams of the generator (seed and seed+1);
     * B and B_col the same one, so they hold the same matrix. */
    HB_CUDA_TRY(hb_fill_normal_f16(a, mnk->m, mnk->k, 0, seed, stream));
    HB_CUDA_TRY(hb_fill_normal_f16(b, mnk->k, mnk->n, 0, seed + 1, stream));
    HB_CUDA_TRY(hb_fill_normal_f16(b_col, mnk->k, mnk->n, 1, seed + 1, stream));
    HB_CUDA_TRY(cudaStreamSynchronize(stream));
    for (size_t i = 0; i < count; i++) {
        out->ios[i] = out->inputs;
        out->ios[i].c = out->outputs[i];
    }
    return HB_OK;
}

void hb_problem_free(hb_problem *p)
{
    cudaFree((void *)p->inputs.a);
    cudaFree((void *)p->inputs.b);
    cudaFree((void *)p->inputs.b_col);
    for (size_t i = 0; i < HB_MAX_PARTICIPANTS; i++)
        cudaFree(p->outputs[i]);
    cudaFree(p->reference);
    memset(p, 0, sizeof *p);
}
