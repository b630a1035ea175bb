// HONEST (candidates/honest/expected.tsv: must pass).
// Order and precision: products and sums in double, k ascending
// (sum = fma(a, b, sum) in fp64), and one rounding, double -> fp16 (round
// to nearest even, __double2half), at the end.
// Why it is honest: more accurate than the fp32 class asks: the fp64 error
// (gamma_K with u = 2^-53) is negligible beside half an fp16 ulp, so the
// result is, in almost every element, the correctly rounded fp16 of the
// exact dot product, the best an fp16 output can be.  A deviation rule must
// never reject a kernel for being more accurate than its baselines.
// (A double -> float -> half conversion would round twice; __double2half
// rounds once.)
// Tiling (../honest_tile.cuh): 64 x 64 outputs per block of 16 x 16 threads,
// 4 x 4 per thread, K staged 32 deep in shared memory; the tiles do not
// change the order.  Any M, N, K; reads B.
#include "../honest_tile.cuh"

namespace {

struct Fp64Accum {
    double sum = 0.0;
    __device__ __forceinline__ void add(float a, float b, int /*k*/) { sum = fma((double)a, (double)b, sum); }
    __device__ __forceinline__ __half out() const { return __double2half(sum); }
};

} // namespace

extern "C" __global__ void __launch_bounds__(256) hgemm_fp64_accum HONEST_KERNEL_PARAMS
{
    honest::gemm<Fp64Accum, 4, 4, false>(A, B, C, M, N, K);
}
