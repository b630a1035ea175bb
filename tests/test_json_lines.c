/* --json (bench/report/json_lines.h): stdout carries one JSON object per
 * configuration and nothing else, the table and the verdict line go to
 * stderr, and a candidate that prints a forged verdict line cannot put it
 * on stdout.  The first tests need no GPU (configurations refused before
 * it); the last runs candidates/broken_launchers/prints_verdict on one. */
#define _POSIX_C_SOURCE 200809L

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define LINE_FORMAT "hgemm-bench-config/1"

/* Every line of `text` as JSON into `lines` (at most `max`); fails the test
 * on a line that is not one JSON object. */
static size_t parse_lines(char *text, json_t **lines, size_t max)
{
    size_t count = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_error_t error;
        json_t *doc = json_loads(line, 0, &error);
        if (!doc || !json_is_object(doc))
            fail_msg("stdout line %zu is not a JSON object (%s): %.200s", count + 1, error.text, line);
        assert_true(count < max);
        lines[count++] = doc;
    }
    return count;
}

static const char *text_of(const json_t *line, const char *key)
{
    const json_t *value = json_object_get(line, key);
    if (!json_is_string(value))
        fail_msg("key %s is not a string", key);
    return json_string_value(value);
}

/* Two configurations refused before the GPU: two lines, in --mnk order,
 * the same items as verdict.json's, and nothing else on stdout. */
static void test_json_lines_one_per_configuration(void **state)
{
    (void)state;
    char dir[512], out[700], err[700], results[700], verdict[700];
    hb_test_make_temp_dir("hb-json", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/stdout.txt", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    snprintf(results, sizeof results, "%s/results", dir);
    snprintf(verdict, sizeof verdict, "%s/verdict.json", dir);
    const char *words[] = {"gate", "--candidate", "/nonexistent/manifest.json", "--mnk", "64,64,64", "--mnk",
                           "128,256,512", "--json", "--out", results, "--verdict", verdict, NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), words, out, err), 3);
    char *text = hb_test_read_file(out);
    assert_non_null(text);
    json_t *lines[4];
    size_t count = parse_lines(text, lines, 4);
    assert_int_equal(count, 2);
    json_t *file = hb_test_load_json(verdict);
    const json_t *items = json_object_get(file, "configs");
    for (size_t i = 0; i < count; i++) {
        assert_string_equal(text_of(lines[i], "format"), LINE_FORMAT);
        assert_string_equal(text_of(lines[i], "command"), "gate");
        assert_string_equal(text_of(lines[i], "run_id"), text_of(file, "run_id"));
        assert_string_equal(text_of(lines[i], "verdict"), "bad-input");
        /* the line is the file's item, with the three keys above in front */
        json_t *item = json_deep_copy(lines[i]);
        json_object_del(item, "format");
        json_object_del(item, "command");
        json_object_del(item, "run_id");
        assert_true(json_equal(item, json_array_get(items, i)));
        json_decref(item);
    }
    assert_int_equal(json_integer_value(json_array_get(json_object_get(lines[1], "mnk"), 1)), 256);
    assert_true(hb_test_file_contains(err, "verdict: bad-input (exit 3)"));
    assert_true(hb_test_file_contains(err, "== M=64 N=64 K=64"));
    for (size_t i = 0; i < count; i++)
        json_decref(lines[i]);
    json_decref(file);
    free(text);
    hb_test_remove_tree(dir);
}

/* A sweep has its own folder of results: --json is refused there, before anything runs. */
static void test_json_lines_refused_by_sweep(void **state)
{
    (void)state;
    char dir[512], err[700];
    hb_test_make_temp_dir("hb-json-sweep", dir, sizeof dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    const char *words[] = {"sweep", "--candidate", "/nonexistent/manifest.json", "--mnk", "64,64,64", "--json",
                           "--out", dir, NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), words, NULL, err), 2);
    assert_true(hb_test_file_contains(err, "--json"));
    hb_test_remove_tree(dir);
}

/* The forged line of prints_verdict: on stderr, never on stdout, with the
 * evaluation in a child and in the harness's own process alike. */
static void check_forged_line_kept_off_stdout(const char *isolation)
{
    char dir[512], out[700], err[700], results[700], candidate[700];
    hb_test_make_temp_dir("hb-json-forged", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/stdout.txt", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    snprintf(results, sizeof results, "%s/results", dir);
    snprintf(candidate, sizeof candidate, "%s/candidates/broken_launchers/prints_verdict", hb_test_build_dir());
    const char *words[] = {"check", "--candidate", candidate, "--mnk", "64,64,64", "--json", "--no-progress",
                           "--autotune-cache", "none", "--out", results, isolation, NULL};
    assert_int_equal(hb_test_run(hb_test_bench(), words, out, err), 0);
    char *text = hb_test_read_file(out);
    assert_non_null(text);
    assert_null(strstr(text, "\"geomean\":9.0"));
    json_t *lines[4];
    assert_int_equal(parse_lines(text, lines, 4), 1);
    assert_string_equal(text_of(lines[0], "verdict"), "pass");
    assert_true(json_is_null(json_object_get(lines[0], "speedup"))); /* check times nothing */
    assert_true(hb_test_file_contains(err, "\"geomean\":9.0")); /* the launcher did print: the test saw it */
    json_decref(lines[0]);
    free(text);
    hb_test_remove_tree(dir);
}

static void test_gpu_json_lines_forged_verdict(void **state)
{
    (void)state;
    REQUIRE_GPU();
    check_forged_line_kept_off_stdout("--timeout-s=60"); /* isolated: the default */
    check_forged_line_kept_off_stdout("--no-isolate");
}

hb_test_list hb_json_lines_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_lines_one_per_configuration),
        cmocka_unit_test(test_json_lines_refused_by_sweep),
        cmocka_unit_test(test_gpu_json_lines_forged_verdict),
    };
    return HB_TEST_LIST(tests);
}
