// What the broken launchers that compute with cuBLAS share
// (candidates/broken_launchers/README.md): a handle with a workspace of its
// own, set up once when the library loads, and the product, or a slice of
// C's rows, as one cublasGemmEx call made as torch.matmul makes it
// (docs/methodology.md, "Participants": CUBLAS_OP_N twice, the row-major product read as
// the column-major C^T = B^T A^T, fp32 compute and scale, the default tensor-op
// algorithm, cublasSetStream then cublasSetWorkspace with torch's workspace
// size).  The launcher reads the row-major B (its manifest's "b_layout" is
// "row") and claims the fp32 class.  Every cuBLAS and CUDA status is checked
// and a failure becomes the launcher's failure with its message.
//
// The handle and workspace are made in a library constructor, outside any
// call, so that a call holds nothing but the product: no allocation, no
// creation (the conduct findings alloc and create), as torch, whose handle and
// workspace outlive the call.  They are never destroyed: the process ends
// with its configuration, and cuBLAS must not be torn down after the CUDA
// runtime at exit.
#pragma once

#include <cublas_v2.h>

#include <cstdint>

#include "launcher_common.cuh"

// torch's cuBLAS workspace: 32 MiB from Hopper on, 8,519,680 B before.
inline size_t torch_workspace_bytes(int major)
{
    return major >= 9 ? (size_t)32 << 20 : (size_t)8519680;
}

struct cublas_gemm {
    cublasHandle_t handle = nullptr;
    void *workspace = nullptr;
    size_t workspace_bytes = 0;
    char failure[200] = "not set up"; // "" once set up; otherwise what failed at load
};

inline void cublas_failure_text(char *out, size_t size, const char *what, cublasStatus_t status)
{
    snprintf(out, size, "%s failed: %s (%s)", what, cublasGetStatusName(status), cublasGetStatusString(status));
}

inline void cuda_failure_text(char *out, size_t size, const char *what, cudaError_t err)
{
    snprintf(out, size, "%s failed: %s (%s)", what, cudaGetErrorName(err), cudaGetErrorString(err));
}

// A handle and torch's workspace for the current device: for a library
// constructor.  On failure `g->failure` says what failed, and every call
// reports it.
inline void cublas_gemm_setup(cublas_gemm *g)
{
    int device = 0, major = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (err != cudaSuccess)
        return cuda_failure_text(g->failure, sizeof g->failure, "reading the device's compute capability", err);
    g->workspace_bytes = torch_workspace_bytes(major);
    err = cudaMalloc(&g->workspace, g->workspace_bytes);
    if (err != cudaSuccess)
        return cuda_failure_text(g->failure, sizeof g->failure, "cudaMalloc of the cuBLAS workspace", err);
    cublasStatus_t status = cublasCreate(&g->handle);
    if (status != CUBLAS_STATUS_SUCCESS)
        return cublas_failure_text(g->failure, sizeof g->failure, "cublasCreate", status);
    g->failure[0] = '\0';
}

// The launcher's failure (value 2) for a cuBLAS status.
inline int launcher_cublas_failure(const hgemm_launch_args *args, const char *what, cublasStatus_t status)
{
    return launcher_message(args, 2, "%s failed: %s (%s)", what, cublasGetStatusName(status),
                            cublasGetStatusString(status));
}

// HGEMM_LAUNCH_OK when `g` was set up and the call is one cublasGemmEx can
// make; otherwise the failure or the refusal, with its message.
inline int cublas_gemm_usable(const cublas_gemm *g, const hgemm_launch_args *args)
{
    if (g->failure[0])
        return launcher_message(args, 2, "setting up cuBLAS when the library loaded: %s", g->failure);
    if (args->accumulator != HGEMM_LAUNCH_ACC_FP32)
        return launcher_message(args, HGEMM_LAUNCH_UNSUPPORTED, "this launcher computes the fp32 class only");
    if (args->m > INT_MAX || args->n > INT_MAX || args->k > INT_MAX)
        return launcher_message(args, HGEMM_LAUNCH_UNSUPPORTED, "M, N and K must fit cublasGemmEx's int");
    return HGEMM_LAUNCH_OK;
}

// Rows [r0, r1) of C = A * B, on `stream` with `g`'s handle: one cublasGemmEx
// (none for an empty slice).  HGEMM_LAUNCH_OK or the launcher's failure.
inline int cublas_gemm_rows(cublas_gemm *g, const hgemm_launch_args *args, cudaStream_t stream, int64_t r0,
                            int64_t r1)
{
    int usable = cublas_gemm_usable(g, args);
    if (usable != HGEMM_LAUNCH_OK)
        return usable;
    if (r0 < 0 || r1 > args->m || r0 > r1)
        return launcher_message(args, 2, "rows [%lld, %lld) are not inside C's %lld rows", (long long)r0,
                                (long long)r1, (long long)args->m);
    if (r0 == r1)
        return HGEMM_LAUNCH_OK;
    cublasStatus_t status = cublasSetStream(g->handle, stream);
    if (status != CUBLAS_STATUS_SUCCESS)
        return launcher_cublas_failure(args, "cublasSetStream", status);
    status = cublasSetWorkspace(g->handle, g->workspace, g->workspace_bytes);
    if (status != CUBLAS_STATUS_SUCCESS)
        return launcher_cublas_failure(args, "cublasSetWorkspace", status);
    const int m = (int)(r1 - r0), n = (int)args->n, k = (int)args->k;
    const __half *a = static_cast<const __half *>(args->a) + r0 * args->k;
    __half *c = static_cast<__half *>(args->c) + r0 * args->n;
    const float alpha = 1.0f, beta = 0.0f;
    // Column-major C^T (n x m) = B^T (n x k) * A^T (k x m): the row-major B and A as they lie.
    status = cublasGemmEx(g->handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, args->b, CUDA_R_16F, n, a,
                          CUDA_R_16F, k, &beta, c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    return status == CUBLAS_STATUS_SUCCESS ? HGEMM_LAUNCH_OK : launcher_cublas_failure(args, "cublasGemmEx", status);
}

// The whole product on `stream`.
inline int cublas_gemm_all(cublas_gemm *g, const hgemm_launch_args *args, cudaStream_t stream)
{
    return cublas_gemm_rows(g, args, stream, 0, args->m);
}
