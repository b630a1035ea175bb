// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: every thread spins forever before computing: it waits for a
// module global that nothing ever sets (g_never_set stays 0; the loop
// waits for 0x7fffffff).  The read is volatile, so the compiler must
// re-load it on every iteration and cannot drop the loop; clock64() paces
// the loop so it does not hammer memory.  The kernel never returns.
// Must be caught by: the harness's per-call timeout (--timeout-s), as
// verdict "timed-out", exit code 8.
// Otherwise sample_simple: one thread per output, fp32 accumulation, reads
// B_col, any M, N, K.
// The thread's (row, col) and the fp32 dot product come from
// ../simple_gemm.cuh.
#include "../simple_gemm.cuh"

__device__ volatile int g_never_set;  // zero-initialized at module load; nothing writes it

extern "C" __global__ void hgemm_never_finishes(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                                const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                                int K, void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    while (g_never_set != 0x7fffffff) {  // FAULT: never true
        const long long start = clock64();
        while (clock64() - start < 1000) {
        }
    }
    C[(size_t)row * N + col] = __float2half_rn(simple_gemm_dot(A, B_col, K, row, col));
}
