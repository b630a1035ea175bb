/* The call monitor without a GPU (docs/trace.md): the API-class table, the
 * judge on made-up traces (each finding once where it must be found and once
 * where it must not), the tally over many calls, library kernels, the
 * kernel-time arithmetic, the attribution of records to calls, the trace
 * file read back, and CUPTI's loader when the library is not there or not
 * CUPTI. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/gpu/cupti_runtime.h"
#include "bench/report/trace_file.h"
#include "bench/result/call_trace.h"
#include "bench/result/conduct_tally.h"
#include "bench/result/library_kernel.h"
#include "bench/trace/attribute.h"
#include "bench/trace/kernel_name.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* Made-up traces: call c's window is [c ms, c ms + 100 us] on a clock that starts at BASE. */
#define BASE 1000000000ull
#define TIMED 13u

static uint64_t at(int call, double us)
{
    return (uint64_t)((int64_t)BASE + (int64_t)call * 1000000 + (int64_t)(us * 1e3));
}

static hb_participant_trace *new_trace(int calls)
{
    hb_participant_trace *t = calloc(1, sizeof *t);
    assert_non_null(t);
    snprintf(t->name, sizeof t->name, "candidate");
    t->timed_stream_id = TIMED;
    t->calls = calls;
    for (int c = 0; c < calls; c++) {
        t->call[c].index = c;
        t->call[c].window_start_ns = at(c, 0);
        t->call[c].launch_end_ns = at(c, 5);
        t->call[c].window_end_ns = at(c, 100);
        t->call[c].wall_us = 100;
    }
    return t;
}

