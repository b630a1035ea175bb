// The fp64 reference's helpers and its comparison: widening fp16 inputs to
// double for DGEMM, the reference's sum of squares, and each output's excess
// beyond the fp16 rounding interval (verify/deviation_rule.h says why the
// excess, not |c - ref|, decides).
#include <cuda_fp16.h>

#include <cstring>

#include "verify/compare_kernels.h"

namespace {

// Half an fp16 ulp at the finite value c: ulp = 2^(e - 10) for |c| in
// [2^e, 2^(e+1)), e >= -14; 2^-24 for subnormals.  Exact in double.
__device__ __forceinline__ double half_ulp16(float c)
{
    const float a = fabsf(c);
    if (a < 0x1p-14f) return 0x1p-25;
    int e = 0;
    frexpf(a, &e);  // a = f 2^e with f in [0.5, 1): floor(log2 a) = e - 1
    return ldexp(1.0, e - 1 - 11);
}

// Excess and index in one 64-bit word, so one atomicMax keeps both (as in
// deviation.cu): non-negative floats order like their bit patterns; among
// equal values the lowest index wins.  The excess is rounded up to float,
// so the packed value never understates it.
__device__ __forceinline__ unsigned long long pack(double excess, uint32_t index)
{
    const float up = __double2float_ru(excess);
    return ((unsigned long long)__float_as_uint(up) << 32) | (0xFFFFFFFFu - index);
}

__global__ void excess_kernel(const __half *c, const double *ref, size_t n, unsigned long long *worst,
                              unsigned long long *counts)
{
    unsigned long long best = 0, beyond = 0, bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float value = __half2float(c[i]);
        double excess;
        if (!isfinite(value)) {
            bad++;
            excess = __longlong_as_double(0x7ff0000000000000LL);  // +inf: worse than any finite excess
        } else {
            excess = fabs((double)value - ref[i]) - half_ulp16(value);
            excess = excess > 0 ? excess : 0;
            beyond += excess > 0;
        }
        const unsigned long long packed = pack(excess, (uint32_t)i);
        best = packed > best ? packed : best;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        const unsigned long long other = __shfl_down_sync(0xFFFFFFFFu, best, offset);
        best = other > best ? other : best;
        beyond += __shfl_down_sync(0xFFFFFFFFu, beyond, offset);
        bad += __shfl_down_sync(0xFFFFFFFFu, bad, offset);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMax(worst, best);
        if (beyond) atomicAdd(counts, beyond);
        if (bad) atomicAdd(counts + 1, bad);
    }
}

__global__ void sum_squares_kernel(const double *x, size_t n, double *sum)
{
    double local = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        local += x[i] * x[i];
    for (int offset = 16; offset > 0; offset /= 2) local += __shfl_down_sync(0xFFFFFFFFu, local, offset);
    if ((threadIdx.x & 31) == 0) atomicAdd(sum, local);
}

__global__ void widen_kernel(const __half *src, double *dst, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = (double)__half2float(src[i]);
}

unsigned blocks_for(size_t n, int threads)
{
    size_t blocks = (n + threads - 1) / threads;
    return (unsigned)(blocks > 8192 ? 8192 : blocks);  // grid-stride loops cover the rest
}

// A few device words, zeroed, read back after `launch` ran on `stream`.
template <typename T, typename Launch>
cudaError_t reduce_to_host(T *host, size_t words, cudaStream_t stream, Launch launch)
{
    T *scratch = nullptr;
    cudaError_t err = cudaMalloc(&scratch, words * sizeof *scratch);
    if (err != cudaSuccess) return err;
    err = cudaMemsetAsync(scratch, 0, words * sizeof *scratch, stream);
    if (err == cudaSuccess) {
        launch(scratch);
        err = cudaGetLastError();
    }
    if (err == cudaSuccess) err = cudaMemcpyAsync(host, scratch, words * sizeof *scratch, cudaMemcpyDeviceToHost, stream);
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    const cudaError_t free_err = cudaFree(scratch);
    return err != cudaSuccess ? err : free_err;
}

}  // namespace

extern "C" cudaError_t hb_excess_f16(const uint16_t *c, const double *ref, size_t n, hb_excess *out,
                                     cudaStream_t stream)
{
    if (n == 0 || n >= (1ull << 32)) return cudaErrorInvalidValue;
    unsigned long long host[3] = {0, 0, 0};
    const __half *ch = reinterpret_cast<const __half *>(c);
    cudaError_t err = reduce_to_host(host, 3, stream, [&](unsigned long long *scratch) {
        excess_kernel<<<blocks_for(n, 256), 256, 0, stream>>>(ch, ref, n, scratch, scratch + 1);
    });
    if (err != cudaSuccess) return err;
    const uint32_t bits = (uint32_t)(host[0] >> 32);
    float excess;
    memcpy(&excess, &bits, sizeof excess);
    out->max = excess;
    out->index = 0xFFFFFFFFu - (uint32_t)(host[0] & 0xFFFFFFFFu);
    out->beyond = host[1];
    out->non_finite = host[2];
    __half value = __float2half(0.0f);
    double reference = 0;
    err = cudaMemcpy(&value, ch + out->index, sizeof value, cudaMemcpyDeviceToHost);
    if (err == cudaSuccess) err = cudaMemcpy(&reference, ref + out->index, sizeof reference, cudaMemcpyDeviceToHost);
    out->value = __half2float(value);
    out->reference = reference;
    return err;
}

extern "C" cudaError_t hb_sum_squares_f64(const double *x, size_t n, double *out, cudaStream_t stream)
{
    return reduce_to_host(out, 1, stream, [&](double *scratch) {
        sum_squares_kernel<<<blocks_for(n, 256), 256, 0, stream>>>(x, n, scratch);
    });
}

extern "C" cudaError_t hb_widen_f16_f64(const uint16_t *src, double *dst, size_t n, cudaStream_t stream)
{
    widen_kernel<<<blocks_for(n, 256), 256, 0, stream>>>(reinterpret_cast<const __half *>(src), dst, n);
    return cudaGetLastError();
}
