/* GPU tests of two checks of the timing windows (docs/methodology.md,
 * "Every call's output scanned" and "L2 policy"): the per-call scan of every
 * output for the poison, NaN and Inf (bench/gpu/output_scan.h,
 * bench/measure/output_watch.h), and the stir that keeps warm inputs from
 * repeating (verify/problem.h, hb_problem_stir).  Each test skips (and is
 * counted as skipped) when no CUDA GPU is usable. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines/baseline_factory.h"
#include "bench/candidate/candidate_buffers.h"
#include "bench/candidate/cubin_candidate.h"
#include "bench/core/diag.h"
#include "bench/gpu/fill.h"
#include "bench/gpu/output_scan.h"
#include "bench/measure/output_watch.h"
#include "bench/result/run_options.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"
#include "verify/checked_call.h"
#include "verify/problem.h"

#define POISON 0xFFFFu /* the harness's NaN fill (HB_NAN_FILL_BYTE twice) */

/* ---- the scan kernel on planted values ------------------------------------ */

/* fp16 bit patterns that must count: the poison, quiet and signalling NaNs of
 * either sign, +-Inf; and ones that must not: zeros, subnormals, the largest
 * finite values, ordinary numbers. */
static const uint16_t nonfinite_bits[] = {0xFFFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE00, 0x7FFF};
static const uint16_t finite_bits[] = {0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x7800};
#define N_NONFINITE (sizeof nonfinite_bits / sizeof nonfinite_bits[0])
#define N_FINITE (sizeof finite_bits / sizeof finite_bits[0])

/* A rows x ld host matrix: in the logical rows x cols region, a non-finite
 * value at every `every`-th element (every = 1: all of them) and finite ones
 * elsewhere; the padding (columns cols .. ld-1) all poison, which the scan
 * must not read.  Returns how many non-finite values the region holds. */
static uint64_t plant(uint16_t *host, long rows, long cols, long ld, long every)
{
    uint64_t planted = 0;
    for (long r = 0; r < rows; r++)
        for (long c = 0; c < ld; c++) {
            const unsigned long i = (unsigned long)(r * cols + c);
            if (c >= cols) {
                host[r * ld + c] = POISON;
            } else if (i % (unsigned long)every == 0) {
                host[r * ld + c] = nonfinite_bits[i % N_NONFINITE];
                planted++;
            } else {
                host[r * ld + c] = finite_bits[i % N_FINITE];
            }
        }
    return planted;
}

/* Plants, copies to the device `offset_bytes` past a 256-byte-aligned
 * allocation, scans twice into one counter and checks both counts. */
