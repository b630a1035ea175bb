// What the honest candidates (candidates/honest/<name>/) share: staging A and
// B in shared memory one K tile at a time, and the walk over the K tiles.
// Each kernel's own file holds its accumulator: how the products of one
// output are summed (the order and the precision), which is all that differs
// between them.
//
// Why tiles do not change the sum: a thread owns TM x TN outputs for the
// whole of K and keeps one accumulator per output in registers.  The block
// stages a BK-deep slice of A and B in shared memory, then each thread feeds
// that slice's products to its accumulators one k at a time, k ascending (or
// descending for a descending walk).  Tiles beyond M, N or K are loaded as
// zeros but their products are never fed to an accumulator: the walk stops at
// the last k < K, so an accumulator sees exactly the K products of its output,
// in the order its kernel's name says.  Only the speed comes from the tiles
// (global reads shared by the block, 16-byte shared-memory reads).
//
// The products: an fp16 value has an 11-bit significand, so the product of
// two is exact in fp32 (22 bits <= 24) and in fp64; every accumulator starts
// from exact products and differs only in how it adds them.
//
// Layout: A row-major M x K, B row-major K x N (manifest "b_layout": "row"),
// C row-major M x N.  Any M, N, K: partial tiles are bounds-checked.
#pragma once

#include <cuda_fp16.h>

namespace honest {

constexpr int kThreadsX = 16;                        // block (16, 16, z): threads along N
constexpr int kThreadsY = 16;                        // ... and along M
constexpr int kSliceThreads = kThreadsX * kThreadsY; // threads that stage one tile
constexpr int BK = 32;                               // K tile depth, in elements

// One K tile of A and B, as floats.  A is stored transposed (a[k][m]) so
// that a thread's TM rows at one k are adjacent: one vector load.  The +4
// keeps each row 16-byte aligned for those loads.
template <int TM, int TN> struct __align__(16) Tile {
    static constexpr int BM = kThreadsY * TM; // block tile rows (M), elements
    static constexpr int BN = kThreadsX * TN; // block tile columns (N), elements
    float a[BK][BM + 4];
    float b[BK][BN + 4];
};

// The operands of one block: the matrices, their sizes and where the
// block's output tile starts.
struct Operands {
    const __half *A;
    const __half *B;
    int M, N, K;
    int m0, n0; // the block tile's first row and column of C
};

// Stages the K tile starting at k0 (elements k0 .. k0+BK-1 below k_end) of
// the block's rows of A and columns of B; elements outside the matrices or
// at or past k_end read as 0 (never summed: see walk_tiles).  All
// kSliceThreads threads of the slice (tid 0 .. 255) take part.
template <int TM, int TN>
__device__ __forceinline__ void load_tile(Tile<TM, TN> &t, const Operands &op, int k0, int k_end, int tid)
{
    constexpr int BM = Tile<TM, TN>::BM, BN = Tile<TM, TN>::BN;
    // A: consecutive threads read consecutive k of one row (coalesced).
    static_assert(BM * BK % kSliceThreads == 0 && BK * BN % kSliceThreads == 0, "whole loads per thread");
#pragma unroll
    for (int j = 0; j < BM * BK / kSliceThreads; j++) {
        const int i = tid + j * kSliceThreads;
        const int r = i / BK, c = i % BK;
        const int m = op.m0 + r, k = k0 + c;
        t.a[c][r] = (m < op.M && k < k_end) ? __half2float(op.A[(size_t)m * op.K + k]) : 0.0f;
    }
    // B: consecutive threads read consecutive n of one row (coalesced).
#pragma unroll
    for (int j = 0; j < BK * BN / kSliceThreads; j++) {
        const int i = tid + j * kSliceThreads;
        const int r = i / BN, c = i % BN;
        const int k = k0 + r, n = op.n0 + c;
        t.b[r][c] = (k < k_end && n < op.N) ? __half2float(op.B[(size_t)k * op.N + n]) : 0.0f;
    }
}

// Reads W adjacent floats from shared memory, as one vector load where W allows.
template <int W> __device__ __forceinline__ void load_row(const float *p, float (&v)[W])
{
    if constexpr (W == 4) {
        const float4 q = *reinterpret_cast<const float4 *>(p);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    } else if constexpr (W == 2) {
        const float2 q = *reinterpret_cast<const float2 *>(p);
        v[0] = q.x, v[1] = q.y;
    } else {
#pragma unroll
        for (int i = 0; i < W; i++) v[i] = p[i];
    }
}

// Feeds the products of k = k0 + kk to the thread's TM x TN accumulators.
// Acc::add(a, b, k) receives the two fp16 values (as floats) and k, the
// product's index in 0 .. K-1.
template <class Acc, int TM, int TN>
__device__ __forceinline__ void feed_k(Acc (&acc)[TM][TN], const Tile<TM, TN> &t, int k0, int kk)
{
    float av[TM], bv[TN];
    load_row<TM>(&t.a[kk][threadIdx.y * TM], av);
    load_row<TN>(&t.b[kk][threadIdx.x * TN], bv);
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j].add(av[i], bv[j], k0 + kk);
}

