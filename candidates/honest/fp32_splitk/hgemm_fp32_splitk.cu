// HONEST (candidates/honest/expected.tsv: must pass).
// Order and precision: split-K with fp32 partials, no atomics.  A block of
// 16 x 16 x 4 threads owns a 32 x 32 tile of C; the K tiles (32 deep) are
// cut into 4 contiguous slices of ceil(ceil(K/32) / 4) tiles, and the
// threads of slice z (threadIdx.z) sum its products in fp32, k ascending,
// one fmaf each (honest::Fp32Fma).  The 4 partial sums of each output are
// then reduced in shared memory in fp32, in slice order,
// ((p0 + p1) + p2) + p3, and rounded once to fp16.  This is the order of a
// split-K kernel (cuBLAS uses one for thin, deep shapes), here within one
// block.  Slices past K (small K) contribute an exact 0.
// Why it is honest: each partial is an fp32 recursive sum of about K/4
// products, and each output passes through 3 more fp32 additions: the
// error bound is gamma_(K/4 + 3) * sum|a_k b_k| (u = 2^-24), smaller than
// recursive fp32 summation's, with its rounding errors elsewhere.
// Tiling (../honest_tile.cuh): each slice stages its own 32-deep K tiles in
// shared memory (4 x 9 KiB), 2 x 2 outputs per thread; the tiles do not
// change a slice's order.  Any M, N, K; reads B.
#include "../honest_tile.cuh"

namespace {

constexpr int kSlices = 4; // threadIdx.z: the K slices
constexpr int TM = 2, TN = 2;
using SliceTile = honest::Tile<TM, TN>;

// Shared memory: the slices' tiles while they sum; then, reused, the
// partial sums of every output of the block, per slice.
union SplitKShared {
    SliceTile tile[kSlices];
    float partial[kSlices][TM * TN][honest::kSliceThreads];
};

// Slice z's fp32 partial sums of the thread's TM x TN outputs.
__device__ __forceinline__ void sum_slice(honest::Fp32Fma (&acc)[TM][TN], SliceTile &tile, const honest::Operands &op)
{
    const int tiles = (op.K + honest::BK - 1) / honest::BK;
    const int per_slice = (tiles + kSlices - 1) / kSlices; // the same for every slice: they share __syncthreads
    const int first = (int)threadIdx.z * per_slice;
    const int k_end = min(op.K, (first + per_slice) * honest::BK);
    honest::walk_tiles<honest::Fp32Fma, TM, TN, false>(acc, tile, op, first, per_slice, k_end);
}

} // namespace

extern "C" __global__ void __launch_bounds__(1024) hgemm_fp32_splitk HONEST_KERNEL_PARAMS
{
    __shared__ SplitKShared smem;
    const honest::Operands op = honest::block_operands<TM, TN>(A, B, M, N, K);
    honest::Fp32Fma acc[TM][TN];
    sum_slice(acc, smem.tile[threadIdx.z], op);

    const int tid = threadIdx.y * honest::kThreadsX + threadIdx.x;
    __syncthreads(); // every slice is done with the tiles: their space now holds the partials
#pragma unroll
    for (int i = 0; i < TM * TN; i++) smem.partial[threadIdx.z][i][tid] = acc[i / TN][i % TN].value();
    __syncthreads();
    if (threadIdx.z != 0) return;
#pragma unroll
    for (int i = 0; i < TM * TN; i++) {
        float r = smem.partial[0][i][tid];
#pragma unroll
        for (int s = 1; s < kSlices; s++) r = __fadd_rn(r, smem.partial[s][i][tid]);
        acc[i / TN][i % TN].sum = r;
    }
    honest::store(acc, op, C);
}
