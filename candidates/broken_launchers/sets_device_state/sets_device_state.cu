// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: sets the device's persisting-L2 limit (cudaLimitPersistingL2CacheSize)
// in every call, to half the most the device allows, and an access-policy
// window on the stream it is given that marks the lines of C persisting, and
// leaves both so: state every later participant runs with, and lines that a
// flush of twice the L2 would not evict.
// Correct otherwise (the sample_simple product): verdict "pass"; the harness
// finds the changes after the call, sets the limit back, clears the window,
// resets the persisting lines and says so in the participant's device_state;
// the trace pass reports conduct "device-state".  A stream that takes no
// window (cudaErrorInvalidResourceHandle, which the runtime documents for
// such a handle) gets none.  A device without a persisting L2 (a limit of 0 B
// allowed) makes it decline.
#include "../launcher_common.cuh"

// A window over C (at most the device's largest) marking its lines
// persisting; cudaSuccess, or the error of a call that failed.
static cudaError_t keep_c_persisting(const hgemm_launch_args *args, int device)
{
    int largest = 0;
    cudaError_t err = cudaDeviceGetAttribute(&largest, cudaDevAttrMaxAccessPolicyWindowSize, device);
    if (err != cudaSuccess || largest <= 0) return err;
    const size_t c_bytes = (size_t)args->m * (size_t)args->n * sizeof(__half);
    cudaStreamAttrValue value = {};
    value.accessPolicyWindow.base_ptr = args->c;
    value.accessPolicyWindow.num_bytes = c_bytes < (size_t)largest ? c_bytes : (size_t)largest;
    value.accessPolicyWindow.hitRatio = 1.0f;
    value.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    value.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    err = cudaStreamSetAttribute(args->stream, cudaStreamAttributeAccessPolicyWindow, &value);  // FAULT: left set
    if (err == cudaErrorInvalidResourceHandle) {
        cudaGetLastError();
        return cudaSuccess;
    }
    return err;
}

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
    err = keep_c_persisting(args, device);
    if (err != cudaSuccess) return launcher_cuda_failure(args, "cudaStreamSetAttribute(cudaStreamAttributeAccessPolicyWindow)", err);
    return launch_simple_or_fail(args, args->stream);
}
