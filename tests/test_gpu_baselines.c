/* GPU tests of the baselines (docs/methodology.md, "Participants"): all seven agree
 * within the deviation bound in both accumulator classes and are recorded
 * as they ran; the autotuned pick is no slower than the heuristic's beyond
 * noise; the autotune cache is reused, refreshed on --retune and survives
 * corruption.  Each runs the driver binary; each skips without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define N_BASELINES 7
static const char *const baselines[N_BASELINES] = {"torch",
                                                   "cublas-nn",
                                                   "cublas-tn",
                                                   "cublaslt-heuristic-nn",
                                                   "cublaslt-heuristic-tn",
                                                   "cublaslt-autotune-nn",
                                                   "cublaslt-autotune-tn"};

/* Sizes of the class test: K both below and above 2048, where the exact-match
 * and split-K behaviour change. */
#define N_SIZES 3
static const long sizes[N_SIZES][3] = {{64, 64, 64}, {256, 512, 2048}, {1024, 1024, 1024}};

/* What one baseline row must say in a run of class `acc`. */
static void expect_recorded_as_run(const char *csv, const char *who, long m, int fp16)
{
    char text[128];
    int torch = !strcmp(who, "torch");
    hb_test_csv_text(csv, who, m, "compute_type", text, sizeof text);
    assert_string_equal(text, fp16 && !torch ? "CUBLAS_COMPUTE_16F" : "CUBLAS_COMPUTE_32F");
    hb_test_csv_text(csv, who, m, "scale_type", text, sizeof text);
    assert_string_equal(text, fp16 && !torch ? "CUDA_R_16F" : "CUDA_R_32F");
    if (torch)
        return; /* torch keeps PyTorch's workspace and cublasGemmEx's own choice */
    assert_true(hb_test_csv_number(csv, who, m, "workspace_bytes") == 33554432.0);
    if (strncmp(who, "cublaslt-", 9) != 0)
        return;
    hb_test_csv_text(csv, who, m, "algo_tile", text, sizeof text);
    assert_true(text[0] != '\0');
    assert_true(hb_test_csv_number(csv, who, m, "algo_id") >= 0);
    assert_true(hb_test_csv_number(csv, who, m, "algo_workspace_bytes") <= 33554432.0);
    assert_true(hb_test_csv_number(csv, who, m, "heuristic_results") >= 1);
}

/* `check` of the class's sample at every size; returns the bounds. */
static void check_class(const char *acc, const char *sample, double bounds[N_SIZES])
{
    char out[512], args[1024], csv[1200];
    hb_test_make_temp_dir("hb-class", out, sizeof out);
    int n = snprintf(args, sizeof args, "--candidate %s/candidates/%s --acc %s --autotune-cache %s/cache.tsv",
                     hb_test_build_dir(), sample, acc, out);
    for (int i = 0; i < N_SIZES; i++)
        n += snprintf(args + n, sizeof args - (size_t)n, " --mnk %ld,%ld,%ld", sizes[i][0], sizes[i][1], sizes[i][2]);
    assert_int_equal(hb_test_run_bench("check", args, out), 0);
    hb_test_summary_path(out, csv, sizeof csv);
    const int fp16 = !strcmp(acc, "fp16");
    for (int i = 0; i < N_SIZES; i++) {
        const long m = sizes[i][0];
        bounds[i] = hb_test_csv_number(csv, "candidate", m, "paper_dev_bound");
        assert_true(bounds[i] > 0);
        for (int b = 0; b < N_BASELINES; b++) {
            double deviation = hb_test_csv_number(csv, baselines[b], m, "paper_max_abs_dev");
            printf("  %s M,N,K=%ld,%ld,%ld %-22s max|C-ref| %.5g (bound %.5g)\n", acc, m, sizes[i][1], sizes[i][2],
                   baselines[b], deviation, bounds[i]);
            assert_true(deviation <= bounds[i]);
            assert_true(hb_test_csv_number(csv, baselines[b], m, "non_finite") == 0);
            expect_recorded_as_run(csv, baselines[b], m, fp16);
        }
    }
    hb_test_remove_tree(out);
}

/* All seven baselines, torch included (it does not set the bound), are
 * within the bound in both classes, and the fp16 class really accumulates
 * in fp16: its bound is at least the fp32 class's, and well above it once K
 * is large (at K = 64 the output's own rounding dominates both). */
static void test_gpu_baselines_agree_in_both_classes(void **state)
{
    (void)state;
    REQUIRE_GPU();
    double fp32[N_SIZES], fp16[N_SIZES];
    check_class("fp32", "sample_mma", fp32);
    check_class("fp16", "sample_mma_f16acc", fp16);
    for (int i = 0; i < N_SIZES; i++) {
        assert_true(fp16[i] >= fp32[i]);
        if (sizes[i][2] >= 1024)
            assert_true(fp16[i] > 2 * fp32[i]);
    }
}

/* The autotune search picks, by median, from the heuristic's results,
 * which include the heuristic's own pick: timed again in the run, the pick
 * must be no slower than the heuristic's beyond 5 % plus the heuristic row's
 * own spread (p90 - p10 over the median).  At 1024^3 both take ~17 us on an
 * H100, most of it the host's launch path, and a 1 s search can pick an
 * algorithm 5.5 % slower by chance (measured once, 18.27 against 17.31 us);
 * a difference inside the spread is noise, a wrong pick is not. */