static void check_scan(long rows, long cols, long ld, long every, size_t offset_bytes)
{
    const size_t elements = (size_t)rows * (size_t)ld, bytes = elements * sizeof(uint16_t);
    uint16_t *host = malloc(bytes);
    assert_non_null(host);
    const uint64_t planted = plant(host, rows, cols, ld, every);
    assert_true(planted > 0);
    unsigned char *device = NULL;
    unsigned long long *counter = NULL, got = 0;
    assert_int_equal(cudaMalloc((void **)&device, bytes + offset_bytes), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&counter, sizeof *counter), cudaSuccess);
    assert_int_equal(cudaMemset(counter, 0, sizeof *counter), cudaSuccess);
    uint16_t *data = (uint16_t *)(device + offset_bytes);
    assert_int_equal(cudaMemcpy(data, host, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    cudaStream_t stream = hb_test_stream();
    assert_int_equal(hb_count_nonfinite_f16(data, rows, cols, ld, counter, stream), cudaSuccess);
    assert_int_equal(cudaMemcpyAsync(&got, counter, sizeof got, cudaMemcpyDeviceToHost, stream), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(stream), cudaSuccess);
    if (got != planted)
        fail_msg("%ld x %ld (rows %ld apart, +%zu B): counted %llu, planted %llu", rows, cols, ld, offset_bytes, got,
                 (unsigned long long)planted);
    /* The counter accumulates: a second scan adds the same count. */
    assert_int_equal(hb_count_nonfinite_f16(data, rows, cols, ld, counter, stream), cudaSuccess);
    assert_int_equal(cudaMemcpyAsync(&got, counter, sizeof got, cudaMemcpyDeviceToHost, stream), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(stream), cudaSuccess);
    assert_true(got == 2 * planted);
    cudaFree(device);
    cudaFree(counter);
    free(host);
}

/* The scan counts exactly the planted poison, NaN and Inf values of the
 * logical region, never a finite one nor the poisoned padding: on the
 * vector path (rows 16-byte aligned), the element path (odd widths, an
 * unaligned start), more rows than one grid covers, and a wholly unwritten
 * output. */
static void test_gpu_output_scan_counts_planted_values(void **state)
{
    (void)state;
    REQUIRE_GPU();
    check_scan(64, 64, 64, 13, 0);     /* vector path, no padding */
    check_scan(200, 136, 256, 7, 0);   /* vector path, a padded output's logical region */
    check_scan(77, 77, 83, 5, 0);      /* element path: widths not multiples of 8 */
    check_scan(64, 64, 64, 11, 2);     /* element path: a start 2 bytes past alignment */
    check_scan(3000, 4096, 4160, 97, 0); /* rows beyond one grid's, the row loop covers them */
    check_scan(128, 96, 128, 1, 0);    /* every element unwritten */
    unsigned long long *counter = NULL;
    assert_int_equal(cudaMalloc((void **)&counter, sizeof *counter), cudaSuccess);
    assert_int_equal(hb_count_nonfinite_f16((const uint16_t *)counter, 4, 8, 7, counter, hb_test_stream()),
                     cudaErrorInvalidValue); /* rows closer than a row is wide */
    cudaFree(counter);
}

/* ---- the watch over real participants -------------------------------------- */

/* sample_mma pads to multiples of 128 x 128 x 32: at 200 x 136 x 72 it
 * writes a 256 x 256 C, of which the top-left 200 x 136 is the product. */
#define WM 200
#define WN 136
#define WK 72

typedef struct watched {
    hb_participant storage[2];
    hb_participant *parts[2]; /* the candidate (sample_mma), then torch */
    hb_problem problem;
    hb_output_watch watch;
} watched;

static void watched_create(watched *w)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/candidates/sample_mma/manifest.json", hb_test_build_dir());
    hb_manifest manifest;
    assert_int_equal(hb_manifest_load(path, &manifest), HB_OK);
    hb_device_limits limits = hb_device_limits_of(hb_test_device());
    assert_int_equal(hb_candidate_participant_create(&manifest, &limits, HB_ACC_FP32, WM, WN, WK, &w->storage[0]),
                     HB_OK);
    hb_baseline_context context = {.acc = HB_ACC_FP32, .m = WM, .n = WN, .k = WK,
                                   .workspace_bytes = HB_DEFAULT_WORKSPACE_BYTES, .device = hb_test_device(),
                                   .stream = hb_test_stream()};
    assert_int_equal(hb_baseline_create(&hb_baselines[0], &context, &w->storage[1]), HB_OK);
    w->parts[0] = &w->storage[0];
    w->parts[1] = &w->storage[1];
    const hb_mnk mnk = {WM, WN, WK};
    assert_int_equal(hb_problem_create(&mnk, 2, 515, hb_test_stream(), &w->problem), HB_OK);
    assert_int_equal(hb_output_watch_create(&w->watch, w->parts, w->problem.ios, 2), HB_OK);
}

static void watched_free(watched *w)
{
    hb_output_watch_free(&w->watch);
    hb_problem_free(&w->problem);
    for (int i = 0; i < 2; i++)
        w->parts[i]->ops->destroy(w->parts[i]);
}

/* One round as the windows play it, but participant i calls its kernel
 * only where launch[i]: prepared (poisoned, inputs re-made), called,
 * synchronized, scanned. */
static void play(watched *w, const int launch[2])
{
    cudaStream_t stream = hb_test_stream();
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(hb_prepare_call(w->parts[i], &w->problem.ios[i], stream), HB_OK);
        if (launch[i])
            assert_int_equal(w->parts[i]->ops->launch(w->parts[i], &w->problem.ios[i], stream), HB_OK);
        assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
        assert_int_equal(hb_output_watch_scan(&w->watch, i, stream), HB_OK);
    }
}

