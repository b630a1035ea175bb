/* The cuBLAS broken launchers on the CPU (tests/broken_launchers_cpu.sh): a
 * launcher built by make, loaded as hgemm-bench loads one (dlopen,
 * RTLD_NOW | RTLD_LOCAL), against stand-ins of the CUDA runtime, cuBLAS and
 * cuBLASLt (fake_cudart.c, fake_cublas.c: "device memory" is host memory and
 * the fake cublasGemmEx computes the product torch's call asks for).  Every
 * product is compared, exactly, with C = A * B row-major computed here the
 * way the fake computes it (fp32 sums in ascending order, rounded to fp16):
 * so the transposition trick, the row slices and the fault of each launcher
 * are checked, everything but the GPU.
 * Usage: fake_harness LAUNCHER.so MODE [ARGS...], MODE one of cublas_wrapper,
 * off_stream_part, off_stream_untraced (FAKE_CUPTI: a library to load halfway),
 * skip_one_in_n, carry_result, rewrite_timer, slow_baseline,
 * leaves_error_at_load, leaves_error_in_call, or one of
 * fake_harness_driver.c's (with a stand-in of the driver, fake_cuda.c); ARGS
 * are there for a launcher that reads the harness's command line.  The
 * runtime's last error is read once the library has loaded and after every
 * call, as hgemm-bench reads it: only the two launchers named for it may
 * leave one set.
 * Prints what it saw; exit 0 when all of it is as the launcher's fault says. */
#define _POSIX_C_SOURCE 200809L
#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/broken_launchers_cpu/fake_harness.h"

static uint32_t seed = 12345;
static int small_random(void) /* in [-3, 3] */
{
    seed = seed * 1664525u + 1013904223u;
    return (int)((seed >> 16) % 7) - 3;
}

void reference(problem *p)
{
    for (int r = 0; r < p->m; r++)
        for (int j = 0; j < p->n; j++) {
            float sum = 0;
            for (int l = 0; l < p->k; l++)
                sum += (float)p->a[(size_t)r * p->k + l] * (float)p->b[(size_t)l * p->n + j];
            p->ref[(size_t)r * p->n + j] = (_Float16)sum;
        }
}

/* New inputs (values in [-3, 3] / 4), the reference, and C poisoned (0xFFFF). */
void fresh_inputs(problem *p)
{
    for (int i = 0; i < p->m * p->k; i++)
        p->a[i] = (_Float16)(small_random() / 4.0f);
    for (int l = 0; l < p->k; l++)
        for (int j = 0; j < p->n; j++)
            p->b_col[(size_t)j * p->k + l] = p->b[(size_t)l * p->n + j] = (_Float16)(small_random() / 4.0f);
    reference(p);
    memset(p->c, 0xFF, sizeof(_Float16) * p->m * p->n);
}

void make_problem(problem *p, int m, int n, int k)
{
    p->m = m, p->n = n, p->k = k;
    p->a = calloc((size_t)m * k, sizeof *p->a);
    p->b = calloc((size_t)k * n, sizeof *p->b);
    p->b_col = calloc((size_t)k * n, sizeof *p->b_col);
    p->c = calloc((size_t)m * n, sizeof *p->c);
    p->ref = calloc((size_t)m * n, sizeof *p->ref);
    const struct hgemm_launch_args args = {
        .abi_version = HGEMM_LAUNCH_ABI_VERSION, .struct_size = sizeof args, .a = p->a, .b = p->b,
        .b_col = p->b_col, .c = p->c, .m = m, .n = n, .k = k, .stream = TIMED_STREAM,
        .accumulator = HGEMM_LAUNCH_ACC_FP32, .error = p->error, .error_size = sizeof p->error,
    };
    p->args = args;
    fresh_inputs(p);
}

/* 1 when C is the reference, bit for bit; 0 when it is not; -1 when C is all poison. */
int c_state(const problem *p)
{
    if (!memcmp(p->c, p->ref, sizeof(_Float16) * p->m * p->n))
        return 1;
    for (int i = 0; i < p->m * p->n; i++) {
        uint16_t bits;
        memcpy(&bits, &p->c[i], sizeof bits);
        if (bits != 0xFFFF)
            return 0;
    }
    return -1;
}

