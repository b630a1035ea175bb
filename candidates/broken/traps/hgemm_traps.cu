// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: the thread computing C[0][0] executes __trap(), which aborts the
// kernel with a launch failure (a sticky CUDA error).
// Must be caught by: the execution check (the call's CUDA error), as
// verdict "crashed", exit code 8.
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K.
// The thread's (row, col) and the fp32 dot product come from
// ../simple_gemm.cuh.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_traps(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                       const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N, int K,
                                       void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    if (row == 0 && col == 0) __trap();  // FAULT
    C[(size_t)row * N + col] = __float2half_rn(simple_gemm_dot(A, B_col, K, row, col));
}
