#include "verify/checked_call.h"

#include <stdio.h>
#include <string.h>

#include "bench/candidate/candidate_buffers.h"
#include "bench/gpu/buffer_check.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/guarded_alloc.h"

#define MAX_INPUTS 6

typedef struct input_set {
    const void *data[MAX_INPUTS];
    size_t bytes[MAX_INPUTS];
    const char *name[MAX_INPUTS];
    uint64_t hash[MAX_INPUTS];
    size_t count;
} input_set;

static void add_matrix(input_set *set, const void *data, long rows, long cols, const char *name)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->data[i] == data)
            return;
    set->data[set->count] = data;
    set->bytes[set->count] = (size_t)rows * (size_t)cols * 2u;
    set->name[set->count] = name;
    set->count++;
}

/* The problem's inputs, plus the padded copies when the kernel reads those. */
static input_set inputs_of(const hb_gemm_io *shared, const hb_gemm_io *seen)
{
    input_set set;
    memset(&set, 0, sizeof set);
    add_matrix(&set, shared->a, shared->m, shared->k, "A");
    add_matrix(&set, shared->b, shared->k, shared->n, "B");
    add_matrix(&set, shared->b_col, shared->k, shared->n, "B_col");
    add_matrix(&set, seen->a, seen->m, seen->k, "padded A");
    add_matrix(&set, seen->b, seen->k, seen->n, "padded B");
    add_matrix(&set, seen->b_col, seen->k, seen->n, "padded B_col");
    return set;
}

static hb_status hash_all(const input_set *set, uint64_t *out, cudaStream_t stream)
{
    for (size_t i = 0; i < set->count; i++)
        HB_CUDA_TRY(hb_hash_buffer(set->data[i], set->bytes[i], &out[i], stream));
    return HB_OK;
}

hb_status hb_check_guards(cudaStream_t stream, hb_check_failure *failure)
{
    int violated = 0;
    char where[400];
    HB_TRY(hb_guard_check_all(stream, &violated, where, sizeof where));
    if (violated)
        return hb_check_failed(failure, HB_ERR_INCORRECT, HB_CHECK_GUARD_BAND, "candidate %s", where);
    return HB_OK;
}

hb_status hb_poison_call(hb_participant *p, const hb_gemm_io *io, cudaStream_t stream)
{
    return p->ops->poison(p, io, stream);
}

hb_status hb_remake_inputs(hb_participant *p, const hb_gemm_io *io, cudaStream_t stream)
{
    return p->ops->prepare(p, io, stream);
}

hb_status hb_prepare_call(hb_participant *p, const hb_gemm_io *io, cudaStream_t stream)
{
    HB_TRY(hb_poison_call(p, io, stream));
    return hb_remake_inputs(p, io, stream);
}

static hb_status run_and_sync(hb_participant *p, const hb_gemm_io *io, cudaStream_t stream,
                              hb_check_failure *failure)
{
    /* A checked call is watched as a timed one is (participant.h): the
     * device idle before it, the whole device synchronized after it. */
    HB_CUDA_TRY(cudaDeviceSynchronize());
    hb_watch_call_begin(p, HB_CALL_CHECK, -1);
    hb_status status = hb_participant_launch(p, io, stream);
    /* The whole device, not the stream: work a launcher sent to a stream of
     * its own must be finished before its output is judged. */
    cudaError_t err = status == HB_OK ? cudaDeviceSynchronize() : cudaSuccess;
    hb_watch_call_end(p);
    if (status == HB_OK && err == cudaSuccess && p->ops->after_call)
        status = p->ops->after_call(p);
    if (status == HB_ERR_CANDIDATE_FAULT || (err != cudaSuccess && p->is_candidate))
        return hb_check_failed(failure, HB_ERR_CANDIDATE_FAULT, HB_CHECK_EXECUTION, "%s failed while running: %s",
                               p->name, err != cudaSuccess ? cudaGetErrorName(err) : hb_last_error());
    HB_TRY(status);
    if (err != cudaSuccess)
        return hb_fail(HB_ERR_CUDA, "%s failed during a checked call: %s (%s)", p->name, cudaGetErrorName(err),
                       cudaGetErrorString(err));
    return HB_OK;
}

hb_status hb_checked_call(hb_participant *p, const hb_gemm_io *io, const hb_gemm_io *shared, cudaStream_t stream,
                          hb_check_failure *failure)
{
    HB_TRY(hb_prepare_call(p, io, stream));
    HB_CUDA_TRY(cudaStreamSynchronize(stream));
    if (!p->is_candidate) {
        HB_TRY(run_and_sync(p, io, stream, failure));
        HB_TRY(p->ops->collect(p, io, stream));
        HB_CUDA_TRY(cudaStreamSynchronize(stream));
        return HB_OK;
    }
    hb_gemm_io seen = hb_candidate_kernel_io(p, io);
    input_set set = inputs_of(shared, &seen);
    uint64_t after[MAX_INPUTS];
    HB_TRY(hash_all(&set, set.hash, stream));
    HB_TRY(run_and_sync(p, io, stream, failure));
    /* Guards and hashes first: a stray write explains a wrong output, not the reverse. */
    HB_TRY(hb_check_guards(stream, failure));
    HB_TRY(hash_all(&set, after, stream));
    for (size_t i = 0; i < set.count; i++)
        if (after[i] != set.hash[i])
            return hb_check_failed(failure, HB_ERR_INCORRECT, HB_CHECK_INPUT_WRITE,
                                   "candidate wrote into its input %s (its hash changed across the call)",
                                   set.name[i]);
    HB_TRY(p->ops->collect(p, io, stream));
    HB_CUDA_TRY(cudaStreamSynchronize(stream));
    return HB_OK;
}
