// HONEST (candidates/honest/expected.tsv: must pass).
// Order and precision: each output is the fp32 recursive sum of its K
// products in ascending order, k = 0, 1, ..., K-1, one fmaf per product
// (honest::Fp32Fma), rounded once to fp16 at the end.  The textbook fp32
// accumulation: the harness's own fp32 reference sums in this order.
// Why it is honest: every product is exact in fp32 and every addition is
// rounded once to fp32, so the error is within the fp32 recursive-summation
// bound gamma_K * sum|a_k b_k| (gamma_K = K u / (1 - K u), u = 2^-24), the
// accuracy the fp32 accumulator class promises.
// Tiling (../honest_tile.cuh): 64 x 64 outputs per block of 16 x 16 threads,
// 4 x 4 per thread, K staged 32 deep in shared memory; the tiles do not
// change the order.  Any M, N, K; reads B (row-major).
#include "../honest_tile.cuh"

extern "C" __global__ void __launch_bounds__(256) hgemm_fp32_ascending HONEST_KERNEL_PARAMS
{
    honest::gemm<honest::Fp32Fma, 4, 4, false>(A, B, C, M, N, K);
}
