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

// N(0, 1) by Box-Muller from 64 random bits.
__device__ __forceinline__ __half normal_from_bits(uint64_t bits)
{
    // Two 24-bit uniforms; u1 in (0, 1] so the log is finite.
    float u1 = ((float)(bits >> 40) + 1.0f) * 0x1.0p-24f;
    float u2 = (float)((bits >> 8) & 0xFFFFFFu) * 0x1.0p-24f;
    float normal = sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);
    return __float2half_rn(normal);
}

// The normal fill's value at logical (r, c) of a matrix with `cols` columns.
__device__ __forceinline__ __half normal_at(uint64_t seed, long r, long c, long cols)
{
    return normal_from_bits(mix64(seed * 0x9e3779b97f4a7c15ULL + (uint64_t)(r * cols + c)));
}

__global__ void fill_normal_kernel(__half *dst, long rows, long cols, int col_major, uint64_t seed)
{
    const long total = rows * cols;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < total; i += (long)gridDim.x * blockDim.x) {
        long r = col_major ? i % rows : i / cols;
        long c = col_major ? i / rows : i % cols;
        dst[i] = normal_at(seed, r, c, cols);
    }
}

// The stir's draw for one line (a row when stirring per row, a column when
// per column): 64 bits from (stir seed, direction, line), its own stream of
// the hash, apart from every fill's (those hash seed * golden + index).
__device__ __forceinline__ uint64_t stir_bits(uint64_t stir_seed, int per_column, long line)
{
    const uint64_t direction = per_column ? 0x2545f4914f6cdd1dULL : 0xd1b54a32d192ed03ULL;
    return mix64(mix64(stir_seed ^ direction) + (uint64_t)line);
}

// Where along its line the stir of `line` lands (0 .. length-1).
__device__ __forceinline__ long stir_position(uint64_t stir_seed, int per_column, long line, long length)
{
    return (long)(stir_bits(stir_seed, per_column, line) % (uint64_t)length);
}

struct stir_matrix {
    __half *dst;
    long rows, cols;
    int col_major;
    uint64_t fill_seed;
    int per_column;
};

// Storage index and base value of the element at position `at` of `line`.
__device__ __forceinline__ long stir_index(const stir_matrix &m, long line, long at, __half *base)
{
    const long r = m.per_column ? at : line, c = m.per_column ? line : at;
    *base = normal_at(m.fill_seed, r, c, m.cols);
    return m.col_major ? c * m.rows + r : r * m.cols + c;
}

// One thread per line: the previous stir's element set back to the fill's
// value, then this stir's element given a fresh N(0, 1) value, always other
// than the fill's (so exactly one element per line differs from the fill).
__global__ void stir_kernel(stir_matrix m, uint64_t undo_seed, uint64_t stir_seed)
{
    const long lines = m.per_column ? m.cols : m.rows, length = m.per_column ? m.rows : m.cols;
    for (long line = blockIdx.x * (long)blockDim.x + threadIdx.x; line < lines; line += (long)gridDim.x * blockDim.x) {
        __half base;
        if (undo_seed) {
            const long i = stir_index(m, line, stir_position(undo_seed, m.per_column, line, length), &base);
            m.dst[i] = base;
        }
        if (stir_seed) {
            const uint64_t bits = stir_bits(stir_seed, m.per_column, line);
            const long i = stir_index(m, line, (long)(bits % (uint64_t)length), &base);
            __half value = normal_from_bits(mix64(bits ^ 0x9e3779b97f4a7c15ULL));
            if (__half_as_ushort(value) == __half_as_ushort(base))  // rare (some 1 in 5000): one ulp away instead
                value = __ushort_as_half((unsigned short)(__half_as_ushort(base) ^ 1u));
            m.dst[i] = value;
        }
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

extern "C" cudaError_t hb_stir_normal_f16(uint16_t *dst, long rows, long cols, int col_major, uint64_t fill_seed,
                                          int per_column, uint64_t undo_seed, uint64_t stir_seed, cudaStream_t stream)
{
    if (rows <= 0 || cols <= 0) return cudaErrorInvalidValue;
    const stir_matrix m = {reinterpret_cast<__half *>(dst), rows, cols, col_major, fill_seed, per_column};
    const int threads = 256;
    stir_kernel<<<(unsigned)fill_blocks(per_column ? cols : rows, threads), threads, 0, stream>>>(m, undo_seed,
                                                                                                 stir_seed);
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
