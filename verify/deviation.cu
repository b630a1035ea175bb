// Largest elementwise |c - ref| over a whole output, with the position of
// the worst element and a count of NaN/Inf outputs.  Every element is read:
// an output the kernel never wrote (left as the NaN fill) is caught.
#include <cuda_fp16.h>

#include <cstring>

#include "verify/compare_kernels.h"

namespace {

// Deviation and index packed in one 64-bit word so a single atomicMax keeps
// both: non-negative floats order like their bit patterns.  Among equal
// deviations the lowest index wins (the index is stored inverted).
__device__ __forceinline__ unsigned long long pack(float dev, uint32_t index)
{
    return ((unsigned long long)__float_as_uint(dev) << 32) | (0xFFFFFFFFu - index);
}

__global__ void deviation_kernel(const __half *c, const float *ref, size_t n, unsigned long long *worst,
                                 unsigned long long *non_finite)
{
    unsigned long long best = 0, bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float value = __half2float(c[i]);
        float dev;
        if (!isfinite(value)) {
            bad++;
            dev = __int_as_float(0x7f800000);  // +inf: worse than any finite deviation
        } else {
            dev = fabsf(value - ref[i]);
        }
        unsigned long long packed = pack(dev, (uint32_t)i);
        best = packed > best ? packed : best;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        unsigned long long other = __shfl_down_sync(0xFFFFFFFFu, best, offset);
        best = other > best ? other : best;
        bad += __shfl_down_sync(0xFFFFFFFFu, bad, offset);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMax(worst, best);
        if (bad) atomicAdd(non_finite, bad);
    }
}

}  // namespace

extern "C" cudaError_t hb_max_deviation_f16(const uint16_t *c, const float *ref, size_t n, hb_deviation *out,
                                            cudaStream_t stream)
{
    if (n == 0 || n >= (1ull << 32)) return cudaErrorInvalidValue;
    unsigned long long *scratch = nullptr;
    cudaError_t err = cudaMalloc(&scratch, 2 * sizeof *scratch);
    if (err != cudaSuccess) return err;
    unsigned long long host[2] = {0, 0};
    err = cudaMemsetAsync(scratch, 0, 2 * sizeof *scratch, stream);
    if (err == cudaSuccess) {
        const int threads = 256;
        size_t blocks = (n + threads - 1) / threads;
        if (blocks > 8192) blocks = 8192;
        deviation_kernel<<<(unsigned)blocks, threads, 0, stream>>>(reinterpret_cast<const __half *>(c), ref, n,
                                                                   scratch, scratch + 1);
        err = cudaGetLastError();
    }
    if (err == cudaSuccess) err = cudaMemcpyAsync(host, scratch, sizeof host, cudaMemcpyDeviceToHost, stream);
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    cudaError_t free_err = cudaFree(scratch);
    if (err != cudaSuccess) return err;
    if (free_err != cudaSuccess) return free_err;

    uint32_t index = 0xFFFFFFFFu - (uint32_t)(host[0] & 0xFFFFFFFFu);
    float dev;
    uint32_t bits = (uint32_t)(host[0] >> 32);
    memcpy(&dev, &bits, sizeof dev);
    out->max_abs = dev;
    out->worst_index = index;
    out->non_finite = host[1];
    // Fetch the two values at the worst position, for the report.
    __half value_h;
    float reference = 0;
    err = cudaMemcpy(&value_h, reinterpret_cast<const __half *>(c) + index, sizeof value_h, cudaMemcpyDeviceToHost);
    if (err == cudaSuccess) err = cudaMemcpy(&reference, ref + index, sizeof reference, cudaMemcpyDeviceToHost);
    out->worst_value = __half2float(value_h);
    out->worst_reference = reference;
    return err;
}
