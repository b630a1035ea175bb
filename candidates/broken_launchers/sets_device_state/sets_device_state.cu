// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: sets the device's persisting-L2 limit (cudaLimitPersistingL2CacheSize)
// in every call, to half the most the device allows, and leaves it so: state
// of the device every later participant runs with.
// Correct otherwise (the sample_simple product): verdict "pass"; the harness
// finds the change after the call, sets the limit back and says so in the
// participant's device_state; the trace pass reports conduct "device-state".
// A device without a persisting L2 (a limit of 0 B allowed) makes it decline.
#include "../launcher_common.cuh"

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    int device = 0, most = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&most, cudaDevAttrMaxPersistingL2CacheSize, device);
    if (err != cudaSuccess) return launcher_cuda_failure(args, "reading cudaDevAttrMaxPersistingL2CacheSize", err);
    if (most <= 0)
        return launcher_message(args, HGEMM_LAUNCH_UNSUPPORTED, "this device has no persisting L2 to set aside");
    err = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, (size_t)most / 2);  // FAULT: device-wide, left set
    if (err != cudaSuccess) return launcher_cuda_failure(args, "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize)", err);
    return launch_simple_or_fail(args, args->stream);
}
