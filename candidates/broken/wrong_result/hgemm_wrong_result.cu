// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: the k loop stops one term early (k < K-1: it passes k_end = K-1 to
// simple_gemm_dot), so every element of C misses the product
// A[row][K-1] * B[K-1][col].
// Must be caught by: the exact-binary check ({0,1} inputs, exact sums), as
// verdict "incorrect", exit code 6.
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K.
// The thread's (row, col) and the fp32 dot product come from
// ../simple_gemm.cuh.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_wrong_result(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                              const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                              int K, void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    const float acc = simple_gemm_dot(A, B_col, K, row, col, K - 1, 0.0f);  // FAULT: k_end = K-1, not K
    C[(size_t)row * N + col] = __float2half_rn(acc);
}
