/* What the always-on call monitor costs a timed call on this GPU
 * (docs/trace.md, "What it costs"; scripts/bench_call_monitor.sh builds and
 * runs it; never part of `make test`).  For each size M = N = K it times one
 * cublasGemmEx call, as torch.matmul makes it, through the harness's own
 * timed call (hb_time_one_call: synchronize, start event, the call, stop
 * event, synchronize), in blocks of calls that rotate between the monitor
 * off (no CUPTI in the process) and on with one part of it at a time
 * (kernel activity, copy and set activity, event records with device
 * timestamps, the API callbacks) and with all of them, as the harness runs
 * it (the call watched, a checkpoint after the block), so that clock drift
 * falls on every state alike.  It prints, per size, the medians and p10/p90
 * of the event and wall times in each state and their difference from off,
 * and the monitor's kernel span for scale.  A benchmark, not a test.
 * With GAP_MS it sleeps that long before every call, as server mode does;
 * and it prints, per state with the event records, the distribution of
 * event time minus CUPTI's device reading of the same events.
 * Usage: bench-call-monitor [BLOCKS [GAP_MS]] (default 8 blocks of each state, no gap). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/stats.h"
#include "bench/measure/sample_timer.h"
#include "bench/trace/call_monitor.h"

typedef struct size_case {
    long mnk;
    int calls_per_block;
} size_case;

static const size_case sizes[] = {{64, 400}, {4096, 100}, {16384, 10}};

typedef struct gemm {
    cublasHandle_t handle;
    void *a, *b, *c;
    int n;
} gemm;

static int cuda_ok(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        fprintf(stderr, "bench-call-monitor: %s failed: %s\n", what, cudaGetErrorString(err));
    return err == cudaSuccess;
}

static hb_status no_op(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    (void)self, (void)io, (void)stream;
    return HB_OK;
}

/* torch.matmul's call for row-major fp16 (docs/methodology.md, "Participants"). */
static hb_status gemm_launch(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    (void)io;
    gemm *g = self->impl;
    const float one = 1, zero = 0;
    if (cublasSetStream(g->handle, stream) != CUBLAS_STATUS_SUCCESS ||
        cublasGemmEx(g->handle, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->n, g->n, &one, g->b, CUDA_R_16F, g->n, g->a,
                     CUDA_R_16F, g->n, &zero, g->c, CUDA_R_16F, g->n, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT_TENSOR_OP) != CUBLAS_STATUS_SUCCESS)
        return HB_ERR_CUDA;
    return HB_OK;
}

static void gemm_destroy(hb_participant *self) { (void)self; }

static const hb_participant_ops gemm_ops = {no_op, no_op, gemm_launch, no_op, gemm_destroy, NULL};

typedef struct samples {
    double *event_us, *wall_us;
    double *device_diff_us; /* event - CUPTI's device reading of the same events, where it read both */
    size_t n, n_diff;
} samples;

static double gap_s; /* idle before every call (a server-like run); 0: back to back */

static int time_block(hb_sample_timer *timer, hb_participant *p, int calls, samples *out)
{
    hb_gemm_io io = {0};
    for (int i = 0; i < calls; i++) {
        double event_ms, wall_ms;
        if (gap_s > 0) {
            struct timespec ts = {0, (long)(gap_s * 1e9)};
            nanosleep(&ts, NULL);
        }
        if (hb_time_one_call(timer, p, &io, HB_CALL_TIMED, (long)i, &event_ms, &wall_ms) != HB_OK)
            return 0;
        out->event_us[out->n] = event_ms * 1e3;
        out->wall_us[out->n++] = wall_ms * 1e3;
    }
    return 1;
}

typedef struct state {
    const char *label;
    unsigned features; /* 0: the monitor off */
} state;

static const state states[] = {
    {"off", 0},
    {"kernels", HB_MONITOR_KERNELS},
    {"copies", HB_MONITOR_COPIES},
    {"events", HB_MONITOR_EVENTS},
    {"callbacks", HB_MONITOR_CALLBACKS},
    {"all (harness)", HB_MONITOR_ALL},
};
#define N_STATES (sizeof states / sizeof states[0])

