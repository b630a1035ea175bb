// Random fp16 inputs generated on the GPU: a counter-based hash of
// (seed, logical index) feeds Box-Muller, so any element can be generated
// independently, in any storage order, with no state between calls.
#include <cuda_fp16.h>

#include "gpu_kernels.h"

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

}  // namespace

extern "C" cudaError_t hb_fill_normal_f16(uint16_t *dst, long rows, long cols, int col_major, uint64_t seed,
                                          cudaStream_t stream)
{
    const int threads = 256;
    long blocks = (rows * cols + threads - 1) / threads;
    if (blocks > 65536) blocks = 65536;  // grid-stride loop covers the rest
    fill_normal_kernel<<<(unsigned)blocks, threads, 0, stream>>>(reinterpret_cast<__half *>(dst), rows, cols,
                                                                 col_major, seed);
    return cudaGetLastError();
}
