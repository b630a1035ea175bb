/* GPU tests: the sample cubins against cuBLAS and an fp32 reference, load
 * errors a user can hit, and a short end-to-end timed run of the driver.
 * Each test skips (and is counted as skipped) when no CUDA GPU is usable. */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "baselines/baseline_factory.h"
#include "bench/candidate/cubin_candidate.h"
#include "bench/core/diag.h"
#include "bench/driver/sanitize_pass.h"
#include "bench/gpu/device.h"
#include "bench/gpu/driver_api.h"
#include "bench/result/run_options.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"
#include "verify/deviation_check.h"
#include "verify/problem.h"

static void load_sample_manifest(const char *sample, hb_manifest *m)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/candidates/%s/manifest.json", hb_test_build_dir(), sample);
    assert_int_equal(hb_manifest_load(path, m), HB_OK);
}

/* Runs the deviation check of `manifest` against the three cuBLAS-family
 * baselines at (m, n, k); returns the check result through `out`. */
static hb_status check_candidate(const hb_manifest *manifest, long m, long n, long k, hb_check_result *out)
{
    hb_device_limits limits = hb_device_limits_of(hb_test_device());
    hb_participant parts_storage[4];
    hb_participant *parts[4];
    hb_status status = hb_candidate_participant_create(manifest, &limits, HB_ACC_FP32, m, n, k, &parts_storage[0]);
    if (status != HB_OK)
        return status;
    /* The registry's first three rows: torch, cublas-nn, cublas-tn. */
    hb_baseline_context context = {.acc = HB_ACC_FP32, .m = m, .n = n, .k = k,
                                   .workspace_bytes = HB_DEFAULT_WORKSPACE_BYTES, .device = hb_test_device(),
                                   .stream = hb_test_stream()};
    for (int i = 0; i < 3; i++)
        assert_int_equal(hb_baseline_create(&hb_baselines[i], &context, &parts_storage[i + 1]), HB_OK);
    for (int i = 0; i < 4; i++)
        parts[i] = &parts_storage[i];
    hb_mnk mnk = {m, n, k};
    hb_problem problem;
    assert_int_equal(hb_problem_create(&mnk, 4, 1234 + (uint64_t)(m * 7 + n * 3 + k), hb_test_stream(), &problem), HB_OK);
    hb_rng rng;
    hb_rng_seed(&rng, 99);
    const hb_judge_setup setup = {HB_RULE_ULP_EXCESS, HB_ACC_FP32, "deviation"};
    status = hb_check_deviation(parts, 4, &problem, &setup, &rng, hb_test_stream(), out);
    hb_problem_free(&problem);
    for (int i = 0; i < 4; i++)
        parts[i]->ops->destroy(parts[i]);
    return status;
}

