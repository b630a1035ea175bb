// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: accumulates in fp16 (acc = __hfma(a, b, acc)) while its manifest
// claims the fp32 accumulator class.  On {0,1} and {-1,0,1} inputs every
// partial sum is an integer of magnitude <= K, exact in fp16 while
// K <= 2048, so the exact-binary and exact-signed checks pass; on the
// random-normal inputs every step rounds to fp16 and the result drifts
// well past what fp32-accumulating baselines deviate.
// Must be caught by: the deviation check (baseline-bounded), as verdict
// "incorrect", exit code 6.
// Otherwise sample_simple: one thread per output, reads B_col, any M, N, K.
// The thread's (row, col) and bounds test come from ../simple_gemm.cuh;
// the k loop, where the fault is, is written out here.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_fp16_accum(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                            const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                            int K, void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    const __half *a_row = A + (size_t)row * K;
    const __half *b_col = B_col + (size_t)col * K;
    __half acc = __ushort_as_half((unsigned short)0);  // FAULT: an fp16 accumulator
    for (int k = 0; k < K; k++) acc = __hfma(a_row[k], b_col[k], acc);
    C[(size_t)row * N + col] = acc;
}
