// The per-call output scan: counts fp16 elements whose exponent bits are all
// ones (0x7C00 under the mask 0x7C00): the poison 0xFFFF an unwritten element
// still holds, every other NaN, +Inf and -Inf.  Finite values, subnormals and
// zeros of either sign have some exponent bit clear.  One pass over the
// logical region, row by row, so a padded output's padding is never read.
#include "bench/gpu/output_scan.h"

#include <stdint.h>

namespace {

constexpr int kThreads = 256;        // a multiple of 32: every warp is full for the reduction
constexpr long kMaxBlocksX = 32;     // across a row: 32 x 256 threads cover 65536 vectors of 8
constexpr long kTargetBlocks = 2048; // about 15 blocks of 256 per SM on a 132-SM H100: enough loads in flight

__device__ __forceinline__ unsigned nonfinite_in_word(uint32_t w)
{
    // Two fp16 values per 32-bit word, each tested on its own exponent field.
    return ((w & 0x00007C00u) == 0x00007C00u) + ((w & 0x7C000000u) == 0x7C000000u);
}

__device__ __forceinline__ unsigned nonfinite_half(uint16_t h)
{
    return (h & 0x7C00u) == 0x7C00u;
}

// One 64-bit atomic per warp, and none at all where the warp found nothing
// (every honest call): the counter is touched only by a faulty output.
__device__ __forceinline__ void add_warp_count(unsigned count, unsigned long long *counter)
{
    for (int offset = 16; offset > 0; offset /= 2)
        count += __shfl_down_sync(0xffffffffu, count, offset);
    if ((threadIdx.x & 31) == 0 && count)
        atomicAdd(counter, (unsigned long long)count);
}

// Rows on blockIdx.y (grid-stride), 16-byte vectors of 8 elements across a
// row on blockIdx.x and the thread (grid-stride): consecutive threads read
// consecutive vectors, and no index is divided.
__global__ void count_vec8_kernel(const uint4 *data, long rows, long vcols, long vld, unsigned long long *counter)
{
    unsigned count = 0;
    for (long r = blockIdx.y; r < rows; r += gridDim.y) {
        const uint4 *row = data + r * vld;
        for (long c = blockIdx.x * (long)blockDim.x + threadIdx.x; c < vcols; c += (long)gridDim.x * blockDim.x) {
            const uint4 v = row[c];
            count += nonfinite_in_word(v.x) + nonfinite_in_word(v.y) + nonfinite_in_word(v.z) +
                     nonfinite_in_word(v.w);
        }
    }
    add_warp_count(count, counter);
}

// The same walk one element at a time: for a region whose rows are not
// 16-byte aligned (cols or ld not a multiple of 8, or an unaligned start).
__global__ void count_half_kernel(const uint16_t *data, long rows, long cols, long ld, unsigned long long *counter)
{
    unsigned count = 0;
    for (long r = blockIdx.y; r < rows; r += gridDim.y) {
        const uint16_t *row = data + r * ld;
        for (long c = blockIdx.x * (long)blockDim.x + threadIdx.x; c < cols; c += (long)gridDim.x * blockDim.x)
            count += nonfinite_half(row[c]);
    }
    add_warp_count(count, counter);
}

dim3 grid_for(long rows, long units_per_row)
{
    long x = (units_per_row + kThreads - 1) / kThreads;
    if (x > kMaxBlocksX) x = kMaxBlocksX;
    long y = kTargetBlocks / x;
    if (y > rows) y = rows;
    if (y > 65535) y = 65535;  // gridDim.y's limit; the row loop covers the rest
    if (y < 1) y = 1;
    return dim3((unsigned)x, (unsigned)y, 1);
}

}  // namespace

extern "C" cudaError_t hb_count_nonfinite_f16(const uint16_t *data, long rows, long cols, long ld,
                                              unsigned long long *counter, cudaStream_t stream)
{
    if (rows < 0 || cols < 0 || ld < cols) return cudaErrorInvalidValue;
    if (rows == 0 || cols == 0) return cudaSuccess;
    const int aligned = (reinterpret_cast<uintptr_t>(data) % 16) == 0 && cols % 8 == 0 && ld % 8 == 0;
    if (aligned) {
        count_vec8_kernel<<<grid_for(rows, cols / 8), kThreads, 0, stream>>>(reinterpret_cast<const uint4 *>(data),
                                                                             rows, cols / 8, ld / 8, counter);
    } else {
        count_half_kernel<<<grid_for(rows, cols), kThreads, 0, stream>>>(data, rows, cols, ld, counter);
    }
    return cudaGetLastError();
}
