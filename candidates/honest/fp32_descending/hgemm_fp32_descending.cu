// HONEST (candidates/honest/expected.tsv: must pass).
// Order and precision: each output is the fp32 recursive sum of its K
// products in descending order, k = K-1, K-2, ..., 0, one fmaf per product
// (honest::Fp32Fma), rounded once to fp16 at the end.
// Why it is honest: the same fp32 recursive summation as fp32_ascending,
// with the terms in the opposite order; its error bound,
// gamma_K * sum|a_k b_k| (u = 2^-24), does not depend on the order, but the
// rounding errors fall elsewhere, so its result differs from an ascending
// fp32 reference in the last bits.  A deviation rule must accept both.
// Tiling (../honest_tile.cuh): 64 x 64 outputs per block of 16 x 16 threads,
// 4 x 4 per thread, K staged 32 deep in shared memory; the tiles are walked
// last to first and each from its top k down.  Any M, N, K; reads B.
#include "../honest_tile.cuh"

extern "C" __global__ void __launch_bounds__(256) hgemm_fp32_descending HONEST_KERNEL_PARAMS
{
    honest::gemm<honest::Fp32Fma, 4, 4, true>(A, B, C, M, N, K);
}
