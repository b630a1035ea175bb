// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: a page of libcuda's code mapped over, no mprotect, no write to it.
// In its first call it copies the page of libcuda.so.1 holding
// cuEventElapsedTime_v2 (or cuEventElapsedTime; ../driver_entry.h) into a
// memfd, writes there a jump into this library over the function's first
// bytes (../detour.h's jump_to), and maps the copy, shared, read and execute
// as the page was, with mmap(MAP_FIXED) over the original page: one step,
// so no thread ever runs half a page.  Its replacement writes the saved
// bytes back into the memfd (the mapping sees them at once) for the length
// of the real call, and reads the first pair after each of its calls (the
// harness's for its own call) up to 3 us short (20 % at most).  It computes
// with cuBLAS (one cublasGemmEx as torch's) and prints nothing, unless
// HB_BROKEN_VERBOSE is set: then a line on stderr says whether it mapped
// the page over, or why not.
// What must catch it: the sandbox (mseal, seccomp, Landlock before the
// candidate loads) refuses an mmap over a sealed range and ends the process
// in its first call, a call of the checks: verdict "timer-mismatch", check
// "sandbox" (exit 13), in check and in gate.  With --sandbox off, every
// executable mapping hashed at the seal and checked after the checks and
// after each window: the page is the memfd's now ("timer-mismatch", check
// "code-integrity", exit 13).
#include <cuda.h> // the driver's types only: its functions are looked up (dlsym), never linked
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <mutex>

#include "../detour.h"
#include "../driver_entry.h"
#include "../launcher_cublas.cuh"

using elapsed_fn = CUresult (*)(float *, CUevent, CUevent);

static cublas_gemm gemm;
static elapsed_fn real_elapsed;
static int copy_fd = -1; // the page's patched copy (a memfd), mapped over it
static off_t at;         // the function's offset in its page
static unsigned char saved[detour::kBytes], jump[detour::kBytes];
static std::mutex map_lock;
static bool tried, mapped_over, own_pair_next;

// `bytes` at the function's place in the copy: the mapping runs them at once.
static bool write_copy(const unsigned char *bytes)
{
    return pwrite(copy_fd, bytes, detour::kBytes, at) == (ssize_t)detour::kBytes;
}

static CUresult shortened_elapsed(float *ms, CUevent start, CUevent stop)
{
    std::lock_guard<std::mutex> hold(map_lock);
    if (!write_copy(saved))        // the function's own bytes for the real call
        return CUDA_ERROR_UNKNOWN; // still the jump: calling it would come back here
    const CUresult r = real_elapsed(ms, start, stop);
    write_copy(jump);
    if (r == CUDA_SUCCESS && ms && own_pair_next) {
        own_pair_next = false;
        *ms -= *ms * 0.2f < 0.003f ? *ms * 0.2f : 0.003f; // FAULT: its own pair read up to 3 us short
    }
    return r;
}

// A memfd whose pages may be executed, even where vm.memfd_noexec seals
// memfds against it by default (MFD_EXEC, Linux 6.3 on; EINVAL before).
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U // linux/memfd.h since 6.3, for headers older than that
#endif
static int executable_memfd(void)
{
    const int fd = memfd_create("maps_over", MFD_CLOEXEC | MFD_EXEC);
    return fd >= 0 || errno != EINVAL ? fd : memfd_create("maps_over", MFD_CLOEXEC);
}

// The patched copy of the page, mapped over it: "" or why not.
static void map_over(char *why, size_t why_size)
{
#if defined(__x86_64__)
    const size_t page_bytes = (size_t)sysconf(_SC_PAGESIZE);
    void *page = reinterpret_cast<void *>((uintptr_t)real_elapsed & ~(uintptr_t)(page_bytes - 1));
    at = (off_t)((uintptr_t)real_elapsed - (uintptr_t)page);
    if ((size_t)at + detour::kBytes > page_bytes)
        return (void)snprintf(why, why_size, "the function's first bytes cross a page boundary");
    memcpy(saved, reinterpret_cast<void *>(real_elapsed), detour::kBytes);
    detour::jump_to(reinterpret_cast<void *>(shortened_elapsed), jump);
    copy_fd = executable_memfd();
    if (copy_fd < 0 || write(copy_fd, page, page_bytes) != (ssize_t)page_bytes || !write_copy(jump))
        return (void)snprintf(why, why_size, "the page's copy in a memfd: %s", strerror(errno));
    std::lock_guard<std::mutex> hold(map_lock);
    // FAULT: libcuda's page replaced by a patched copy
    mapped_over = mmap(page, page_bytes, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED, copy_fd, 0) == page;
    if (!mapped_over)
        snprintf(why, why_size, "mmap over libcuda's page: %s", strerror(errno));
#else
    snprintf(why, why_size, "its jump is written for x86-64 only: it computes honestly");
#endif
}

__attribute__((constructor)) static void set_up(void) { cublas_gemm_setup(&gemm); }

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (!tried) { // its first call
        tried = true;
        char why[256] = "";
        void *lib = driver_entry::library(why, sizeof why);
        real_elapsed = reinterpret_cast<elapsed_fn>(
            driver_entry::function(lib, "cuEventElapsedTime_v2", detour::kBytes, why, sizeof why));
        if (!real_elapsed)
            real_elapsed = reinterpret_cast<elapsed_fn>(
                driver_entry::function(lib, "cuEventElapsedTime", detour::kBytes, why, sizeof why));
        if (real_elapsed)
            map_over(why, sizeof why);
        else if (!why[0])
            snprintf(why, sizeof why, "libcuda has no cuEventElapsedTime");
        if (getenv("HB_BROKEN_VERBOSE"))
            fprintf(stderr, "broken launcher maps_over: %s%s\n", mapped_over ? "mapped a patched copy over " :
                    "did not map over ", why[0] ? why : "libcuda's page of its elapsed-time entry point");
    }
    const int result = cublas_gemm_all(&gemm, args, args->stream);
    std::lock_guard<std::mutex> hold(map_lock);
    own_pair_next = mapped_over && result == HGEMM_LAUNCH_OK;
    return result;
}
