/* GPU tests of the trace pass (docs/trace.md): fake participants written here,
 * each launching the harness's fill kernel (bench/gpu/fill.h: 64 x 64 halves,
 * 16 blocks of 256 threads) in its own way, traced by CUPTI and judged.  One
 * on the timed stream (one kernel, its grid, block and name, a kernel time, no
 * finding but host-time), one that allocates inside the call, one that uses
 * its own stream, one that synchronizes, one whose first call launches more,
 * one that creates a stream, the timed stream being the legacy default
 * stream, the trace file of two, and the kernels-only experiment.  Each skips
 * without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/gpu/cuda_check.h"
#include "bench/gpu/fill.h"
#include "bench/report/trace_file.h"
#include "bench/trace/tracer.h"
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
    hb_participant_trace *trace;
    hb_kernel_time time;
    hb_conduct conduct;
} traced;

/* Traces CALLS calls of a fake of `kind` with the timed stream `timed` and judges them. */
static void trace_fake(fake_kind kind, cudaStream_t timed, traced *out)
{
    fake f;
    hb_participant p;
    fake_create(kind, "fake", &f, &p);
    hb_tracer *tracer = NULL;
    assert_int_equal(hb_tracer_open(&tracer), HB_OK);
    out->trace = calloc(1, sizeof *out->trace);
    assert_non_null(out->trace);
    hb_gemm_io io = {.m = ROWS, .n = COLS, .k = 64};
    hb_status status = hb_trace_participant(tracer, &p, &io, timed, CALLS, out->trace);
    hb_tracer_close(tracer);
    p.ops->destroy(&p);
    assert_int_equal(status, HB_OK);
    hb_judge_conduct(out->trace, &out->time, &out->conduct);
    printf("  fake %d: timed stream %u, kernel span %.1f us, sum %.1f us, wall %.1f us\n", (int)kind,
           out->trace->timed_stream_id, out->time.span_us, out->time.sum_us, out->time.wall_us);
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
        assert_true(k->start_ns >= call->window_start_ns && k->end_ns <= call->window_end_ns);
        assert_true(k->end_ns > k->start_ns);
        int launches = 0;
        for (int i = 0; i < call->n_api; i++)
            launches += call->api[i].api_class == HB_API_LAUNCH && !call->api[i].nested;
        if (launches != 1) {
            for (int i = 0; i < call->n_api; i++)
                printf("    call %d api %s (%s)%s\n", c, call->api[i].name, hb_api_class_name(call->api[i].api_class),
                       call->api[i].nested ? " nested" : "");
            fail_msg("call %d: %d launch calls recorded, expected 1", c, launches);
        }
        assert_true(call->wall_us > 0);
    }
    assert_true(t.time.span_us > 0);
    assert_true(t.time.sum_us == t.time.span_us); /* one kernel: both are its duration */
    assert_true(t.time.span_us < t.time.wall_us);
    assert_true(t.time.host_us > 0);
    assert_int_equal(t.time.kernels_per_call, 1);
    /* The harness's own synchronize and the probe are not the participant's. */
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
    expect_line_has(&t, HB_FINDING_OTHER_STREAM, "3 of 3 kernels");
    expect_line_has(&t, HB_FINDING_OTHER_STREAM, "3 of 3 kernels (fill_normal_kernel) ran on stream");
    for (int c = 0; c < CALLS; c++)
        assert_true(t.trace->call[c].kernels[0].stream_id != t.trace->timed_stream_id);
    assert_false(found(&t, HB_FINDING_CREATE)); /* its stream was made before the calls */
    assert_true(t.time.span_us > 0);            /* the kernel time sees it; events on the timed stream would not */
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