static void assert_sample_passes(const char *sample, long m, long n, long k)
{
    hb_manifest manifest;
    load_sample_manifest(sample, &manifest);
    hb_check_result check;
    assert_int_equal(check_candidate(&manifest, m, n, k, &check), HB_OK);
    if (!check.passed)
        fail_msg("%s at %ld,%ld,%ld: %s", sample, m, n, k, check.failure.reason);
    /* The figures are real, not 0: cuBLAS rounds to fp16 too, and the tolerance scales with K. */
    assert_true(check.figures.paper_bound > 0);
    assert_true(check.figures.tolerance >= check.figures.analytic && check.figures.analytic > 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(check.excess[i].non_finite, 0);
    assert_true(check.figures.excess_pass);
    assert_true(check.excess[0].max <= check.figures.tolerance);
}

static void test_gpu_mma_sample_matches_cublas(void **state)
{
    (void)state;
    REQUIRE_GPU();
    assert_sample_passes("sample_mma", 128, 128, 128);
    assert_sample_passes("sample_mma", 256, 512, 1024);  /* non-square */
    assert_sample_passes("sample_mma", 100, 200, 300);   /* needs padding on every dimension */
    assert_sample_passes("sample_mma", 1024, 1024, 1024);
    assert_sample_passes("sample_mma", 64, 4096, 2048);
}

static void test_gpu_simple_sample_matches_cublas(void **state)
{
    (void)state;
    REQUIRE_GPU();
    assert_sample_passes("sample_simple", 64, 64, 64);
    assert_sample_passes("sample_simple", 257, 129, 65); /* odd sizes: edge handling, B_col layout */
    assert_sample_passes("sample_simple", 512, 256, 1024);
}

/* Negative control: launching the simple kernel over half of N leaves the
 * other half unwritten; the NaN fill must expose it. */
static void test_gpu_check_catches_unwritten_output(void **state)
{
    (void)state;
    REQUIRE_GPU();
    hb_manifest manifest;
    load_sample_manifest("sample_simple", &manifest);
    char why[128];
    assert_int_equal(hb_dim_expr_parse("N/32", &manifest.grid[0], why, sizeof why), HB_OK);
    hb_check_result check;
    assert_int_equal(check_candidate(&manifest, 256, 256, 256, &check), HB_ERR_INCORRECT);
    assert_false(check.passed);
    assert_int_equal(check.deviation[0].non_finite, 256 * 128);
    assert_string_equal(check.failure.check, "non-finite");
    assert_non_null(strstr(check.failure.reason, "NaN"));
}

/* Negative control: the mma sample needs K % 32 == 0.  Told to pad K only
 * to a multiple of 16, at K = 48 it sums over the first 32 k only: a finite
 * but wrong result, which must exceed the cuBLAS bound. */
static void test_gpu_check_catches_wrong_result(void **state)
{
    (void)state;
    REQUIRE_GPU();
    hb_manifest manifest;
    load_sample_manifest("sample_mma", &manifest);
    manifest.pad[2] = 16;
    hb_check_result check;
    assert_int_equal(check_candidate(&manifest, 128, 128, 48, &check), HB_ERR_INCORRECT);
    assert_false(check.passed);
    assert_string_equal(check.failure.check, "deviation");
    assert_int_equal(check.deviation[0].non_finite, 0);
    assert_true(check.excess[0].max > 10 * check.figures.tolerance);
    assert_false(check.figures.paper_pass); /* the paper's rule catches this one too */
    assert_non_null(strstr(check.failure.reason, "beyond the fp16 rounding"));
}

static void expect_load_failure(hb_manifest *manifest, hb_status expected, const char *message_part)
{
    hb_device_limits limits = hb_device_limits_of(hb_test_device());
    hb_participant cand;
    hb_status status = hb_candidate_participant_create(manifest, &limits, HB_ACC_FP32, 256, 256, 256, &cand);
    if (status == HB_OK)
        cand.ops->destroy(&cand);
    assert_int_equal(status, expected);
    if (!strstr(hb_last_error(), message_part))
        fail_msg("expected '%s' in: %s", message_part, hb_last_error());
}

static void test_gpu_load_errors_are_actionable(void **state)
{
    (void)state;
    REQUIRE_GPU();
    hb_manifest m;
    load_sample_manifest("sample_mma", &m);
    snprintf(m.entry, sizeof m.entry, "hgemm_no_such_entry");
    expect_load_failure(&m, HB_ERR_BAD_INPUT, "extern \"C\"");

    load_sample_manifest("sample_mma", &m);
    m.dynamic_smem_bytes = hb_test_device()->smem_per_block_optin + 1024;
    expect_load_failure(&m, HB_ERR_UNSUPPORTED, "shared memory");

    load_sample_manifest("sample_mma", &m);
    m.accumulator = HB_ACC_FP16;
    expect_load_failure(&m, HB_ERR_UNSUPPORTED, "accumulator class");

    load_sample_manifest("sample_mma", &m);
    m.n_files = 1;
    m.files[0].sm = hb_test_device()->sm + 1; /* an architecture this GPU is not */
    expect_load_failure(&m, HB_ERR_UNSUPPORTED, "cubins for");

    /* A cubin of another architecture named for this one: the driver refuses it. */
    load_sample_manifest("sample_mma", &m);
    int other = hb_test_device()->sm == 90 ? 80 : 90;
    /* From the test fixtures, built for sm_80 and sm_90 whatever CUDA_ARCHS was (Makefile). */
    snprintf(m.files[0].path, sizeof m.files[0].path, "%s/test-fixtures/hgemm_mma_pipelined.sm_%d.cubin",
             hb_test_build_dir(), other);
    m.files[0].sm = 0;
    m.n_files = 1;
    expect_load_failure(&m, HB_ERR_UNSUPPORTED, "no code for this GPU");

    load_sample_manifest("sample_mma", &m);
    snprintf(m.files[0].path, sizeof m.files[0].path, "/nonexistent/k.cubin");
    m.files[0].sm = 0;
    m.n_files = 1;
    expect_load_failure(&m, HB_ERR_BAD_INPUT, "/nonexistent/k.cubin");

    /* A manifest (a text file) where a cubin should be. */
    load_sample_manifest("sample_mma", &m);
    snprintf(m.files[0].path, sizeof m.files[0].path, "%s/candidates/sample_mma/manifest.json", hb_test_build_dir());
    m.files[0].sm = 0;
    m.n_files = 1;
    expect_load_failure(&m, HB_ERR_BAD_INPUT, "not a loadable");

    load_sample_manifest("sample_mma", &m);
    m.block[0] = 1024; /* 1024 threads at ~120 registers each cannot fit an SM's register file */
    expect_load_failure(&m, HB_ERR_UNSUPPORTED, "registers per thread");
}

/* A parameter list that is not the kernel's (sample_params takes (a, b_col,
 * c, M, N, K)): the load names the list and what differs, where the driver
 * can tell (cuFuncGetParamInfo, 12.4 and newer): a size, a constant where a
 * pointer is, no list at all (the contract's eight).  And a C++ kernel's
 * name unmangled is not found, with the hint to give the mangled one. */
static void test_gpu_params_load_errors_name_the_list(void **state)
{
    (void)state;
    REQUIRE_GPU();
    hb_manifest m;
    const hb_driver_api *api = NULL;
    assert_int_equal(hb_driver_api_get(&api), HB_OK);
    if (api->func_get_param_info) {
        load_sample_manifest("sample_params", &m);
        m.params.list[3].role = HB_PARAM_M64;
        expect_load_failure(&m, HB_ERR_BAD_INPUT,
                            "parameter 3 is 4 bytes; the manifest's params (a, b_col, c, m64, n, k) "
                            "name it \"m64\" (8 bytes)");
        load_sample_manifest("sample_params", &m);
        m.params.list[1] = (hb_kernel_param){HB_PARAM_CONSTANT, 5};
        expect_load_failure(&m, HB_ERR_BAD_INPUT,
                            "parameter 1 is 8 bytes; the manifest's params (a, 5, c, m, n, k) "
                            "name it the constant 5 (4 bytes)");
        load_sample_manifest("sample_params", &m);
        m.params.n = 0;
        expect_load_failure(&m, HB_ERR_BAD_INPUT,
                            "takes 6 parameters; the contract's parameters (a, b, b_col, c, m, n, k, workspace) "
                            "name 8");
    } else {
        int driver = 0;
        assert_int_equal(cudaDriverGetVersion(&driver), cudaSuccess);
        if (driver >= HB_PARAM_INFO_ABI)
            fail_msg("driver %d has cuFuncGetParamInfo, but the lookup did not find it", driver);
        printf("  driver before 12.4: no cuFuncGetParamInfo, parameter lists are not checked\n");
    }
    load_sample_manifest("sample_params", &m);
    snprintf(m.entry, sizeof m.entry, "hgemm_params");
    expect_load_failure(&m, HB_ERR_BAD_INPUT, "or give its mangled name");
}

/* --- end to end through the driver binary --------------------------------- */

static void test_gpu_end_to_end_run(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512];
    hb_test_make_temp_dir("hb-e2e", out, sizeof out);
    char args[1024];
    snprintf(args, sizeof args, "--candidate %s/candidates/sample_mma --mnk 64,64,64 --mnk 1024,1024,1024 "
             "--warmup-s 0.2 --time-s 0.5", hb_test_build_dir());
    assert_int_equal(hb_test_run_bench("run", args, out), 0);
    char run_dir[1024], path[1200];
    hb_test_find_run_dir(out, run_dir, sizeof run_dir);
    snprintf(path, sizeof path, "%s/summary.csv", run_dir);
    /* header + 2 configurations x (candidate, 7 baselines, 3 -max rows) */
    assert_int_equal(hb_test_count_lines(path), 1 + 2 * 11);
    char max_of[64];
    assert_true(hb_test_csv_field(path, "cublaslt-autotune-max", 1024, "max_of", max_of, sizeof max_of));
    assert_true(!strcmp(max_of, "cublaslt-autotune-nn") || !strcmp(max_of, "cublaslt-autotune-tn"));

    snprintf(path, sizeof path, "%s/env.json", run_dir);
    json_error_t error;
    json_t *env = json_load_file(path, 0, &error);
    assert_non_null(env);
    assert_string_equal(json_string_value(json_object_get(json_object_get(env, "gpu"), "name")),
                        hb_test_device()->name);
    assert_int_equal(json_integer_value(json_object_get(env, "seed")), 7);
    json_decref(env);

    /* Every figure comes from real timings: event <= wall for each
     * participant (the wall clock spans the events plus the synchronize),
     * and cuBLAS at 1024^3 reaches a plausible tensor-core rate. */
    snprintf(path, sizeof path,
             "awk -F, 'NR>1 && $22+0 > 0 && $23+0 > $29+0 {bad++} NR>1 && $2==1024 && $5==\"cublas-nn\" && $34+0 < 20 {bad++} "
             "END {exit bad>0}' %s/summary.csv",
             run_dir);
    assert_int_equal(system(path), 0);
    hb_test_remove_tree(out);
}

