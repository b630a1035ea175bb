// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: the last row of C (row M-1) is never written; when M == 1 the last
// column (col N-1) is left unwritten instead.  Whatever C held before the
// call stays there.
// Must be caught by: the non-finite check (the harness NaN-fills C before
// every checked call, so the unwritten elements read back as NaN), as
// verdict "incorrect", exit code 6.
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K.
// The thread's (row, col) and the fp32 dot product come from
// ../simple_gemm.cuh.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_unwritten_tail(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                                const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                                int K, void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    // FAULT: skip the last row (or, with a single row, the last column).
    if (M > 1 ? row >= M - 1 : col >= N - 1) return;
    C[(size_t)row * N + col] = __float2half_rn(simple_gemm_dot(A, B_col, K, row, col));
}
