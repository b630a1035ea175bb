/* GPU tests of the call monitor (docs/trace.md): fake participants written
 * here, each launching the harness's fill kernel (bench/gpu/fill.h: 64 x 64
 * halves, 16 blocks of 256 threads) in its own way, timed as the windows time
 * a call while CUPTI watches, and judged.  One on the timed stream (one
 * kernel, its grid, block and name, a kernel time, CUPTI's reading of the
 * events equal to cudaEventElapsedTime, no finding but host-time), one that
 * allocates inside the call, one that uses its own stream, one that
 * synchronizes, one whose first call launches more, one that creates a
 * stream, the timed stream being the legacy default stream, and two
 * participants in one monitor across a checkpoint.  Each skips without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/gpu/cuda_check.h"
#include "bench/gpu/fill.h"
#include "bench/measure/sample_timer.h"
#include "bench/result/timer_check.h"
#include "bench/trace/call_monitor.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define ROWS 64
#define COLS 64       /* 4096 elements: the fill launches 16 blocks of 256 threads */
#define FILL_BLOCKS 16
#define FILL_THREADS 256
#define CALLS 3

typedef enum fake_kind {
    ON_TIMED,         /* one kernel on the stream it is given */
    ON_LEGACY,        /* one kernel on stream 0, the legacy default stream */
    ALLOC_INSIDE,     /* cudaMalloc, the kernel into it, cudaFree */
    OWN_STREAM,       /* one kernel on a stream of its own, made before the calls */
    SYNC_INSIDE,      /* the kernel, then cudaDeviceSynchronize */
    FIRST_CALL_EXTRA, /* three more kernels in its first call ("tuning") */
    CREATE_INSIDE,    /* a stream created and destroyed in the call */
} fake_kind;

typedef struct fake {
    fake_kind kind;
    uint16_t *buffer;
    cudaStream_t own;
    int launches;
} fake;

static hb_status no_op(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    (void)self, (void)io, (void)stream;
    return HB_OK;
}

static hb_status fill(uint16_t *dst, cudaStream_t stream)
{
    HB_CUDA_TRY(hb_fill_normal_f16(dst, ROWS, COLS, 0, 7, stream));
    return HB_OK;
}

static hb_status alloc_inside(cudaStream_t stream)
{
    uint16_t *scratch = NULL;
    HB_CUDA_TRY(cudaMalloc((void **)&scratch, ROWS * COLS * sizeof *scratch));
    HB_TRY(fill(scratch, stream));
    HB_CUDA_TRY(cudaFree(scratch));
    return HB_OK;
}

static hb_status create_inside(fake *f, cudaStream_t stream)
{
    cudaStream_t made;
    HB_CUDA_TRY(cudaStreamCreateWithFlags(&made, cudaStreamNonBlocking));
    HB_TRY(fill(f->buffer, stream));
    HB_CUDA_TRY(cudaStreamDestroy(made));
    return HB_OK;
}

static hb_status fake_launch(hb_participant *self, const hb_gemm_io *io, cudaStream_t stream)
{
    (void)io;
    fake *f = self->impl;
    int first = f->launches++ == 0;
    switch (f->kind) {
    case ON_TIMED:
        return fill(f->buffer, stream);
    case ON_LEGACY:
        return fill(f->buffer, 0);
    case ALLOC_INSIDE:
        return alloc_inside(stream);
    case OWN_STREAM:
        return fill(f->buffer, f->own);
    case SYNC_INSIDE:
        HB_TRY(fill(f->buffer, stream));
        HB_CUDA_TRY(cudaDeviceSynchronize());
        return HB_OK;
    case FIRST_CALL_EXTRA:
        for (int i = 0; first && i < 3; i++)
            HB_TRY(fill(f->buffer, stream));
        return fill(f->buffer, stream);
    case CREATE_INSIDE:
        return create_inside(f, stream);
    }
    return HB_ERR_INTERNAL;
}

static void fake_destroy(hb_participant *self)
{
    fake *f = self->impl;
    cudaFree(f->buffer);
    if (f->own)
        cudaStreamDestroy(f->own);
}

