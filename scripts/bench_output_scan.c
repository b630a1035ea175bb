/* What the per-call output scan costs on this GPU (docs/methodology.md,
 * "Every call's output scanned"; scripts/bench_output_scan.sh builds and
 * runs it; never part of `make test`).  For each output size M x N it times,
 * after a warm-up, many repetitions of:
 *   - the scan kernel alone (hb_count_nonfinite_f16), with a CUDA event pair
 *     around it on an otherwise idle stream: the GPU time each call of the
 *     windows adds after itself, before the next call's leading synchronize
 *     returns; on a clean output (every element finite: an honest call, no
 *     atomic fires) and on a wholly poisoned one (every warp adds its count:
 *     the worst case, a call that wrote nothing);
 *   - the host's cost of enqueuing it (wall clock around the call);
 *   - for comparison, the poison fill of the same output (cudaMemsetAsync of
 *     0xFF bytes), which every call has had since before the scan;
 * and once per size the per-round read-back: one copy of 8 counters (a
 * candidate and 7 baselines) to pinned host memory and its synchronize,
 * wall clock.  It prints median, p10 and p90 (microseconds) and the scan's
 * read bandwidth at the median.  A benchmark, not a test: it asserts
 * nothing.
 * Usage: bench-output-scan [WARMUP REPEATS] (default 20 200). */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/clock.h"
#include "bench/core/stats.h"
#include "bench/gpu/output_scan.h"

#define COUNTERS 8 /* the candidate and 7 baselines: one read-back per round */

typedef struct size_case {
    long m, n;
} size_case;

/* The paper grid's smallest, a middle and its largest output. */
static const size_case sizes[] = {{64, 64}, {4096, 4096}, {16384, 16384}};

static int cuda_ok(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        fprintf(stderr, "bench-output-scan: %s failed: %s (%s)\n", what, cudaGetErrorName(err),
                cudaGetErrorString(err));
    return err == cudaSuccess;
}

typedef struct timers {
    cudaStream_t stream;
    cudaEvent_t start, stop;
    unsigned long long *counters; /* device, COUNTERS of them */
    unsigned long long *host;     /* pinned */
} timers;

static int timers_create(timers *t)
{
    memset(t, 0, sizeof *t);
    return cuda_ok(cudaStreamCreateWithFlags(&t->stream, cudaStreamNonBlocking), "creating a stream") &&
           cuda_ok(cudaEventCreate(&t->start), "creating an event") &&
           cuda_ok(cudaEventCreate(&t->stop), "creating an event") &&
           cuda_ok(cudaMalloc((void **)&t->counters, COUNTERS * sizeof *t->counters), "allocating the counters") &&
           cuda_ok(cudaMemset(t->counters, 0, COUNTERS * sizeof *t->counters), "zeroing the counters") &&
           cuda_ok(cudaMallocHost((void **)&t->host, COUNTERS * sizeof *t->host), "allocating pinned memory");
}

static void timers_destroy(timers *t)
{
    if (t->host)
        cudaFreeHost(t->host);
    if (t->counters)
        cudaFree(t->counters);
    if (t->start)
        cudaEventDestroy(t->start);
    if (t->stop)
        cudaEventDestroy(t->stop);
    if (t->stream)
        cudaStreamDestroy(t->stream);
}

typedef enum what { SCAN, POISON } what;

/* One timed operation on `c` (m x n fp16): its event time (us) and, for the
 * scan, the host's time to enqueue it (us). */
static int time_once(timers *t, what op, uint16_t *c, long m, long n, double *gpu_us, double *enqueue_us)
{
    if (!cuda_ok(cudaDeviceSynchronize(), "synchronizing") || !cuda_ok(cudaEventRecord(t->start, t->stream), "recording"))
        return 0;
    const double before = hb_now_s();
    cudaError_t err = op == SCAN ? hb_count_nonfinite_f16(c, m, n, n, &t->counters[0], t->stream)
                                 : cudaMemsetAsync(c, 0xFF, (size_t)m * (size_t)n * 2u, t->stream);
    *enqueue_us = (hb_now_s() - before) * 1e6;
    float ms = 0;
    if (!cuda_ok(err, op == SCAN ? "enqueuing the scan" : "enqueuing the poison") ||
        !cuda_ok(cudaEventRecord(t->stop, t->stream), "recording") ||
        !cuda_ok(cudaEventSynchronize(t->stop), "waiting for the stop event") ||
        !cuda_ok(cudaEventElapsedTime(&ms, t->start, t->stop), "reading the events"))
        return 0;
    *gpu_us = ms * 1e3;
    return 1;
}

static void print_summary(const char *label, const double *us, size_t n, double bytes)
{
    hb_time_summary s;
    if (hb_summarize_times(us, n, &s) != HB_OK) {
        fprintf(stderr, "bench-output-scan: summarizing %s failed\n", label);
        return;
    }
    printf("  %-34s median %10.2f us   p10 %10.2f   p90 %10.2f", label, s.median, s.p10, s.p90);
    if (bytes > 0)
        printf("   %7.1f GB/s", bytes / (s.median * 1e-6) / 1e9);
    printf("\n");
}

