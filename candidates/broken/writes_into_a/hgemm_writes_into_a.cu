// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: C is computed correctly, but afterwards the thread for
// (row, col) == (M-1, N-1) overwrites an input: it adds 1 to
// A[M-1][K-1] (casting away the const).  Inputs in the harness's range
// (|a| < 1024) always change by this.
// Must be caught by: the input-write check (the harness hashes A, B and
// B_col before and after each call, and checks this before comparing
// outputs), as verdict "incorrect", exit code 6.
// A is deliberately not __restrict__ here: it is both read and written.
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K.
// The thread's (row, col) and the fp32 dot product come from
// ../simple_gemm.cuh.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_writes_into_a(const __half *A, const __half *__restrict__ /*B*/,
                                               const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                               int K, void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    C[(size_t)row * N + col] = __float2half_rn(simple_gemm_dot(A, B_col, K, row, col));
    if (row == M - 1 && col == N - 1) {  // FAULT: a store into the input A
        __half *a_last = const_cast<__half *>(A) + (size_t)(M - 1) * K + (K - 1);
        *a_last = __float2half_rn(__half2float(*a_last) + 1.0f);
    }
}