/* One block with the monitor on: opened, the participant watched, a checkpoint, closed. */
static int monitored_block(hb_sample_timer *timer, hb_participant *p, unsigned features, int calls, samples *out,
                           double *kernel_us)
{
    hb_call_monitor *m = NULL;
    if (hb_monitor_open(2, features, &m) != HB_OK)
        return 0;
    hb_participant *parts[] = {p};
    const size_t first = out->n;
    int ok = hb_monitor_attach(m, parts, 1, timer->stream) == HB_OK && time_block(timer, p, calls, out) &&
             hb_monitor_checkpoint(m) == HB_OK;
    if (ok) {
        hb_watched *w = hb_monitor_watched(m, 0);
        for (size_t i = 0; i < w->timed_event_device_us.len && first + i < out->n; i++)
            if (!isnan(w->timed_event_device_us.data[i]))
                out->device_diff_us[out->n_diff++] = out->event_us[first + i] - w->timed_event_device_us.data[i];
        double *scratch = malloc(w->timed_span_us.len * sizeof *scratch + 1);
        if (scratch && (features & HB_MONITOR_KERNELS))
            *kernel_us = hb_finite_quantile(w->timed_span_us.data, w->timed_span_us.len, 0.5, scratch);
        free(scratch);
    }
    p->watcher = NULL;
    hb_monitor_close(m);
    return ok;
}

/* The distribution of event - CUPTI's device reading: what the timers' cross-check must tolerate. */
static void report_device(const samples *s, double *scratch)
{
    if (s->n_diff == 0)
        return;
    double sum = 0;
    size_t beyond = 0;
    for (size_t i = 0; i < s->n_diff; i++) {
        sum += s->device_diff_us[i];
        beyond += fabs(s->device_diff_us[i]) > 1.0;
    }
    printf("  %-14s event - CUPTI's reading: p1 %+.2f p10 %+.2f median %+.2f p90 %+.2f p99 %+.2f mean %+.3f us; "
           "%zu of %zu beyond 1 us\n", "",
           hb_finite_quantile(s->device_diff_us, s->n_diff, 0.01, scratch),
           hb_finite_quantile(s->device_diff_us, s->n_diff, 0.1, scratch),
           hb_finite_quantile(s->device_diff_us, s->n_diff, 0.5, scratch),
           hb_finite_quantile(s->device_diff_us, s->n_diff, 0.9, scratch),
           hb_finite_quantile(s->device_diff_us, s->n_diff, 0.99, scratch), sum / (double)s->n_diff, beyond,
           s->n_diff);
}

static void report(const char *label, const samples *s, double *scratch, double *median_event, double *median_wall)
{
    *median_event = hb_finite_quantile(s->event_us, s->n, 0.5, scratch);
    *median_wall = hb_finite_quantile(s->wall_us, s->n, 0.5, scratch);
    printf("  %-14s event %10.2f us (p10 %9.2f, p90 %9.2f)   wall %10.2f us (p10 %9.2f, p90 %9.2f)   n=%zu\n", label,
           *median_event, hb_finite_quantile(s->event_us, s->n, 0.1, scratch),
           hb_finite_quantile(s->event_us, s->n, 0.9, scratch), *median_wall,
           hb_finite_quantile(s->wall_us, s->n, 0.1, scratch), hb_finite_quantile(s->wall_us, s->n, 0.9, scratch),
           s->n);
}

static int block(hb_sample_timer *timer, hb_participant *p, const state *st, int calls, samples *out,
                 double *kernel_us)
{
    return st->features ? monitored_block(timer, p, st->features, calls, out, kernel_us)
                        : time_block(timer, p, calls, out);
}