static hb_traced_kernel *add_kernel(hb_participant_trace *t, int c, const char *name, uint32_t stream, double from_us,
                                    double to_us)
{
    hb_call_trace *call = &t->call[c];
    hb_traced_kernel *k = &call->kernels[call->n_kernels++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->grid[0] = 16, k->grid[1] = k->grid[2] = 1;
    k->block[0] = 256, k->block[1] = k->block[2] = 1;
    k->stream_id = stream;
    k->start_ns = at(c, from_us);
    k->end_ns = at(c, to_us);
    return k;
}

static hb_traced_api *add_api(hb_participant_trace *t, int c, const char *name, double from_us)
{
    hb_call_trace *call = &t->call[c];
    hb_traced_api *a = &call->api[call->n_api++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->api_class = hb_api_classify(name);
    a->start_ns = at(c, from_us);
    a->end_ns = a->start_ns + 2000;
    return a;
}

/* Every call runs one kernel on the timed stream, 10 us to 30 us. */
static hb_participant_trace *plain_trace(int calls)
{
    hb_participant_trace *t = new_trace(calls);
    for (int c = 0; c < calls; c++) {
        add_api(t, c, "cudaLaunchKernel", 1);
        add_kernel(t, c, "hgemm_kernel", TIMED, 10, 30);
    }
    return t;
}

static void judge(const hb_participant_trace *t, hb_kernel_time *time, hb_conduct *conduct)
{
    hb_judge_conduct(t, time, conduct);
    assert_int_equal(conduct->traced, 1);
    assert_int_equal(time->traced, 1);
}

static int found(const hb_conduct *conduct, hb_finding f) { return (conduct->found & HB_FINDING_BIT(f)) != 0; }

/* ---- the API-class table ---------------------------------------------------- */

static void test_api_classes_by_callback_name(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        hb_api_class expected;
    } cases[] = {
        {"cudaMalloc_v3020", HB_API_ALLOC},           {"cudaFree_v3020", HB_API_ALLOC},
        {"cudaMallocAsync_ptsz_v11020", HB_API_ALLOC}, {"cudaFreeAsync_v11020", HB_API_ALLOC},
        {"cudaMallocHost_v3020", HB_API_ALLOC},       {"cudaHostAlloc_v3020", HB_API_ALLOC},
        {"cuMemAlloc_v2", HB_API_ALLOC},              {"cuMemFree_v2", HB_API_ALLOC},
        {"cu64MemAlloc", HB_API_ALLOC},               {"cuMemCreate", HB_API_ALLOC},
        {"cudaDeviceSynchronize_v3020", HB_API_SYNC}, {"cudaStreamSynchronize_ptsz_v7000", HB_API_SYNC},
        {"cudaEventSynchronize_v3020", HB_API_SYNC},  {"cuCtxSynchronize", HB_API_SYNC},
        {"cudaStreamQuery_v3020", HB_API_SYNC},       {"cuEventQuery", HB_API_SYNC},
        {"cudaMemcpy_v3020", HB_API_SYNC},            {"cuMemcpyHtoD_v2", HB_API_SYNC},
        {"cudaMemcpyAsync_v3020", HB_API_OTHER},      {"cuMemcpyDtoHAsync_v2_ptsz", HB_API_OTHER},
        {"cudaMemsetAsync_v3020", HB_API_OTHER},      {"cudaStreamWaitEvent_v3020", HB_API_OTHER},
        {"cudaStreamCreateWithFlags_v5000", HB_API_CREATE}, {"cudaStreamDestroy_v5050", HB_API_CREATE},
        {"cudaEventCreate_v3020", HB_API_CREATE},     {"cuEventDestroy_v2", HB_API_CREATE},
        {"cudaGraphInstantiateWithFlags_v11040", HB_API_CREATE}, {"cudaStreamBeginCapture_v10000", HB_API_CREATE},
        {"cudaGraphLaunch_v10000", HB_API_GRAPH_LAUNCH}, {"cuGraphLaunch_ptsz", HB_API_GRAPH_LAUNCH},
        {"cudaEventRecord_v3020", HB_API_EVENT_TIMING}, {"cudaEventElapsedTime_v3020", HB_API_EVENT_TIMING},
        {"__cudaLaunchKernel_v13000", HB_API_LAUNCH}, {"cudaLaunchKernel_ptsz_v7000", HB_API_LAUNCH},
        {"cudaLaunchKernelExC_v11060", HB_API_LAUNCH}, {"cuLaunchKernelEx", HB_API_LAUNCH},
        {"cudaLaunchHostFunc_v10000", HB_API_OTHER},  {"cudaGetDevice_v3020", HB_API_OTHER},
        {"cudaFuncGetAttributes_v3020", HB_API_OTHER}, {"cudaStreamGetCaptureInfo_v2_v11030", HB_API_OTHER},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (hb_api_classify(cases[i].name) != cases[i].expected)
            fail_msg("%s: class %s, expected %s", cases[i].name, hb_api_class_name(hb_api_classify(cases[i].name)),
                     hb_api_class_name(cases[i].expected));
}

static void test_api_display_names_drop_the_runtime_version_tag(void **state)
{
    (void)state;
    char out[64];
    hb_api_display_name("cudaMalloc_v3020", out, sizeof out);
    assert_string_equal(out, "cudaMalloc");
    hb_api_display_name("cudaLaunchKernel_ptsz_v7000", out, sizeof out);
    assert_string_equal(out, "cudaLaunchKernel_ptsz");
    hb_api_display_name("cudaStreamGetCaptureInfo_v2_v11030", out, sizeof out);
    assert_string_equal(out, "cudaStreamGetCaptureInfo_v2");
    hb_api_display_name("cuMemAlloc_v2", out, sizeof out); /* the driver's "_v2" is the function's name */
    assert_string_equal(out, "cuMemAlloc_v2");
    hb_api_display_name("cuCtxSynchronize", out, sizeof out);
    assert_string_equal(out, "cuCtxSynchronize");
}

/* ---- kernel names ------------------------------------------------------------ */

static void test_kernel_short_names(void **state)
{
    (void)state;
    char out[HB_TRACE_DISPLAY_NAME];
    hb_kernel_short_name("_ZN12_GLOBAL__N_118fill_normal_kernelEPsllim", out, sizeof out);
    assert_string_equal(out, "fill_normal_kernel");
    hb_kernel_short_name("_ZN7cutlass6KernelIiLi3EEEvNS_6ParamsIT_EE", out, sizeof out);
    assert_string_equal(out, "cutlass::Kernel");
    hb_kernel_short_name("_Z2k2ILi128EEvPf", out, sizeof out);
    assert_string_equal(out, "k2");
    hb_kernel_short_name("hgemm_mma_pipelined", out, sizeof out); /* extern "C": as it is */
    assert_string_equal(out, "hgemm_mma_pipelined");
    hb_kernel_short_name("_Znot-a-symbol", out, sizeof out);
    assert_string_equal(out, "_Znot-a-symbol");
    hb_kernel_name_cut("void ns::k<int, foo<(int)3> >(float*, ns::p<2>)", out, sizeof out);
    assert_string_equal(out, "ns::k");
    hb_kernel_name_cut("unsigned int (anonymous namespace)::a::b(int)", out, sizeof out);
    assert_string_equal(out, "a::b");
    char small[6];
    hb_kernel_name_cut("longer_than_six(int)", small, sizeof small);
    assert_string_equal(small, "longe");
}

static void test_judge_lines_use_short_kernel_names(void **state)
{
    (void)state;
    hb_participant_trace *t = new_trace(2);
    for (int c = 0; c < 2; c++) {
        hb_traced_kernel *k = add_kernel(t, c, "_ZN7cutlass6KernelIiLi3EEEvNS_6ParamsIT_EE", 17, 10, 30);
        snprintf(k->display_name, sizeof k->display_name, "cutlass::Kernel");
    }
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_non_null(strstr(conduct.line[HB_FINDING_OTHER_STREAM], "2 of 2 kernels (cutlass::Kernel) ran"));
    free(t);
}

/* ---- the judge: one finding at a time ------------------------------------------ */

static void test_judge_plain_call_finds_host_time_only(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(3);
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_int_equal(conduct.found, HB_FINDING_BIT(HB_FINDING_HOST_TIME));
    assert_string_equal(conduct.line[HB_FINDING_HOST_TIME],
                        "host-time: 80.0 us of the 100.0 us wall time per call ran outside any kernel (kernel span "
                        "20.0 us, kernel sum 20.0 us)");
    free(t);
}

static void test_judge_other_stream(void **state)
{
    (void)state;
    hb_participant_trace *t = new_trace(2);
    for (int c = 0; c < 2; c++)
        add_kernel(t, c, "hgemm_kernel", 17, 10, 30);
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_true(found(&conduct, HB_FINDING_OTHER_STREAM));
    assert_string_equal(conduct.line[HB_FINDING_OTHER_STREAM],
                        "other-stream: 2 of 2 kernels (hgemm_kernel) ran on stream 17, not the timed stream 13 (in every "
                        "call); CUDA events miss them, the wall time counts them");
    free(t);
}

static void test_judge_other_stream_counts_sets_and_streams(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(2);
    add_kernel(t, 1, "reduce_kernel", 21, 30, 40);
    t->call[0].copies[0] = (hb_traced_copy){HB_COPY_MEMSET, 64, 7, 0, at(0, 2), at(0, 3)};
    t->call[0].n_copies = 1;
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_string_equal(conduct.line[HB_FINDING_OTHER_STREAM],
                        "other-stream: 1 of 3 kernels (reduce_kernel) and 1 of 1 copies and sets ran on streams 7, 21, "
                        "not the timed stream 13 (in every call); CUDA events miss them, the wall time counts them");
    free(t);
}

static void test_judge_timed_stream_is_not_other_stream(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(2);
    t->call[0].copies[0] = (hb_traced_copy){HB_COPY_MEMSET, 64, TIMED, 0, at(0, 2), at(0, 3)};
    t->call[0].n_copies = 1;
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_false(found(&conduct, HB_FINDING_OTHER_STREAM));
    assert_string_equal(conduct.line[HB_FINDING_OTHER_STREAM], "");
    free(t);
}

static void test_judge_alloc_per_call(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(3);
    for (int c = 0; c < 3; c++) {
        add_api(t, c, "cudaMalloc", 0.5);
        hb_traced_api *driver = add_api(t, c, "cuMemAlloc_v2", 0.6);
        driver->domain = HB_API_DRIVER;
        driver->nested = 1; /* made by cudaMalloc: counted once */
        add_api(t, c, "cudaFree", 3);
    }
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_string_equal(conduct.line[HB_FINDING_ALLOC], "alloc: cudaMalloc x1, cudaFree x1 per call");
    assert_false(found(&conduct, HB_FINDING_SYNC)); /* cudaFree is an allocation call, not counted twice */
    free(t);
}

static void test_judge_alloc_in_first_call_only(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(3);
    add_api(t, 0, "cudaMallocAsync", 0.5);
    add_api(t, 0, "cudaMallocAsync", 0.7);
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_string_equal(conduct.line[HB_FINDING_ALLOC], "alloc: cudaMallocAsync x2 in the first call only");
    free(t);
}

static void test_judge_alloc_outside_the_window_is_not_alloc(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(2);
    add_api(t, 0, "cudaMalloc", -50); /* before the window opened */
    add_api(t, 1, "cudaFree", 150);   /* after it closed */
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_false(found(&conduct, HB_FINDING_ALLOC));
    free(t);
}

static void test_judge_sync(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(2);
    add_api(t, 0, "cudaDeviceSynchronize", 40);
    add_api(t, 1, "cudaDeviceSynchronize", 40);
    add_api(t, 1, "cudaStreamSynchronize_ptsz", 50);
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_string_equal(conduct.line[HB_FINDING_SYNC], "sync: cudaDeviceSynchronize x2, cudaStreamSynchronize_ptsz x1 "
                                                       "over 2 calls (in 2 of them); the host waits inside the call");
    free(t);
}

static void test_judge_event_timing_is_not_sync(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(2);
    for (int c = 0; c < 2; c++) {
        add_api(t, c, "cudaEventRecord", 0.2);
        add_api(t, c, "cudaEventRecord", 4);
        add_api(t, c, "cudaMemsetAsync", 4.5);
    }
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_false(found(&conduct, HB_FINDING_SYNC));
    assert_false(found(&conduct, HB_FINDING_CREATE));
    assert_false(found(&conduct, HB_FINDING_ALLOC));
    free(t);
}

static void test_judge_create(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(2);
    for (int c = 0; c < 2; c++) {
        add_api(t, c, "cudaStreamCreateWithFlags", 0.2);
        add_api(t, c, "cudaStreamDestroy", 4);
    }
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_string_equal(conduct.line[HB_FINDING_CREATE], "create: cudaStreamCreateWithFlags x1, cudaStreamDestroy x1 "
                                                         "per call");
    free(t);
}

static void test_judge_first_call(void **state)
{
    (void)state;
    hb_participant_trace *t = new_trace(3);
    for (int i = 0; i < 4; i++)
        add_kernel(t, 0, "tune_candidate", TIMED, 10 + 5 * i, 14 + 5 * i);
    add_kernel(t, 0, "hgemm_kernel", TIMED, 40, 60);
    for (int c = 1; c < 3; c++)
        add_kernel(t, c, "hgemm_kernel", TIMED, 10, 30);
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_string_equal(conduct.line[HB_FINDING_FIRST_CALL],
                        "first-call: the first call ran 5 kernels (tune_candidate x4, hgemm_kernel), later calls 1 "
                        "(hgemm_kernel)");
    assert_int_equal(time.first_call_kernels, 5);
    assert_int_equal(time.kernels_per_call, 1);
    assert_false(found(&conduct, HB_FINDING_MULTI_KERNEL)); /* the later calls run one */
    free(t);
}

static void test_judge_first_call_other_grid(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(2);
    t->call[0].kernels[0].grid[0] = 32; /* same kernel, another split */
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_true(found(&conduct, HB_FINDING_FIRST_CALL));
    free(t);
}

static void test_judge_same_kernels_is_not_first_call(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(3);
    /* Other times, same kernels: not first-call tuning. */
    t->call[0].kernels[0].end_ns = at(0, 90);
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_false(found(&conduct, HB_FINDING_FIRST_CALL));
    /* One call: nothing to compare with. */
    t->calls = 1;
    t->call[0].kernels[0].name[0] = 'X';
    judge(t, &time, &conduct);
    assert_false(found(&conduct, HB_FINDING_FIRST_CALL));
    free(t);
}

static void test_judge_multi_kernel(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(2);
    for (int c = 0; c < 2; c++)
        add_kernel(t, c, "splitk_reduce", TIMED, 30, 35);
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_string_equal(conduct.line[HB_FINDING_MULTI_KERNEL], "multi-kernel: 2 kernels per call (hgemm_kernel, "
                                                               "splitk_reduce)");
    assert_int_equal(time.kernels_per_call, 2);
    assert_false(found(&conduct, HB_FINDING_FIRST_CALL));
    assert_true((hb_finding_strict_mask() & HB_FINDING_BIT(HB_FINDING_MULTI_KERNEL)) == 0); /* informational */
    free(t);
}

static void test_judge_one_kernel_is_not_multi_kernel(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(2);
    t->call[1].kernels_dropped = 0;
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_false(found(&conduct, HB_FINDING_MULTI_KERNEL));
    /* Kernels not kept still count. */
    t->call[1].kernels_dropped = 1;
    judge(t, &time, &conduct);
    assert_true(found(&conduct, HB_FINDING_MULTI_KERNEL));
    assert_int_equal(time.kernels_per_call, 2);
    free(t);
}

static void test_judge_device_state(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(2);
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_false(found(&conduct, HB_FINDING_DEVICE_STATE));
    snprintf(t->device_state, sizeof t->device_state, "cudaLimitStackSize 1024 -> 4096 (reset)");
    judge(t, &time, &conduct);
    assert_string_equal(conduct.line[HB_FINDING_DEVICE_STATE], "device-state: cudaLimitStackSize 1024 -> 4096 (reset)");
    free(t);
}

static void test_judge_host_time_without_kernels_and_with_drops(void **state)
{
    (void)state;
    hb_participant_trace *t = new_trace(2);
    t->records_dropped = 12;
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_string_equal(conduct.line[HB_FINDING_HOST_TIME],
                        "host-time: no kernel ran; all 100.0 us of the wall time per call is host time; CUPTI dropped "
                        "12 records, findings may be incomplete");
    free(t);
}

static void test_judge_untraced(void **state)
{
    (void)state;
    hb_participant_trace *t = new_trace(0);
    hb_kernel_time time;
    hb_conduct conduct;
    hb_judge_conduct(t, &time, &conduct);
    assert_int_equal(conduct.traced, 0);
    assert_int_equal(time.traced, 0);
    assert_int_equal(conduct.found, 0);
    free(t);
}

/* ---- kernel time ------------------------------------------------------------- */

static void test_kernel_time_span_and_sum_with_overlap(void **state)
{
    (void)state;
    hb_participant_trace *t = new_trace(3);
    /* First call: one long kernel. */
    add_kernel(t, 0, "a", TIMED, 0, 50);
    t->call[0].wall_us = 500;
    /* Later calls: two overlapping kernels, 10-30 and 20-40 us: span 30, sum 40;
     * then 10-30 and 25-50: span 40, sum 45. */
    add_kernel(t, 1, "a", TIMED, 10, 30);
    add_kernel(t, 1, "b", 21, 20, 40);
    t->call[1].wall_us = 60;
    add_kernel(t, 2, "a", TIMED, 10, 30);
    add_kernel(t, 2, "b", 21, 25, 50);
    t->call[2].wall_us = 80;
    /* A kernel CUPTI could not time (0 timestamps) counts as a kernel, not in the times. */
    hb_traced_kernel *untimed = add_kernel(t, 2, "c", TIMED, 0, 0);
    untimed->start_ns = untimed->end_ns = 0;
    assert_true(hb_call_kernel_span_us(&t->call[1]) == 30.0);
    assert_true(hb_call_kernel_sum_us(&t->call[1]) == 40.0);
    assert_true(hb_call_kernel_span_us(&t->call[2]) == 40.0);
    assert_true(hb_call_kernel_sum_us(&t->call[2]) == 45.0);
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_int_equal(time.calls, 2); /* the later calls, the medians' */
    assert_true(time.span_us == 35.0); /* median of 30 and 40 */
    assert_true(time.sum_us == 42.5);
    assert_true(time.wall_us == 70.0);
    assert_true(time.host_us == 35.0); /* wall - span */
    assert_true(time.first_span_us == 50.0);
    assert_int_equal(time.first_call_kernels, 1);
    assert_int_equal(time.kernels_per_call, 3);
    free(t);
}

static void test_kernel_time_one_call(void **state)
{
    (void)state;
    hb_participant_trace *t = plain_trace(1);
    hb_kernel_time time;
    hb_conduct conduct;
    judge(t, &time, &conduct);
    assert_true(time.span_us == 20.0);
    assert_true(time.first_span_us == 20.0);
    assert_true(time.host_us == 80.0);
    assert_int_equal(time.kernels_per_call, 1);
    free(t);
}

/* ---- attribution ------------------------------------------------------------- */

/* ---- attribution: device records to calls by window, events by mark ---------------------- */

static void store_kernel(hb_record_store *s, const char *name, uint32_t stream, uint64_t start)
{
    hb_traced_kernel k = {0};
    snprintf(k.name, sizeof k.name, "%s", name);
    k.stream_id = stream;
    k.start_ns = start;
    k.end_ns = start + 1000;
    hb_record_store_add_kernel(s, &k);
}

static void log_call(hb_call_log *log, size_t participant, int ordinal, hb_call_kind kind, long sample, int c)
{
    hb_logged_call call = {.participant = participant, .ordinal = ordinal, .kind = kind, .sample = sample,
                           .window_start_ns = at(c, 0), .launch_start_ns = at(c, 1), .launch_end_ns = at(c, 5)};
    assert_int_equal(hb_call_log_open(log, &call), 0);
}

static void log_api(hb_call_log *log, const char *name, double from_us, int c, int nested)
{
    hb_traced_api a = {0};
    snprintf(a.name, sizeof a.name, "%s", name);
    a.api_class = hb_api_classify(name);
    a.start_ns = at(c, from_us);
    a.end_ns = a.start_ns + 500;
    a.nested = nested;
    assert_true(hb_call_log_api(log, &a) >= 0);
}

/* What the fold saw, call by call. */
typedef struct folded {
    int calls;
    hb_call_trace call[4];
    size_t participant[4];
} folded;

static void keep_folded(void *context, const hb_logged_call *logged, const hb_call_trace *call)
{
    folded *f = context;
    if (f->calls < 4) {
        f->call[f->calls] = *call;
        f->participant[f->calls] = logged->participant;
    }
    f->calls++;
}

static void test_attribution_by_window_log_and_marks(void **state)
{
    (void)state;
    hb_record_store s = {0};
    hb_call_log log = {0};
    /* Call 0 (participant 2, timed sample 7): its API calls from the log, two
     * kernels in its window (one on another stream), its start and stop
     * events marked; the harness's own kernel between the windows is nobody's. */
    log_call(&log, 2, 0, HB_CALL_TIMED, 7, 0);
    hb_call_log_mark(&log, 501, 0);
    log_api(&log, "cudaMalloc", 2, 0, 0);
    log_api(&log, "cuMemAlloc_v2", 2.1, 0, 1);
    hb_call_log_mark(&log, 502, 1);
    hb_call_log_close(&log, at(0, 100));
    assert_null(hb_call_log_current(&log));
    hb_traced_api late = {.name = "cudaFree", .start_ns = at(0, 200)};
    assert_int_equal(hb_call_log_api(&log, &late), -1); /* no call open: not kept */
    hb_call_log_mark(&log, 503, 0);        /* nor this */
    /* Call 1 (participant 0, a check): one kernel, no events. */
    log_call(&log, 0, 3, HB_CALL_CHECK, -1, 1);
    hb_call_log_close(&log, at(1, 100));
    store_kernel(&s, "k_late", TIMED, at(1, 20)); /* handed over out of order */
    store_kernel(&s, "k_other", 99, at(0, 40));
    store_kernel(&s, "k_main", TIMED, at(0, 10));
    store_kernel(&s, "harness_fill", TIMED, at(0, 500));
    hb_traced_event start = {501, TIMED, 7000}, stop = {502, TIMED, 19500}, stray = {503, TIMED, 1};
    hb_record_store_add_event(&s, &stop);
    hb_record_store_add_event(&s, &stray);
    hb_record_store_add_event(&s, &start);

    static folded f;
    memset(&f, 0, sizeof f);
    static hb_call_trace scratch;
    hb_attribute_calls(&s, &log, 55, &scratch, keep_folded, &f);
    assert_int_equal(f.calls, 2);
    const hb_call_trace *c0 = &f.call[0], *c1 = &f.call[1];
    assert_int_equal(f.participant[0], 2);
    assert_int_equal(c0->kind, HB_CALL_TIMED);
    assert_int_equal(c0->sample, 7);
    assert_int_equal(c0->n_kernels, 2);
    assert_string_equal(c0->kernels[0].name, "k_main");
    assert_string_equal(c0->kernels[1].name, "k_other");
    assert_int_equal(c0->n_api, 2);
    assert_string_equal(c0->api[0].name, "cudaMalloc");
    assert_int_equal(c0->api[1].nested, 1);
    assert_int_equal(c0->timed_stream_id, TIMED); /* from its start event */
    assert_true(hb_call_event_device_us(c0) == 12.5);
    assert_true(c0->wall_us == 100.0);
    assert_int_equal(f.participant[1], 0);
    assert_int_equal(c1->index, 3);
    assert_int_equal(c1->n_kernels, 1);
    assert_string_equal(c1->kernels[0].name, "k_late");
    assert_int_equal(c1->n_api, 0);
    assert_int_equal(c1->timed_stream_id, 55); /* no start event: the probe's stream */
    assert_true(isnan(hb_call_event_device_us(c1)));
    hb_record_store_free(&s);
    hb_call_log_free(&log);
}

static void test_attribution_keeps_the_first_kernels_in_start_order(void **state)
{
    (void)state;
    hb_record_store s = {0};
    hb_call_log log = {0};
    log_call(&log, 0, 0, HB_CALL_CHECK, -1, 0);
    hb_call_log_close(&log, at(0, 100));
    int n = HB_TRACE_MAX_KERNELS + 5;
    for (int i = n - 1; i >= 0; i--) /* handed over in reverse order */
        store_kernel(&s, "k", TIMED, at(0, 10) + (uint64_t)i * 10);
    static folded f;
    memset(&f, 0, sizeof f);
    static hb_call_trace scratch;
    hb_attribute_calls(&s, &log, TIMED, &scratch, keep_folded, &f);
    const hb_call_trace *c = &f.call[0];
    assert_int_equal(c->n_kernels, HB_TRACE_MAX_KERNELS);
    assert_int_equal(c->kernels_dropped, 5);
    assert_int_equal(hb_call_kernel_count(c), n);
    for (int i = 1; i < c->n_kernels; i++)
        assert_true(c->kernels[i].start_ns > c->kernels[i - 1].start_ns);
    assert_true(c->kernels[0].start_ns == at(0, 10));
    hb_record_store_free(&s);
    hb_call_log_free(&log);
}

/* ---- the tally over many calls ------------------------------------------------------------ */

/* A call of the plain trace's shape, with `kernel` on `stream`. */
static void plain_call(hb_call_trace *c, int index, hb_call_kind kind, const char *kernel, uint32_t stream)
{
    memset(c, 0, sizeof *c);
    c->index = index;
    c->kind = kind;
    c->sample = kind == HB_CALL_TIMED ? index : -1;
    c->window_start_ns = at(0, 0);
    c->launch_start_ns = at(0, 1);
    c->launch_end_ns = at(0, 5);
    c->window_end_ns = at(0, 100);
    c->wall_us = 100;
    c->timed_stream_id = TIMED;
    hb_traced_kernel *k = &c->kernels[c->n_kernels++];
    snprintf(k->name, sizeof k->name, "%s", kernel);
    k->grid[0] = k->block[0] = 1;
    k->stream_id = stream;
    k->start_ns = at(0, 10);
    k->end_ns = at(0, 30);
}

static void test_tally_counts_other_stream_over_every_call(void **state)
{
    (void)state;
    static hb_conduct_tally t;
    static hb_call_trace c;
    hb_conduct_tally_init(&t);
    /* 1000 calls; every tenth puts its kernel on stream 40 (a cheat that hides from a few traced calls). */
    for (int i = 0; i < 1000; i++) {
        plain_call(&c, i, i < 10 ? HB_CALL_CHECK : HB_CALL_TIMED, "hgemm_kernel", i % 10 == 9 ? 40u : TIMED);
        assert_int_equal(hb_conduct_tally_add(&t, &c), 0);
    }
    hb_kernel_time time = {.traced = 1, .kernels_per_call = 1, .wall_us = 100, .span_us = 20};
    hb_conduct conduct;
    hb_judge_tally(&t, &time, "", NULL, &conduct);
    assert_int_equal(conduct.calls, 1000);
    assert_int_equal(t.timed_calls, 990);
    assert_true(found(&conduct, HB_FINDING_OTHER_STREAM));
    assert_non_null(strstr(conduct.line[HB_FINDING_OTHER_STREAM], "100 of 1000 kernels"));
    assert_non_null(strstr(conduct.line[HB_FINDING_OTHER_STREAM], "(in 100 of 1000 calls)"));
    assert_non_null(strstr(conduct.line[HB_FINDING_OTHER_STREAM], "stream 40"));
    assert_false(found(&conduct, HB_FINDING_FIRST_CALL)); /* later calls run the first call's kernel */
    assert_false(found(&conduct, HB_FINDING_LIBRARY_KERNEL));
    hb_conduct_tally_free(&t);
}

static void test_tally_names_library_kernels(void **state)
{
    (void)state;
    static hb_conduct_tally t;
    static hb_call_trace c;
    hb_kernel_time time = {.traced = 1, .kernels_per_call = 1, .wall_us = 100, .span_us = 20};
    hb_conduct conduct;
    /* By family: cuBLAS's Hopper kernels. */
    hb_conduct_tally_init(&t);
    plain_call(&c, 0, HB_CALL_CHECK, "nvjet_sm90_tst_128x256_64x4_2x1_v_bz_coopA_NNT", TIMED);
    assert_int_equal(hb_conduct_tally_add(&t, &c), 0);
    hb_judge_tally(&t, &time, "", NULL, &conduct);
    assert_true(found(&conduct, HB_FINDING_LIBRARY_KERNEL));
    assert_non_null(strstr(conduct.line[HB_FINDING_LIBRARY_KERNEL], "nvjet"));
    assert_false(hb_finding_strict_mask() & HB_FINDING_BIT(HB_FINDING_LIBRARY_KERNEL));
    hb_conduct_tally_free(&t);
    /* By a name a baseline of the same process ran, though of no family. */
    hb_conduct_tally_init(&t);
    plain_call(&c, 0, HB_CALL_CHECK, "_Z19some_vendor_kernelv", TIMED);
    assert_int_equal(hb_conduct_tally_add(&t, &c), 0);
    hb_judge_tally(&t, &time, "", NULL, &conduct);
    assert_false(found(&conduct, HB_FINDING_LIBRARY_KERNEL));
    static hb_library_names library;
    memset(&library, 0, sizeof library);
    hb_library_names_add(&library, "_Z19some_vendor_kernelv");
    hb_library_names_add(&library, "_Z19some_vendor_kernelv"); /* once */
    assert_int_equal(library.n, 1);
    hb_judge_tally(&t, &time, "", &library, &conduct);
    assert_true(found(&conduct, HB_FINDING_LIBRARY_KERNEL));
    assert_non_null(strstr(conduct.line[HB_FINDING_LIBRARY_KERNEL], "a kernel a baseline ran"));
    hb_conduct_tally_free(&t);
    /* An honest kernel of its own: none. */
    assert_null(hb_library_family("_Z20hgemm_mma_pipelinedPK6__halfS1_PS_iii"));
    assert_null(hb_library_family("simple_launcher_gemm"));
    assert_non_null(hb_library_family("sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64"));
    assert_non_null(hb_library_family("_ZN8cublasLt19splitKreduce_kernelILi32ELi16EifffLb0ELb0EEEvNS_18cublasSplitKParamsIT3_EE"));
}

static void test_tally_kernel_time_over_timed_calls_skips_calls_without_kernels(void **state)
{
    (void)state;
    static hb_conduct_tally t;
    static hb_call_trace c;
    hb_conduct_tally_init(&t);
    plain_call(&c, 0, HB_CALL_CHECK, "k", TIMED);
    assert_int_equal(hb_conduct_tally_add(&t, &c), 0);
    /* Spans 10, 20, 30 and one call with no kernel (NaN): median 20, not pulled to 15 by a 0. */
    const double span[] = {10, NAN, 20, 30}, sum[] = {10, NAN, 20, 30}, wall[] = {50, 50, 60, 70};
    hb_kernel_time time;
    hb_kernel_time_of(span, sum, wall, 4, 1, &t, &time);
    assert_int_equal(time.traced, 1);
    assert_int_equal(time.from_timed, 1);
    assert_int_equal(time.calls, 4);
    assert_true(time.span_us == 20.0);
    assert_true(time.wall_us == 55.0);
    assert_true(time.span_p10_us < time.span_us && time.span_us < time.span_p90_us);
    assert_true(time.host_us == 35.0);
    hb_conduct_tally_free(&t);
}

/* ---- the trace file ---------------------------------------------------------- */

static void test_trace_file_round_trip(void **state)
{
    (void)state;
    hb_participant_trace *a = plain_trace(2), *b = new_trace(1);
    snprintf(b->name, sizeof b->name, "cublas-nn");
    hb_traced_kernel *k = &a->call[1].kernels[0];
    k->cluster[0] = 2, k->cluster[1] = 1, k->cluster[2] = 1;
    k->registers = 168, k->static_smem = 1024, k->dynamic_smem = 98304, k->correlation_id = 42;
    add_api(a, 1, "cudaMalloc", 0.5);
    a->call[1].copies[0] = (hb_traced_copy){HB_COPY_HTOD, 4096, 9, 43, at(1, 2), at(1, 3)};
    a->call[1].n_copies = 1;
    a->call[1].api_dropped = 3;
    snprintf(a->device_state, sizeof a->device_state, "L2 persisting size changed (reset)");
    add_kernel(b, 0, "sm90_xmma_gemm", 4, 5, 15);

    char dir[512], path[600];
    hb_test_make_temp_dir("hb-trace", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/trace.json", dir);
    static hb_kernel_time times[2];
    static hb_conduct conducts[2];
    hb_judge_conduct(a, &times[0], &conducts[0]);
    hb_judge_conduct(b, &times[1], &conducts[1]);
    const hb_trace_file_entry entries[] = {{a, &times[0], &conducts[0], 2000, 1500}, {b, &times[1], &conducts[1], 1, 0}};
    hb_mnk mnk = {256, 512, 1024};
    assert_int_equal(hb_trace_file_write(path, &mnk, entries, 2), HB_OK);

    json_t *root = hb_test_load_json(path);
    assert_string_equal(json_string_value(json_object_get(root, "format")), "hgemm-bench-trace/2");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(root, "mnk"), "n")), 512);
    json_t *parts = json_object_get(root, "participants");
    assert_int_equal(json_array_size(parts), 2);
    json_t *pa = json_array_get(parts, 0);
    assert_string_equal(json_string_value(json_object_get(pa, "name")), "candidate");
    assert_int_equal(json_integer_value(json_object_get(pa, "timed_stream_id")), TIMED);
    assert_string_equal(json_string_value(json_object_get(pa, "device_state")), "L2 persisting size changed (reset)");
    assert_int_equal(json_integer_value(json_object_get(pa, "calls_watched")), 2000);
    assert_int_equal(json_integer_value(json_object_get(pa, "timed_calls")), 1500);
    json_t *calls = json_object_get(pa, "calls");
    assert_int_equal(json_array_size(calls), 2);
    json_t *c1 = json_array_get(calls, 1);
    assert_int_equal(json_integer_value(json_object_get(c1, "index")), 1);
    assert_true(json_real_value(json_object_get(c1, "wall_us")) == 100.0);
    assert_true(json_real_value(json_object_get(c1, "kernel_span_us")) == 20.0);
    assert_int_equal(json_integer_value(json_object_get(c1, "window_start_ns")), (json_int_t)at(1, 0));
    json_t *kj = json_array_get(json_object_get(c1, "kernels"), 0);
    assert_string_equal(json_string_value(json_object_get(kj, "name")), "hgemm_kernel");
    assert_string_equal(json_string_value(json_object_get(kj, "display_name")), "hgemm_kernel");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(kj, "grid"), 0)), 16);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(kj, "block"), 0)), 256);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(kj, "cluster"), 0)), 2);
    assert_int_equal(json_integer_value(json_object_get(kj, "registers")), 168);
    assert_int_equal(json_integer_value(json_object_get(kj, "static_smem")), 1024);
    assert_int_equal(json_integer_value(json_object_get(kj, "dynamic_smem")), 98304);
    assert_int_equal(json_integer_value(json_object_get(kj, "stream_id")), TIMED);
    assert_int_equal(json_integer_value(json_object_get(kj, "correlation_id")), 42);
    assert_int_equal(json_integer_value(json_object_get(kj, "start_ns")), (json_int_t)at(1, 10));
    assert_int_equal(json_integer_value(json_object_get(kj, "end_ns")), (json_int_t)at(1, 30));
    assert_true(json_real_value(json_object_get(kj, "start_us")) == 10.0);
    json_t *copy = json_array_get(json_object_get(c1, "copies"), 0);
    assert_string_equal(json_string_value(json_object_get(copy, "kind")), "HtoD");
    assert_int_equal(json_integer_value(json_object_get(copy, "bytes")), 4096);
    assert_int_equal(json_integer_value(json_object_get(copy, "stream_id")), 9);
    json_t *apis = json_object_get(c1, "api_calls");
    assert_int_equal(json_array_size(apis), 2);
    json_t *malloc_call = json_array_get(apis, 1);
    assert_string_equal(json_string_value(json_object_get(malloc_call, "name")), "cudaMalloc");
    assert_string_equal(json_string_value(json_object_get(malloc_call, "class")), "alloc");
    assert_true(json_is_true(json_object_get(malloc_call, "inside")));
    assert_int_equal(json_integer_value(json_object_get(c1, "api_calls_dropped")), 3);
    /* The judge's findings and kernel time. */
    json_t *findings = json_object_get(pa, "findings");
    int saw_alloc = 0, saw_other = 0;
    for (size_t i = 0; i < json_array_size(findings); i++) {
        json_t *f = json_array_get(findings, i);
        const char *name = json_string_value(json_object_get(f, "name"));
        if (!strcmp(name, "alloc")) {
            saw_alloc = 1;
            assert_string_equal(json_string_value(json_object_get(f, "line")),
                                "alloc: cudaMalloc x1 over 2 calls (in 1 of them)");
            assert_true(json_is_true(json_object_get(f, "strict")));
        }
        if (!strcmp(name, "other-stream"))
            saw_other = 1; /* the HtoD copy on stream 9 */
        if (!strcmp(name, "host-time"))
            assert_true(json_is_false(json_object_get(f, "strict")));
    }
    assert_true(saw_alloc && saw_other);
    json_t *kt = json_object_get(pa, "kernel_time");
    assert_true(json_real_value(json_object_get(kt, "span_us")) == 20.0);
    assert_int_equal(json_integer_value(json_object_get(kt, "calls")), 1); /* the later calls: the second */
    json_t *pb = json_array_get(parts, 1);
    assert_string_equal(json_string_value(json_object_get(pb, "name")), "cublas-nn");
    assert_string_equal(
        json_string_value(json_object_get(json_array_get(json_object_get(json_array_get(json_object_get(pb, "calls"), 0),
                                                                           "kernels"),
                                                          0),
                                          "name")),
        "sm90_xmma_gemm");
    json_decref(root);
    hb_test_remove_tree(dir);
    free(a);
    free(b);
}

