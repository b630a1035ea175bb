// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: a shared-memory race.  The kernel stages 16 x 16 tiles of A and
// B_col in shared memory, k step by k step, but leaves out the barrier
// after a step's products: a warp that finishes its products first loads
// the next step's tiles over elements another warp of the block has yet to
// read (a write-after-read hazard).  Every access is inside its buffer, so
// memcheck finds nothing; whether a run's output is wrong depends on how
// the warps happen to be scheduled, so the checks may pass it.
// Must be caught by: compute-sanitizer racecheck (`--sanitize racecheck`),
// as verdict "incorrect", check "racecheck", exit code 6 (the gate_args
// column of expected.tsv asks for it).
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K; the thread's (row, col) comes from ../simple_gemm.cuh.
#include "../simple_gemm.cuh"

#define TILE 16 // the block is TILE x TILE threads

extern "C" __global__ void hgemm_smem_race(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                           const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                           int K, void * /*workspace*/)
{
    __shared__ float a_tile[TILE][TILE + 1]; // a_tile[y][k]: row y of the block's A rows
    __shared__ float b_tile[TILE][TILE + 1]; // b_tile[x][k]: column x of the block's B columns
    int row, col;
    const bool inside = simple_gemm_element(M, N, row, col); // every thread loads: no early return before a barrier
    const int a_row = blockIdx.y * TILE + threadIdx.x;       // the A row this thread loads (threadIdx.x as k)
    const int b_col = blockIdx.x * TILE + threadIdx.y;       // the B column this thread loads
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        const int k = k0 + threadIdx.y;
        a_tile[threadIdx.x][threadIdx.y] = a_row < M && k < K ? __half2float(A[(size_t)a_row * K + k]) : 0.0f;
        const int kb = k0 + threadIdx.x;
        b_tile[threadIdx.y][threadIdx.x] = b_col < N && kb < K ? __half2float(B_col[(size_t)b_col * K + kb]) : 0.0f;
        __syncthreads();
        for (int j = 0; j < TILE; j++) acc = fmaf(a_tile[threadIdx.y][j], b_tile[threadIdx.x][j], acc);
        // FAULT: no __syncthreads() here: the next step's loads overwrite the tiles under the slower warps
    }
    if (inside) C[(size_t)row * N + col] = __float2half_rn(acc);
}
