// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: its library constructor asks the runtime for a device attribute
// this runtime does not have (a number from a newer header, as a launcher
// built elsewhere might), takes the failure for "no such feature", and
// leaves it set: cudaErrorInvalidValue stays the CUDA runtime's last error
// of the loading thread, the harness's, which the harness's next launch of
// its own would read back (cudaGetLastError) as its own failure.
// Correct otherwise (the sample_simple product).
// Must be caught by: the harness's read of the runtime's last error once the
// library has loaded, as verdict "crashed", check "execution", exit code 8,
// the reason naming cudaErrorInvalidValue "left by the launcher's
// constructor" -- not a harness error.
#include "../launcher_common.cuh"

// An attribute past every cudaDeviceAttr this runtime knows.
constexpr int kNewerAttribute = 10000;

static bool has_newer_feature;

__attribute__((constructor)) static void probe(void)
{
    int device = 0, value = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        (void)cudaGetLastError(); // not its fault: the harness has a device current before it loads a launcher
        return;
    }
    // FAULT: the failure is taken for "no", and the runtime's last error is left set (no cudaGetLastError())
    has_newer_feature =
        cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(kNewerAttribute), device) == cudaSuccess && value;
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    // The feature would pick another block shape; the product is the same.
    const cudaError_t err = has_newer_feature ? launch_simple<32, 8>(args, args->stream)
                                              : launch_simple<16, 16>(args, args->stream);
    return err == cudaSuccess ? HGEMM_LAUNCH_OK : launcher_cuda_failure(args, "launching simple_launcher_gemm", err);
}
