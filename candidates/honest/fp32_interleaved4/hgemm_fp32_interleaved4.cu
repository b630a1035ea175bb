// HONEST (candidates/honest/expected.tsv: must pass).
// Order and precision: four fp32 partial sums per output, acc[k % 4]: the
// product of k goes (by fmaf) into partial k % 4, k ascending; at the end
// the partials are added in fp32 as (acc[0] + acc[1]) + (acc[2] + acc[3])
// and the result rounded once to fp16.  This is what a kernel that unrolls
// its k loop by four with independent accumulators (for instruction-level
// parallelism) computes.
// Why it is honest: each partial is an fp32 recursive sum of about K/4
// products, then two levels of fp32 additions: the error bound is
// gamma_(K/4 + 2) * sum|a_k b_k| (u = 2^-24), smaller than fp32_ascending's.
// Tiling (../honest_tile.cuh): 64 x 64 outputs per block of 16 x 16 threads,
// 4 x 4 per thread, K staged 32 deep in shared memory (a multiple of 4, so a
// tile's k % 4 is known when it is unrolled).  Any M, N, K; reads B.
#include "../honest_tile.cuh"

namespace {

struct Interleaved4 {
    float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f; // named, not an array: no local memory
    __device__ __forceinline__ void add(float a, float b, int k)
    {
        switch (k & 3) {
        case 0: acc0 = fmaf(a, b, acc0); break;
        case 1: acc1 = fmaf(a, b, acc1); break;
        case 2: acc2 = fmaf(a, b, acc2); break;
        default: acc3 = fmaf(a, b, acc3); break;
        }
    }
    __device__ __forceinline__ __half out() const
    {
        return __float2half_rn(__fadd_rn(__fadd_rn(acc0, acc1), __fadd_rn(acc2, acc3)));
    }
};

} // namespace

extern "C" __global__ void __launch_bounds__(256) hgemm_fp32_interleaved4 HONEST_KERNEL_PARAMS
{
    honest::gemm<Interleaved4, 4, 4, false>(A, B, C, M, N, K);
}