static void test_gpu_bad_inputs_give_distinct_exit_codes(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512];
    hb_test_make_temp_dir("hb-bad", out, sizeof out);
    char args[2048], path[1024];
    snprintf(path, sizeof path, "%s/broken.json", out);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"format\": \"hgemm-bench-candidate/1\", \"entry\": ", f); /* truncated JSON */
    fclose(f);
    snprintf(args, sizeof args, "--candidate %s --mnk 64,64,64 --warmup-s 0 --time-s 0", path);
    assert_int_equal(hb_test_run_bench("run", args, out), HB_ERR_BAD_INPUT);
    /* A candidate-set folder with no manifest for the configuration. */
    snprintf(path, sizeof path, "%s/emptyset", out);
    snprintf(args, sizeof args, "mkdir -p %s", path);
    assert_int_equal(system(args), 0);
    snprintf(args, sizeof args, "--candidate %s --mnk 64,64,64 --warmup-s 0 --time-s 0", path);
    assert_int_equal(hb_test_run_bench("run", args, out), HB_ERR_UNSUPPORTED);
    hb_test_remove_tree(out);
}

/* --- the gate on the broken set (docs/gate.md) ---------------- */

/* Runs `hgemm-bench gate` on one candidate with `args` (configurations,
 * windows, threshold); returns its exit code and the parsed verdict file
 * through *verdict (caller frees). */
