// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: tunes itself on its first call, inside the call: it times two
// variants of its kernel (16 x 16 and 32 x 8 blocks) between events it
// creates, waits for each with cudaEventSynchronize, destroys the events and
// keeps the faster variant for every later call.  Both variants compute the
// whole product, so every call's output is right.
// Correct otherwise (the sample_simple product): verdict "pass"; the trace
// pass reports conduct "first-call", "sync" and "create".
#include "../launcher_common.cuh"

enum variant { UNTUNED, SQUARE, WIDE };
static variant chosen = UNTUNED;

// The variant's time on `stream` in milliseconds, or a negative value on a CUDA error (its message in args).
template <int BX, int BY>
static float time_variant(const hgemm_launch_args *args, cudaEvent_t start, cudaEvent_t stop, int *failure)
{
    float ms = -1.0f;
    cudaError_t err = cudaEventRecord(start, args->stream);
    if (err == cudaSuccess) err = launch_simple<BX, BY>(args, args->stream);
    if (err == cudaSuccess) err = cudaEventRecord(stop, args->stream);
    if (err == cudaSuccess) err = cudaEventSynchronize(stop);  // FAULT: a wait inside the call
    if (err == cudaSuccess) err = cudaEventElapsedTime(&ms, start, stop);
    if (err != cudaSuccess) *failure = launcher_cuda_failure(args, "timing a variant", err);
    return ms;
}

static int tune(const hgemm_launch_args *args)
{
    cudaEvent_t start = nullptr, stop = nullptr;  // FAULT: events created and destroyed inside the call
    cudaError_t err = cudaEventCreate(&start);
    if (err == cudaSuccess) err = cudaEventCreate(&stop);
    int failure = HGEMM_LAUNCH_OK;
    if (err != cudaSuccess) failure = launcher_cuda_failure(args, "cudaEventCreate", err);
    float square = failure ? 0.0f : time_variant<16, 16>(args, start, stop, &failure);
    float wide = failure ? 0.0f : time_variant<32, 8>(args, start, stop, &failure);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (failure == HGEMM_LAUNCH_OK) chosen = wide < square ? WIDE : SQUARE;
    return failure;
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (chosen == UNTUNED) return tune(args);  // FAULT: the first call runs both variants (C written by each)
    cudaError_t err = chosen == WIDE ? launch_simple<32, 8>(args, args->stream) : launch_simple<16, 16>(args, args->stream);
    return err == cudaSuccess ? HGEMM_LAUNCH_OK : launcher_cuda_failure(args, "launching the chosen variant", err);
}