/* One tracer, two participants, one trace file. */
static void test_gpu_trace_file_of_two(void **state)
{
    (void)state;
    REQUIRE_GPU();
    fake fa, fb;
    hb_participant pa, pb;
    fake_create(ON_TIMED, "honest", &fa, &pa);
    fake_create(OWN_STREAM, "sneaky", &fb, &pb);
    hb_participant_trace *ta = calloc(1, sizeof *ta), *tb = calloc(1, sizeof *tb);
    assert_non_null(ta);
    assert_non_null(tb);
    cudaStream_t timed = new_timed_stream();
    hb_tracer *tracer = NULL;
    assert_int_equal(hb_tracer_open(&tracer), HB_OK);
    hb_gemm_io io = {.m = ROWS, .n = COLS, .k = 64};
    assert_int_equal(hb_trace_participant(tracer, &pa, &io, timed, 2, ta), HB_OK);
    assert_int_equal(hb_trace_participant(tracer, &pb, &io, timed, 2, tb), HB_OK);
    hb_tracer_close(tracer);
    pa.ops->destroy(&pa);
    pb.ops->destroy(&pb);
    /* The second trace holds none of the first's records. */
    assert_int_equal(ta->call[0].n_kernels, 1);
    assert_int_equal(tb->call[0].n_kernels, 1);
    assert_int_equal(ta->timed_stream_id, tb->timed_stream_id);

    char dir[512], path[600];
    hb_test_make_temp_dir("hb-gpu-trace", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/trace.json", dir);
    const hb_participant_trace *traces[] = {ta, tb};
    hb_mnk mnk = {ROWS, COLS, 64};
    assert_int_equal(hb_trace_file_write(path, &mnk, traces, 2), HB_OK);
    json_t *root = hb_test_load_json(path);
    json_t *parts = json_object_get(root, "participants");
    assert_int_equal(json_array_size(parts), 2);
    json_t *sneaky = json_array_get(parts, 1);
    assert_string_equal(json_string_value(json_object_get(sneaky, "name")), "sneaky");
    json_t *kernel = json_array_get(json_object_get(json_array_get(json_object_get(sneaky, "calls"), 0), "kernels"), 0);
    assert_non_null(strstr(json_string_value(json_object_get(kernel, "name")), "fill_normal_kernel"));
    assert_int_equal(json_integer_value(json_array_get(json_object_get(kernel, "grid"), 0)), FILL_BLOCKS);
    json_t *findings = json_object_get(sneaky, "findings");
    int other = 0;
    for (size_t i = 0; i < json_array_size(findings); i++)
        other |= !strcmp(json_string_value(json_object_get(json_array_get(findings, i), "name")), "other-stream");
    assert_true(other);
    json_decref(root);
    hb_test_remove_tree(dir);
    free(ta);
    free(tb);
    cudaStreamDestroy(timed);
}

/* The lead's experiment: kernel records only, counted, over many launches. */
static void test_gpu_tracer_kernels_only(void **state)
{
    (void)state;
    REQUIRE_GPU();
    hb_tracer *tracer = NULL, *second = NULL;
    assert_int_equal(hb_tracer_open_kernels_only(&tracer), HB_OK);
    assert_int_equal(hb_tracer_open(&second), HB_ERR_INTERNAL); /* one at a time */
    assert_null(second);
    unsigned long long before = hb_tracer_records_seen(tracer);
    uint16_t *buffer = NULL;
    cudaStream_t stream = new_timed_stream();
    assert_int_equal(cudaMalloc((void **)&buffer, ROWS * COLS * sizeof *buffer), cudaSuccess);
    for (int i = 0; i < 200; i++)
        assert_int_equal(hb_fill_normal_f16(buffer, ROWS, COLS, 0, 7, stream), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    unsigned long long seen = hb_tracer_records_seen(tracer) - before;
    printf("  kernels-only: %llu records for 200 launches, %llu dropped\n", seen, hb_tracer_records_dropped(tracer));
    assert_true(seen >= 200);
    assert_true(hb_tracer_records_dropped(tracer) == 0);
    /* It keeps no records, so it cannot trace a participant. */
    fake f;
    hb_participant p;
    fake_create(ON_TIMED, "fake", &f, &p);
    hb_participant_trace *t = calloc(1, sizeof *t);
    assert_non_null(t);
    hb_gemm_io io = {.m = ROWS, .n = COLS, .k = 64};
    assert_int_equal(hb_trace_participant(tracer, &p, &io, stream, 1, t), HB_ERR_INTERNAL);
    hb_tracer_close(tracer);
    p.ops->destroy(&p);
    free(t);
    cudaFree(buffer);
    cudaStreamDestroy(stream);
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
        cmocka_unit_test(test_gpu_trace_file_of_two),
        cmocka_unit_test(test_gpu_tracer_kernels_only),
    };
    return HB_TEST_LIST(tests);
}