static unsigned long long count_now(const uint16_t *c, long rows, long cols, long ld)
{
    unsigned long long *counter = NULL, got = 0;
    assert_int_equal(cudaMalloc((void **)&counter, sizeof *counter), cudaSuccess);
    assert_int_equal(cudaMemset(counter, 0, sizeof *counter), cudaSuccess);
    assert_int_equal(hb_count_nonfinite_f16(c, rows, cols, ld, counter, hb_test_stream()), cudaSuccess);
    assert_int_equal(cudaMemcpy(&got, counter, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(counter);
    return got;
}

/* The watch scans what each participant's code wrote: the padding
 * candidate's padded C (its logical region, rows 256 apart), torch's own C.
 * A clean GEMM output counts 0; a round in which the candidate enqueued
 * nothing fails it (unwritten-output, with the window, round and count); the
 * next clean round passes again (the counters are judged by their rise); a
 * baseline that left its output unwritten is the harness's error. */
static void test_gpu_output_watch_flags_skipped_calls(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static watched w; /* participants are large: keep them off the stack */
    watched_create(&w);
    const hb_output_region *cand = &w.watch.region[0], *torch = &w.watch.region[1];
    assert_true(cand->c != w.problem.ios[0].c && cand->rows == WM && cand->cols == WN && cand->ld == 256);
    assert_true(torch->c == w.problem.ios[1].c && torch->rows == WM && torch->cols == WN && torch->ld == WN);

    cudaStream_t stream = hb_test_stream();
    hb_check_failure failure = {"", ""};
    const int both[2] = {1, 1}, no_candidate[2] = {0, 1}, no_baseline[2] = {1, 0};
    play(&w, both);
    assert_int_equal(hb_output_watch_after_round(&w.watch, w.parts, stream, (hb_watch_round){1, 1}, &failure), HB_OK);
    assert_string_equal(failure.check, "");
    /* Why the padded C: the candidate's io->c is written only by collect. */
    assert_true(count_now(w.problem.ios[0].c, WM, WN, WN) == (unsigned long long)WM * WN);
    assert_int_equal(hb_candidate_collect(w.parts[0], &w.problem.ios[0], stream), HB_OK);
    assert_true(count_now(w.problem.ios[0].c, WM, WN, WN) == 0);

    play(&w, no_candidate);
    assert_int_equal(hb_output_watch_after_round(&w.watch, w.parts, stream, (hb_watch_round){1, 2}, &failure),
                     HB_ERR_INCORRECT);
    assert_string_equal(failure.check, "unwritten-output");
    char expected[200];
    snprintf(expected, sizeof expected, "a timed call (round 2 of the timed window) left %d of %d output elements",
             WM * WN, WM * WN);
    assert_non_null(strstr(failure.reason, expected));

    play(&w, both);
    assert_int_equal(hb_output_watch_after_round(&w.watch, w.parts, stream, (hb_watch_round){1, 3}, &failure), HB_OK);

    play(&w, no_baseline);
    assert_int_equal(hb_output_watch_after_round(&w.watch, w.parts, stream, (hb_watch_round){0, 4}, &failure),
                     HB_ERR_CUDA);
    assert_non_null(strstr(hb_last_error(), "baseline torch"));
    assert_non_null(strstr(hb_last_error(), "a warm-up call (round 4 of the warm-up)"));
    assert_int_equal(w.watch.scans, 8);
    watched_free(&w);
}

/* ---- the stir ---------------------------------------------------------------- */

/* Non-square, so a row stirred as a column (or A's seed used for B) shows. */
#define SM 96
#define SN 80
#define SK 112

typedef struct inputs {
    uint16_t a[SM * SK], b[SK * SN], b_col[SK * SN];
} inputs;

static void read_inputs(const hb_problem *p, inputs *out)
{
    assert_int_equal(cudaMemcpy(out->a, p->inputs.a, sizeof out->a, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(cudaMemcpy(out->b, p->inputs.b, sizeof out->b, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(cudaMemcpy(out->b_col, p->inputs.b_col, sizeof out->b_col, cudaMemcpyDeviceToHost), cudaSuccess);
}

static int finite_half(uint16_t h) { return (h & 0x7C00u) != 0x7C00u; }

/* For each line (a row of A: along = SK elements 1 apart, lines SK apart;
 * a column of B: SK elements SN apart, lines 1 apart), the one element
 * that differs from the base: its position along the line in at[line].
 * Fails unless exactly one differs and its new value is finite. */
static void one_change_per_line(const uint16_t *base, const uint16_t *now, long lines, long length, long step,
                                long line_step, long *at, const char *what)
{
    for (long line = 0; line < lines; line++) {
        int changed = 0;
        for (long j = 0; j < length; j++) {
            const long i = line * line_step + j * step;
            if (base[i] != now[i]) {
                changed++;
                at[line] = j;
                assert_true(finite_half(now[i]));
            }
        }
        if (changed != 1)
            fail_msg("%s: line %ld has %d elements changed by the stir, not 1", what, line, changed);
    }
}

static void assert_b_col_is_b(const inputs *in)
{
    for (long r = 0; r < SK; r++)
        for (long c = 0; c < SN; c++)
            if (in->b_col[c * SK + r] != in->b[r * SN + c])
                fail_msg("B_col[%ld][%ld] differs from B[%ld][%ld]", c, r, r, c);
}

static long distinct(const long *at, long count)
{
    long seen = 0;
    for (long i = 0; i < count; i++) {
        int earlier = 0;
        for (long j = 0; j < i && !earlier; j++)
            earlier = at[j] == at[i];
        seen += !earlier;
    }
    return seen;
}

/* After a stir A differs from its fill in exactly one element per row and B
 * in one per column, at positions spread over the line, and B_col holds B.
 * A second stir leaves again exactly one per line (the first one's set back
 * to the fill's value); the same stir seed gives the same inputs whatever
 * came before; a fill undoes every stir. */
static void test_gpu_stir_changes_one_element_per_line(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static inputs base, first, second, again;
    cudaStream_t stream = hb_test_stream();
    const hb_mnk mnk = {SM, SN, SK};
    hb_problem p;
    assert_int_equal(hb_problem_create(&mnk, 1, 4242, stream, &p), HB_OK);
    read_inputs(&p, &base);
    long a1[SM], b1[SN], a2[SM], b2[SN];

    assert_int_equal(hb_problem_stir(&p, 11, stream), HB_OK);
    assert_true(p.stir_seed == 11);
    read_inputs(&p, &first);
    one_change_per_line(base.a, first.a, SM, SK, 1, SK, a1, "A, first stir");
    one_change_per_line(base.b, first.b, SN, SK, SN, 1, b1, "B, first stir");
    assert_b_col_is_b(&first);
    assert_true(distinct(a1, SM) > SM / 4 && distinct(b1, SN) > SN / 4); /* not one column for every row */

    assert_int_equal(hb_problem_stir(&p, 12, stream), HB_OK);
    read_inputs(&p, &second);
    one_change_per_line(base.a, second.a, SM, SK, 1, SK, a2, "A, second stir");
    one_change_per_line(base.b, second.b, SN, SK, SN, 1, b2, "B, second stir");
    assert_b_col_is_b(&second);
    long moved = 0;
    for (long r = 0; r < SM; r++)
        moved += a1[r] != a2[r];
    assert_true(moved > SM / 2); /* a new position in most rows: the old one is back to the fill's value */

    assert_int_equal(hb_problem_stir(&p, 11, stream), HB_OK);
    read_inputs(&p, &again);
    assert_memory_equal(again.a, first.a, sizeof again.a);
    assert_memory_equal(again.b, first.b, sizeof again.b);
    assert_memory_equal(again.b_col, first.b_col, sizeof again.b_col);

    assert_int_equal(hb_problem_fill(&p, HB_INPUTS_NORMAL, 4242, stream), HB_OK);
    assert_true(p.stir_seed == 0);
    read_inputs(&p, &again);
    assert_memory_equal(again.a, base.a, sizeof again.a);
    assert_memory_equal(again.b_col, base.b_col, sizeof again.b_col);

    assert_int_equal(hb_problem_stir(&p, 0, stream), HB_ERR_INTERNAL); /* 0 is "no stir" */
    assert_int_equal(hb_problem_fill(&p, HB_INPUTS_BINARY, 5, stream), HB_OK);
    assert_int_equal(hb_problem_stir(&p, 13, stream), HB_ERR_INTERNAL); /* only N(0,1) inputs are stirred */
    hb_problem_free(&p);
}

/* Flips every bit of one byte of a device buffer. */
static void flip_byte(const void *device, size_t offset)
{
    unsigned char byte;
    unsigned char *at = (unsigned char *)device + offset;
    assert_int_equal(cudaMemcpy(&byte, at, 1, cudaMemcpyDeviceToHost), cudaSuccess);
    byte ^= 0xFF;
    assert_int_equal(cudaMemcpy(at, &byte, 1, cudaMemcpyHostToDevice), cudaSuccess);
}

/* The spot checks' input-write check re-makes fill and stir: stirred inputs
 * are intact, a 1-byte write is not, nor a stir the problem did not record. */
static void test_gpu_inputs_intact_after_stir(void **state)
{
    (void)state;
    REQUIRE_GPU();
    cudaStream_t stream = hb_test_stream();
    const hb_mnk mnk = {SM, SN, SK};
    hb_problem p;
    assert_int_equal(hb_problem_create(&mnk, 1, 77, stream, &p), HB_OK);
    const char *changed = "unset";
    for (uint64_t seed = 1001; seed <= 1003; seed++) {
        assert_int_equal(hb_problem_stir(&p, seed, stream), HB_OK);
        assert_int_equal(hb_problem_inputs_intact(&p, stream, &changed), HB_OK);
        assert_null(changed);
    }
    flip_byte(p.inputs.a, 2 * (5 * SK + 7) + 1);
    assert_int_equal(hb_problem_inputs_intact(&p, stream, &changed), HB_OK);
    assert_non_null(changed);
    assert_string_equal(changed, "A");

    assert_int_equal(hb_problem_fill(&p, HB_INPUTS_NORMAL, 78, stream), HB_OK);
    assert_int_equal(hb_problem_stir(&p, 2001, stream), HB_OK);
    flip_byte(p.inputs.b_col, 3);
    assert_int_equal(hb_problem_inputs_intact(&p, stream, &changed), HB_OK);
    assert_non_null(changed);
    assert_string_equal(changed, "B_col");

    /* A stir behind the problem's back (not recorded in stir_seed) shows too. */
    assert_int_equal(hb_problem_fill(&p, HB_INPUTS_NORMAL, 79, stream), HB_OK);
    assert_int_equal(hb_stir_normal_f16((uint16_t *)p.inputs.b, SK, SN, 0, p.seed + 1, 1, 0, 3001, stream),
                     cudaSuccess);
    assert_int_equal(hb_problem_inputs_intact(&p, stream, &changed), HB_OK);
    assert_non_null(changed);
    assert_string_equal(changed, "B");
    hb_problem_free(&p);
}

/* ---- end to end ---------------------------------------------------------------- */

/* `run --l2 LEVEL` of sample_mma at a size it pads (its output scanned in
 * its padded C, its inputs stirred every round and re-padded after): the
 * candidate passes, spot checks ran on the stirred inputs, and no call of
 * any participant left an output unwritten (that would be exit 6 for the
 * candidate, 5 for a baseline). */
static void run_sample(const char *l2)
{
    char out[512], args[1024], summary[1200], text[64];
    hb_test_make_temp_dir("hb-scan", out, sizeof out);
    snprintf(args, sizeof args,
             "--candidate %s/candidates/sample_mma --mnk %d,%d,%d --l2 %s --warmup-s 0.3 --time-s 0.6 --spot-checks 4 "
             "--autotune-cache none --no-autotune-search",
             hb_test_build_dir(), WM, WN, WK, l2);
    int rc = hb_test_run_bench("run", args, out);
    if (rc != 0) {
        char log[600];
        snprintf(log, sizeof log, "%s/stderr.txt", out);
        fail_msg("run --l2 %s exited %d (see %s)", l2, rc, log);
    }
    hb_test_summary_path(out, summary, sizeof summary);
    hb_test_csv_text(summary, "candidate", WM, "verdict", text, sizeof text);
    assert_string_equal(text, "pass");
    hb_test_csv_text(summary, "candidate", WM, "l2_policy", text, sizeof text);
    assert_string_equal(text, l2);
    assert_true(hb_test_csv_number(summary, "candidate", WM, "spot_checks") >= 1);
    hb_test_remove_tree(out);
}

static void test_gpu_run_warm_stirs_and_scans(void **state)
{
    (void)state;
    REQUIRE_GPU();
    run_sample("warm");
    run_sample("flush");
}

hb_test_list hb_gpu_output_scan_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_output_scan_counts_planted_values),
        cmocka_unit_test(test_gpu_output_watch_flags_skipped_calls),
        cmocka_unit_test(test_gpu_stir_changes_one_element_per_line),
        cmocka_unit_test(test_gpu_inputs_intact_after_stir),
        cmocka_unit_test(test_gpu_run_warm_stirs_and_scans),
    };
    return HB_TEST_LIST(tests);
}