static int run_gate_with(const char *candidate, const char *args, const char *out, json_t **verdict)
{
    const char *bench = getenv("HB_BENCH");
    char command[4096], path[1100];
    snprintf(path, sizeof path, "%s/verdict.json", out);
    remove(path);
    hb_test_make_folder(out); /* gate.log is redirected into it */
    snprintf(command, sizeof command,
             "%s gate --candidate %s %s --timeout-s 10 --seed 3 --no-progress --out %s --verdict %s >>%s/gate.log 2>&1",
             bench ? bench : "build/hgemm-bench", candidate, args, out, path, out);
    int rc = system(command);
    json_error_t error;
    *verdict = json_load_file(path, 0, &error);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The same at `mnk` (one M,N,K or several joined by " --mnk ") with short
 * windows (0.2 s warm-up, 0.5 s timed), plus `extra`. */
static int run_gate(const char *candidate, const char *mnk, const char *extra, const char *out, json_t **verdict)
{
    char args[2048];
    snprintf(args, sizeof args, "--mnk %s --warmup-s 0.2 --time-s 0.5 %s", mnk, extra);
    return run_gate_with(candidate, args, out, verdict);
}

static const char *config_string(json_t *verdict, const char *key)
{
    const char *text = json_string_value(json_object_get(json_array_get(json_object_get(verdict, "configs"), 0), key));
    return text ? text : "(missing)";
}

/* One row of candidates/broken/expected.tsv: name, verdict, check,
 * exit_code and the optional gate_args, tab-separated.  Returns 0 for a
 * line that is not a row. */
static int read_broken_row(const char *line, char name[64], char verdict[32], char check[32], int *code,
                           char gate_args[512])
{
    gate_args[0] = '\0';
    int fields = sscanf(line, "%63[^\t]\t%31[^\t]\t%31[^\t]\t%d\t%511[^\n]", name, verdict, check, code, gate_args);
    return fields >= 4;
}

/* Runs one broken candidate as scripts/gate_broken_set.sh does: at 64^3
 * with any speed accepted, or with the row's own gate_args (the windows
 * kept to 1 s + 2 s: those rows judge speed at 2048^3 and 4096^3). */
static int gate_broken_row(const char *candidate, const char *gate_args, const char *out, json_t **verdict)
{
    if (!gate_args[0])
        return run_gate(candidate, "64,64,64", "--min-speedup -0.99", out, verdict);
    char args[1024];
    snprintf(args, sizeof args, "--warmup-s 1 --time-s 2 %s", gate_args);
    return run_gate_with(candidate, args, out, verdict);
}

/* Every deliberately broken candidate gets its expected verdict, check and
 * exit code (candidates/broken/expected.tsv), and the harness survives
 * each, including the one that never finishes. */
static void test_gpu_broken_set_verdicts(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512];
    hb_test_make_temp_dir("hb-broken", out, sizeof out);
    FILE *table = fopen("candidates/broken/expected.tsv", "r");
    assert_non_null(table);
    char line[1024];
    int rows = 0, wrong = 0;
    assert_non_null(fgets(line, sizeof line, table)); /* header */
    while (fgets(line, sizeof line, table)) {
        char name[64], verdict[32], check[32], gate_args[512];
        int code;
        if (!read_broken_row(line, name, verdict, check, &code, gate_args))
            continue;
        char candidate[1024], sanitizer[4096];
        snprintf(candidate, sizeof candidate, "%s/candidates/broken/%s", hb_test_build_dir(), name);
        rows++;
        int quiet = hb_diag_is_quiet();
        hb_diag_set_quiet(1);
        int no_sanitizer = strstr(gate_args, "--sanitize") && hb_sanitizer_available(sanitizer, sizeof sanitizer) != HB_OK;
        hb_diag_set_quiet(quiet);
        if (no_sanitizer) { /* a GPU machine without compute-sanitizer: that row cannot be judged here */
            printf("  broken %-17s not judged: it needs compute-sanitizer, which this machine lacks\n", name);
            continue;
        }
        json_t *v = NULL;
        int rc = gate_broken_row(candidate, gate_args, out, &v);
        const char *got_verdict = v ? json_string_value(json_object_get(v, "verdict")) : "(no file)";
        const char *got_check = v ? config_string(v, "check") : "(no file)";
        int ok = rc == code && got_verdict && !strcmp(got_verdict, verdict) && !strcmp(got_check, check);
        printf("  broken %-17s expected %s/%s/%d, got %s/%s/%d %s\n", name, verdict, check, code,
               got_verdict ? got_verdict : "?", got_check, rc, ok ? "ok" : "MISMATCH");
        wrong += !ok;
        json_decref(v);
    }
    fclose(table);
    assert_int_equal(rows, 16);
    assert_int_equal(wrong, 0);
    hb_test_remove_tree(out);
}

