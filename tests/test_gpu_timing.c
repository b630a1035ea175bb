/* GPU tests of the timing modes (docs/methodology.md): an A/A pair measures
 * zero offline; server mode sleeps its gaps outside every time and counts
 * them; each L2 policy runs with its spot checks passing; --target-ci ends
 * a window early or says the cap did; NVML telemetry reaches the results;
 * --raw writes every sample.  Each runs the driver binary; each skips
 * without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/report/raw_samples.h"
#include "bench/result/baseline_registry.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define SIZE 256                /* M = N = K of these runs: quick, yet a real tensor-core product */
#define PARTICIPANTS 8          /* candidate + 7 baselines */

/* Runs `run ARGS --mnk 256,256,256` into a fresh folder; returns summary.csv's path in csv. */
static void run_256(const char *args, char *out, size_t out_size, char *csv, size_t csv_size)
{
    char full[1536];
    hb_test_make_temp_dir("hb-timing", out, out_size);
    snprintf(full, sizeof full, "%s --mnk 256,256,256 --autotune-cache %s/cache.tsv", args, out);
    assert_int_equal(hb_test_run_bench("run", full, out), 0);
    hb_test_summary_path(out, csv, csv_size);
}

static double col(const char *csv, const char *who, const char *column)
{
    return hb_test_csv_number(csv, who, SIZE, column);
}

static void expect_text(const char *csv, const char *who, const char *column, const char *expected)
{
    char text[256];
    hb_test_csv_text(csv, who, SIZE, column, text, sizeof text);
    assert_string_equal(text, expected);
}

/* A/A offline: the same cuBLAS call twice must measure 0 within noise, and
 * NVML must have sampled the timed window. */
static void test_gpu_aa_offline_measures_zero(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], csv[1200];
    run_256("--aa cublas-nn --warmup-s 0.3 --time-s 2", out, sizeof out, csv, sizeof csv);
    expect_text(csv, "aa:cublas-nn", "verdict", "pass");
    expect_text(csv, "cublas-nn", "aa_of", "cublas-nn");
    double headline = col(csv, "cublas-nn", "speedup_geomean");
    double low = col(csv, "cublas-nn", "speedup_ci95_low"), high = col(csv, "cublas-nn", "speedup_ci95_high");
    double paper = col(csv, "cublas-nn", "speedup_paper");
    printf("  A/A cublas-nn offline 256^3: headline %+.3f%% CI [%+.3f%%, %+.3f%%], paper %+.3f%%\n", headline * 100,
           low * 100, high * 100, paper * 100);
    assert_true(fabs(headline) < 0.015);
    assert_true(low <= headline && headline <= high);
    assert_true(high - low > 0 && high - low < 0.05);
    assert_true(paper >= headline); /* mean of ratios >= their geometric mean */
    expect_text(csv, "aa:cublas-nn", "telemetry", "nvml");
    assert_true(col(csv, "aa:cublas-nn", "telemetry_samples") >= 2);
    assert_true(col(csv, "aa:cublas-nn", "sm_clock_mean_mhz") > 0);
    assert_true(col(csv, "aa:cublas-nn", "sm_clock_device_max_mhz") > 0);
    hb_test_remove_tree(out);
}

/* An autotuned baseline's A/A copy runs the very algorithm the original runs. */
static void test_gpu_aa_autotune_same_algorithm(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], csv[1200], copy[64], original[64];
    run_256("--aa cublaslt-autotune-tn --warmup-s 0.1 --time-s 0.3", out, sizeof out, csv, sizeof csv);
    static const char *const columns[] = {"algo_id", "algo_tile", "algo_stages", "algo_splitk", "algo_cluster_shape"};
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++) {
        hb_test_csv_text(csv, "aa:cublaslt-autotune-tn", SIZE, columns[i], copy, sizeof copy);
        hb_test_csv_text(csv, "cublaslt-autotune-tn", SIZE, columns[i], original, sizeof original);
        assert_string_equal(copy, original);
    }
    hb_test_remove_tree(out);
}

/* The raw file of the one configuration: its header and size. */
static void expect_raw_file(const char *out, double rounds)
{
    char run_dir[1024], path[1200];
    hb_test_find_run_dir(out, run_dir, sizeof run_dir);
    snprintf(path, sizeof path, "%s/raw/0000_256x256x256.bin", run_dir);
    hb_raw_header header;
    assert_int_equal(hb_raw_samples_read_header(path, &header), HB_OK);
    assert_true((double)header.rounds == rounds);
    assert_int_equal(header.participants, PARTICIPANTS);
    assert_string_equal(header.mode, "server");
    assert_string_equal(header.names[0], "aa:cublas-nn");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true((double)st.st_size == HB_RAW_HEADER_BYTES + HB_RAW_RECORD_BYTES * rounds * PARTICIPANTS);
}

/* Server mode, a gap before every call: one gap per call of the timed
 * window (a sample, or a call of a cross-checked round, which the samples
 * leave out), of about the asked mean, and none of it inside the times. */