static void test_gpu_autotune_no_slower_than_heuristic(void **state)
{
    (void)state;
    REQUIRE_GPU();
    static const long run_sizes[] = {64, 1024, 2048};
    char out[512], args[1024], csv[1200];
    hb_test_make_temp_dir("hb-tune", out, sizeof out);
    snprintf(args, sizeof args,
             "--candidate %s/candidates/sample_mma --mnk 64,64,64 --mnk 1024,1024,1024 --mnk 2048,2048,2048 "
             "--warmup-s 0.3 --time-s 1 --autotune-cache %s/cache.tsv",
             hb_test_build_dir(), out);
    assert_int_equal(hb_test_run_bench("run", args, out), 0);
    hb_test_summary_path(out, csv, sizeof csv);
    for (size_t i = 0; i < sizeof run_sizes / sizeof run_sizes[0]; i++) {
        for (int layout = 0; layout < 2; layout++) {
            const char *heuristic = layout ? "cublaslt-heuristic-tn" : "cublaslt-heuristic-nn";
            const char *autotune = layout ? "cublaslt-autotune-tn" : "cublaslt-autotune-nn";
            double t_heuristic = hb_test_csv_number(csv, heuristic, run_sizes[i], "event_median_us");
            double t_autotune = hb_test_csv_number(csv, autotune, run_sizes[i], "event_median_us");
            double spread = (hb_test_csv_number(csv, heuristic, run_sizes[i], "event_p90_us") -
                             hb_test_csv_number(csv, heuristic, run_sizes[i], "event_p10_us")) / t_heuristic;
            printf("  %ld^3 %s median %.2f us (p10-p90 %.1f %%), %s %.2f us\n", run_sizes[i], heuristic, t_heuristic,
                   100 * spread, autotune, t_autotune);
            assert_true(t_autotune <= (1.05 + spread) * t_heuristic);
        }
    }
    hb_test_remove_tree(out);
}

/* The autotune rows' algorithm source and configuration in a `check` run. */
static void autotune_choice(const char *out, const char *who, char *source, size_t size, char *config, size_t csize)
{
    char csv[1200], tile[64], stages[64], id[32], cluster[64];
    hb_test_summary_path(out, csv, sizeof csv);
    hb_test_csv_text(csv, who, 256, "algo_source", source, size);
    hb_test_csv_text(csv, who, 256, "algo_id", id, sizeof id);
    hb_test_csv_text(csv, who, 256, "algo_tile", tile, sizeof tile);
    hb_test_csv_text(csv, who, 256, "algo_stages", stages, sizeof stages);
    hb_test_csv_text(csv, who, 256, "algo_cluster_shape", cluster, sizeof cluster);
    snprintf(config, csize, "%s/%s/%s/%s", id, tile, stages, cluster);
}

static void expect_sources(const char *out, const char *expected, char configs[2][256])
{
    static const char *const tuned[2] = {"cublaslt-autotune-nn", "cublaslt-autotune-tn"};
    for (int i = 0; i < 2; i++) {
        char source[32], config[256];
        autotune_choice(out, tuned[i], source, sizeof source, config, sizeof config);
        assert_string_equal(source, expected);
        if (configs[i][0])
            assert_string_equal(config, configs[i]); /* the same algorithm as the first search */
        else
            snprintf(configs[i], 256, "%s", config);
    }
}

static void run_check(const char *out, const char *cache, const char *extra)
{
    char args[1400];
    snprintf(args, sizeof args, "--candidate %s/candidates/sample_mma --mnk 256,256,256 --autotune-cache %s %s",
             hb_test_build_dir(), cache, extra);
    assert_int_equal(hb_test_run_bench("check", args, out), 0);
}

/* A second run reuses the first's choices; --retune searches again and
 * replaces them; a corrupted cache file is searched past and rewritten. */
static void test_gpu_autotune_cache_reused(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], cache[600];
    hb_test_make_temp_dir("hb-cache", out, sizeof out);
    snprintf(cache, sizeof cache, "%s/cache.tsv", out);
    char configs[2][256] = {"", ""};
    run_check(out, cache, "");
    expect_sources(out, "search", configs);
    assert_int_equal(hb_test_count_lines(cache), 2 + 2); /* two header lines, nn and tn */
    run_check(out, cache, "");
    expect_sources(out, "cache", configs);
    run_check(out, cache, "--retune");
    expect_sources(out, "search", (char[2][256]){"", ""});
    assert_int_equal(hb_test_count_lines(cache), 2 + 2); /* replaced, not appended */

    FILE *f = fopen(cache, "w");
    assert_non_null(f);
    fputs("garbage\tthat\tis\tno cache line\n\x01\x02\n", f);
    fclose(f);
    run_check(out, cache, "");
    expect_sources(out, "search", (char[2][256]){"", ""});
    assert_int_equal(hb_test_count_lines(cache), 2 + 2); /* the bad lines are gone */
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_baseline_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_baselines_agree_in_both_classes),
        cmocka_unit_test(test_gpu_autotune_no_slower_than_heuristic),
        cmocka_unit_test(test_gpu_autotune_cache_reused),
    };
    return HB_TEST_LIST(tests);
}
