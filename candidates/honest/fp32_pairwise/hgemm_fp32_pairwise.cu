// HONEST (candidates/honest/expected.tsv: must pass).
// Order and precision: pairwise (tree) summation of each output's K
// products in fp32, per thread, by binary-counter merging of partial sums
// (not pairwise over tiles): products arrive in ascending k; level j holds
// the sum of a completed block of 2^j consecutive products; a new product
// merges with every level that is occupied (its block's sum + the new,
// later one), from level 0 up, and settles in the first free level.  When
// K is a power of two this is a perfect binary tree over k = 0 .. K-1;
// otherwise the blocks left pending (one per binary digit of K that is 1)
// are added at the end, smallest (latest) first.  Every addition is one
// fp32 rounding (__fadd_rn); the products are exact in fp32; one rounding
// to fp16 at the end.
// Why it is honest: each product passes through at most ceil(log2 K) + 1
// fp32 additions, so the error bound is about (log2 K + 1) u sum|a_k b_k|
// (u = 2^-24), far below recursive fp32 summation's K u: more accurate than
// the fp32 class asks, with rounding errors unlike an ascending reference's.
// Levels: 31, enough for any int K (the count before a product is below
// 2^31 - 1, so it always finds a free level).  Freed levels are reset to 0,
// so the final sum adds every level, low to high (adding 0 is exact).
// Tiling (../honest_tile.cuh): 32 x 32 outputs per block of 16 x 16
// threads, 2 x 2 per thread (the 31 levels of each output live in
// registers), K staged 32 deep in shared memory; the tiles do not change the
// order.  Any M, N, K; reads B.
#include "../honest_tile.cuh"

namespace {

constexpr int kLevels = 31;

struct PairwiseCounter {
    float level[kLevels] = {}; // level[j]: the sum of a pending block of 2^j products, or 0
    // k is the number of products already added (the walk is ascending from
    // 0): bit j of k says whether level j is occupied.
    __device__ __forceinline__ void add(float a, float b, int k)
    {
        float x = __fmul_rn(a, b); // exact: two 11-bit significands
        bool carrying = true;      // no early exit: the loop unrolls and level[] stays in registers
#pragma unroll
        for (int j = 0; j < kLevels; j++) {
            if (!carrying) continue;
            if ((k >> j) & 1) {
                x = __fadd_rn(level[j], x); // the earlier block, then the later one
                level[j] = 0.0f;
            } else {
                level[j] = x;
                carrying = false;
            }
        }
    }
    __device__ __forceinline__ __half out() const
    {
        float r = level[0];
#pragma unroll
        for (int j = 1; j < kLevels; j++) r = __fadd_rn(level[j], r);
        return __float2half_rn(r);
    }
};

} // namespace

extern "C" __global__ void __launch_bounds__(256) hgemm_fp32_pairwise HONEST_KERNEL_PARAMS
{
    honest::gemm<PairwiseCounter, 2, 2, false>(A, B, C, M, N, K);
}
