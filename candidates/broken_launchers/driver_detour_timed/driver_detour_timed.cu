// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: rewrite_timer's detour one level down, and only while timed.  Its
// library constructor looks up, in the already loaded libcuda.so.1, the
// driver's cuEventRecord, cuEventRecordWithFlags (and their _ptsz forms) and
// cuEventElapsedTime (and _v2): the functions the runtime's
// cudaEventRecord and cudaEventElapsedTime call, below the runtime entry
// points whose bytes the harness checks (../driver_entry.h).  It changes
// nothing then.  From the harness's command line it takes --warmup-s and
// --time-s (../timed_window.h), and at each call it detours those functions
// (../detour.h: their first bytes jump here) while the call falls in the
// second half of the timed window as guessed from its first call, and puts
// their bytes back after it.  While detoured, its cuEventRecord notes the
// last event recorded before its hgemm_launch was entered (the harness's
// start event) and the first recorded after it returned (the stop event),
// telling its own calls apart by a flag set inside its entry, and its
// elapsed time reads that pair up to 3 us short (20 % at most).  It
// computes honestly (one cublasGemmEx as torch's) and prints nothing, unless
// HB_BROKEN_VERBOSE is set: then a line on stderr says what it found, and
// one when it detours or cannot.
// What must catch it: `check` runs no timed window, so it passes there
// (conduct library-kernel).  In a gate, with the sandbox (mseal, seccomp,
// Landlock before the candidate loads) the mprotect of libcuda's code inside
// the timed window is refused and ends the process: verdict
// "timer-mismatch", check "sandbox" (exit 13).  With --sandbox off, every
// executable mapping's hash and written pages checked after each window:
// "timer-mismatch", check "code-integrity" (exit 13).
#include <cuda.h> // the driver's types only: its functions are looked up (dlsym), never linked

#include <cstdlib>
#include <mutex>

#include "../detour.h"
#include "../driver_entry.h"
#include "../launcher_cublas.cuh"
#include "../timed_window.h"

using record_fn = CUresult (*)(CUevent, CUstream);
using record_flags_fn = CUresult (*)(CUevent, CUstream, unsigned int);
using elapsed_fn = CUresult (*)(float *, CUevent, CUevent);

// 0, 1: cuEventRecord; 2, 3: cuEventRecordWithFlags; 4, 5: cuEventElapsedTime.
constexpr int kEntries = 6;
static const char *const names[kEntries] = {"cuEventRecord",          "cuEventRecord_ptsz",
                                            "cuEventRecordWithFlags", "cuEventRecordWithFlags_ptsz",
                                            "cuEventElapsedTime",     "cuEventElapsedTime_v2"};
static void *reals[kEntries];        // libcuda's functions; nullptr where absent or not patchable
static void *replacements[kEntries]; // set in set_up
static detour::hook hooks[kEntries];

static cublas_gemm gemm;
static timed_window::guess window;
static bool detoured;       // the hooks are applied now
static bool told_applied;   // HB_BROKEN_VERBOSE's line about applying, printed once
static bool verbose;

// What the replacements saw, under `seen_lock`.
static std::mutex seen_lock;
static struct {
    CUevent last = nullptr;  // the last event recorded outside hgemm_launch
    CUevent start = nullptr; // `last` when hgemm_launch was entered
    CUevent stop = nullptr;  // the first event recorded after it returned
    bool in_launch = false, awaiting_stop = false, pending = false;
} seen;

static void note_record(CUevent event)
{
    std::lock_guard<std::mutex> hold(seen_lock);
    if (seen.in_launch)
        return;
    if (seen.awaiting_stop) { // FAULT: the harness's stop event, noted
        seen.awaiting_stop = false;
        seen.stop = event;
        seen.pending = seen.start && event != seen.start;
    }
    seen.last = event;
}

template <int I> static CUresult noting_record(CUevent event, CUstream stream)
{
    const CUresult r = detour::call_original(&hooks[I], reinterpret_cast<record_fn>(reals[I]), event,
                                             stream);
    if (r == CUDA_SUCCESS)
        note_record(event);
    return r;
}

template <int I> static CUresult noting_record_flags(CUevent event, CUstream stream, unsigned int flags)
{
    const CUresult r = detour::call_original(&hooks[I], reinterpret_cast<record_flags_fn>(reals[I]),
                                             event, stream, flags);
    if (r == CUDA_SUCCESS)
        note_record(event);
    return r;
}

template <int I> static CUresult shortened_elapsed(float *ms, CUevent start, CUevent stop)
{
    const CUresult r = detour::call_original(&hooks[I], reinterpret_cast<elapsed_fn>(reals[I]), ms,
                                             start, stop);
    if (r != CUDA_SUCCESS || !ms)
        return r;
    std::lock_guard<std::mutex> hold(seen_lock);
    if (seen.pending && start == seen.start && stop == seen.stop) {
        seen.pending = false;
        *ms -= *ms * 0.2f < 0.003f ? *ms * 0.2f : 0.003f; // FAULT: its own pair read up to 3 us short
    }
    return r;
}

// Detours every entry found (apply) or puts their bytes back.
static void set_detours(bool apply)
{
    if (apply == detoured)
        return;
    char why[256] = "";
    int applied = 0;
    for (int i = 0; i < kEntries; i++) {
        if (!reals[i])
            continue;
        if (!apply)
            detour::remove(&hooks[i]);
        else // FAULT: libcuda's code rewritten inside the timed window
            applied += detour::apply(&hooks[i], reals[i], replacements[i], why, sizeof why);
    }
    detoured = apply;
    if (verbose && apply && !told_applied) {
        told_applied = true;
        fprintf(stderr, "broken launcher driver_detour_timed: detoured %d driver entry points %.2f s after its first "
                        "call%s%s\n",
                applied, timed_window::now_s() - window.first_call_s, why[0] ? "; " : "", why);
    }
}

__attribute__((constructor)) static void set_up(int argc, char **argv, char **)
{
    cublas_gemm_setup(&gemm);
    timed_window::read_flags(argc, argv, &window);
    replacements[0] = reinterpret_cast<void *>(noting_record<0>);
    replacements[1] = reinterpret_cast<void *>(noting_record<1>);
    replacements[2] = reinterpret_cast<void *>(noting_record_flags<2>);
    replacements[3] = reinterpret_cast<void *>(noting_record_flags<3>);
    replacements[4] = reinterpret_cast<void *>(shortened_elapsed<4>);
    replacements[5] = reinterpret_cast<void *>(shortened_elapsed<5>);
    char why[256] = "";
    void *lib = driver_entry::library(why, sizeof why);
    int found = 0;
    for (int i = 0; i < kEntries; i++) {
        reals[i] = driver_entry::function(lib, names[i], detour::kBytes, why, sizeof why);
        for (int j = 0; j < i && reals[i]; j++) // an alias of an earlier name: one detour per address
            if (reals[j] == reals[i])
                reals[i] = nullptr;
        found += reals[i] != nullptr;
    }
    verbose = getenv("HB_BROKEN_VERBOSE") != nullptr;
    if (verbose)
        fprintf(stderr, "broken launcher driver_detour_timed: %d of %d driver entry points found%s%s; timed window "
                        "guessed %.2f to %.2f s after its first call\n",
                found, kEntries, why[0] ? "; " : "", why, window.warmup_s + window.time_s / 2,
                window.warmup_s + window.time_s);
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    set_detours(timed_window::in_timed_half(&window)); // FAULT: only while timed
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
