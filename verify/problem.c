#include "verify/problem.h"

#include <math.h>
#include <string.h>

#include <stdio.h>

#include "bench/gpu/buffer_check.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/fill.h"
#include "bench/gpu/guarded_alloc.h"

static hb_status allocate(const hb_mnk *mnk, size_t count, hb_problem *p)
{
    const size_t m = (size_t)mnk->m, n = (size_t)mnk->n, k = (size_t)mnk->k, half = 2;
    /* Guard-banded: a candidate's out-of-bounds write lands in a band (bench/gpu/guarded_alloc.h). */
    HB_TRY(hb_guarded_malloc((void **)&p->inputs.a, m * k * half, "A"));
    HB_TRY(hb_guarded_malloc((void **)&p->inputs.b, k * n * half, "B"));
    HB_TRY(hb_guarded_malloc((void **)&p->inputs.b_col, k * n * half, "B_col"));
    for (size_t i = 0; i < count; i++) {
        char label[48];
        snprintf(label, sizeof label, "C of participant %zu", i);
        HB_TRY(hb_guarded_malloc((void **)&p->outputs[i], m * n * half, label));
    }
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
    if (status == HB_OK)
        status = hb_reference64_create(mnk->m, mnk->n, mnk->k, stream, &out->ref64);
    if (status != HB_OK) {
        hb_problem_free(out);
        return status;
    }
    HB_TRY(hb_problem_fill(out, HB_INPUTS_NORMAL, seed, stream));
    for (size_t i = 0; i < count; i++) {
        out->ios[i] = out->inputs;
        out->ios[i].c = out->outputs[i];
    }
    return HB_OK;
}

/* Probability of a nonzero element for the exact-match inputs: an output
 * sums K products that are nonzero with probability p^2, so its mean is
 * K p^2.  p = 1/2 while K <= 2048 (every output is then below 2048 and
 * compared); beyond, p = sqrt(512 / K) puts the mean at 512, some 20
 * standard deviations below 2048. */
double hb_exact_input_density(long k)
{
    return k <= 2048 ? 0.5 : sqrt(512.0 / (double)k);
}

static cudaError_t fill_one(uint16_t *dst, long rows, long cols, int col_major, hb_input_kind kind, uint64_t seed,
                            double density, cudaStream_t stream)
{
    switch (kind) {
    case HB_INPUTS_BINARY: return hb_fill_small_int_f16(dst, rows, cols, col_major, seed, density, 0, stream);
    case HB_INPUTS_SIGNED: return hb_fill_small_int_f16(dst, rows, cols, col_major, seed, 2.0 / 3.0, 1, stream);
    case HB_INPUTS_NORMAL: break;
    }
    return hb_fill_normal_f16(dst, rows, cols, col_major, seed, stream);
}

static hb_status hash_inputs(const hb_problem *p, uint64_t hash[3], cudaStream_t stream)
{
    const hb_gemm_io *in = &p->inputs;
    const size_t a_bytes = (size_t)in->m * (size_t)in->k * 2u, b_bytes = (size_t)in->k * (size_t)in->n * 2u;
    HB_CUDA_TRY(hb_hash_buffer(in->a, a_bytes, &hash[0], stream));
    HB_CUDA_TRY(hb_hash_buffer(in->b, b_bytes, &hash[1], stream));
    HB_CUDA_TRY(hb_hash_buffer(in->b_col, b_bytes, &hash[2], stream));
    return HB_OK;
}

hb_status hb_problem_fill(hb_problem *p, hb_input_kind kind, uint64_t seed, cudaStream_t stream)
{
    const hb_gemm_io *in = &p->inputs;
    uint16_t *a = (uint16_t *)in->a, *b = (uint16_t *)in->b, *b_col = (uint16_t *)in->b_col;
    const double density = hb_exact_input_density(in->k);
    /* A and B get different streams of the generator (seed and seed+1);
     * B and B_col the same one, so they hold the same matrix. */
    HB_CUDA_TRY(fill_one(a, in->m, in->k, 0, kind, seed, density, stream));
    HB_CUDA_TRY(fill_one(b, in->k, in->n, 0, kind, seed + 1, density, stream));
    HB_CUDA_TRY(fill_one(b_col, in->k, in->n, 1, kind, seed + 1, density, stream));
    HB_CUDA_TRY(cudaStreamSynchronize(stream));
    p->seed = seed;
    p->kind = kind;
    p->stir_seed = 0;
    return HB_OK;
}