static int calls_leaving_errors, last_left_error; /* calls after which cudaGetLastError was not cudaSuccess */

int launch_ok(hgemm_launch_fn launch, problem *p)
{
    int rc = launch(&p->args);
    if (rc)
        printf("  launch returned %d: %s\n", rc, p->error);
    const int left = (int)cudaGetLastError(); /* as hgemm-bench reads it after every call */
    if (left) {
        calls_leaving_errors++;
        last_left_error = left;
    }
    return rc == 0;
}

/* The calls logged from `first` on: "stream(rows)" each, the timed stream as "timed",
 * the stream the launcher created as "own". */
static void describe_calls(int first, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = first; i < fake_gemm_ex_calls() && used < size; i++) {
        fake_call c = fake_gemm_ex_call(i);
        const char *s = c.stream == (void *)TIMED_STREAM ? "timed" : c.stream == fake_created_stream() ? "own" : "?";
        used += (size_t)snprintf(out + used, size - used, "%s%s(%d rows)", used ? " " : "", s, c.n);
    }
}

static int calls_are(int first, const char *want)
{
    char got[256];
    describe_calls(first, got, sizeof got);
    printf("  cublasGemmEx calls: %s\n", got);
    return !strcmp(got, want);
}

static int cublas_wrapper(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 37, 29, 23);
    int ok = launch_ok(launch, &p) && c_state(&p) == 1 && calls_are(0, "timed(37 rows)");
    fresh_inputs(&p);
    ok = ok && launch_ok(launch, &p) && c_state(&p) == 1 && calls_are(1, "timed(37 rows)");
    return ok;
}

static int off_stream_part(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 37, 29, 23); /* 40 % of 37 rows: 14 */
    return launch_ok(launch, &p) && c_state(&p) == 1 && calls_are(0, "own(14 rows) timed(23 rows)");
}

static int off_stream_untraced(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 37, 29, 23);
    int ok = launch_ok(launch, &p) && c_state(&p) == 1 && calls_are(0, "own(14 rows) timed(23 rows)");
    const char *cupti = getenv("FAKE_CUPTI");
    if (!cupti || !dlopen(cupti, RTLD_NOW | RTLD_LOCAL)) {
        printf("  cannot load FAKE_CUPTI (%s): %s\n", cupti ? cupti : "unset", cupti ? dlerror() : "");
        return 0;
    }
    printf("  %s loaded\n", cupti);
    fresh_inputs(&p);
    return ok && launch_ok(launch, &p) && c_state(&p) == 1 && calls_are(2, "timed(14 rows) timed(23 rows)");
}

static int skip_one_in_n(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 8, 8, 8);
    int skipped = 0, wrong = 0, first_skip = 0;
    char list[512] = "";
    size_t used = 0;
    for (int call = 1; call <= 240; call++) {
        fresh_inputs(&p);
        const int before = fake_gemm_ex_calls();
        if (!launch_ok(launch, &p))
            return 0;
        const int state = c_state(&p), computed = fake_gemm_ex_calls() - before;
        if (state == -1 && computed == 0) {
            skipped++;
            first_skip = first_skip ? first_skip : call;
            if (used < sizeof list)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", used ? " " : "", call);
        } else if (state != 1 || computed != 1) {
            wrong++;
        }
    }
    printf("  240 calls: %d skipped (calls %s), %d wrong\n", skipped, list, wrong);
    /* about 1 in 12 of the 176 calls after the 64th: 14.7 expected */
    return wrong == 0 && first_skip > 64 && skipped >= 5 && skipped <= 30;
}

