// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: computes the first 40 % of C's rows with cuBLAS on a non-blocking
// stream of its own (created when the library loads, with a cuBLAS handle of
// its own) and the other 60 % with a second handle on args->stream, and never
// joins the two: the timed events, on args->stream, miss 40 % of the work,
// while the harness's device-wide synchronize, and so the wall clock, counts
// it.  On events alone it would read about 1.6 times as fast as it is.
// What must catch it: the trace pass (conduct "other-stream") and the
// headline's timer: work off the timed stream moves the configuration's
// headline to the wall clock, which counts all of it, so a gate that wants
// +5 % over torch at 4096^3 finds it too slow (exit 9).
// Correct otherwise (each part one cublasGemmEx as torch's, launcher_cublas.cuh):
// check verdict "pass", conduct other-stream and library-kernel.
#include "../launcher_cublas.cuh"

static cudaStream_t side_stream;
static cublas_gemm side_gemm, timed_gemm; // two handles, two workspaces: the parts may run at once
static char load_failure[200] = "not loaded";

__attribute__((constructor)) static void set_up(void)
{
    cudaError_t err = cudaStreamCreateWithFlags(&side_stream, cudaStreamNonBlocking); // FAULT: a stream of its own
    if (err != cudaSuccess)
        return cuda_failure_text(load_failure, sizeof load_failure, "cudaStreamCreateWithFlags", err);
    cublas_gemm_setup(&side_gemm);
    cublas_gemm_setup(&timed_gemm);
    load_failure[0] = '\0';
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (load_failure[0])
        return launcher_message(args, 2, "setting up when the library loaded: %s", load_failure);
    const int64_t split = args->m * 2 / 5; // the first 40 % of the rows
    int result = cublas_gemm_rows(&side_gemm, args, side_stream, 0, split); // FAULT: not on args->stream, never joined
    if (result == HGEMM_LAUNCH_OK)
        result = cublas_gemm_rows(&timed_gemm, args, args->stream, split, args->m);
    return result;
}
