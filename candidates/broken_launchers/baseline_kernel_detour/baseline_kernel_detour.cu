// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: the baselines slowed through the driver.  Its library constructor
// detours libcuda.so.1's cuLaunchKernel and cuLaunchKernelEx (and their
// _ptsz forms; ../driver_entry.h, ../detour.h): every kernel launch of the
// process, however it reached the driver (cuBLAS, cuBLASLt, the runtime),
// lands here first, and every one it did not make itself (a thread-local
// flag set inside its entry) gets a kernel of its own before it on the same
// stream, one warp sleeping 5 us (__nanosleep against %globaltimer).  Inside
// a baseline's event pair the GPU sleeps 5 us per kernel, on every timer,
// kernel-only included, so every baseline reads slower and the candidate
// faster by comparison.  The sleeper is looked up in its first call, not in
// the constructor: a library's constructor runs before the one nvcc adds to
// the same file to register its kernels with the runtime (both sit in
// .init_array, in the order the file defines them), so the runtime does not
// know the sleeper yet there (cudaErrorInvalidDeviceFunction); until then
// every launch goes through unslowed.  It computes honestly (one
// cublasGemmEx as torch's) and prints nothing, unless HB_BROKEN_VERBOSE is
// set: then one line on stderr says how many entry points it detoured, or
// why none, and one says why the sleeper was not found, if it was not.  A
// CUDA call of its own that fails leaves no error set for the harness to
// find (cudaGetLastError()): the fault is the detour, nothing else.
// What must catch it: the sandbox (mseal, seccomp, Landlock before the
// candidate loads) refuses the constructor's mprotect of libcuda's code and
// ends the process: verdict "timer-mismatch", check "sandbox" (exit 13), in
// check and in gate.  With --sandbox off, every executable mapping hashed at
// the seal and checked once the candidate has loaded: "timer-mismatch",
// check "code-integrity" (exit 13).  Were it not caught there, the baselines'
// calls would hold a kernel their clean-process reference lacks
// ("baseline-interference", check "baseline-kernels", exit 16).
#include <cuda.h> // the driver's types only: its functions are looked up (dlsym), never linked

#include <atomic>
#include <cstdlib>

#include "../detour.h"
#include "../driver_entry.h"
#include "../launcher_cublas.cuh"

using launch_fn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               CUstream, void **, void **);
using launch_ex_fn = CUresult (*)(const CUlaunchConfig *, CUfunction, void **, void **);

constexpr unsigned long long kSleepNs = 5000;

// 0, 1: cuLaunchKernel; 2, 3: cuLaunchKernelEx.
constexpr int kEntries = 4;
static const char *const names[kEntries] = {"cuLaunchKernel", "cuLaunchKernel_ptsz", "cuLaunchKernelEx",
                                            "cuLaunchKernelEx_ptsz"};
static void *reals[kEntries];
static detour::hook hooks[kEntries];

static cublas_gemm gemm;
static std::atomic<CUfunction> sleeper{nullptr}; // baseline_sleeper as the driver knows it; nullptr: none to launch
static bool looked_up;                           // the sleeper was looked up (in its first call)
static thread_local bool own_launch; // inside its own hgemm_launch, or launching its sleeper

// One warp that sleeps `ns` nanoseconds of the GPU's global timer.
__global__ void baseline_sleeper(unsigned long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        __nanosleep(1000);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}

// The sleeper on `stream`, through the real cuLaunchKernel (or its _ptsz
// form, for a launch that came through that one).
static void sleep_before(CUstream stream, int through)
{
    const int via = reals[through] ? through : 0; // an alias found no hook of its own: the plain one
    const CUfunction function = sleeper.load();
    if (!function || !reals[via])
        return;
    unsigned long long ns = kSleepNs;
    void *params[] = {&ns};
    own_launch = true;
    detour::call_original(&hooks[via], reinterpret_cast<launch_fn>(reals[via]), function, 1u, 1u, 1u, 32u, 1u,
                          1u, 0u, stream, params, static_cast<void **>(nullptr)); // FAULT: a kernel before theirs
    own_launch = false;
}

template <int I>
static CUresult launch_after_sleep(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared, CUstream stream, void **params, void **extra)
{
    if (!own_launch)
        sleep_before(stream, I);
    return detour::call_original(&hooks[I], reinterpret_cast<launch_fn>(reals[I]), f, gx, gy, gz, bx, by, bz, shared,
                                 stream, params, extra);
}

template <int I>
static CUresult launch_ex_after_sleep(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
    if (!own_launch && config)
        sleep_before(config->hStream, I - 2);
    return detour::call_original(&hooks[I], reinterpret_cast<launch_ex_fn>(reals[I]), config, f, params, extra);
}

__attribute__((constructor)) static void set_up(void)
{
    cublas_gemm_setup(&gemm);
    void *const replacements[kEntries] = {
        reinterpret_cast<void *>(launch_after_sleep<0>), reinterpret_cast<void *>(launch_after_sleep<1>),
        reinterpret_cast<void *>(launch_ex_after_sleep<2>), reinterpret_cast<void *>(launch_ex_after_sleep<3>)};
    if (gemm.failure[0])
        (void)cudaGetLastError(); // its calls report the failure; the runtime keeps no error of it
    char why[256] = "";
    void *lib = driver_entry::library(why, sizeof why);
    int detoured = 0;
    for (int i = 0; i < kEntries; i++) {
        reals[i] = driver_entry::function(lib, names[i], detour::kBytes, why, sizeof why);
        for (int j = 0; j < i && reals[i]; j++) // an alias of an earlier name: one detour per address
            if (reals[j] == reals[i])
                reals[i] = nullptr;
        if (reals[i]) // FAULT: every launch of the process comes here first
            detoured += detour::apply(&hooks[i], reals[i], replacements[i], why, sizeof why);
    }
    if (getenv("HB_BROKEN_VERBOSE"))
        fprintf(stderr, "broken launcher baseline_kernel_detour: %d of %d driver launch entry points detoured%s%s\n",
                detoured, kEntries, why[0] ? ": " : "", why);
}

// The sleeper as the driver knows it, once: the runtime has registered this
// file's kernels by the first call.  Not found, the launcher cheats nothing
// and clears the runtime's error, which is its own.
static void find_sleeper(void)
{
    looked_up = true;
    cudaFunction_t function = nullptr;
    const cudaError_t err = cudaGetFuncBySymbol(&function, reinterpret_cast<const void *>(baseline_sleeper));
    if (err == cudaSuccess) {
        sleeper.store(reinterpret_cast<CUfunction>(function));
        return;
    }
    (void)cudaGetLastError();
    if (getenv("HB_BROKEN_VERBOSE")) {
        char why[256];
        cuda_failure_text(why, sizeof why, "cudaGetFuncBySymbol(baseline_sleeper)", err);
        fprintf(stderr, "broken launcher baseline_kernel_detour: no sleeper to launch: %s\n", why);
    }
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    own_launch = true; // its own cuBLAS launches (and the lookup's) run without a sleeper
    if (!looked_up)
        find_sleeper();
    const int result = cublas_gemm_all(&gemm, args, args->stream);
    own_launch = false;
    return result;
}
