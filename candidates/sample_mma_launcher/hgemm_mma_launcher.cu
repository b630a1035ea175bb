// sample_mma_launcher: the sample_mma kernel behind the launcher interface
// (bench/candidate/hgemm_launch.h, docs/launchers.md).  The kernel is
// candidates/sample_mma/hgemm_mma_pipelined.cu itself, included here, not
// copied; this file is only the host code a launcher adds.  It launches
// exactly what candidates/sample_mma/manifest.json asks the harness to launch
// for the cubin form: grid (N/128, M/128, 1), block (256, 1, 1), 75,776 B of
// dynamic shared memory, on the stream it is given; its manifest pads M and N
// to 128 and K to 32 as the cubin's does.  So the two forms run the same
// kernel on the same buffers, and their results and times can be compared.
//
// Built by make, one library per architecture (nvcc -shared -Xcompiler -fPIC
// -cudart shared): build/candidates/sample_mma_launcher/.
#include <climits>
#include <cstdio>

#include "bench/candidate/hgemm_launch.h"
#include "../sample_mma/hgemm_mma_pipelined.cu"

HGEMM_LAUNCH_DEFINE_ABI_VERSION();

namespace {

// The 75,776 B the kernel needs are above the 48 KiB every kernel may use
// without asking: raised once, on the first call (one host call, charged to
// that call like any host work).
bool smem_raised = false;

// A CUDA error as the launcher's failure: the harness reports the value and the message.
int cuda_failure(const hgemm_launch_args *args, const char *what, cudaError_t err)
{
    snprintf(args->error, args->error_size, "%s failed: %s (%s)", what, cudaGetErrorName(err), cudaGetErrorString(err));
    return 2;
}

// The sizes the kernel handles: multiples of its tile (the manifest's padding
// guarantees them), within its int parameters.
bool fits(const hgemm_launch_args *args)
{
    using namespace hgemm_mma_cfg;
    return args->m % BM == 0 && args->n % BN == 0 && args->k % BK == 0 && args->k >= BK && args->m <= INT_MAX &&
           args->n <= INT_MAX && args->k <= INT_MAX;
}

}  // namespace

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    using namespace hgemm_mma_cfg;
    if (!fits(args)) {
        snprintf(args->error, args->error_size, "needs M, N multiples of %d and K a multiple of %d (the manifest pads)",
                 BM, BK);
        return HGEMM_LAUNCH_UNSUPPORTED;
    }
    if (!smem_raised) {
        cudaError_t err = cudaFuncSetAttribute(hgemm_mma_pipelined, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               SMEM_BYTES);
        if (err != cudaSuccess)
            return cuda_failure(args, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 75776)", err);
        smem_raised = true;
    }
    const dim3 grid((unsigned)(args->n / BN), (unsigned)(args->m / BM), 1);
    hgemm_mma_pipelined<<<grid, THREADS, SMEM_BYTES, args->stream>>>(
        static_cast<const __half *>(args->a), static_cast<const __half *>(args->b),
        static_cast<const __half *>(args->b_col), static_cast<__half *>(args->c), (int)args->m, (int)args->n,
        (int)args->k, args->workspace);
    cudaError_t err = cudaGetLastError();  // a launch error; faults while running reach the harness's synchronize
    return err == cudaSuccess ? HGEMM_LAUNCH_OK : cuda_failure(args, "launching hgemm_mma_pipelined", err);
}