/* The sample passes the gate, with the battery's counts in the verdict
 * file; held to a threshold it cannot meet it is too slow (exit 9). */
static void test_gpu_gate_sample_pass_and_too_slow(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], candidate[1024];
    hb_test_make_temp_dir("hb-gate", out, sizeof out);
    snprintf(candidate, sizeof candidate, "%s/candidates/sample_mma", hb_test_build_dir());
    json_t *v = NULL;
    assert_int_equal(run_gate(candidate, "64,64,64", "--min-speedup -0.99", out, &v), 0);
    assert_non_null(v);
    assert_string_equal(json_string_value(json_object_get(v, "verdict")), "pass");
    json_t *checks = json_object_get(json_array_get(json_object_get(v, "configs"), 0), "checks");
    /* 3 repetitions x 64 x 64 outputs, all below 2048, on each input kind */
    assert_int_equal(json_integer_value(json_object_get(json_object_get(checks, "exact_binary"), "compared")), 3 * 4096);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(checks, "exact_signed"), "compared")), 3 * 4096);
    assert_int_equal(json_integer_value(json_object_get(checks, "reference_crosscheck_samples")), 256);
    assert_true(json_integer_value(json_object_get(checks, "spot_checks")) >= 1);
    assert_true(json_is_true(json_object_get(checks, "post_timing_ran")));
    /* before timing, the spot checks (at least one) and after timing */
    assert_true(json_integer_value(json_object_get(json_object_get(checks, "deviation"), "checks")) >= 3);
    json_decref(v);
    /* 1000x faster than torch: no kernel meets that. */
    assert_int_equal(run_gate(candidate, "64,64,64", "--min-speedup 1000", out, &v), HB_ERR_TOO_SLOW);
    assert_non_null(v);
    assert_string_equal(json_string_value(json_object_get(v, "verdict")), "too-slow");
    assert_string_equal(config_string(v, "check"), "speedup");
    json_decref(v);
    hb_test_remove_tree(out);
}

