// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: after launching its product, every call asks for 1 GiB of dynamic
// shared memory for its kernel's later launches (a probe of what the device
// allows, more than any has), ignores the failure and returns success:
// cudaErrorInvalidValue stays the CUDA runtime's last error of the calling
// thread, the harness's, which the harness's next launch of its own would
// read back (cudaGetLastError) as its own failure.
// Correct otherwise (the sample_simple product).
// Must be caught by: the harness's read of the runtime's last error after
// every call, as verdict "crashed", check "execution", exit code 8, the
// reason naming cudaErrorInvalidValue "left set after its call" -- not a
// harness error.
#include "../launcher_common.cuh"

constexpr int kProbeBytes = 1 << 30;

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    const int result = launch_simple_or_fail(args, args->stream);
    if (result != HGEMM_LAUNCH_OK) return result;
    // FAULT: a failing call whose error is left set (no cudaGetLastError())
    (void)cudaFuncSetAttribute(simple_launcher_gemm<16, 16>, cudaFuncAttributeMaxDynamicSharedMemorySize, kProbeBytes);
    return HGEMM_LAUNCH_OK;
}