static hb_status stir_one(uint16_t *dst, long rows, long cols, int col_major, uint64_t fill_seed, int per_column,
                          uint64_t undo_seed, uint64_t stir_seed, const char *name, cudaStream_t stream)
{
    cudaError_t err = hb_stir_normal_f16(dst, rows, cols, col_major, fill_seed, per_column, undo_seed, stir_seed,
                                         stream);
    if (err != cudaSuccess)
        return hb_fail(HB_ERR_CUDA, "stirring the input %s (%ld x %ld) failed: %s (%s)", name, rows, cols,
                       cudaGetErrorName(err), cudaGetErrorString(err));
    return HB_OK;
}

hb_status hb_problem_stir(hb_problem *p, uint64_t stir_seed, cudaStream_t stream)
{
    if (p->kind != HB_INPUTS_NORMAL || stir_seed == 0)
        return hb_fail(HB_ERR_INTERNAL, "a stir needs N(0,1) inputs and a nonzero seed (inputs kind %d, seed %llu)",
                       (int)p->kind, (unsigned long long)stir_seed);
    const hb_gemm_io *in = &p->inputs;
    const uint64_t undo = p->stir_seed;
    /* As the fill: A from the seed, B and B_col from seed + 1.  A per row,
     * B (and B_col, the same matrix) per column. */
    HB_TRY(stir_one((uint16_t *)in->a, in->m, in->k, 0, p->seed, 0, undo, stir_seed, "A", stream));
    HB_TRY(stir_one((uint16_t *)in->b, in->k, in->n, 0, p->seed + 1, 1, undo, stir_seed, "B", stream));
    HB_TRY(stir_one((uint16_t *)in->b_col, in->k, in->n, 1, p->seed + 1, 1, undo, stir_seed, "B_col", stream));
    HB_CUDA_TRY(cudaStreamSynchronize(stream));
    p->stir_seed = stir_seed;
    return HB_OK;
}

/* What the last fill and stir wrote, hashed: the same fill and stir again
 * into scratch buffers (the values depend only on the seeds), so that no
 * round pays for hashing, only a spot check does. */
static hb_status hash_of_fill(const hb_problem *p, uint64_t hash[3], cudaStream_t stream)
{
    hb_problem scratch;
    memset(&scratch, 0, sizeof scratch);
    scratch.inputs = p->inputs;
    const size_t a_bytes = (size_t)p->inputs.m * (size_t)p->inputs.k * 2u;
    const size_t b_bytes = (size_t)p->inputs.k * (size_t)p->inputs.n * 2u;
    hb_status status = HB_OK;
    uint16_t *a = NULL, *b = NULL, *b_col = NULL;
    if (cudaMalloc((void **)&a, a_bytes) != cudaSuccess || cudaMalloc((void **)&b, b_bytes) != cudaSuccess ||
        cudaMalloc((void **)&b_col, b_bytes) != cudaSuccess)
        status = hb_fail(HB_ERR_CUDA, "out of GPU memory re-making the inputs to check them (%zu bytes)",
                         a_bytes + 2 * b_bytes);
    scratch.inputs.a = a;
    scratch.inputs.b = b;
    scratch.inputs.b_col = b_col;
    if (status == HB_OK)
        status = hb_problem_fill(&scratch, p->kind, p->seed, stream);
    if (status == HB_OK && p->stir_seed)
        status = hb_problem_stir(&scratch, p->stir_seed, stream);
    if (status == HB_OK)
        status = hash_inputs(&scratch, hash, stream);
    cudaFree(a);
    cudaFree(b);
    cudaFree(b_col);
    return status;
}

hb_status hb_problem_inputs_intact(hb_problem *p, cudaStream_t stream, const char **changed)
{
    static const char *const names[3] = {"A", "B", "B_col"};
    uint64_t now[3], filled[3];
    HB_TRY(hash_inputs(p, now, stream));
    HB_TRY(hash_of_fill(p, filled, stream));
    *changed = NULL;
    for (int i = 0; i < 3 && !*changed; i++)
        if (now[i] != filled[i])
            *changed = names[i];
    return HB_OK;
}

void hb_problem_free(hb_problem *p)
{
    hb_guarded_free((void *)p->inputs.a);
    hb_guarded_free((void *)p->inputs.b);
    hb_guarded_free((void *)p->inputs.b_col);
    for (size_t i = 0; i < HB_MAX_PARTICIPANTS; i++)
        hb_guarded_free(p->outputs[i]);
    cudaFree(p->reference);
    hb_reference64_free(&p->ref64);
    memset(p, 0, sizeof *p);
}
