// What the broken launchers share (candidates/broken_launchers/README.md), so
// that each one's own file holds little more than its fault: the
// sample_simple kernel (one thread per element of C, fp32 products of A and
// B_col in ../broken/simple_gemm.cuh), its launch on a given stream, and the
// launcher's error message.  The kernel is a template on its block shape, so
// that first_call_autotune has two variants with names of their own.
#pragma once

#include <cstdarg>
#include <climits>
#include <cstdio>

#include "bench/candidate/hgemm_launch.h"
#include "../broken/simple_gemm.cuh"

HGEMM_LAUNCH_DEFINE_ABI_VERSION();

template <int BX, int BY>
__global__ void __launch_bounds__(BX *BY) simple_launcher_gemm(const __half *__restrict__ A,
                                                                const __half *__restrict__ B_col,
                                                                __half *__restrict__ C, int M, int N, int K)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    C[(size_t)row * N + col] = __float2half_rn(simple_gemm_dot(A, B_col, K, row, col));
}

// A printf-style message into the launcher's error buffer; returns `code`.
inline int launcher_message(const hgemm_launch_args *args, int code, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
inline int launcher_message(const hgemm_launch_args *args, int code, const char *format, ...)
{
    va_list list;
    va_start(list, format);
    vsnprintf(args->error, args->error_size, format, list);
    va_end(list);
    return code;
}

// A CUDA error as the launcher's failure (value 2).
inline int launcher_cuda_failure(const hgemm_launch_args *args, const char *what, cudaError_t err)
{
    return launcher_message(args, 2, "%s failed: %s (%s)", what, cudaGetErrorName(err), cudaGetErrorString(err));
}

// C = A * B on `stream` with blocks of BX x BY threads; cudaSuccess or the launch error.
template <int BX = 16, int BY = 16>
inline cudaError_t launch_simple(const hgemm_launch_args *args, cudaStream_t stream)
{
    if (args->m > INT_MAX || args->n > INT_MAX || args->k > INT_MAX) return cudaErrorInvalidValue;
    const int m = (int)args->m, n = (int)args->n, k = (int)args->k;
    const dim3 grid((unsigned)((n + BX - 1) / BX), (unsigned)((m + BY - 1) / BY), 1);
    simple_launcher_gemm<BX, BY><<<grid, dim3(BX, BY, 1), 0, stream>>>(
        static_cast<const __half *>(args->a), static_cast<const __half *>(args->b_col), static_cast<__half *>(args->c),
        m, n, k);
    return cudaGetLastError();
}

// The ordinary call, for the launchers whose fault is around it: the
// product on the harness's stream; HGEMM_LAUNCH_OK or the launch error.
inline int launch_simple_or_fail(const hgemm_launch_args *args, cudaStream_t stream)
{
    cudaError_t err = launch_simple(args, stream);
    return err == cudaSuccess ? HGEMM_LAUNCH_OK : launcher_cuda_failure(args, "launching simple_launcher_gemm", err);
}
