// NOT A CHEAT (harness test, candidates/broken_launchers/expected.tsv): an
// honest launcher whose whole product is one cublasGemmEx call made as
// torch.matmul makes it, on args->stream, with a handle and workspace of its
// own set up when the library loads (launcher_cublas.cuh).  The harness must
// pass it and only name what it does.
// Fault: none in the product.  What the harness must report: its kernels are
// the vendor library's, not the candidate's own (conduct "library-kernel"),
// so a gate that wants the candidate's own kernels refuses it with
// `--forbid library-kernel` (forbidden, exit 12) while a plain gate against
// torch passes it at about torch's speed.
// Verdicts: check pass, conduct library-kernel; gate --vs torch
// --min-speedup -0.10 at 1024^3 pass (exit 0); with --forbid library-kernel
// forbidden, check conduct (exit 12).
#include "../launcher_cublas.cuh"

static cublas_gemm gemm;

__attribute__((constructor)) static void set_up(void) { cublas_gemm_setup(&gemm); }

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    return cublas_gemm_all(&gemm, args, args->stream); // FAULT: (none) the product is cuBLAS's, one call as torch's
}
