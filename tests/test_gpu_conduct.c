/* The call monitor through the binary, on a GPU (skipped without one): the
 * kernel-only time in summary.csv, and what `gate --strict` and `--forbid`
 * make of the conduct findings (docs/gate.md, "Conduct"). */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/result/timer_check.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define SHORT_GATE "--mnk 256,256,256 --warmup-s 0.5 --time-s 1 --min-speedup -1 --autotune-cache none " \
                   "--no-autotune-search"

typedef struct gate_outcome {
    int rc;
    char verdict[32], check[32], reason[512];
    int findings, forbidden; /* conduct findings listed, and how many of them forbidden */
} gate_outcome;

static const char *config_text(json_t *verdict, const char *key)
{
    const char *text = json_string_value(json_object_get(json_array_get(json_object_get(verdict, "configs"), 0), key));
    return text ? text : "";
}

/* `gate` on build/candidates/<candidate> with `flags`; what verdict.json says. */
static gate_outcome gate(const char *candidate, const char *flags)
{
    gate_outcome g;
    memset(&g, 0, sizeof g);
    char out[512], args[2048], verdict_path[700];
    hb_test_make_temp_dir("hb-conduct", out, sizeof out);
    snprintf(verdict_path, sizeof verdict_path, "%s/verdict.json", out);
    snprintf(args, sizeof args, "--candidate %s/candidates/%s " SHORT_GATE " %s --verdict %s", hb_test_build_dir(),
             candidate, flags, verdict_path);
    g.rc = hb_test_run_bench("gate", args, out);
    json_t *v = hb_test_load_json(verdict_path);
    const char *verdict = json_string_value(json_object_get(v, "verdict"));
    snprintf(g.verdict, sizeof g.verdict, "%s", verdict ? verdict : "(no verdict file)");
    snprintf(g.check, sizeof g.check, "%s", config_text(v, "check"));
    snprintf(g.reason, sizeof g.reason, "%s", config_text(v, "reason"));
    json_t *findings = json_object_get(
        json_object_get(json_array_get(json_object_get(v, "configs"), 0), "conduct"), "findings");
    g.findings = (int)json_array_size(findings);
    for (size_t i = 0; i < json_array_size(findings); i++)
        g.forbidden += json_is_true(json_object_get(json_array_get(findings, i), "forbidden"));
    printf("  gate %s %s: exit %d, %s/%s, %d findings (%d forbidden) %s\n", candidate, flags, g.rc, g.verdict, g.check,
           g.findings, g.forbidden, g.reason);
    json_decref(v);
    hb_test_remove_tree(out);
    return g;
}

/* malloc_per_call: plain gate reports its allocation and passes it;
 * --strict refuses it with exit 12, verdict forbidden, check conduct and
 * the finding's line as the reason. */
static void test_gpu_gate_strict_refuses_an_allocating_launcher(void **state)
{
    (void)state;
    REQUIRE_GPU();
    gate_outcome plain = gate("broken_launchers/malloc_per_call", "");
    assert_int_equal(plain.rc, 0);
    assert_string_equal(plain.verdict, "pass");
    assert_true(plain.findings >= 2); /* alloc and host-time at least */
    assert_int_equal(plain.forbidden, 0);
    gate_outcome strict = gate("broken_launchers/malloc_per_call", "--strict");
    assert_int_equal(strict.rc, 12);
    assert_string_equal(strict.verdict, "forbidden");
    assert_string_equal(strict.check, "conduct");
    assert_non_null(strstr(strict.reason, "alloc: cudaMalloc"));
    assert_int_equal(strict.forbidden, 1);
}

/* The samples in both forms do nothing --strict refuses. */
static void test_gpu_gate_strict_passes_the_samples(void **state)
{
    (void)state;
    REQUIRE_GPU();
    gate_outcome cubin = gate("sample_mma", "--strict");
    assert_int_equal(cubin.rc, 0);
    gate_outcome launcher = gate("sample_mma_launcher", "--strict --forbid multi-kernel");
    assert_int_equal(launcher.rc, 0);
    assert_int_equal(launcher.forbidden, 0);
}

/* --forbid names exactly what it refuses: device_sync is refused for sync,
 * not for alloc. */