static int run_size(const size_case *sc, int blocks)
{
    gemm g = {.n = (int)sc->mnk};
    const size_t bytes = (size_t)sc->mnk * (size_t)sc->mnk * 2u;
    if (cublasCreate(&g.handle) != CUBLAS_STATUS_SUCCESS || !cuda_ok(cudaMalloc(&g.a, bytes), "cudaMalloc A") ||
        !cuda_ok(cudaMalloc(&g.b, bytes), "cudaMalloc B") || !cuda_ok(cudaMalloc(&g.c, bytes), "cudaMalloc C") ||
        !cuda_ok(cudaMemset(g.a, 0x3c, bytes), "filling A") || !cuda_ok(cudaMemset(g.b, 0x3c, bytes), "filling B"))
        return 0;
    hb_participant p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "torch");
    p.ops = &gemm_ops;
    p.impl = &g;
    hb_sample_timer timer;
    if (hb_sample_timer_create(&timer, HB_STREAM_LEGACY) != HB_OK)
        return 0;
    const size_t total = (size_t)blocks * (size_t)sc->calls_per_block;
    static samples per_state[N_STATES];
    int ok = 1;
    for (size_t s = 0; s < N_STATES; s++) {
        per_state[s] = (samples){malloc(total * sizeof(double)), malloc(total * sizeof(double)),
                                 malloc(total * sizeof(double)), 0, 0};
        ok &= per_state[s].event_us && per_state[s].wall_us && per_state[s].device_diff_us;
    }
    samples warm = {malloc((size_t)sc->calls_per_block * sizeof(double)),
                    malloc((size_t)sc->calls_per_block * sizeof(double)), NULL, 0, 0};
    double *scratch = malloc(total * sizeof(double));
    double kernel_us = NAN;
    ok = ok && warm.event_us && warm.wall_us && scratch && time_block(&timer, &p, sc->calls_per_block, &warm);
    for (int b = 0; ok && b < blocks; b++) /* every state once per block, starting one further each time */
        for (size_t k = 0; ok && k < N_STATES; k++) {
            const size_t s = (k + (size_t)b) % N_STATES;
            ok = block(&timer, &p, &states[s], sc->calls_per_block, &per_state[s], &kernel_us);
        }
    if (ok) {
        printf("%ld^3 (%d blocks of %d calls per state; cuBLAS kernel span %.2f us)\n", sc->mnk, blocks,
               sc->calls_per_block, kernel_us);
        double event_off = 0, wall_off = 0;
        for (size_t s = 0; s < N_STATES; s++) {
            double event, wall;
            report(states[s].label, &per_state[s], scratch, &event, &wall);
            report_device(&per_state[s], scratch);
            if (s == 0) {
                event_off = event, wall_off = wall;
                continue;
            }
            printf("  %-14s cost: event %+.2f us (%+.2f %%), wall %+.2f us (%+.2f %%)\n", "", event - event_off,
                   (event / event_off - 1) * 100, wall - wall_off, (wall / wall_off - 1) * 100);
        }
    }
    for (size_t s = 0; s < N_STATES; s++)
        free(per_state[s].event_us), free(per_state[s].wall_us), free(per_state[s].device_diff_us);
    free(warm.event_us), free(warm.wall_us), free(scratch);
    hb_sample_timer_destroy(&timer);
    cudaFree(g.a), cudaFree(g.b), cudaFree(g.c);
    cublasDestroy(g.handle);
    return ok;
}

int main(int argc, char **argv)
{
    int blocks = argc > 1 ? atoi(argv[1]) : 8;
    gap_s = argc > 2 ? atof(argv[2]) * 1e-3 : 0;
    if (blocks < 1 || blocks > 1000 || gap_s < 0 || gap_s > 1) {
        fprintf(stderr, "usage: bench-call-monitor [BLOCKS [GAP_MS]]  (1..1000, default 8; GAP_MS: idle before "
                        "every call, 0..1000, default 0)\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (!run_size(&sizes[i], blocks)) {
            fprintf(stderr, "bench-call-monitor: %ld^3 failed (see above)\n", sizes[i].mnk);
            return 1;
        }
    return 0;
}
