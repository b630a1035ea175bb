// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: allocates a 1 MiB scratch buffer with cudaMalloc and frees it with
// cudaFree in every call (what a workspace from the manifest is for), and
// clears it on the stream as if it used it.
// Correct otherwise (the sample_simple product): verdict "pass"; the trace
// pass reports conduct "alloc".
#include "../launcher_common.cuh"

static const size_t scratch_bytes = (size_t)1 << 20;

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    void *scratch = nullptr;
    cudaError_t err = cudaMalloc(&scratch, scratch_bytes);  // FAULT: an allocation inside the call
    if (err != cudaSuccess) return launcher_cuda_failure(args, "cudaMalloc", err);
    err = cudaMemsetAsync(scratch, 0, scratch_bytes, args->stream);
    int result = err == cudaSuccess ? launch_simple_or_fail(args, args->stream)
                                    : launcher_cuda_failure(args, "cudaMemsetAsync", err);
    err = cudaFree(scratch);  // FAULT: and a free
    return result != HGEMM_LAUNCH_OK || err == cudaSuccess ? result : launcher_cuda_failure(args, "cudaFree", err);
}