static void test_gpu_gate_forbid_list(void **state)
{
    (void)state;
    REQUIRE_GPU();
    gate_outcome sync = gate("broken_launchers/device_sync", "--forbid sync");
    assert_int_equal(sync.rc, 12);
    assert_non_null(strstr(sync.reason, "sync: cudaDeviceSynchronize"));
    gate_outcome alloc = gate("broken_launchers/device_sync", "--forbid alloc,create");
    assert_int_equal(alloc.rc, 0);
}

/* Every participant's kernel time is in summary.csv, and at 64^3, where the
 * host path dominates, it is well under its event time; a launcher whose
 * first call tunes shows more kernels in that call than later. */
static void test_gpu_kernel_time_columns(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], args[1024], csv[1200];
    hb_test_make_temp_dir("hb-kernel-time", out, sizeof out);
    snprintf(args, sizeof args, "--candidate %s/candidates/broken_launchers/first_call_autotune --mnk 64,64,64 "
             "--warmup-s 0.5 --time-s 1 --autotune-cache none --no-autotune-search --verdict %s/v.json",
             hb_test_build_dir(), out);
    assert_int_equal(hb_test_run_bench("run", args, out), 0);
    hb_test_summary_path(out, csv, sizeof csv);
    const char *names[] = {"candidate", "torch", "cublas-nn", "cublaslt-autotune-tn", "cublas-max"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        double kernel = hb_test_csv_number(csv, names[i], 64, "kernel_us");
        double event = hb_test_csv_number(csv, names[i], 64, "event_median_us");
        printf("  64^3 %-22s kernel %.2f us, event %.2f us\n", names[i], kernel, event);
        assert_true(kernel > 0.5 && kernel < event);
        assert_true(hb_test_csv_number(csv, names[i], 64, "host_us") > 0);
        if (!strcmp(names[i], "cublas-max"))
            continue; /* a -max row: its variant's figures */
        /* CUPTI read the harness's own events of the warm-up's calls (CUPTI
         * opened before the context; the timed window goes without, for its
         * cost), and agrees with cudaEventElapsedTime by the median. */
        const double compared = hb_test_csv_number(csv, names[i], 64, "event_device_calls");
        const double median_diff = hb_test_csv_number(csv, names[i], 64, "event_device_median_diff_us");
        printf("  64^3 %-22s CUPTI's reading of the events: %.0f of %.0f calls, median difference %+.2f us\n",
               names[i], compared, hb_test_csv_number(csv, names[i], 64, "samples"), median_diff);
        assert_true(compared >= HB_TIMER_DEVICE_MIN_CALLS);
        assert_true(fabs(median_diff) < HB_TIMER_DEVICE_TOLERANCE_US);
    }
    assert_true(hb_test_csv_number(csv, "candidate", 64, "first_call_kernels") >
                hb_test_csv_number(csv, "candidate", 64, "kernels_per_call"));
    /* (verdict.json: the conduct cell holds commas, which the tests' awk reader would split) */
    char verdict_path[700];
    snprintf(verdict_path, sizeof verdict_path, "%s/v.json", out);
    json_t *v = hb_test_load_json(verdict_path);
    json_t *findings = json_object_get(json_object_get(json_array_get(json_object_get(v, "configs"), 0), "conduct"),
                                       "findings");
    int first_call = 0;
    for (size_t i = 0; i < json_array_size(findings); i++)
        first_call |= !strcmp(json_string_value(json_object_get(json_array_get(findings, i), "finding")), "first-call");
    json_decref(v);
    assert_true(first_call);
    /* the speedup on kernel time is in the baselines' rows, from the medians */
    double expected = hb_test_csv_number(csv, "torch", 64, "kernel_us") / hb_test_csv_number(csv, "candidate", 64,
                                                                                             "kernel_us") - 1;
    double got = hb_test_csv_number(csv, "torch", 64, "speedup_kernel");
    assert_true(got > expected - 1e-6 && got < expected + 1e-6);
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_conduct_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_gate_strict_refuses_an_allocating_launcher),
        cmocka_unit_test(test_gpu_gate_strict_passes_the_samples),
        cmocka_unit_test(test_gpu_gate_forbid_list),
        cmocka_unit_test(test_gpu_kernel_time_columns),
    };
    hb_test_list list = {tests, sizeof tests / sizeof tests[0]};
    return list;
}