/* ---- CUPTI's loader ---------------------------------------------------------- */

/* Runs hb_cupti_find with HB_CUPTI_LIBRARY set to `value`; restores it. */
static int find_with(const char *value, hb_cupti_api *api, char *why, size_t size)
{
    const char *old = getenv(HB_CUPTI_LIBRARY_ENV);
    char saved[512] = "";
    if (old)
        snprintf(saved, sizeof saved, "%s", old);
    setenv(HB_CUPTI_LIBRARY_ENV, value, 1);
    int rc = hb_cupti_find(api, why, size);
    if (old)
        setenv(HB_CUPTI_LIBRARY_ENV, saved, 1);
    else
        unsetenv(HB_CUPTI_LIBRARY_ENV);
    return rc;
}

static void test_cupti_missing_says_what_was_searched(void **state)
{
    (void)state;
    hb_cupti_api api;
    char why[2048];
    assert_int_equal(find_with("/nonexistent/hb-test/libcupti.so.13", &api, why, sizeof why), -1);
    assert_null(api.library);
    assert_non_null(strstr(why, "CUPTI not found"));
    assert_non_null(strstr(why, "HB_CUPTI_LIBRARY=/nonexistent/hb-test/libcupti.so.13 does not load"));
    assert_non_null(strstr(why, "unset it to search"));
}

