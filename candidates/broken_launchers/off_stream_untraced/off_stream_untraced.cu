// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: off_stream_part's fault, only while it is not traced: in every call
// it looks for a CUPTI library in its process (a walk of the loaded objects
// with dl_iterate_phdr for a file name starting "libcupti", about a
// microsecond).  Without one, the first 40 % of C's rows go on a non-blocking
// stream of its own, never joined to args->stream (the timed events miss
// them); with one, both parts go on args->stream, so a trace pass run in a
// process of its own sees two cuBLAS calls on the timed stream and nothing
// else (docs/trace.md: a launcher must not behave only while it is
// traced).
// What must catch it: CUPTI loaded in every process that runs candidate code
// (section 5a), so that it always behaves: two cuBLAS calls on the timed
// stream, slower than torch's one, and a gate that wants +5 % over torch at
// 4096^3 finds it too slow (exit 9).  Were the timed process untraced, its
// events would miss 40 % of the work.
// Correct otherwise (each part one cublasGemmEx as torch's): check verdict
// "pass", conduct multi-kernel and library-kernel.
#include <link.h>

#include <cstring>

#include "../launcher_cublas.cuh"

static cudaStream_t side_stream;
static cublas_gemm side_gemm, timed_gemm; // two handles, two workspaces: the parts may run at once
static char load_failure[200] = "not loaded";

__attribute__((constructor)) static void set_up(void)
{
    cudaError_t err = cudaStreamCreateWithFlags(&side_stream, cudaStreamNonBlocking);
    if (err != cudaSuccess)
        return cuda_failure_text(load_failure, sizeof load_failure, "cudaStreamCreateWithFlags", err);
    cublas_gemm_setup(&side_gemm);
    cublas_gemm_setup(&timed_gemm);
    load_failure[0] = '\0';
}

static int is_cupti(struct dl_phdr_info *info, size_t, void *)
{
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    const char *base = strrchr(name, '/');
    return !strncmp(base ? base + 1 : name, "libcupti", 8); // nonzero stops the walk
}

// Whether a CUPTI library is loaded in this process (libcupti.so.13, .so.12, .so, any path).
static bool traced(void) { return dl_iterate_phdr(is_cupti, nullptr) != 0; }

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (load_failure[0])
        return launcher_message(args, 2, "setting up when the library loaded: %s", load_failure);
    const int64_t split = args->m * 2 / 5; // the first 40 % of the rows
    // FAULT: off the timed stream, never joined, unless a tracer could see it
    int result = traced() ? cublas_gemm_rows(&timed_gemm, args, args->stream, 0, split)
                          : cublas_gemm_rows(&side_gemm, args, side_stream, 0, split);
    if (result == HGEMM_LAUNCH_OK)
        result = cublas_gemm_rows(&timed_gemm, args, args->stream, split, args->m);
    return result;
}
