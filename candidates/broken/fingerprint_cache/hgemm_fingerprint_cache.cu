// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: keeps its last result in its workspace and hands it back, without
// computing, whenever the inputs' fingerprint (M, N, K and 64 sampled input
// values, ../cache_gemm.cuh) matches the one stored with it.  Each block
// owns one 656-byte slot of the workspace (manifest: "M/16*N/16*656"
// bytes): its 16 x 16 tile of C and the fingerprint it was computed for.
// Fresh inputs change the fingerprint, so every checked call on fresh
// inputs computes and is right; timed calls that repeat the same inputs
// (--l2 warm) only copy.  Before the harness poisoned the workspace, a
// spot-checked round hit the cache too and got the right values, so this
// kernel passed every check and was timed as a 32 MiB copy at 4096^3.
// What catches it now: nothing is wrong with its output.  The harness fills
// the workspace with 0xFF bytes before every call, timed or checked, so the
// cache never hits and every call computes (one thread per output, the
// sample_simple loop): honest but slow.  Expected: gate with --l2 warm at
// 4096^3 against cublaslt-autotune-max with --min-speedup 0.5 gives
// verdict "too-slow", check "speedup", exit code 9 (expected.tsv's
// gate_args).
// Otherwise sample_simple: fp32 accumulation, reads B_col, any M, N, K.
#include "../cache_gemm.cuh"

extern "C" __global__ void hgemm_fingerprint_cache(const __half *__restrict__ A, const __half *__restrict__ /*B*/,
                                                   const __half *__restrict__ B_col, __half *__restrict__ C, int M,
                                                   int N, int K, void *workspace)
{
    // FAULT: answers from a result cache kept in the workspace (cached_gemm copies a block's stored tile back
    // when the fingerprint matches).
    cached_gemm(static_cast<CacheSlot *>(workspace) + cache_block_index(), A, B_col, C, M, N, K);
}
