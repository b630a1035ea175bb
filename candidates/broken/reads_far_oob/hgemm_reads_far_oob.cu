// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: every thread also reads A[1 << 40], an element 2 TiB past the
// start of A (far outside any allocation), and starts its sum from it so
// the load cannot be optimized away.  The load faults with an
// illegal-address error, which is sticky: the context is unusable
// afterwards.
// Must be caught by: the execution check (the call's CUDA error), as
// verdict "crashed", exit code 8.
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K.
// The thread's (row, col) and the fp32 dot product come from
// ../simple_gemm.cuh.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_reads_far_oob(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                               const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                               int K, void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    const float oob = __half2float(A[(size_t)1 << 40]);  // FAULT: a read 2 TiB beyond A
    const float acc = simple_gemm_dot(A, B_col, K, row, col, K, oob);  // the sum starts from it
    C[(size_t)row * N + col] = __float2half_rn(acc);
}
