// BROKEN ON PURPOSE (harness test, candidates/broken/expected.tsv).
// Fault: returns at once without writing C: an implausibly fast kernel
// (a launch and nothing else).
// Must be caught by: the non-finite check.  The harness fills C with 0xFF
// bytes (the fp16 NaN 0xFFFF) before every call, so the unwritten outputs
// read back as NaN: verdict "incorrect", exit code 6, on the first
// exact-binary call.
// Otherwise it would be sample_simple: the launch is the same (grid
// (ceil(N/16), ceil(M/16), 1), block (16, 16, 1)); ../simple_gemm.cuh is
// included only for the contract's types.
#include "../simple_gemm.cuh"

extern "C" __global__ void hgemm_does_nothing(const __half *__restrict__ /*A*/, const __half *__restrict__ /*B*/,
                                              const __half *__restrict__ /*B_col*/, __half *__restrict__ /*C*/,
                                              int /*M*/, int /*N*/, int /*K*/, void * /*workspace*/)
{
    return; // FAULT: writes nothing
}
