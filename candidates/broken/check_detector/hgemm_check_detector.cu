// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: computes an output only when C already holds the NaN the harness
// fills it with before a checked call (0xFFFF, from 0xFF bytes); otherwise
// it returns at once, leaving whatever C held.  It tells checked calls from
// timed ones by looking at C.
// Before the harness poisoned C before every call, this passed every check
// (each checked call found the fill and computed) while its timed calls did
// no work: a speedup it never earned.
// What catches it now: nothing is wrong with its output.  The harness fills
// C with 0xFF bytes before every call, timed or checked, so every call
// computes (one thread per output, the sample_simple loop) and is timed
// honestly: honest but slow.  Expected: gate at 2048^3 against
// cublaslt-autotune-max with --min-speedup 0.5 gives verdict "too-slow",
// check "speedup", exit code 9 (expected.tsv's gate_args).
// Otherwise sample_simple: fp32 accumulation, reads B_col, any M, N, K.
// The thread's (row, col) and the fp32 dot product come from
// ../simple_gemm.cuh.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_check_detector(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                                const __half *__restrict__ B_col, __half *__restrict__ C, int M, int N,
                                                int K, void * /*workspace*/)
{
    int row, col;
    if (!simple_gemm_element(M, N, row, col)) return;
    const size_t idx = (size_t)row * N + col;
    if (__half_as_ushort(C[idx]) != 0xFFFFu) return; // FAULT: computes only when C holds the harness's fill
    C[idx] = __float2half_rn(simple_gemm_dot(A, B_col, K, row, col));
}
