/* --sanitize's tools on a GPU (docs/validation.md, "Sanitizers"): racecheck
 * catches candidates/broken/smem_race's shared-memory race that memcheck
 * passes, each tool's errors land in verdict.json and summary.csv's
 * `sanitize`, and a kernel without shared memory is clean under all three.
 * Each skips, counted, without a GPU or without compute-sanitizer. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/driver/sanitize_pass.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* A GPU and compute-sanitizer, or a counted skip. */
static int sanitizer_ready(void)
{
    if (!hb_test_gpu_ready())
        return 0;
    char path[4096];
    int quiet = hb_diag_is_quiet();
    hb_diag_set_quiet(1);
    int found = hb_sanitizer_available(path, sizeof path) == HB_OK;
    hb_diag_set_quiet(quiet);
    if (!found)
        printf("  no compute-sanitizer on this GPU machine: skipped\n");
    return found;
}

#define REQUIRE_SANITIZER()           \
    do {                              \
        if (!sanitizer_ready()) {     \
            hb_test_skip_no_gpu();    \
            return;                   \
        }                             \
    } while (0)

/* `check` on `candidate` (under the build folder) at 64x64x64 with `flags`; the verdict file into *verdict. */
static int check_with(const char *candidate, const char *flags, const char *out, json_t **verdict)
{
    char args[2048], verdict_path[1024];
    snprintf(verdict_path, sizeof verdict_path, "%s/verdict-out.json", out);
    snprintf(args, sizeof args, "--candidate %s/candidates/%s --mnk 64,64,64 --timeout-s 60 --verdict %s %s",
             hb_test_build_dir(), candidate, verdict_path, flags);
    int rc = hb_test_run_bench("check", args, out);
    *verdict = json_load_file(verdict_path, 0, NULL);
    return rc;
}

static json_t *first_config(json_t *verdict)
{
    return json_array_get(json_object_get(verdict, "configs"), 0);
}

static long tool_errors(json_t *verdict, const char *tool)
{
    json_t *count = json_object_get(json_object_get(first_config(verdict), "sanitize"), tool);
    return count ? (long)json_integer_value(count) : -1;
}

static void test_gpu_sanitize_racecheck_catches_smem_race(void **state)
{
    (void)state;
    REQUIRE_SANITIZER();
    char out[512];
    hb_test_make_temp_dir("hb-racecheck", out, sizeof out);
    json_t *v = NULL;
    int rc = check_with("broken/smem_race", "--sanitize memcheck,racecheck", out, &v);
    assert_non_null(v);
    printf("  smem_race: exit %d, check %s, reason %s\n", rc,
           json_string_value(json_object_get(first_config(v), "check")),
           json_string_value(json_object_get(first_config(v), "reason")));
    assert_int_equal(rc, 6);
    assert_string_equal(json_string_value(json_object_get(first_config(v), "check")), "racecheck");
    assert_int_equal(tool_errors(v, "memcheck"), 0);
    assert_true(tool_errors(v, "racecheck") > 0);
    json_decref(v);
    hb_test_remove_tree(out);
}

/* --sanitize alone is memcheck, as before the list: it finds nothing in smem_race. */
static void test_gpu_sanitize_memcheck_alone_misses_the_race(void **state)
{
    (void)state;
    REQUIRE_SANITIZER();
    char out[512];
    hb_test_make_temp_dir("hb-memcheck", out, sizeof out);
    json_t *v = NULL;
    check_with("broken/smem_race", "--sanitize", out, &v);
    assert_non_null(v);
    /* The race may or may not spoil this run's output; memcheck must not be what fails it. */
    assert_string_not_equal(json_string_value(json_object_get(first_config(v), "check")), "memcheck");
    assert_int_equal(tool_errors(v, "memcheck"), 0);
    assert_int_equal(tool_errors(v, "racecheck"), -1); /* not run */
    json_decref(v);
    hb_test_remove_tree(out);
}

/* No shared memory, no barriers, every access in bounds: clean under every tool, and the check passes. */
static void test_gpu_sanitize_every_tool_clean_on_sample(void **state)
{
    (void)state;
    REQUIRE_SANITIZER();
    char out[512];
    hb_test_make_temp_dir("hb-sanitize-all", out, sizeof out);
    json_t *v = NULL;
    int rc = check_with("sample_simple", "--sanitize=memcheck,racecheck,synccheck", out, &v);
    assert_non_null(v);
    assert_int_equal(rc, 0);
    assert_int_equal(tool_errors(v, "memcheck"), 0);
    assert_int_equal(tool_errors(v, "racecheck"), 0);
    assert_int_equal(tool_errors(v, "synccheck"), 0);
    char csv[1024], cell[256];
    hb_test_summary_path(out, csv, sizeof csv);
    hb_test_csv_text(csv, "candidate", 64, "sanitize", cell, sizeof cell);
    assert_string_equal(cell, "memcheck=0;racecheck=0;synccheck=0");
    json_decref(v);
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_sanitize_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_sanitize_racecheck_catches_smem_race),
        cmocka_unit_test(test_gpu_sanitize_memcheck_alone_misses_the_race),
        cmocka_unit_test(test_gpu_sanitize_every_tool_clean_on_sample),
    };
    return HB_TEST_LIST(tests);
}