static void test_cupti_not_a_cupti_library(void **state)
{
    (void)state;
    hb_cupti_api api;
    char why[2048];
    assert_int_equal(find_with("libm.so.6", &api, why, sizeof why), -1);
    assert_null(api.library);
    assert_non_null(strstr(why, "libm.so.6 lacks cuptiActivityEnable"));
}

/* Where the toolkit has CUPTI (as on the machines that build this), it loads
 * by its default search and every call the tracer makes resolves. */
static void test_cupti_default_search(void **state)
{
    (void)state;
    const char *old = getenv(HB_CUPTI_LIBRARY_ENV);
    char saved[512] = "";
    if (old)
        snprintf(saved, sizeof saved, "%s", old);
    unsetenv(HB_CUPTI_LIBRARY_ENV);
    hb_cupti_api api;
    char why[2048];
    int rc = hb_cupti_find(&api, why, sizeof why);
    if (old)
        setenv(HB_CUPTI_LIBRARY_ENV, saved, 1);
    if (rc != 0) {
        /* Then the message lists the search, toolkit folders included. */
        assert_non_null(strstr(why, "tried libcupti.so."));
        assert_non_null(strstr(why, "/extras/CUPTI/lib64/libcupti.so"));
        assert_non_null(strstr(why, "/lib64/libcupti.so"));
        return;
    }
    assert_non_null(api.library);
    assert_true(api.version >= 130000);
    assert_non_null(api.activity_enable);
    assert_non_null(api.get_timestamp);
    assert_non_null(api.pop_external_correlation_id);
}

