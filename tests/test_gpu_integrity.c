/* GPU tests of the integrity checks through the driver binary: a time
 * faster than the peak is implausible (exit 10), a cubin that can keep a
 * result between calls is refused (incorrect, module-state, exit 6) and a
 * kernel that skips a call is caught by the per-call output scan
 * (incorrect, unwritten-output, exit 6); a passing run has had every page
 * of its code sealed and checked.  Each test skips (and is counted as
 * skipped) when no CUDA GPU is usable. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/core/status.h"
#include "bench/result/peak_throughput.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* `hgemm-bench COMMAND --candidate CANDIDATE --mnk 256,256,256` with short
 * windows and `extra`; returns its exit code and the verdict file (caller
 * frees; NULL if none was written). */
static int run_bench(const char *command, const char *candidate, const char *extra, const char *out, json_t **verdict)
{
    const char *bench = getenv("HB_BENCH");
    char line[4096], path[1100];
    snprintf(path, sizeof path, "%s/verdict.json", out);
    remove(path);
    hb_test_make_folder(out); /* bench.log is redirected into it */
    snprintf(line, sizeof line,
             "%s %s --candidate %s --mnk 256,256,256 --timeout-s 20 --seed 5 --no-progress --out %s --verdict %s %s "
             ">>%s/bench.log 2>&1",
             bench ? bench : "build/hgemm-bench", command, candidate, out, path, extra, out);
    int rc = system(line);
    json_error_t error;
    *verdict = json_load_file(path, 0, &error);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static json_t *first_config(json_t *verdict)
{
    return json_array_get(json_object_get(verdict, "configs"), 0);
}

static const char *config_text(json_t *verdict, const char *key)
{
    const char *text = json_string_value(json_object_get(first_config(verdict), key));
    return text ? text : "(missing)";
}

/* The gate on the sample with a peak no kernel stays under: implausible,
 * exit 10, no speedup; without the flag the same run passes, judged against
 * the table's peak at the window's clock. */
static void test_gpu_gate_implausible_with_tiny_peak(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], candidate[1024], summary[1200];
    hb_test_make_temp_dir("hb-plaus", out, sizeof out);
    snprintf(candidate, sizeof candidate, "%s/candidates/sample_simple", hb_test_build_dir());
    json_t *v = NULL;
    int rc = run_bench("gate", candidate, "--warmup-s 0.2 --time-s 0.5 --min-speedup -1 --peak-tflops 0.0001", out, &v);
    assert_int_equal(rc, HB_ERR_IMPLAUSIBLE);
    assert_non_null(v);
    assert_string_equal(json_string_value(json_object_get(v, "verdict")), "implausible");
    assert_int_equal(json_integer_value(json_object_get(v, "exit_code")), 10);
    assert_string_equal(config_text(v, "verdict"), "implausible");
    assert_string_equal(config_text(v, "check"), "peak-throughput");
    assert_non_null(strstr(config_text(v, "reason"), "--peak-tflops"));
    assert_true(json_is_null(json_object_get(first_config(v), "speedup")));
    json_decref(v);
    /* the times stay in summary.csv */
    hb_test_summary_path(out, summary, sizeof summary);
    assert_true(hb_test_file_contains(summary, ",implausible,peak-throughput,"));

    hb_test_remove_tree(out);
    hb_test_make_temp_dir("hb-plaus", out, sizeof out);
    rc = run_bench("gate", candidate, "--warmup-s 0.2 --time-s 0.5 --min-speedup -1", out, &v);
    assert_int_equal(rc, 0);
    assert_non_null(v);
    assert_string_equal(json_string_value(json_object_get(v, "verdict")), "pass");
    assert_true(json_is_object(json_object_get(first_config(v), "speedup")));
    json_decref(v);
    hb_test_summary_path(out, summary, sizeof summary);
    char source[32];
    hb_test_csv_text(summary, "candidate", 256, "peak_source", source, sizeof source);
    if (hb_peak_entry_for(hb_test_device()->sm)) {
        assert_string_equal(source, "table");
        const double peak = hb_test_csv_number(summary, "candidate", 256, "peak_tflops");
        const double achieved = hb_test_csv_number(summary, "candidate", 256, "tflops_event_median");
        assert_true(achieved > 0 && achieved < peak);
        assert_true(hb_test_csv_number(summary, "candidate", 256, "peak_clock_mhz") > 0);
    } else {
        assert_string_equal(source, "unknown-arch");
    }
    assert_true(hb_test_csv_number(summary, "candidate", 256, "module_global_bytes") == 0);
    assert_true(hb_test_csv_number(summary, "candidate", 256, "device_malloc") == 0);
    /* every page of code sealed (libcublasLt's code alone is over 100 MB) and
     * found unchanged once, after the checks after timing: a cubin puts no
     * host code in the process, so its pages are not checked at every step
     * (a launcher timed as itself: five times) */
    assert_true(hb_test_csv_number(summary, "candidate", 256, "code_bytes") > 100e6);
    assert_true(hb_test_csv_number(summary, "candidate", 256, "code_seal_ms") > 0);
    assert_true(hb_test_csv_number(summary, "candidate", 256, "code_checks") == 1);
    assert_true(hb_test_csv_number(summary, "candidate", 256, "code_check_ms") > 0);
    hb_test_remove_tree(out);
}

