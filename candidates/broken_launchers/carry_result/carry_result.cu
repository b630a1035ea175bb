// BROKEN ON PURPOSE (harness test, candidates/broken_launchers/expected.tsv).
// Fault: keeps its last C in device memory of its own (64 MiB, allocated
// when the library loads: enough for 4096 x 4096 fp16; it declines a larger
// C), keyed by a fingerprint of 64 elements of A and 64 of B at fixed, evenly
// spaced positions, read to the host with one strided cudaMemcpy2D each
// (synchronous: the conduct finding "sync").  When the fingerprint and M, N,
// K match the last call's, it copies the kept C into args->c on
// args->stream instead of computing; otherwise it computes (one cublasGemmEx
// as torch's) and keeps a copy.  Under --l2 warm or flush, which repeat the
// inputs by design, every timed call after the first would be a copy.
// What must catch it: inputs that change between calls where no fingerprint
// of sampled elements can tell (docs/methodology.md, "L2 policy": the harness
// changes one element in every row of A and every column of B every round,
// so the kept C is stale), and the spot checks of timed calls that compare it
// with the product: gate --l2 warm at 1024^3 verdict "incorrect", check
// "spot-check" (exit 6).
// Correct otherwise: check verdict "pass" at 64^3 (fresh inputs every checked
// call: it always computes), conduct sync and library-kernel.
#include <cstring>

#include "../launcher_cublas.cuh"

static constexpr size_t kept_capacity = (size_t)64 << 20;
static constexpr int64_t samples = 64;

static cublas_gemm gemm;
static void *kept; // FAULT: a result that outlives the call
static char load_failure[200] = "not loaded";

struct fingerprint {
    int64_t m, n, k;
    uint16_t a[samples], b[samples];
};
static fingerprint last;
static bool have_last;

__attribute__((constructor)) static void set_up(void)
{
    cudaError_t err = cudaMalloc(&kept, kept_capacity);
    if (err != cudaSuccess)
        return cuda_failure_text(load_failure, sizeof load_failure, "cudaMalloc of the kept result", err);
    cublas_gemm_setup(&gemm);
    load_failure[0] = '\0';
}

// Up to `samples` elements of the fp16 matrix at `data` (`total` elements),
// evenly spaced from the first, into `out`: one strided, synchronous copy.
static cudaError_t sample(const void *data, int64_t total, uint16_t *out)
{
    memset(out, 0, samples * sizeof *out);
    const int64_t count = total < samples ? total : samples;
    if (count <= 0)
        return cudaSuccess;
    const size_t stride = (size_t)(total / count) * sizeof(uint16_t);
    return cudaMemcpy2D(out, sizeof *out, data, stride, sizeof *out, (size_t)count, cudaMemcpyDeviceToHost);
}

static bool same(const fingerprint &x, const fingerprint &y)
{
    return x.m == y.m && x.n == y.n && x.k == y.k && !memcmp(x.a, y.a, sizeof x.a) && !memcmp(x.b, y.b, sizeof x.b);
}

HGEMM_LAUNCH_ENTRY(hgemm_launch)
{
    if (load_failure[0])
        return launcher_message(args, 2, "setting up when the library loaded: %s", load_failure);
    int result = cublas_gemm_usable(&gemm, args);
    if (result != HGEMM_LAUNCH_OK)
        return result;
    const size_t bytes = (size_t)args->m * (size_t)args->n * sizeof(__half);
    if (bytes > kept_capacity)
        return launcher_message(args, HGEMM_LAUNCH_UNSUPPORTED, "it keeps at most %zu MiB of C; M x N is %lld x %lld",
                                kept_capacity >> 20, (long long)args->m, (long long)args->n);
    fingerprint now;
    memset(&now, 0, sizeof now);
    now.m = args->m, now.n = args->n, now.k = args->k;
    cudaError_t err = sample(args->a, args->m * args->k, now.a); // FAULT: a synchronous read inside the call
    if (err == cudaSuccess)
        err = sample(args->b, args->k * args->n, now.b);
    if (err != cudaSuccess)
        return launcher_cuda_failure(args, "cudaMemcpy2D of the sampled inputs", err);
    if (have_last && same(now, last)) {
        // FAULT: the last call's result handed back, nothing computed
        err = cudaMemcpyAsync(args->c, kept, bytes, cudaMemcpyDeviceToDevice, args->stream);
        return err == cudaSuccess ? HGEMM_LAUNCH_OK : launcher_cuda_failure(args, "cudaMemcpyAsync of the kept C", err);
    }
    have_last = false;
    result = cublas_gemm_all(&gemm, args, args->stream);
    if (result != HGEMM_LAUNCH_OK)
        return result;
    err = cudaMemcpyAsync(kept, args->c, bytes, cudaMemcpyDeviceToDevice, args->stream); // FAULT: kept for later calls
    if (err != cudaSuccess)
        return launcher_cuda_failure(args, "cudaMemcpyAsync keeping C", err);
    last = now;
    have_last = true;
    return HGEMM_LAUNCH_OK;
}