static const hb_participant_ops fake_ops = {no_op, no_op, fake_launch, no_op, fake_destroy, NULL};

static void fake_create(fake_kind kind, const char *name, fake *f, hb_participant *p)
{
    memset(f, 0, sizeof *f);
    memset(p, 0, sizeof *p);
    f->kind = kind;
    assert_int_equal(cudaMalloc((void **)&f->buffer, ROWS * COLS * sizeof *f->buffer), cudaSuccess);
    if (kind == OWN_STREAM)
        assert_int_equal(cudaStreamCreateWithFlags(&f->own, cudaStreamNonBlocking), cudaSuccess);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->ops = &fake_ops;
    p->impl = f;
}

typedef struct traced {
    hb_participant_trace *trace; /* the first calls, whole */
    hb_kernel_time time;
    hb_conduct conduct;
    double event_us[CALLS];      /* cudaEventElapsedTime of each call */
    double device_us[CALLS];     /* CUPTI's device timestamps of the same two events */
    int calls_watched;
} traced;

/* A timer on `timed` (the harness's own, or the legacy default stream). */
static void timer_on(cudaStream_t timed, hb_sample_timer *timer)
{
    memset(timer, 0, sizeof *timer);
    timer->stream = timed;
    assert_int_equal(cudaEventCreate(&timer->start), cudaSuccess);
    assert_int_equal(cudaEventCreate(&timer->stop), cudaSuccess);
}

/* Times CALLS calls of a fake of `kind` on the timed stream `timed`, as the
 * windows do, under the call monitor, and judges what it saw. */
static void trace_fake(fake_kind kind, cudaStream_t timed, traced *out)
{
    fake f;
    hb_participant p;
    fake_create(kind, "fake", &f, &p);
    hb_call_monitor *monitor = NULL;
    assert_int_equal(hb_monitor_open(CALLS, HB_MONITOR_ALL, &monitor), HB_OK);
    hb_participant *parts[] = {&p};
    assert_int_equal(hb_monitor_attach(monitor, parts, 1, timed), HB_OK);
    hb_sample_timer timer;
    timer_on(timed, &timer);
    hb_gemm_io io = {.m = ROWS, .n = COLS, .k = 64};
    for (int c = 0; c < CALLS; c++) {
        double event_ms, wall_ms;
        assert_int_equal(hb_time_one_call(&timer, &p, &io, HB_CALL_TIMED, c, &event_ms, &wall_ms), HB_OK);
        out->event_us[c] = event_ms * 1e3;
    }
    assert_int_equal(hb_monitor_checkpoint(monitor), HB_OK);
    hb_watched *w = hb_monitor_watched(monitor, 0);
    out->trace = calloc(1, sizeof *out->trace);
    assert_non_null(out->trace);
    *out->trace = *w->detail;
    out->calls_watched = w->tally.calls;
    for (int c = 0; c < CALLS; c++)
        out->device_us[c] = w->timed_event_device_us.data[c];
    double wall_us[CALLS];
    for (int c = 0; c < CALLS; c++)
        wall_us[c] = w->detail->call[c].wall_us;
    hb_watched_kernel_time(w, wall_us, CALLS, &out->time);
    hb_judge_tally(&w->tally, &out->time, p.device_state, NULL, &out->conduct);
    hb_monitor_close(monitor);
    p.ops->destroy(&p);
    cudaEventDestroy(timer.start);
    cudaEventDestroy(timer.stop);
    printf("  fake %d: timed stream %u, kernel span %.1f us, sum %.1f us, wall %.1f us\n", (int)kind,
           out->trace->timed_stream_id, out->time.span_us, out->time.sum_us, out->time.wall_us);
    for (int c = 0; c < CALLS; c++)
        printf("    call %d: event %.2f us, CUPTI's reading of the same events %.2f us\n", c, out->event_us[c],
               out->device_us[c]);
    for (int f_ = 0; f_ < HB_N_FINDINGS; f_++)
        if (out->conduct.found & HB_FINDING_BIT(f_))
            printf("    %s\n", out->conduct.line[f_]);
}

