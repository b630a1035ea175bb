// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: computes C with one cublasGemmEx as torch's on args->stream, but
// after its first 64 calls (enough for every check before timing) it
// enqueues nothing on a pseudo-random 1 call in 12 and returns success.  The
// draw is a xorshift32 with a fixed seed, so a run repeats.  A skipped call
// costs only its host time, so the mean time drops by about a twelfth; C
// keeps whatever was there before the call.
// What must catch it: a scan of every timed call's whole output, outside the
// timed region, for the poison the harness wrote into C before the call
// (0xFFFF) and for NaN/Inf (docs/methodology.md, "Every call's output scanned"): gate at 1024^3
// verdict "incorrect", check "unwritten-output" (exit 6).  The spot checks of
// timed calls alone look at too few calls to meet a skipped one reliably.
// Correct otherwise: check verdict "pass" at 64^3, conduct library-kernel.
#include "../launcher_cublas.cuh"

static cublas_gemm gemm;
static unsigned long long calls;
static uint32_t draw = 0x9e3779b9u; // fixed seed

__attribute__((constructor)) static void set_up(void) { cublas_gemm_setup(&gemm); }

// xorshift32 (Marsaglia): the next draw.
static uint32_t next_draw(void)
{
    draw ^= draw << 13;
    draw ^= draw >> 17;
    draw ^= draw << 5;
    return draw;
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    int usable = cublas_gemm_usable(&gemm, args);
    if (usable != HGEMM_LAUNCH_OK)
        return usable;
    if (++calls > 64 && next_draw() % 12 == 0)
        return HGEMM_LAUNCH_OK; // FAULT: nothing enqueued, success returned
    return cublas_gemm_all(&gemm, args, args->stream);
}
