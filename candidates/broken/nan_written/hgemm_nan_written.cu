// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: computes every element correctly, but writes a NaN (0x7E00) to
// C[M/2][N/2] instead of that element's value.
// Must be caught by: the non-finite check, as verdict "incorrect", exit
// code 6.
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K.
// The thread's (row, col) and the fp32 dot product come from
// ../simple_gemm.cuh.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_nan_written(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                             const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                             int K, void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    __half out = __float2half_rn(simple_gemm_dot(A, B_col, K, row, col));
    if (row == M / 2 && col == N / 2) out = __ushort_as_half((unsigned short)0x7E00);  // FAULT: a quiet NaN
    C[(size_t)row * N + col] = out;
}