/* A run goes on after a candidate hangs: the next configuration is evaluated. */
static void test_gpu_run_survives_a_hang(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], candidate[1024];
    hb_test_make_temp_dir("hb-hang", out, sizeof out);
    snprintf(candidate, sizeof candidate, "%s/candidates/broken/never_finishes", hb_test_build_dir());
    json_t *v = NULL;
    int rc = run_gate(candidate, "64,64,64 --mnk 128,128,128", "--min-speedup -0.99", out, &v);
    assert_int_equal(rc, HB_ERR_CANDIDATE_FAULT);
    assert_non_null(v);
    json_t *configs = json_object_get(v, "configs");
    assert_int_equal(json_array_size(configs), 2);
    for (size_t i = 0; i < 2; i++)
        assert_string_equal(json_string_value(json_object_get(json_array_get(configs, i), "verdict")), "timed-out");
    /* the killed child's configuration is still named in the results */
    json_t *mnk = json_object_get(json_array_get(configs, 1), "mnk");
    assert_int_equal(json_integer_value(json_array_get(mnk, 0)), 128);
    assert_int_equal(json_integer_value(json_array_get(mnk, 2)), 128);
    json_decref(v);
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_mma_sample_matches_cublas),
        cmocka_unit_test(test_gpu_simple_sample_matches_cublas),
        cmocka_unit_test(test_gpu_check_catches_unwritten_output),
        cmocka_unit_test(test_gpu_check_catches_wrong_result),
        cmocka_unit_test(test_gpu_load_errors_are_actionable),
        cmocka_unit_test(test_gpu_params_load_errors_name_the_list),
        cmocka_unit_test(test_gpu_end_to_end_run),
        cmocka_unit_test(test_gpu_bad_inputs_give_distinct_exit_codes),
        cmocka_unit_test(test_gpu_broken_set_verdicts),
        cmocka_unit_test(test_gpu_gate_sample_pass_and_too_slow),
        cmocka_unit_test(test_gpu_run_survives_a_hang),
    };
    return HB_TEST_LIST(tests);
}
