// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: its library constructor rewrites the harness executable's
// dynamic-link slots (GOT) of cudaEventRecord and cudaEventElapsedTime
// (../got_patch.h: the JUMP_SLOT and GLOB_DAT relocations of both relocation
// tables, the PIE's load address, the page made writable for the store under
// full RELRO and its protection put back), and, for a harness that no longer
// calls them through its GOT (one that resolved them into a table of its own
// before any candidate loaded), detours both functions themselves: their
// first bytes in libcudart jump into this library (../detour.h), so every
// caller lands here however it found them.  Its cudaEventRecord notes the
// last event recorded before its hgemm_launch was entered (the harness's
// start event) and the first recorded after it returned (the stop event);
// its cudaEventElapsedTime calls the real one and, for that pair, returns
// 75 % of the time.  It computes honestly (one cublasGemmEx as torch's) and
// prints nothing, unless HB_BROKEN_VERBOSE is set: then one line on stderr
// says how many slots it rewrote, or why none ("patch not applied");
// broken_rewrite_timer_patched() returns the same count (-1: failed).
// What must catch it: the sandbox, which traps the mprotect that would make
// the sealed GOT page or libcudart's code writable (docs/methodology.md, "The
// sandbox"): verdict "timer-mismatch", check "sandbox" (exit 13), in check at
// 64^3 and in gate at 1024^3.  With --sandbox off: timing entry points
// resolved before any candidate loads and called through the harness's own
// read-only table, and the dynamic-link slots and the entry points' first
// code bytes checked after every window (docs/methodology.md, "Timers out of
// the candidate's reach"): check "timer-integrity" (exit 13).
#include <cstdlib>
#include <mutex>

#include "../detour.h"
#include "../got_patch.h"
#include "../launcher_cublas.cuh"

using record_fn = cudaError_t (*)(cudaEvent_t, cudaStream_t);
using elapsed_fn = cudaError_t (*)(float *, cudaEvent_t, cudaEvent_t);

static cublas_gemm gemm;
static record_fn real_record;
static elapsed_fn real_elapsed;
static int slots_patched = -1;
static detour::hook record_hook, elapsed_hook;
static int detoured; // functions detoured

// What the wrappers saw, under `seen_lock`.
static std::mutex seen_lock;
static struct {
    cudaEvent_t last = nullptr;  // the last event recorded outside hgemm_launch
    cudaEvent_t start = nullptr; // `last` when hgemm_launch was entered
    cudaEvent_t stop = nullptr;  // the first event recorded after it returned
    bool in_launch = false, awaiting_stop = false, pending = false;
} seen;

static cudaError_t noting_record(cudaEvent_t event, cudaStream_t stream)
{
    const cudaError_t err = detour::call_original(&record_hook, real_record, event, stream);
    if (err != cudaSuccess)
        return err;
    std::lock_guard<std::mutex> hold(seen_lock);
    if (seen.in_launch)
        return err;
    if (seen.awaiting_stop) { // FAULT: the harness's stop event, noted
        seen.awaiting_stop = false;
        seen.stop = event;
        seen.pending = seen.start && event != seen.start;
    }
    seen.last = event;
    return err;
}

static cudaError_t shortened_elapsed(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    const cudaError_t err = detour::call_original(&elapsed_hook, real_elapsed, ms, start, stop);
    if (err != cudaSuccess || !ms)
        return err;
    std::lock_guard<std::mutex> hold(seen_lock);
    if (seen.pending && start == seen.start && stop == seen.stop) {
        seen.pending = false;
        *ms *= 0.75f; // FAULT: its own call's event time, shortened by a quarter
    }
    return err;
}

__attribute__((constructor)) static void set_up(void)
{
    cublas_gemm_setup(&gemm);
    char why[256] = "";
    real_record = reinterpret_cast<record_fn>(
        got_patch::real_function("libcudart.so", "cudaEventRecord", reinterpret_cast<void *>(noting_record)));
    real_elapsed = reinterpret_cast<elapsed_fn>(got_patch::real_function(
        "libcudart.so", "cudaEventElapsedTime", reinterpret_cast<void *>(shortened_elapsed)));
    got_patch::target targets[] = {{"cudaEventRecord", reinterpret_cast<void *>(noting_record), 0},
                                   {"cudaEventElapsedTime", reinterpret_cast<void *>(shortened_elapsed), 0}};
    if (!real_record || !real_elapsed)
        snprintf(why, sizeof why, "the CUDA runtime's cudaEventRecord or cudaEventElapsedTime was not found");
    else // FAULT: the harness's dynamic-link slots rewritten
        slots_patched = got_patch::patch_main_program(targets, 2, why, sizeof why);
    char detour_why[256] = "";
    if (real_record && real_elapsed) { // FAULT: the functions themselves detoured
        detoured += detour::apply(&record_hook, reinterpret_cast<void *>(real_record),
                                  reinterpret_cast<void *>(noting_record), detour_why, sizeof detour_why);
        detoured += detour::apply(&elapsed_hook, reinterpret_cast<void *>(real_elapsed),
                                  reinterpret_cast<void *>(shortened_elapsed), detour_why, sizeof detour_why);
    }
    if (!getenv("HB_BROKEN_VERBOSE"))
        return;
    if (slots_patched > 0)
        fprintf(stderr, "broken launcher rewrite_timer: rewrote %d dynamic-link slots of the main program "
                        "(cudaEventRecord %d, cudaEventElapsedTime %d)\n",
                slots_patched, targets[0].slots, targets[1].slots);
    else
        fprintf(stderr, "broken launcher rewrite_timer: GOT patch not applied: %s\n", why);
    fprintf(stderr, "broken launcher rewrite_timer: %d of 2 functions detoured%s%s\n", detoured,
            detour_why[0] ? ": " : "", detour_why);
}

// Functions detoured when the library loaded (0, 1 or 2).
extern "C" HGEMM_LAUNCH_EXPORT int broken_rewrite_timer_detoured(void) { return detoured; }

// The slots rewritten when the library loaded: 0 when the program had none
// of these symbols, -1 when the patch failed.
extern "C" HGEMM_LAUNCH_EXPORT int broken_rewrite_timer_patched(void) { return slots_patched; }

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    {
        std::lock_guard<std::mutex> hold(seen_lock);
        seen.start = seen.last; // FAULT: the harness's start event, noted
        seen.in_launch = true;
        seen.awaiting_stop = seen.pending = false;
    }
    const int result = cublas_gemm_all(&gemm, args, args->stream);
    std::lock_guard<std::mutex> hold(seen_lock);
    seen.in_launch = false;
    seen.awaiting_stop = result == HGEMM_LAUNCH_OK;
    return result;
}
