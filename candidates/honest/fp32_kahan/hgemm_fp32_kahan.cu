// HONEST (candidates/honest/expected.tsv: must pass).
// Order and precision: compensated summation in fp32 (Neumaier's variant of
// Kahan's), k ascending: per product p = a*b (exact in fp32),
//   t = s + p;  c += |s| >= |p| ? (s - t) + p : (p - t) + s;  s = t,
// every operation an fp32 one rounded to nearest (__fadd_rn/__fsub_rn, so
// the compiler cannot fuse or reassociate them away), and the output is
// s + c, rounded once to fp16.
// Why it is honest: the compensation c carries the rounding error of each
// addition, so the result's error is about 2u * sum|a_k b_k| (u = 2^-24)
// plus u |sum|, independent of K: far more accurate than plain fp32
// accumulation, and so farther from an fp32-ordered reference's own errors.
// Tiling (../honest_tile.cuh): 64 x 64 outputs per block of 16 x 16 threads,
// 4 x 4 per thread, K staged 32 deep in shared memory; the tiles do not
// change the order.  Any M, N, K; reads B.
#include "../honest_tile.cuh"

namespace {

struct Neumaier {
    float sum = 0.0f, comp = 0.0f; // the running sum and its accumulated rounding error
    __device__ __forceinline__ void add(float a, float b, int /*k*/)
    {
        const float p = __fmul_rn(a, b); // exact: two 11-bit significands
        const float t = __fadd_rn(sum, p);
        const float err = fabsf(sum) >= fabsf(p) ? __fadd_rn(__fsub_rn(sum, t), p) : __fadd_rn(__fsub_rn(p, t), sum);
        comp = __fadd_rn(comp, err);
        sum = t;
    }
    __device__ __forceinline__ __half out() const { return __float2half_rn(__fadd_rn(sum, comp)); }
};

} // namespace

extern "C" __global__ void __launch_bounds__(256) hgemm_fp32_kahan HONEST_KERNEL_PARAMS
{
    honest::gemm<Neumaier, 4, 4, false>(A, B, C, M, N, K);
}
