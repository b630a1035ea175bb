/* cuda_l2_adapter.cu -- the launcher entry point (docs/launchers.md) in
 * front of one of CUDA-L2's published HGEMM files, built with the torch shim
 * (bench/import/cuda_l2/torch_shim/) instead of libtorch.  The importer builds each
 * file unmodified into one object and this file into another, and links the
 * two into a launcher library:
 *
 *     nvcc $FLAGS -I bench/import/cuda_l2/torch_shim -I $CUTLASS/include ... -c M_N_K.cu -o kernel.o
 *     nvcc $FLAGS -I bench/import/cuda_l2/torch_shim -I . -DHB_L2_ENTRY=cuda_l2_h100_fp32 \
 *          -c bench/import/cuda_l2/cuda_l2_adapter.cu -o adapter.o
 *     nvcc -shared -cudart shared -o launcher.so kernel.o adapter.o
 *
 * HB_L2_ENTRY names the file's torch entry, cuda_l2_<gpu>_<fp32|fp16>.  Each
 * call wraps the harness's buffers as the authors' Python harness passes
 * them (benchmarking_utils.py, run_all_perf_funcs_once; tools/utils.py,
 * as_col_major), all fp16 on the current CUDA device:
 *     a            (m, k), strides (k, 1)   A, row-major
 *     b            (k, n), strides (n, 1)   B, row-major
 *     b_col_major  (k, n), strides (n, 1)   the shape of B, but its memory holds
 *                                           B column-major (as_col_major is
 *                                           x.t().reshape(x.shape).contiguous())
 *     c            (m, n), strides (n, 1)   C, the output
 * with m, n, k the harness's (already padded to the manifest's padding),
 * makes args->stream the shim's current stream for the call (what the files'
 * getCurrentCUDAStream returns, and where torch::empty's blocks are cached),
 * calls the entry, and puts the previous current stream back.
 *
 * Returns HGEMM_LAUNCH_OK when the entry returns; 2 (a failure) with the
 * exception's text in args->error when it throws anything -- c10::Error from
 * TORCH_CHECK or a failed CUDA call in the shim, std::runtime_error from the
 * file's own checks, anything else -- and 2 for arguments of another ABI.
 * Nothing is added to the call beyond what torch would do: no synchronize
 * and no cudaGetLastError after the entry (a launch error or a fault reaches
 * the harness's own checks, as for any launcher); the one CUDA call the
 * adapter makes is cudaGetDevice, for the tensors' device. */
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>

#include <torch/extension.h>

#include "bench/candidate/hgemm_launch.h"

#ifndef HB_L2_ENTRY
#error "compile with -DHB_L2_ENTRY=<the file's torch entry>, e.g. -DHB_L2_ENTRY=cuda_l2_h100_fp32"
#endif

/* The published file's entry (defined in the other object). */
void HB_L2_ENTRY(torch::Tensor a, torch::Tensor b, torch::Tensor b_col_major, torch::Tensor c);

HGEMM_LAUNCH_DEFINE_ABI_VERSION();

namespace {

#define HB_L2_STRINGIFY2(x) #x
#define HB_L2_STRINGIFY(x) HB_L2_STRINGIFY2(x)
const char entry_name[] = HB_L2_STRINGIFY(HB_L2_ENTRY);

/* The message into the harness's buffer, cut to fit, always NUL-terminated. */
void put_error(const hgemm_launch_args *args, const char *prefix, const char *message)
{
    if (!args->error || args->error_size == 0) return;
    const size_t room = args->error_size - 1;
    const size_t prefix_length = std::min(std::strlen(prefix), room);
    std::memcpy(args->error, prefix, prefix_length);
    const size_t message_length = std::min(std::strlen(message), room - prefix_length);
    std::memcpy(args->error + prefix_length, message, message_length);
    args->error[prefix_length + message_length] = '\0';
}

torch::Tensor wrap(const void *data, int64_t rows, int64_t cols, int device)
{
    return torch::from_blob(const_cast<void *>(data), {rows, cols},
                            torch::dtype(torch::kHalf).device(torch::kCUDA, static_cast<c10::DeviceIndex>(device)));
}

}  // namespace

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    /* docs/launchers.md: a field is read only when struct_size covers it; this
     * adapter reads every field of version 1, up to error_size. */
    if (!args || args->struct_size < offsetof(hgemm_launch_args, error_size) + sizeof args->error_size) return 2;
    if (args->abi_version != HGEMM_LAUNCH_ABI_VERSION) {
        char message[96];
        std::snprintf(message, sizeof message, "built for ABI version %d, called with version %u",
                      HGEMM_LAUNCH_ABI_VERSION, static_cast<unsigned>(args->abi_version));
        put_error(args, "cuda_l2_adapter: ", message);
        return 2;
    }
    try {
        int device = 0;
        const cudaError_t err = cudaGetDevice(&device);
        if (err != cudaSuccess) {
            (void)cudaGetLastError();
            put_error(args, "cudaGetDevice failed: ", cudaGetErrorString(err));
            return 2;
        }
        torch::Tensor a = wrap(args->a, args->m, args->k, device);
        torch::Tensor b = wrap(args->b, args->k, args->n, device);
        torch::Tensor b_col_major = wrap(args->b_col, args->k, args->n, device);
        torch::Tensor c = wrap(args->c, args->m, args->n, device);
        hb_torch::CurrentStreamGuard stream(args->stream);
        HB_L2_ENTRY(a, b, b_col_major, c);
        return HGEMM_LAUNCH_OK;
    } catch (const std::exception &e) {
        put_error(args, "", e.what());
    } catch (...) {
        put_error(args, entry_name, " threw an exception that is not a std::exception");
    }
    return 2;
}