/* A manifest in `dir` for fixture `name` (tests/data/<name>.cu): every
 * architecture built, the contract's launch for one thread per output. */
static void write_fixture_manifest(const char *dir, const char *name, char *path, size_t size)
{
    char pattern[1024], map[4096] = "";
    snprintf(pattern, sizeof pattern, "%s/tests/data/%s.sm_*.cubin", hb_test_build_dir(), name);
    glob_t found;
    assert_int_equal(glob(pattern, 0, NULL, &found), 0);
    for (size_t i = 0; i < found.gl_pathc; i++) {
        const char *arch = strstr(found.gl_pathv[i], ".sm_") + 1; /* "sm_90.cubin" */
        char *absolute = realpath(found.gl_pathv[i], NULL);
        assert_non_null(absolute);
        size_t used = strlen(map);
        int wrote = snprintf(map + used, sizeof map - used, "%s\"%.*s\": \"%s\"", i ? ", " : "",
                             (int)strcspn(arch, "."), arch, absolute);
        assert_true(wrote > 0 && (size_t)wrote < sizeof map - used);
        free(absolute);
    }
    globfree(&found);
    snprintf(path, size, "%s/%s.json", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"format\": \"hgemm-bench-candidate/1\", \"name\": \"%s\", \"cubin\": {%s}, \"entry\": \"fixture_kernel\", "
            "\"grid\": [\"M*N/256\", 1, 1], \"block\": [256, 1, 1], \"dynamic_smem_bytes\": 0, \"b_layout\": \"row\", "
            "\"accumulator\": \"fp32\", \"workspace_bytes\": 0}\n",
            name, map);
    assert_int_equal(fclose(f), 0);
}

/* A 64 KiB __device__ array and a device malloc are refused before the
 * first launch; a kernel without module state gets to the battery. */
static void test_gpu_module_state_refused(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], manifest[1024];
    hb_test_make_temp_dir("hb-module", out, sizeof out);
    json_t *v = NULL;

    write_fixture_manifest(out, "module_global_64k", manifest, sizeof manifest);
    assert_int_equal(run_bench("check", manifest, "", out, &v), HB_ERR_INCORRECT);
    assert_non_null(v);
    assert_string_equal(config_text(v, "verdict"), "incorrect");
    assert_string_equal(config_text(v, "check"), "module-state");
    assert_non_null(strstr(config_text(v, "reason"), "limit of 1024 B"));
    assert_non_null(strstr(config_text(v, "reason"), "g_kept"));
    /* refused before the battery: nothing was compared */
    json_t *binary = json_object_get(json_object_get(first_config(v), "checks"), "exact_binary");
    assert_true(json_is_false(json_object_get(binary, "ran")));
    json_decref(v);

    write_fixture_manifest(out, "module_malloc", manifest, sizeof manifest);
    assert_int_equal(run_bench("gate", manifest, "--warmup-s 0.1 --time-s 0.2 --min-speedup -1", out, &v),
                     HB_ERR_INCORRECT);
    assert_non_null(v);
    assert_string_equal(config_text(v, "check"), "module-state");
    assert_non_null(strstr(config_text(v, "reason"), "malloc"));
    json_decref(v);

    /* no module state: it reaches the battery, which its copy-A kernel fails */
    write_fixture_manifest(out, "module_plain", manifest, sizeof manifest);
    assert_int_equal(run_bench("check", manifest, "", out, &v), HB_ERR_INCORRECT);
    assert_non_null(v);
    assert_string_not_equal(config_text(v, "check"), "module-state");
    json_decref(v);
    hb_test_remove_tree(out);
}

/* A correct kernel that writes nothing on every 12th call passes the
 * battery (its first seven calls compute) and is caught in the warm-up by
 * the scan of every call's output: incorrect, unwritten-output, the window,
 * the round and the whole output counted.  Spot checks alone would see a
 * skipped call only in a checked round. */
static void test_gpu_skipped_call_is_unwritten_output(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], manifest[1024], expected[128];
    hb_test_make_temp_dir("hb-skip", out, sizeof out);
    json_t *v = NULL;
    write_fixture_manifest(out, "skip_calls", manifest, sizeof manifest);
    assert_int_equal(run_bench("gate", manifest, "--warmup-s 0.3 --time-s 0.5 --min-speedup -1 --autotune-cache none "
                     "--no-autotune-search", out, &v),
                     HB_ERR_INCORRECT);
    assert_non_null(v);
    assert_string_equal(config_text(v, "verdict"), "incorrect");
    assert_string_equal(config_text(v, "check"), "unwritten-output");
    assert_non_null(strstr(config_text(v, "reason"), "a warm-up call (round "));
    snprintf(expected, sizeof expected, "left %d of %d output elements unwritten or non-finite", 256 * 256,
             256 * 256);
    assert_non_null(strstr(config_text(v, "reason"), expected));
    /* the battery passed it: the exact and deviation checks ran */
    json_t *binary = json_object_get(json_object_get(first_config(v), "checks"), "exact_binary");
    assert_true(json_is_true(json_object_get(binary, "ran")));
    assert_true(json_is_null(json_object_get(first_config(v), "speedup")));
    json_decref(v);
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_integrity_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_gate_implausible_with_tiny_peak),
        cmocka_unit_test(test_gpu_module_state_refused),
        cmocka_unit_test(test_gpu_skipped_call_is_unwritten_output),
    };
    return HB_TEST_LIST(tests);
}