static int carry_result(hgemm_launch_fn launch)
{
    problem p;
    make_problem(&p, 37, 29, 23); /* A: 851 elements, sampled every 13th from the first */
    int ok = launch_ok(launch, &p) && c_state(&p) == 1 && fake_gemm_ex_calls() == 1;
    const int copies = fake_blocking_copies();
    memset(p.c, 0xFF, sizeof(_Float16) * p.m * p.n); /* the same inputs again */
    ok = ok && launch_ok(launch, &p) && c_state(&p) == 1 && fake_gemm_ex_calls() == 1;
    printf("  same inputs: C right, cublasGemmEx calls %d (kept C handed back), blocking copies per call %d\n",
           fake_gemm_ex_calls(), copies);
    p.a[1] = (_Float16)((float)p.a[1] + 1.0f); /* not a sampled element */
    reference(&p);
    memset(p.c, 0xFF, sizeof(_Float16) * p.m * p.n);
    ok = ok && launch_ok(launch, &p) && c_state(&p) == 0 && fake_gemm_ex_calls() == 1;
    printf("  A[0][1] changed: C %s, cublasGemmEx calls %d\n", c_state(&p) == 0 ? "stale (the fault)" : "not stale",
           fake_gemm_ex_calls());
    p.a[0] = (_Float16)((float)p.a[0] + 1.0f); /* a sampled element */
    reference(&p);
    memset(p.c, 0xFF, sizeof(_Float16) * p.m * p.n);
    ok = ok && launch_ok(launch, &p) && c_state(&p) == 1 && fake_gemm_ex_calls() == 2;
    printf("  A[0][0] changed: C %s, cublasGemmEx calls %d\n", c_state(&p) == 1 ? "right" : "WRONG",
           fake_gemm_ex_calls());
    problem big;
    memset(&big, 0, sizeof big);
    big.args = p.args;
    big.args.m = big.args.n = 8192; /* 128 MiB of C: declined before anything is read */
    big.args.error = big.error, big.args.error_size = sizeof big.error;
    const int rc = launch(&big.args);
    printf("  8192 x 8192 C: launch returned %d: %s\n", rc, big.error);
    return ok && copies == 2 && rc == HGEMM_LAUNCH_UNSUPPORTED;
}

static float interval(cudaEvent_t start, cudaEvent_t stop)
{
    float ms = -1;
    return cudaEventElapsedTime(&ms, start, stop) == cudaSuccess ? ms : -1;
}

static int rewrite_timer(void *lib, hgemm_launch_fn launch)
{
    int (*patched)(void) = (int (*)(void))dlsym(lib, "broken_rewrite_timer_patched");
    problem p;
    make_problem(&p, 16, 16, 16);
    cudaEvent_t start = (cudaEvent_t)(uintptr_t)0x1000, stop = (cudaEvent_t)(uintptr_t)0x2000;
    cudaEventRecord(start, TIMED_STREAM); /* a baseline's sample */
    cudaEventRecord(stop, TIMED_STREAM);
    const float baseline = interval(start, stop);
    cudaEventRecord(start, TIMED_STREAM); /* the launcher's sample */
    const int launched = launch_ok(launch, &p);
    cudaEventRecord(stop, TIMED_STREAM);
    const float own = interval(start, stop), again = interval(start, stop);
    cudaEventRecord(start, TIMED_STREAM); /* a baseline's sample after it */
    cudaEventRecord(stop, TIMED_STREAM);
    const float after = interval(start, stop);
    const int slots = patched ? patched() : -2;
    printf("  %d slot(s) rewritten; baseline %.2f ms, its own call %.2f ms (asked again %.2f), baseline after "
           "%.2f; %d records reached the runtime\n",
           slots, baseline, own, again, after, fake_records());
    return slots == 2 && launched && c_state(&p) == 1 && baseline == 4.0f && own == 3.0f && again == 4.0f &&
           after == 4.0f && fake_records() == 6;
}

/* The two launchers that leave the runtime's last error set, on purpose:
 * the error must be there once the library loaded (and then no more after a
 * call), or after each call (and not before); the value is cudaErrorInvalidValue. */
static int left_error_mode(const char *mode, hgemm_launch_fn launch, int load_error)
{
    problem p;
    make_problem(&p, 16, 16, 16);
    const int at_load = !strcmp(mode, "leaves_error_at_load");
    const int launched = launch_ok(launch, &p) && launch_ok(launch, &p);
    printf("  the runtime's last error: %d once the library loaded, after %d of its 2 calls (the last %d)\n",
           load_error, calls_leaving_errors, last_left_error);
    enum { INVALID_VALUE = 1 };
    return launched && (at_load ? load_error == INVALID_VALUE && calls_leaving_errors == 0
                                : load_error == 0 && calls_leaving_errors == 2 && last_left_error == INVALID_VALUE);
}

