// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: waits for the whole device with cudaDeviceSynchronize after its
// launch, inside the call (the harness synchronizes after every call anyway;
// inside, the wait is on the launcher's time and serializes what a caller
// could overlap).
// Correct otherwise (the sample_simple product): verdict "pass"; the trace
// pass reports conduct "sync".
#include "../launcher_common.cuh"

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    int result = launch_simple_or_fail(args, args->stream);
    if (result != HGEMM_LAUNCH_OK) return result;
    cudaError_t err = cudaDeviceSynchronize();  // FAULT: a device-wide wait inside the call
    return err == cudaSuccess ? HGEMM_LAUNCH_OK : launcher_cuda_failure(args, "cudaDeviceSynchronize", err);
}