static cudaStream_t new_timed_stream(void)
{
    cudaStream_t stream;
    assert_int_equal(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    return stream;
}

static int found(const traced *t, hb_finding f) { return (t->conduct.found & HB_FINDING_BIT(f)) != 0; }

static void expect_line_has(const traced *t, hb_finding f, const char *needle)
{
    if (!strstr(t->conduct.line[f], needle))
        fail_msg("the %s line \"%s\" lacks \"%s\"", hb_finding_name(f), t->conduct.line[f], needle);
}

static void test_gpu_trace_timed_stream(void **state)
{
    (void)state;
    REQUIRE_GPU();
    cudaStream_t timed = new_timed_stream();
    traced t;
    trace_fake(ON_TIMED, timed, &t);
    assert_int_equal(t.trace->calls, CALLS);
    assert_true(t.trace->records_dropped == 0);
    for (int c = 0; c < CALLS; c++) {
        const hb_call_trace *call = &t.trace->call[c];
        assert_int_equal(call->n_kernels, 1);
        const hb_traced_kernel *k = &call->kernels[0];
        assert_non_null(strstr(k->name, "fill_normal_kernel"));
        assert_string_equal(k->display_name, "fill_normal_kernel"); /* demangled, parameters cut */
        assert_int_equal(k->grid[0], FILL_BLOCKS);
        assert_int_equal(k->grid[1], 1);
        assert_int_equal(k->block[0], FILL_THREADS);
        assert_int_equal(k->block[1], 1);
        assert_true(k->registers > 0);
        assert_int_equal(k->static_smem, 0);
        assert_int_equal(k->dynamic_smem, 0);
        assert_int_equal(k->stream_id, t.trace->timed_stream_id);
        assert_true(k->start_ns >= call->launch_start_ns && k->end_ns <= call->window_end_ns);
        assert_true(k->end_ns > k->start_ns);
        /* A launch costs no callback: an honest call records no API call at all. */
        if (call->n_api != 0)
            fail_msg("call %d: %d API calls recorded (first %s), expected none", c, call->n_api, call->api[0].name);
        assert_true(call->wall_us > 0);
        assert_int_equal(call->kind, HB_CALL_TIMED);
        assert_int_equal(call->sample, c);
        /* Where CUPTI read the same two events (in a process whose context
         * existed before CUPTI, as this one's, it may not: the evaluation
         * opens CUPTI first, and test_gpu_kernel_time_columns checks it
         * there), it read what the harness timed, to within their tick. */
        if (!isnan(t.device_us[c]) && fabs(t.device_us[c] - t.event_us[c]) > HB_TIMER_DEVICE_TOLERANCE_US)
            fail_msg("call %d: events %.2f us, CUPTI's reading %.2f us", c, t.event_us[c], t.device_us[c]);
        assert_true(t.event_us[c] >= hb_call_kernel_span_us(call) - HB_TIMER_KERNEL_TOLERANCE_US);
    }
    assert_int_equal(t.calls_watched, CALLS);
    assert_true(t.time.span_us > 0);
    assert_true(t.time.sum_us == t.time.span_us); /* one kernel: both are its duration */
    assert_true(t.time.span_us < t.time.wall_us);
    assert_true(t.time.host_us > 0);
    assert_int_equal(t.time.kernels_per_call, 1);
    /* The harness's own events, synchronizes and probe are not the participant's. */
    assert_int_equal(t.conduct.found, HB_FINDING_BIT(HB_FINDING_HOST_TIME));
    free(t.trace);
    cudaStreamDestroy(timed);
}

static void test_gpu_trace_alloc_inside(void **state)
{
    (void)state;
    REQUIRE_GPU();
    cudaStream_t timed = new_timed_stream();
    traced t;
    trace_fake(ALLOC_INSIDE, timed, &t);
    assert_true(found(&t, HB_FINDING_ALLOC));
    expect_line_has(&t, HB_FINDING_ALLOC, "cudaMalloc x1");
    expect_line_has(&t, HB_FINDING_ALLOC, "cudaFree x1");
    expect_line_has(&t, HB_FINDING_ALLOC, "per call");
    /* The driver calls cudaMalloc makes are cudaMalloc's, not counted again. */
    assert_null(strstr(t.conduct.line[HB_FINDING_ALLOC], "cuMem"));
    assert_false(found(&t, HB_FINDING_OTHER_STREAM));
    free(t.trace);
    cudaStreamDestroy(timed);
}

static void test_gpu_trace_own_stream(void **state)
{
    (void)state;
    REQUIRE_GPU();
    cudaStream_t timed = new_timed_stream();
    traced t;
    trace_fake(OWN_STREAM, timed, &t);
    assert_true(found(&t, HB_FINDING_OTHER_STREAM));
    expect_line_has(&t, HB_FINDING_OTHER_STREAM, "3 of 3 kernels (fill_normal_kernel) ran on stream");
    expect_line_has(&t, HB_FINDING_OTHER_STREAM, "in every call");
    for (int c = 0; c < CALLS; c++)
        assert_true(t.trace->call[c].kernels[0].stream_id != t.trace->timed_stream_id);
    assert_false(found(&t, HB_FINDING_CREATE)); /* its stream was made before the calls */
    assert_true(t.time.span_us > 0);            /* the kernel time sees it; events on the timed stream would not */
    for (int c = 0; c < CALLS; c++)              /* the events missed the kernel: below its span */
        printf("    call %d: event %.2f us against kernel span %.2f us\n", c, t.event_us[c],
               hb_call_kernel_span_us(&t.trace->call[c]));
    free(t.trace);
    cudaStreamDestroy(timed);
}

static void test_gpu_trace_sync_inside(void **state)
{
    (void)state;
    REQUIRE_GPU();
    cudaStream_t timed = new_timed_stream();
    traced t;
    trace_fake(SYNC_INSIDE, timed, &t);
    assert_true(found(&t, HB_FINDING_SYNC));
    assert_int_equal(strncmp(t.conduct.line[HB_FINDING_SYNC], "sync: cudaDeviceSynchronize x1 per call", 39), 0);
    assert_false(found(&t, HB_FINDING_ALLOC));
    free(t.trace);
    cudaStreamDestroy(timed);
}

static void test_gpu_trace_first_call(void **state)
{
    (void)state;
    REQUIRE_GPU();
    cudaStream_t timed = new_timed_stream();
    traced t;
    trace_fake(FIRST_CALL_EXTRA, timed, &t);
    assert_true(found(&t, HB_FINDING_FIRST_CALL));
    expect_line_has(&t, HB_FINDING_FIRST_CALL, "the first call ran 4 kernels");
    assert_int_equal(t.time.first_call_kernels, 4);
    assert_int_equal(t.time.kernels_per_call, 1);
    assert_false(found(&t, HB_FINDING_MULTI_KERNEL));
    assert_true(t.time.first_span_us > t.time.span_us); /* four kernels one after another */
    free(t.trace);
    cudaStreamDestroy(timed);
}

static void test_gpu_trace_create_inside(void **state)
{
    (void)state;
    REQUIRE_GPU();
    cudaStream_t timed = new_timed_stream();
    traced t;
    trace_fake(CREATE_INSIDE, timed, &t);
    assert_true(found(&t, HB_FINDING_CREATE));
    expect_line_has(&t, HB_FINDING_CREATE, "cudaStreamCreateWithFlags x1");
    expect_line_has(&t, HB_FINDING_CREATE, "cudaStreamDestroy x1");
    free(t.trace);
    cudaStreamDestroy(timed);
}

/* The run may time on the legacy default stream: the probe names it too. */
static void test_gpu_trace_legacy_stream(void **state)
{
    (void)state;
    REQUIRE_GPU();
    traced t;
    trace_fake(ON_TIMED, cudaStreamLegacy, &t);
    assert_false(found(&t, HB_FINDING_OTHER_STREAM));
    assert_int_equal(t.trace->call[1].kernels[0].stream_id, t.trace->timed_stream_id);
    uint32_t legacy_id = t.trace->timed_stream_id;
    free(t.trace);
    /* Stream 0 is the legacy stream: the same stream when it is the timed one... */
    trace_fake(ON_LEGACY, cudaStreamLegacy, &t);
    assert_false(found(&t, HB_FINDING_OTHER_STREAM));
    assert_int_equal(t.trace->timed_stream_id, legacy_id);
    free(t.trace);
    /* ...another when the harness times on its own stream. */
    cudaStream_t timed = new_timed_stream();
    trace_fake(ON_LEGACY, timed, &t);
    assert_true(found(&t, HB_FINDING_OTHER_STREAM));
    assert_true(t.trace->timed_stream_id != legacy_id);
    assert_int_equal(t.trace->call[0].kernels[0].stream_id, legacy_id);
    free(t.trace);
    cudaStreamDestroy(timed);
}

/* One monitor, two participants: each call's records go to its own participant. */
static void test_gpu_monitor_two_participants(void **state)
{
    (void)state;
    REQUIRE_GPU();
    fake fa, fb;
    hb_participant pa, pb;
    fake_create(ON_TIMED, "honest", &fa, &pa);
    fake_create(OWN_STREAM, "sneaky", &fb, &pb);
    cudaStream_t timed = new_timed_stream();
    hb_call_monitor *monitor = NULL, *second = NULL;
    assert_int_equal(hb_monitor_open(2, HB_MONITOR_ALL, &monitor), HB_OK);
    assert_int_equal(hb_monitor_open(2, HB_MONITOR_ALL, &second), HB_ERR_INTERNAL); /* one per process */
    assert_null(second);
    hb_participant *parts[] = {&pa, &pb};
    assert_int_equal(hb_monitor_attach(monitor, parts, 2, timed), HB_OK);
    hb_sample_timer timer;
    timer_on(timed, &timer);
    hb_gemm_io io = {.m = ROWS, .n = COLS, .k = 64};
    /* Rounds, as the windows play them, with a checkpoint in the middle. */
    for (int round = 0; round < 6; round++) {
        double e, w;
        assert_int_equal(hb_time_one_call(&timer, round % 2 ? &pa : &pb, &io, HB_CALL_TIMED, round, &e, &w), HB_OK);
        assert_int_equal(hb_time_one_call(&timer, round % 2 ? &pb : &pa, &io, HB_CALL_TIMED, round, &e, &w), HB_OK);
        if (round == 2)
            assert_int_equal(hb_monitor_checkpoint(monitor), HB_OK);
    }
    assert_int_equal(hb_monitor_checkpoint(monitor), HB_OK);
    hb_watched *wa = hb_monitor_watched(monitor, 0), *wb = hb_monitor_watched(monitor, 1);
    assert_int_equal(wa->tally.calls, 6);
    assert_int_equal(wb->tally.calls, 6);
    assert_int_equal(wa->tally.kernels, 6);
    assert_int_equal(wb->tally.kernels, 6);
    assert_int_equal(wa->tally.other_stream_calls, 0);
    assert_int_equal(wb->tally.other_stream_calls, 6);
    assert_int_equal(wa->timed_span_us.len, 6);
    for (size_t i = 0; i < 6; i++)
        assert_true(wa->timed_span_us.data[i] > 0 && wb->timed_span_us.data[i] > 0);
    assert_int_equal(wa->detail->calls, 2);
    assert_int_equal(wa->detail->call[1].index, 1);
    assert_int_equal(hb_monitor_lost(monitor), 0);
    hb_monitor_close(monitor);
    pa.ops->destroy(&pa);
    pb.ops->destroy(&pb);
    cudaEventDestroy(timer.start);
    cudaEventDestroy(timer.stop);
    cudaStreamDestroy(timed);
}

hb_test_list hb_gpu_trace_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_trace_timed_stream),
        cmocka_unit_test(test_gpu_trace_alloc_inside),
        cmocka_unit_test(test_gpu_trace_own_stream),
        cmocka_unit_test(test_gpu_trace_sync_inside),
        cmocka_unit_test(test_gpu_trace_first_call),
        cmocka_unit_test(test_gpu_trace_create_inside),
        cmocka_unit_test(test_gpu_trace_legacy_stream),
        cmocka_unit_test(test_gpu_monitor_two_participants),
    };
    return HB_TEST_LIST(tests);
}