/* Warm-up, then `repeats` timings of `op` on `c` filled with `fill`. */
static int measure(timers *t, what op, uint16_t *c, long m, long n, int fill, int warmup, int repeats,
                   const char *label)
{
    const size_t bytes = (size_t)m * (size_t)n * 2u;
    double *gpu = malloc((size_t)repeats * sizeof *gpu), *host = malloc((size_t)repeats * sizeof *host);
    int ok = gpu && host;
    if (!ok)
        fprintf(stderr, "bench-output-scan: out of host memory\n");
    for (int i = 0; ok && i < warmup + repeats; i++) {
        double g, h;
        /* The poison rewrites the output: refill it before every scan. */
        ok = cuda_ok(cudaMemsetAsync(c, fill, bytes, t->stream), "filling the output") &&
             time_once(t, op, c, m, n, &g, &h);
        if (ok && i >= warmup) {
            gpu[i - warmup] = g;
            host[i - warmup] = h;
        }
    }
    if (ok) {
        char line[96];
        snprintf(line, sizeof line, "%s, GPU (events)", label);
        print_summary(line, gpu, (size_t)repeats, (double)bytes);
        if (op == SCAN) {
            snprintf(line, sizeof line, "%s, enqueue (host)", label);
            print_summary(line, host, (size_t)repeats, 0);
        }
    }
    free(gpu);
    free(host);
    return ok;
}

/* The per-round read-back as bench/measure/output_watch.c makes it: one
 * copy of the counters to pinned memory and a synchronize, GPU idle. */
static int measure_read_back(timers *t, int warmup, int repeats)
{
    double *us = malloc((size_t)repeats * sizeof *us);
    int ok = us != NULL;
    for (int i = 0; ok && i < warmup + repeats; i++) {
        ok = cuda_ok(cudaDeviceSynchronize(), "synchronizing");
        const double before = hb_now_s();
        ok = ok && cuda_ok(cudaMemcpyAsync(t->host, t->counters, COUNTERS * sizeof *t->host, cudaMemcpyDeviceToHost,
                                           t->stream), "copying the counters") &&
             cuda_ok(cudaStreamSynchronize(t->stream), "synchronizing the copy");
        if (ok && i >= warmup)
            us[i - warmup] = (hb_now_s() - before) * 1e6;
    }
    if (ok)
        print_summary("per-round read-back (8 counters)", us, (size_t)repeats, 0);
    free(us);
    return ok;
}

static int bench_size(timers *t, const size_case *size, int warmup, int repeats)
{
    const size_t bytes = (size_t)size->m * (size_t)size->n * 2u;
    uint16_t *c = NULL;
    if (!cuda_ok(cudaMalloc((void **)&c, bytes), "allocating the output"))
        return 0;
    printf("M x N = %ld x %ld (%.1f MiB of output)\n", size->m, size->n, (double)bytes / (1 << 20));
    /* 0x3C3C: 1.0586 in fp16, finite: the honest case. */
    int ok = measure(t, SCAN, c, size->m, size->n, 0x3C, warmup, repeats, "scan, clean output") &&
             measure(t, SCAN, c, size->m, size->n, 0xFF, warmup, repeats, "scan, all poisoned") &&
             measure(t, POISON, c, size->m, size->n, 0x3C, warmup, repeats, "poison fill (for comparison)");
    cudaFree(c);
    return ok;
}

int main(int argc, char **argv)
{
    int warmup = 20, repeats = 200;
    if (argc == 3) {
        warmup = atoi(argv[1]);
        repeats = atoi(argv[2]);
    }
    if (argc != 1 && argc != 3) {
        fprintf(stderr, "usage: bench-output-scan [WARMUP REPEATS]\n");
        return 2;
    }
    if (warmup < 0 || repeats < 1) {
        fprintf(stderr, "bench-output-scan: WARMUP must be >= 0 and REPEATS >= 1\n");
        return 2;
    }
    struct cudaDeviceProp prop;
    if (!cuda_ok(cudaGetDeviceProperties(&prop, 0), "reading device 0 (is there a GPU?)"))
        return 5;
    printf("GPU: %s (%d SMs, L2 %d MiB); %d warm-up and %d timed repetitions per figure\n", prop.name,
           prop.multiProcessorCount, prop.l2CacheSize >> 20, warmup, repeats);
    timers t;
    int ok = timers_create(&t);
    for (size_t i = 0; ok && i < sizeof sizes / sizeof sizes[0]; i++)
        ok = bench_size(&t, &sizes[i], warmup, repeats);
    ok = ok && measure_read_back(&t, warmup, repeats);
    timers_destroy(&t);
    return ok ? 0 : 5;
}
