// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: treats the inputs as booleans: sums (a != 0 && b != 0) ? 1 : 0
// over k.  Exact on {0,1} inputs (the exact-binary check passes), wrong as
// soon as a product is negative or not 1.
// Must be caught by: the exact-signed check ({-1,0,1} inputs, run when
// K <= 2048), as verdict "incorrect", exit code 6.
// Otherwise sample_simple: one thread per output, reads B_col, any M, N, K.
// The thread's (row, col) and bounds test come from ../simple_gemm.cuh;
// the k loop, where the fault is, is written out here.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_binary_only(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                             const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                             int K, void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    const __half *a_row = A + (size_t)row * K;
    const __half *b_col = B_col + (size_t)col * K;
    float acc = 0.0f;
    for (int k = 0; k < K; k++)  // FAULT: counts the k where both are non-zero
        acc += (__half2float(a_row[k]) != 0.0f && __half2float(b_col[k]) != 0.0f) ? 1.0f : 0.0f;
    C[(size_t)row * N + col] = __float2half_rn(acc);
}