/* The binary does not link CUPTI: it starts where CUPTI is missing. */
static void test_binary_does_not_need_cupti(void **state)
{
    (void)state;
    char command[1024];
    snprintf(command, sizeof command, "readelf -d '%s' | grep -q 'NEEDED.*libcudart'", hb_test_bench());
    assert_int_equal(hb_test_shell(command), 0); /* the check reads the dynamic section at all */
    snprintf(command, sizeof command, "readelf -d '%s' | grep -qi 'NEEDED.*cupti'", hb_test_bench());
    assert_int_equal(hb_test_shell(command), 1);
}

hb_test_list hb_trace_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_api_classes_by_callback_name),
        cmocka_unit_test(test_api_display_names_drop_the_runtime_version_tag),
        cmocka_unit_test(test_kernel_short_names),
        cmocka_unit_test(test_judge_lines_use_short_kernel_names),
        cmocka_unit_test(test_judge_plain_call_finds_host_time_only),
        cmocka_unit_test(test_judge_other_stream),
        cmocka_unit_test(test_judge_other_stream_counts_sets_and_streams),
        cmocka_unit_test(test_judge_timed_stream_is_not_other_stream),
        cmocka_unit_test(test_judge_alloc_per_call),
        cmocka_unit_test(test_judge_alloc_in_first_call_only),
        cmocka_unit_test(test_judge_alloc_outside_the_window_is_not_alloc),
        cmocka_unit_test(test_judge_sync),
        cmocka_unit_test(test_judge_event_timing_is_not_sync),
        cmocka_unit_test(test_judge_create),
        cmocka_unit_test(test_judge_first_call),
        cmocka_unit_test(test_judge_first_call_other_grid),
        cmocka_unit_test(test_judge_same_kernels_is_not_first_call),
        cmocka_unit_test(test_judge_multi_kernel),
        cmocka_unit_test(test_judge_one_kernel_is_not_multi_kernel),
        cmocka_unit_test(test_judge_device_state),
        cmocka_unit_test(test_judge_host_time_without_kernels_and_with_drops),
        cmocka_unit_test(test_judge_untraced),
        cmocka_unit_test(test_kernel_time_span_and_sum_with_overlap),
        cmocka_unit_test(test_kernel_time_one_call),
        cmocka_unit_test(test_attribution_by_window_log_and_marks),
        cmocka_unit_test(test_attribution_keeps_the_first_kernels_in_start_order),
        cmocka_unit_test(test_tally_counts_other_stream_over_every_call),
        cmocka_unit_test(test_tally_names_library_kernels),
        cmocka_unit_test(test_tally_kernel_time_over_timed_calls_skips_calls_without_kernels),
        cmocka_unit_test(test_trace_file_round_trip),
        cmocka_unit_test(test_cupti_missing_says_what_was_searched),
        cmocka_unit_test(test_cupti_not_a_cupti_library),
        cmocka_unit_test(test_cupti_default_search),
        cmocka_unit_test(test_binary_does_not_need_cupti),
    };
    return HB_TEST_LIST(tests);
}