// Feeds the klen (1 .. BK) products of the tile at k0, in ascending order of
// k, or descending when Descending.  A full tile is unrolled, so k0 + kk
// has its low bits known at compile time (k0 is a multiple of BK).
template <class Acc, int TM, int TN, bool Descending>
__device__ __forceinline__ void feed_tile(Acc (&acc)[TM][TN], const Tile<TM, TN> &t, int k0, int klen)
{
    if (klen == BK) {
#pragma unroll
        for (int s = 0; s < BK; s++) feed_k(acc, t, k0, Descending ? BK - 1 - s : s);
    } else {
        for (int s = 0; s < klen; s++) feed_k(acc, t, k0, Descending ? klen - 1 - s : s);
    }
}

// Walks `count` K tiles from tile index `first` (tile i covers k = i*BK ..
// i*BK+BK-1), stopping at k_end: each tile is staged by the slice's threads,
// then its products are fed in order.  Descending walks the tiles last to
// first and each tile from its top k down, so k runs k_end-1 .. first*BK.
// Every thread of the block must call this with the same count (it holds
// __syncthreads); tiles past k_end are staged but feed nothing.
template <class Acc, int TM, int TN, bool Descending>
__device__ __forceinline__ void walk_tiles(Acc (&acc)[TM][TN], Tile<TM, TN> &t, const Operands &op, int first,
                                           int count, int k_end)
{
    const int tid = threadIdx.y * kThreadsX + threadIdx.x;
    for (int s = 0; s < count; s++) {
        const int k0 = (Descending ? first + count - 1 - s : first + s) * BK;
        const int klen = min(BK, k_end - k0);
        __syncthreads(); // the previous tile is no longer read
        load_tile(t, op, k0, k_end, tid);
        __syncthreads(); // the tile is complete
        if (klen > 0) feed_tile<Acc, TM, TN, Descending>(acc, t, k0, klen);
    }
}

// The block's operands: block (x, y) computes the BM x BN tile of C at
// row blockIdx.y * BM, column blockIdx.x * BN.
template <int TM, int TN>
__device__ __forceinline__ Operands block_operands(const __half *A, const __half *B, int M, int N, int K)
{
    return Operands{A, B, M, N, K, (int)blockIdx.y * Tile<TM, TN>::BM, (int)blockIdx.x * Tile<TM, TN>::BN};
}

// Writes each accumulator's value, rounded once to fp16 (Acc::out), to the
// thread's outputs that lie inside C.
template <class Acc, int TM, int TN>
__device__ __forceinline__ void store(const Acc (&acc)[TM][TN], const Operands &op, __half *C)
{
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const int m = op.m0 + threadIdx.y * TM + i;
#pragma unroll
        for (int j = 0; j < TN; j++) {
            const int n = op.n0 + threadIdx.x * TN + j;
            if (m < op.M && n < op.N) C[(size_t)m * op.N + n] = acc[i][j].out();
        }
    }
}

// The whole kernel for one block (16, 16, 1) of threads: each output's K
// products fed to its own Acc in one walk, ascending or descending.  Launch
// grid (ceil(N / (16*TN)), ceil(M / (16*TM)), 1).
template <class Acc, int TM, int TN, bool Descending>
__device__ __forceinline__ void gemm(const __half *A, const __half *B, __half *C, int M, int N, int K)
{
    __shared__ Tile<TM, TN> tile;
    const Operands op = block_operands<TM, TN>(A, B, M, N, K);
    Acc acc[TM][TN]; // each starts at zero (Acc's default member values)
    walk_tiles<Acc, TM, TN, Descending>(acc, tile, op, 0, (K + BK - 1) / BK, K);
    store(acc, op, C);
}

// The plain fp32 accumulator: acc = fmaf(a, b, acc) per product.  As the
// product is exact in fp32, this is one fp32 rounding per addition:
// recursive fp32 summation in the walk's order.
struct Fp32Fma {
    float sum = 0.0f;
    __device__ __forceinline__ void add(float a, float b, int /*k*/) { sum = fmaf(a, b, sum); }
    __device__ __forceinline__ float value() const { return sum; }
    __device__ __forceinline__ __half out() const { return __float2half_rn(sum); }
};

} // namespace honest

// The parameter list of every honest kernel: the contract's
// (docs/candidates.md), written once.  They read B row-major (manifest
// "b_layout": "row"); B_col and the workspace are unused.  A kernel is
//   extern "C" __global__ void __launch_bounds__(256) hgemm_x HONEST_KERNEL_PARAMS { ... }
#define HONEST_KERNEL_PARAMS                                                                                         \
    (const __half *__restrict__ A, const __half *__restrict__ B, const __half *__restrict__ /*B_col*/,               \
     __half *__restrict__ C, int M, int N, int K, void * /*workspace*/)