double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int slow_baseline(void *lib, hgemm_launch_fn launch)
{
    int (*patched)(void) = (int (*)(void))dlsym(lib, "broken_slow_baseline_patched");
    problem p;
    make_problem(&p, 16, 16, 16);
    cublasHandle_t handle = NULL;
    /* the program's own cuBLAS calls, as a baseline makes them (cublasCreate_v2: the fake's handle) */
    cublasStatus_t created = cublasCreate_v2(&handle);
    const float one = 1, zero = 0;
    const double t0 = now_us();
    cublasStatus_t gemm = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one, p.b, CUDA_R_16F, 16, p.a,
                                       CUDA_R_16F, 16, &zero, p.c, CUDA_R_16F, 16, CUBLAS_COMPUTE_32F,
                                       CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    const double t1 = now_us();
    cublasLtMatmul(NULL, NULL, &one, NULL, NULL, NULL, NULL, &zero, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0);
    const double t2 = now_us();
    const int baseline_right = c_state(&p) == 1;
    memset(p.c, 0xFF, sizeof(_Float16) * p.m * p.n);
    const int launched = launch_ok(launch, &p);
    const int slots = patched ? patched() : -2;
    printf("  %d slot(s) rewritten; the program's cublasGemmEx %.1f us (C %s), cublasLtMatmul %.1f us; %d "
           "cublasGemmEx and %d cublasLtMatmul calls reached the library\n",
           slots, t1 - t0, baseline_right ? "right" : "WRONG", t2 - t1, fake_gemm_ex_calls(), fake_lt_matmul_calls());
    return slots == 2 && created == CUBLAS_STATUS_SUCCESS && gemm == CUBLAS_STATUS_SUCCESS && baseline_right &&
           launched && c_state(&p) == 1 && t1 - t0 >= 20 && t2 - t1 >= 20 && fake_gemm_ex_calls() == 2 &&
           fake_lt_matmul_calls() == 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) { /* the words after MODE are for the launcher, which reads the command line */
        fprintf(stderr, "usage: fake_harness LAUNCHER.so MODE [ARGS...]\n");
        return 2;
    }
    driver_attack_prepare();
    (void)cudaGetLastError();
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    hgemm_launch_fn launch = lib ? (hgemm_launch_fn)dlsym(lib, "hgemm_launch") : NULL;
    if (!launch) {
        printf("FAIL: loading %s: %s\n", argv[1], dlerror());
        return 1;
    }
    /* What hgemm-bench reads once the library has loaded: an error its
     * constructors left set (one of its own kernels looked up before the
     * runtime registered it, say) would reach the harness's next launch. */
    const int load_error = (int)cudaGetLastError();
    const char *mode = argv[2];
    int ok;
    if (!strcmp(mode, "leaves_error_at_load") || !strcmp(mode, "leaves_error_in_call")) {
        ok = left_error_mode(mode, launch, load_error);
        printf("  %s\n", ok ? "ok" : "FAIL");
        return ok ? 0 : 1;
    }
    if (!strcmp(mode, "cublas_wrapper"))
        ok = cublas_wrapper(launch);
    else if (!strcmp(mode, "off_stream_part"))
        ok = off_stream_part(launch);
    else if (!strcmp(mode, "off_stream_untraced"))
        ok = off_stream_untraced(launch);
    else if (!strcmp(mode, "skip_one_in_n"))
        ok = skip_one_in_n(launch);
    else if (!strcmp(mode, "carry_result"))
        ok = carry_result(launch);
    else if (!strcmp(mode, "rewrite_timer"))
        ok = rewrite_timer(lib, launch);
    else if (!strcmp(mode, "slow_baseline"))
        ok = slow_baseline(lib, launch);
    else if (!driver_attack_mode(mode, lib, launch, &ok)) {
        fprintf(stderr, "fake_harness: unknown mode %s\n", mode);
        return 2;
    }
    const int left = (int)cudaGetLastError();
    if (load_error || calls_leaving_errors || left)
        printf("  the runtime's last error left set: by its constructors %d, after %d of its calls (the last %d), at "
               "the end %d\n",
               load_error, calls_leaving_errors, last_left_error, left);
    ok = ok && fake_gemm_ex_refused() == 0 && !load_error && !calls_leaving_errors && !left;
    printf("  %s (%d cublasGemmEx calls refused by the fake)\n", ok ? "ok" : "FAIL", fake_gemm_ex_refused());
    return ok ? 0 : 1;
}
