/* GPU test of the baselines' clean-process reference through the driver
 * binary: `run` on the sample launcher timed as itself (--form launcher) at
 * 256^3 measures the reference in a clean process, holds the baselines to it
 * without finding interference, stores it; the same run again takes it from
 * the cache.  A cubin, whose timed process runs no candidate host code, gets
 * none and says why.  Skips (and is counted as skipped) when no CUDA GPU is
 * usable. */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/report/reference_cache.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* `hgemm-bench run` of a sample at 256^3 with its own reference and
 * autotune caches in `dir`, results in dir/OUT; its exit code and verdict.json. */
static int run_candidate(const char *candidate, const char *dir, const char *out_name, json_t **verdict)
{
    const char *bench = getenv("HB_BENCH");
    char out[700], path[800], line[4096];
    snprintf(out, sizeof out, "%s/%s", dir, out_name);
    snprintf(path, sizeof path, "%s/verdict.json", out);
    hb_test_make_folder(out);
    snprintf(line, sizeof line,
             "%s run --candidate %s/candidates/%s --mnk 256,256,256 --warmup-s 0.2 --time-s 0.5 "
             "--timeout-s 60 --seed 5 --no-progress --out %s --verdict %s --baseline-reference %s/"
             HB_REFERENCE_CACHE_FILE " --autotune-cache %s/autotune.tsv >>%s/bench.log 2>&1",
             bench ? bench : "build/hgemm-bench", hb_test_build_dir(), candidate, out, path, dir, dir, out);
    int rc = system(line);
    json_error_t error;
    *verdict = json_load_file(path, 0, &error);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The launcher timed as itself: its host code runs where the baselines are timed. */
static int run_sample(const char *dir, const char *out_name, json_t **verdict)
{
    return run_candidate("sample_mma_launcher --form launcher", dir, out_name, verdict);
}

static json_t *reference_of(json_t *verdict)
{
    json_t *config = json_array_get(json_object_get(verdict, "configs"), 0);
    json_t *ref = json_object_get(config, "baseline_reference");
    assert_true(json_is_object(ref));
    return ref;
}

static void test_gpu_run_measures_then_reuses_the_reference(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char dir[512], cache[700], summary[1200], text[256];
    hb_test_make_temp_dir("hb-gpu-ref", dir, sizeof dir);
    snprintf(cache, sizeof cache, "%s/" HB_REFERENCE_CACHE_FILE, dir);

    json_t *v = NULL;
    int rc = run_sample(dir, "first", &v);
    if (rc != 0)
        fail_msg("the first run exited %d (see %s/first/bench.log)", rc, dir);
    assert_non_null(v);
    assert_string_equal(json_string_value(json_object_get(v, "verdict")), "pass");
    json_t *ref = reference_of(v);
    assert_string_equal(json_string_value(json_object_get(ref, "source")), "measured");
    assert_true(json_is_true(json_object_get(ref, "judged")));
    assert_int_equal(json_integer_value(json_object_get(ref, "held")), 7); /* every baseline */
    assert_true(json_number_value(json_object_get(ref, "seconds")) > 0);
    assert_true(json_number_value(json_object_get(ref, "worst_ratio")) > 0);
    json_decref(v);
    /* stored: one entry, every baseline with its kernels */
    json_t *doc = hb_test_load_json(cache);
    json_t *entries = json_object_get(doc, "entries");
    assert_int_equal(json_array_size(entries), 1);
    json_t *baselines = json_object_get(json_object_get(json_array_get(entries, 0), "reference"), "baselines");
    assert_int_equal(json_array_size(baselines), 7);
    assert_true(json_array_size(json_object_get(json_array_get(baselines, 0), "kernel_names")) >= 1);
    json_decref(doc);
    /* summary.csv: the source on the candidate's row, the clean medians on a baseline's */
    char first[700];
    snprintf(first, sizeof first, "%s/first", dir);
    hb_test_summary_path(first, summary, sizeof summary);
    hb_test_csv_text(summary, "candidate", 256, "baseline_reference", text, sizeof text);
    assert_string_equal(text, "measured");
    assert_true(hb_test_csv_number(summary, "torch", 256, "reference_event_median_us") > 0);

    rc = run_sample(dir, "second", &v);
    if (rc != 0)
        fail_msg("the second run exited %d (see %s/second/bench.log)", rc, dir);
    assert_string_equal(json_string_value(json_object_get(v, "verdict")), "pass");
    ref = reference_of(v);
    assert_string_equal(json_string_value(json_object_get(ref, "source")), "cached");
    assert_true(json_is_true(json_object_get(ref, "judged")));
    assert_true(json_is_null(json_object_get(ref, "seconds"))); /* no clean process ran */
    json_decref(v);
    doc = hb_test_load_json(cache);
    assert_int_equal(json_array_size(json_object_get(doc, "entries")), 1); /* reused, not added */
    json_decref(doc);
    hb_test_remove_tree(dir);
}

/* A cubin and a replay: no candidate host code where the baselines are timed, so no clean process is run. */
static void test_gpu_no_reference_without_candidate_host_code(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char dir[512];
    hb_test_make_temp_dir("hb-gpu-noref", dir, sizeof dir);
    const char *candidates[] = {"sample_simple", "sample_mma_launcher --form replay"};
    for (int i = 0; i < 2; i++) {
        json_t *v = NULL;
        char out_name[16];
        snprintf(out_name, sizeof out_name, "run%d", i);
        int rc = run_candidate(candidates[i], dir, out_name, &v);
        if (rc != 0)
            fail_msg("%s exited %d (see %s/%s/bench.log)", candidates[i], rc, dir, out_name);
        assert_string_equal(json_string_value(json_object_get(v, "verdict")), "pass");
        json_t *ref = reference_of(v);
        assert_string_equal(json_string_value(json_object_get(ref, "source")), "none");
        assert_non_null(strstr(json_string_value(json_object_get(ref, "why")), "no candidate host code"));
        json_decref(v);
    }
    char cache[700];
    snprintf(cache, sizeof cache, "%s/" HB_REFERENCE_CACHE_FILE, dir);
    assert_int_not_equal(access(cache, F_OK), 0); /* nothing measured, nothing stored */
    hb_test_remove_tree(dir);
}

static const struct CMUnitTest gpu_baseline_reference_tests[] = {
    cmocka_unit_test(test_gpu_run_measures_then_reuses_the_reference),
    cmocka_unit_test(test_gpu_no_reference_without_candidate_host_code),
};

hb_test_list hb_gpu_baseline_reference_tests(void) { return HB_TEST_LIST(gpu_baseline_reference_tests); }
