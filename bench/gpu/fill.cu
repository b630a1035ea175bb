// Random fp16 inputs generated on the GPU: a counter-based hash of
// (seed, logical index) feeds Box-Muller, so any element can be generated
// independently, in any storage order, with no state between calls.
#include <cuda_fp16.h>

#include "bench/gpu/fill.h"

namespace {

__device__ __forceinline__ uint64_t mix64(uint64_t z)
{
    // splitmix64 finaliser: a bijection with good avalanche, enough for test data.
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

__global__ void fill_normal_kernel(__half *dst, long rows, long cols, int col_major, uint64_t seed)
{
    const long total = rows * cols;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < total; i += (long)gridDim.x * blockDim.x) {
        long r = col_major ? i % rows : i / cols;
        long c = col_major ? i / rows : i % cols;
        uint64_t bits = mix64(seed * 0x9e3779b97f4a7c15ULL + (uint64_t)(r * cols + c));
        // Two 24-bit uniforms; u1 in (0, 1] so the log is finite.
        float u1 = ((float)(bits >> 40) + 1.0f) * 0x1.0p-24f;
        float u2 = (float)((bits >> 8) & 0xFFFFFFu) * 0x1.0p-24f;
        float normal = sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);
        dst[i] = __float2half_rn(normal);
    }
}

// {0, 1} (signed_values = 0: one with probability p_nonzero) or {-1, 0, 1}
// (signed_values = 1: -1 and 1 each with probability p_nonzero / 2).
__global__ void fill_small_int_kernel(__half *dst, long rows, long cols, int col_major, uint64_t seed,
                                      float p_nonzero, int signed_values)
{
    const long total = rows * cols;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < total; i += (long)gridDim.x * blockDim.x) {
        long r = col_major ? i % rows : i / cols;
        long c = col_major ? i / rows : i % cols;
        uint64_t bits = mix64(seed * 0x9e3779b97f4a7c15ULL + (uint64_t)(r * cols + c));
        float u = (float)(bits >> 40) * 0x1.0p-24f;  // uniform in [0, 1)
        float value = 0.0f;
        if (u < p_nonzero) value = (signed_values && (bits & 1u)) ? -1.0f : 1.0f;
        dst[i] = __float2half_rn(value);
    }
}

long fill_blocks(long elements, int threads)
{
    long blocks = (elements + threads - 1) / threads;
    return blocks > 65536 ? 65536 : blocks;  // grid-stride loops cover the rest
}

}  // namespace

extern "C" cudaError_t hb_fill_small_int_f16(uint16_t *dst, long rows, long cols, int col_major, uint64_t seed,
                                             double p_nonzero, int signed_values, cudaStream_t stream)
{
    const int threads = 256;
    fill_small_int_kernel<<<(unsigned)fill_blocks(rows * cols, threads), threads, 0, stream>>>(
        reinterpret_cast<__half *>(dst), rows, cols, col_major, seed, (float)p_nonzero, signed_values);
    return cudaGetLastError();
}

extern "C" cudaError_t hb_fill_normal_f16(uint16_t *dst, long rows, long cols, int col_major, uint64_t seed,
                                          cudaStream_t stream)
{
    const int threads = 256;
    fill_normal_kernel<<<(unsigned)fill_blocks(rows * cols, threads), threads, 0, stream>>>(reinterpret_cast<__half *>(dst), rows, cols,
                                                                 col_major, seed);
    return cudaGetLastError();
}
