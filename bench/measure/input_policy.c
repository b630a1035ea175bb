#include "bench/measure/input_policy.h"

#include <string.h>

#include "bench/gpu/cuda_check.h"
#include "bench/gpu/l2_persistence.h"

hb_status hb_input_policy_init(hb_input_policy *p, hb_l2_policy kind, size_t l2_bytes, hb_problem *problem,
                               uint64_t seed, cudaStream_t stream)
{
    memset(p, 0, sizeof *p);
    p->policy = kind;
    p->problem = problem;
    p->stream = stream;
    hb_rng_seed(&p->rng, seed);
    /* Timing inputs no check has seen: under warm and flush every round
     * runs on these, stirred; under fresh the first round replaces them. */
    HB_TRY(hb_problem_fill(problem, HB_INPUTS_NORMAL, hb_rng_next(&p->rng), stream));
    if (kind != HB_L2_FLUSH)
        return HB_OK;
    /* At least 2 x L2 (and 8 MiB where the device reports no L2 size). */
    p->flush_bytes = l2_bytes ? 2 * l2_bytes : (size_t)8 << 20;
    HB_CUDA_TRY(cudaMalloc((void **)&p->flush, p->flush_bytes));
    return hb_l2_persisting_supported(&p->persisting);
}

/* --l2 fresh: new N(0,1) inputs generated on the GPU (each call's
 * preparation makes a padding candidate's copies of them). */
static hb_status fresh_inputs(void *context)
{
    hb_input_policy *p = context;
    return hb_problem_fill(p->problem, HB_INPUTS_NORMAL, hb_rng_next(&p->rng), p->stream);
}

/* --l2 warm and flush: the same inputs every round but for a stir (one
 * fresh element in every row of A and every column of B, the last one set
 * back), from a seed no fingerprint of sampled elements can predict, so no
 * result a launcher keeps of its own from an earlier round is right again;
 * the few writes land in L2, which stays warm. */
static hb_status stir_inputs(void *context)
{
    hb_input_policy *p = context;
    uint64_t seed = hb_rng_next(&p->rng);
    while (seed == 0) /* 0 means "no stir" (verify/problem.h) */
        seed = hb_rng_next(&p->rng);
    return hb_problem_stir(p->problem, seed, p->stream);
}

/* --l2 flush: a write over twice the L2 size evicts every input line; the
 * value changes with each flush so no layer can skip it as redundant.  Lines
 * marked persisting would survive it (bench/gpu/l2_persistence.h): they are
 * made normal first, whoever marked them. */
static hb_status flush_l2(void *context)
{
    hb_input_policy *p = context;
    if (p->persisting)
        HB_TRY(hb_l2_persisting_reset());
    HB_CUDA_TRY(cudaMemsetAsync(p->flush, (int)(p->flushes++ & 0xff), p->flush_bytes, p->stream));
    HB_CUDA_TRY(cudaStreamSynchronize(p->stream));
    return HB_OK;
}

hb_input_hooks hb_input_policy_hooks(hb_input_policy *p)
{
    hb_input_hooks hooks = {NULL, NULL, p};
    hooks.before_round = p->policy == HB_L2_FRESH ? fresh_inputs : stir_inputs;
    if (p->policy == HB_L2_FLUSH)
        hooks.before_call = flush_l2;
    return hooks;
}

void hb_input_policy_free(hb_input_policy *p)
{
    if (p->flush)
        cudaFree(p->flush);
    p->flush = NULL;
}
