// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: C itself is computed correctly, but the threads of row 0 with
// col < 64 also store one fp16 each just past the end of C, at
// C[M*N + col] (up to 128 bytes beyond the buffer).  The value stored is
// 2 + col (finite, non-zero, distinct per column), so it cannot match a
// zero or NaN guard fill.
// Must be caught by: the guard-band check (the harness surrounds C with a
// guard band and checks it after the call), as verdict "incorrect", exit
// code 6.
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K.
// The thread's (row, col) and the fp32 dot product come from
// ../simple_gemm.cuh.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_writes_past_c(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                               const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                               int K, void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    C[(size_t)row * N + col] = __float2half_rn(simple_gemm_dot(A, B_col, K, row, col));
    if (row == 0 && col < 64)  // FAULT: a store past the end of C
        C[(size_t)M * N + col] = __float2half_rn(2.0f + (float)col);
}