static void test_gpu_server_per_call_gaps(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], csv[1200];
    run_256("--aa cublas-nn --mode server --mean-gap-ms 0.5 --warmup-s 0.2 --time-s 1.5 --raw", out, sizeof out, csv,
            sizeof csv);
    const char *cand = "aa:cublas-nn";
    double rounds = col(csv, cand, "samples"), gaps = col(csv, cand, "gaps");
    double gap_ms = col(csv, cand, "gap_mean_ms"), wall_us = col(csv, cand, "wall_median_us");
    printf("  server per-call: %.0f rounds, %.0f gaps, mean gap %.3f ms, rate %.0f/s, wall median %.1f us\n", rounds,
           gaps, gap_ms, col(csv, cand, "achieved_rate_per_s"), wall_us);
    expect_text(csv, cand, "mode", "server");
    expect_text(csv, cand, "gap", "per-call");
    assert_true(gaps == (rounds + col(csv, cand, "cross_checked_rounds")) * PARTICIPANTS);
    assert_true(gap_ms > 0.3 && gap_ms < 1.0); /* exponential, mean 0.5 ms, plus the sleep's wake-up latency */
    assert_true(wall_us < 250);                /* half the mean gap: the gaps are outside the times */
    assert_true(col(csv, cand, "achieved_rate_per_s") > 0);
    expect_raw_file(out, rounds);
    hb_test_remove_tree(out);
}

/* --gap per-round: one gap per round played, cross-checked ones included. */
static void test_gpu_server_per_round_gaps(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], csv[1200];
    run_256("--aa cublas-nn --mode server --gap per-round --mean-gap-ms 1 --warmup-s 0.1 --time-s 1", out, sizeof out,
            csv, sizeof csv);
    assert_true(col(csv, "aa:cublas-nn", "gaps") ==
                col(csv, "aa:cublas-nn", "samples") + col(csv, "aa:cublas-nn", "cross_checked_rounds"));
    expect_text(csv, "aa:cublas-nn", "gap", "per-round");
    hb_test_remove_tree(out);
}

/* Every L2 policy times the sample candidate with its spot checks passing
 * (fresh: the checked rounds restore the inputs the reference is for). */
static void test_gpu_l2_policies(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static const char *const policies[] = {"fresh", "flush", "warm"};
    for (size_t i = 0; i < 3; i++) {
        char out[512], csv[1200], args[1024];
        snprintf(args, sizeof args, "--candidate %s/candidates/sample_mma --l2 %s --warmup-s 0.1 --time-s 0.5",
                 hb_test_build_dir(), policies[i]);
        run_256(args, out, sizeof out, csv, sizeof csv);
        expect_text(csv, "candidate", "verdict", "pass");
        expect_text(csv, "candidate", "l2_policy", policies[i]);
        expect_text(csv, "cublas-nn", "l2_policy", policies[i]);
        assert_true(col(csv, "candidate", "spot_checks") >= 1);
        printf("  --l2 %s: cublas-nn median %.2f us\n", policies[i], col(csv, "cublas-nn", "event_median_us"));
        hb_test_remove_tree(out);
    }
}

/* Stopped by --target-ci: the criterion decided on the summary's own
 * half-widths (the rounds kept end at its decision round, the bootstrap is
 * seeded as the summary's), so the widest it saw, final_ci_halfwidth, is the
 * largest of the baselines' speedup_ci95_halfwidth as printed, and every one
 * of them is below the target. */
static void expect_decision_is_summary(const char *csv, const char *candidate, double target)
{
    double widest = 0;
    for (int i = 0; i < HB_N_BASELINES; i++) {
        double halfwidth = col(csv, hb_baselines[i].name, "speedup_ci95_halfwidth");
        printf("  %-22s CI half-width %.4f%%\n", hb_baselines[i].name, halfwidth * 100);
        assert_true(halfwidth < target);
        if (halfwidth > widest)
            widest = halfwidth;
    }
    assert_true(col(csv, candidate, "final_ci_halfwidth") == widest);
}

/* --target-ci ends the window once met, and says when the cap ended it instead. */
static void test_gpu_target_ci(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], csv[1200];
    run_256("--aa cublas-nn --warmup-s 0.1 --time-s 30 --target-ci 5 --min-time-s 0.5", out, sizeof out, csv,
            sizeof csv);
    expect_text(csv, "aa:cublas-nn", "stopped_by", "target-ci");
    assert_true(col(csv, "aa:cublas-nn", "timed_s") < 10);
    assert_true(col(csv, "aa:cublas-nn", "final_ci_halfwidth") < 0.05);
    expect_decision_is_summary(csv, "aa:cublas-nn", 0.05);
    hb_test_remove_tree(out);
    run_256("--aa cublas-nn --warmup-s 0.1 --time-s 0.6 --target-ci 0.0001 --min-time-s 0.2", out, sizeof out, csv,
            sizeof csv);
    expect_text(csv, "aa:cublas-nn", "stopped_by", "time-cap");
    assert_true(col(csv, "aa:cublas-nn", "final_ci_halfwidth") >= 0.000001);
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_timing_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_aa_offline_measures_zero), cmocka_unit_test(test_gpu_aa_autotune_same_algorithm),
        cmocka_unit_test(test_gpu_server_per_call_gaps),     cmocka_unit_test(test_gpu_server_per_round_gaps),
        cmocka_unit_test(test_gpu_l2_policies),              cmocka_unit_test(test_gpu_target_ci),
    };
    return HB_TEST_LIST(tests);
}
