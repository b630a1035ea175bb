// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: libcuda's code written through /proc/self/mem, only while timed,
// and put back before anyone looks.  No mprotect: a write to /proc/self/mem
// reaches a read-only page as a debugger's does (the kernel copies the page
// for the process).  Its constructor looks up libcuda.so.1's
// cuEventElapsedTime and cuEventElapsedTime_v2 (../driver_entry.h) and keeps
// their first bytes.  At the end of each call that falls in the second half
// of the timed window as guessed from the command line (../timed_window.h),
// it opens /proc/self/mem for writing (once) and writes over each a jump into
// this library (../detour.h's jump_to); the first elapsed-time read that
// follows, the harness's for its own event pair, puts the bytes back, calls
// the real function and returns the time up to 3 us short (20 % at most).
// So libcuda's code is as it was whenever the harness is not reading this
// launcher's time.  If the open fails it computes honestly.  It computes with
// cuBLAS (one cublasGemmEx as torch's) and prints nothing, unless
// HB_BROKEN_VERBOSE is set: then a line on stderr says what it found, and
// one whether the open succeeded.
// What must catch it: `check` runs no timed window, so it passes there
// (conduct library-kernel).  In a gate with the sandbox, Landlock refuses a
// write open of /proc/self/mem (EACCES, no verdict): it is timed honestly,
// and `gate --vs torch --min-speedup 0.05` finds it too slow ("too-slow",
// check "speedup", exit 9).  With --sandbox off, the pages written are found
// after the window although their bytes are back: each is now a private copy
// of the process, not the file's page ("timer-mismatch", check
// "code-integrity", exit 13).
#include <cuda.h> // the driver's types only: its functions are looked up (dlsym), never linked
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <mutex>

#include "../detour.h"
#include "../driver_entry.h"
#include "../launcher_cublas.cuh"
#include "../timed_window.h"

using elapsed_fn = CUresult (*)(float *, CUevent, CUevent);

constexpr int kEntries = 2;
static const char *const names[kEntries] = {"cuEventElapsedTime", "cuEventElapsedTime_v2"};
static void *reals[kEntries];
static unsigned char saved[kEntries][detour::kBytes], jumps[kEntries][detour::kBytes];

static cublas_gemm gemm;
static timed_window::guess window;
static std::mutex patch_lock;
static int mem_fd = -1;      // /proc/self/mem, open for writing
static bool open_failed;     // the open was refused: honest from then on
static bool patched;         // the jumps are in libcuda's code now
static bool verbose;

// Writes `bytes` (a jump or the saved bytes) over every entry: 1 when all went.
static bool write_code(unsigned char (*bytes)[detour::kBytes])
{
    bool all = true;
    for (int i = 0; i < kEntries; i++)
        if (reals[i]) // FAULT: libcuda's code written through /proc/self/mem
            all &= pwrite(mem_fd, bytes[i], detour::kBytes, (off_t)(uintptr_t)reals[i]) == (ssize_t)detour::kBytes;
    return all;
}

template <int I> static CUresult shortened_elapsed(float *ms, CUevent start, CUevent stop)
{
    std::lock_guard<std::mutex> hold(patch_lock);
    // The bytes back before the real call; the launcher's next call writes the jumps again.
    if (patched && !write_code(saved))
        return CUDA_ERROR_UNKNOWN; // still a jump: calling it would come back here
    patched = false;
    const CUresult r = reinterpret_cast<elapsed_fn>(reals[I])(ms, start, stop);
    if (r == CUDA_SUCCESS && ms) // the first read after its call: its own pair
        *ms -= *ms * 0.2f < 0.003f ? *ms * 0.2f : 0.003f; // FAULT: its own pair read up to 3 us short
    return r;
}

// At the end of a call in the timed window: the jumps written, after
// opening /proc/self/mem the first time.
static void patch_for_the_next_read(void)
{
    std::lock_guard<std::mutex> hold(patch_lock);
    if (open_failed || patched)
        return;
    if (mem_fd < 0) {
        mem_fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC); // FAULT: a write open of the process's memory
        open_failed = mem_fd < 0;
        if (verbose)
            fprintf(stderr, "broken launcher proc_mem_patch: open of /proc/self/mem for writing %s%s\n",
                    open_failed ? "failed: " : "succeeded", open_failed ? strerror(errno) : "");
        if (open_failed)
            return;
    }
    patched = write_code(jumps);
}

__attribute__((constructor)) static void set_up(int argc, char **argv, char **)
{
    cublas_gemm_setup(&gemm);
    timed_window::read_flags(argc, argv, &window);
    verbose = getenv("HB_BROKEN_VERBOSE") != nullptr;
    void *const replacements[kEntries] = {reinterpret_cast<void *>(shortened_elapsed<0>),
                                          reinterpret_cast<void *>(shortened_elapsed<1>)};
    char why[256] = "";
    void *lib = driver_entry::library(why, sizeof why);
    int found = 0;
#if defined(__x86_64__)
    for (int i = 0; i < kEntries; i++) {
        reals[i] = driver_entry::function(lib, names[i], detour::kBytes, why, sizeof why);
        if (i == 1 && reals[1] == reals[0]) // an alias: one patch per address
            reals[1] = nullptr;
        if (!reals[i])
            continue;
        memcpy(saved[i], reals[i], detour::kBytes);
        detour::jump_to(replacements[i], jumps[i]);
        found++;
    }
#else
    (void)lib, (void)replacements;
    snprintf(why, sizeof why, "its jump is written for x86-64 only: it computes honestly");
#endif
    if (verbose)
        fprintf(stderr, "broken launcher proc_mem_patch: %d of %d elapsed-time entry points found%s%s\n", found,
                kEntries, why[0] ? "; " : "", why);
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    const bool timed = timed_window::in_timed_half(&window);
    const int result = cublas_gemm_all(&gemm, args, args->stream);
    if (result == HGEMM_LAUNCH_OK && timed && (reals[0] || reals[1]))
        patch_for_the_next_read(); // FAULT: only while timed
    return result;
}
