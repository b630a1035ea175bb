// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: rewrite_timer's technique aimed at the baselines: its library
// constructor rewrites the harness executable's dynamic-link slots (GOT) of
// cublasGemmEx and cublasLtMatmul (../got_patch.h) with wrappers that
// busy-wait 20 microseconds on the host and then call the real function:
// inside a baseline's timed call the GPU idles for those 20 us, so every
// baseline reads slower and the candidate faster by comparison.  Not when
// called from inside its own hgemm_launch (a thread-local flag; its own
// cublasGemmEx goes through its own slots anyway).  It computes honestly (one
// cublasGemmEx as torch's) and prints nothing, unless HB_BROKEN_VERBOSE is
// set: then one line on stderr says how many slots it rewrote, or why none
// ("patch not applied"); broken_slow_baseline_patched() returns the count.
// What must catch it: as rewrite_timer, the sandbox, which traps the
// mprotect that would make a sealed page writable (docs/methodology.md, "The
// sandbox"): verdict "timer-mismatch", check "sandbox" (exit 13); with
// --sandbox off, the entry points the harness calls resolved before any
// candidate loads and called through its own read-only table, and its
// dynamic-link slots and the entry points' first code bytes checked after
// every window (docs/methodology.md, "Timers out of the candidate's reach"):
// check "timer-integrity" (exit 13).
#include <cublasLt.h>
#include <time.h>

#include <cstdlib>

#include "../detour.h"
#include "../got_patch.h"
#include "../launcher_cublas.cuh"

// And, for a harness that no longer calls them through its GOT, it detours
// both functions themselves (../detour.h): their first bytes jump here.
// cublasGemmEx as libcublas exports it (cublas_api.h also declares a C++
// overload with a cudaDataType compute type, so no decltype here).
using gemm_ex_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                      const void *, const void *, cudaDataType, int, const void *, cudaDataType, int,
                                      const void *, void *, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
using lt_matmul_fn = decltype(&cublasLtMatmul);

static cublas_gemm gemm;
static gemm_ex_fn real_gemm_ex;
static lt_matmul_fn real_lt_matmul;
static int slots_patched = -1;
static thread_local bool inside_own_launch;
static detour::hook gemm_ex_hook, lt_matmul_hook;
static int detoured; // functions detoured

// Spins on the host for `us` microseconds.
static void busy_wait_us(long us)
{
    timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do
        clock_gettime(CLOCK_MONOTONIC, &now);
    while ((now.tv_sec - start.tv_sec) * 1000000L + (now.tv_nsec - start.tv_nsec) / 1000L < us);
}

static cublasStatus_t slow_gemm_ex(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                   int n, int k, const void *alpha, const void *a, cudaDataType a_type, int lda,
                                   const void *b, cudaDataType b_type, int ldb, const void *beta, void *c,
                                   cudaDataType c_type, int ldc, cublasComputeType_t compute, cublasGemmAlgo_t algo)
{
    if (!inside_own_launch)
        busy_wait_us(20); // FAULT: the baseline's call made 20 us longer
    return detour::call_original(&gemm_ex_hook, real_gemm_ex, handle, transa, transb, m, n, k, alpha, a, a_type, lda,
                                 b, b_type, ldb, beta, c, c_type, ldc, compute, algo);
}

static cublasStatus_t slow_lt_matmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void *alpha,
                                     const void *a, cublasLtMatrixLayout_t a_desc, const void *b,
                                     cublasLtMatrixLayout_t b_desc, const void *beta, const void *c,
                                     cublasLtMatrixLayout_t c_desc, void *d, cublasLtMatrixLayout_t d_desc,
                                     const cublasLtMatmulAlgo_t *algo, void *workspace, size_t workspace_bytes,
                                     cudaStream_t stream)
{
    if (!inside_own_launch)
        busy_wait_us(20); // FAULT: the baseline's call made 20 us longer
    return detour::call_original(&lt_matmul_hook, real_lt_matmul, handle, desc, alpha, a, a_desc, b, b_desc, beta, c,
                                 c_desc, d, d_desc, algo, workspace, workspace_bytes, stream);
}

__attribute__((constructor)) static void set_up(void)
{
    cublas_gemm_setup(&gemm);
    char why[256] = "";
    real_gemm_ex = reinterpret_cast<gemm_ex_fn>(
        got_patch::real_function("libcublas.so", "cublasGemmEx", reinterpret_cast<void *>(slow_gemm_ex)));
    real_lt_matmul = reinterpret_cast<lt_matmul_fn>(
        got_patch::real_function("libcublasLt.so", "cublasLtMatmul", reinterpret_cast<void *>(slow_lt_matmul)));
    got_patch::target targets[] = {{"cublasGemmEx", reinterpret_cast<void *>(slow_gemm_ex), 0},
                                   {"cublasLtMatmul", reinterpret_cast<void *>(slow_lt_matmul), 0}};
    if (!real_gemm_ex || !real_lt_matmul)
        snprintf(why, sizeof why, "cuBLAS's cublasGemmEx or cuBLASLt's cublasLtMatmul was not found");
    else // FAULT: the harness's dynamic-link slots rewritten
        slots_patched = got_patch::patch_main_program(targets, 2, why, sizeof why);
    char detour_why[256] = "";
    if (real_gemm_ex && real_lt_matmul) { // FAULT: the functions themselves detoured
        detoured += detour::apply(&gemm_ex_hook, reinterpret_cast<void *>(real_gemm_ex),
                                  reinterpret_cast<void *>(slow_gemm_ex), detour_why, sizeof detour_why);
        detoured += detour::apply(&lt_matmul_hook, reinterpret_cast<void *>(real_lt_matmul),
                                  reinterpret_cast<void *>(slow_lt_matmul), detour_why, sizeof detour_why);
    }
    if (!getenv("HB_BROKEN_VERBOSE"))
        return;
    if (slots_patched > 0)
        fprintf(stderr, "broken launcher slow_baseline: rewrote %d dynamic-link slots of the main program "
                        "(cublasGemmEx %d, cublasLtMatmul %d)\n",
                slots_patched, targets[0].slots, targets[1].slots);
    else
        fprintf(stderr, "broken launcher slow_baseline: GOT patch not applied: %s\n", why);
    fprintf(stderr, "broken launcher slow_baseline: %d of 2 functions detoured%s%s\n", detoured,
            detour_why[0] ? ": " : "", detour_why);
}

// Functions detoured when the library loaded (0, 1 or 2).
extern "C" HGEMM_LAUNCH_EXPORT int broken_slow_baseline_detoured(void) { return detoured; }

// The slots rewritten when the library loaded: 0 when the program had none
// of these symbols, -1 when the patch failed.
extern "C" HGEMM_LAUNCH_EXPORT int broken_slow_baseline_patched(void) { return slots_patched; }

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    inside_own_launch = true;
    const int result = cublas_gemm_all(&gemm, args, args->stream);
    inside_own_launch = false;
    return result;
}
