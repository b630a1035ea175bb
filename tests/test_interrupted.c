/* Tests of what an interrupted run writes (docs/cli.md, "Interrupted runs"),
 * at the sinks: verdict.json's interrupted, signal and not_run keys, the last
 * line on stdout, and a run folder whose run was interrupted during its first
 * configuration (env.json, a summary.csv with its header, verdict.json).
 * CPU only: the signal path itself is tested in tests/test_isolate.c, and end
 * to end on a GPU in tests/test_gpu_faults.c. */
#define _POSIX_C_SOURCE 200809L

#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/csv_writer.h"
#include "bench/report/env_json.h"
#include "bench/report/report_table.h"
#include "bench/report/sink.h"
#include "bench/report/verdict_file.h"
#include "bench/result/run_verdict.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static const hb_mnk configs[3] = {{64, 64, 64}, {128, 256, 512}, {4096, 4096, 4096}};

static hb_run_options *new_options(void)
{
    hb_run_options *o = calloc(1, sizeof *o);
    assert_non_null(o);
    o->candidate_path = "cands/c.json";
    o->vs = "torch";
    o->n_configs = 3;
    memcpy(o->configs, configs, sizeof configs);
    return o;
}

/* One passed configuration, the two others not run after SIGINT. */
static hb_run_outcome interrupted_outcome(hb_config_result *done)
{
    hb_config_result_init(done, &configs[0]);
    hb_run_outcome outcome = {
        .status = (hb_status)(128 + SIGINT),
        .results = done,
        .count = 1,
        .interrupted_by = SIGINT,
        .not_run = configs + 1,
        .not_run_count = 2,
    };
    return outcome;
}

static void assert_mnk(json_t *array, long m, long n, long k)
{
    assert_int_equal(json_array_size(array), 3);
    assert_int_equal(json_integer_value(json_array_get(array, 0)), m);
    assert_int_equal(json_integer_value(json_array_get(array, 1)), n);
    assert_int_equal(json_integer_value(json_array_get(array, 2)), k);
}

static void test_verdict_file_interrupted(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-interrupted", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/verdict.json", dir);
    hb_run_options *o = new_options();
    hb_config_result *done = calloc(1, sizeof *done);
    assert_non_null(done);
    hb_run_outcome outcome = interrupted_outcome(done);
    hb_run_record run = {.command = "run", .run_id = "id", .run_path = dir, .options = o};
    assert_int_equal(hb_verdict_file_write(path, &run, &outcome), HB_OK);
    json_t *v = hb_test_load_json(path);
    assert_string_equal(json_string_value(json_object_get(v, "verdict")), "interrupted");
    assert_int_equal(json_integer_value(json_object_get(v, "exit_code")), 130);
    assert_true(json_is_true(json_object_get(v, "interrupted")));
    assert_string_equal(json_string_value(json_object_get(v, "signal")), "SIGINT");
    const char *reason = json_string_value(json_object_get(v, "reason"));
    assert_non_null(strstr(reason, "SIGINT"));
    assert_non_null(strstr(reason, "1 of 3"));
    assert_int_equal(json_array_size(json_object_get(v, "configs")), 1);
    json_t *not_run = json_object_get(v, "not_run");
    assert_int_equal(json_array_size(not_run), 2);
    assert_mnk(json_array_get(not_run, 0), 128, 256, 512);
    assert_mnk(json_array_get(not_run, 1), 4096, 4096, 4096);
    json_decref(v);

    /* A run that ended by itself: the keys are there, saying so. */
    outcome = (hb_run_outcome){.status = HB_OK, .results = done, .count = 1, .not_run = configs + 1};
    assert_int_equal(hb_verdict_file_write(path, &run, &outcome), HB_OK);
    v = hb_test_load_json(path);
    assert_string_equal(json_string_value(json_object_get(v, "verdict")), "pass");
    assert_true(json_is_false(json_object_get(v, "interrupted")));
    assert_true(json_is_null(json_object_get(v, "signal")));
    assert_true(json_is_array(json_object_get(v, "not_run")));
    assert_int_equal(json_array_size(json_object_get(v, "not_run")), 0);
    json_decref(v);
    free(done);
    free(o);
    hb_test_remove_tree(dir);
}

static void test_table_line_interrupted(void **state)
{
    (void)state;
    hb_run_options *o = new_options();
    hb_config_result *done = calloc(1, sizeof *done);
    assert_non_null(done);
    hb_run_outcome outcome = interrupted_outcome(done);
    outcome.interrupted_by = SIGTERM;
    outcome.status = (hb_status)(128 + SIGTERM);
    hb_run_record run = {.command = "run", .run_id = "id", .run_path = "x", .options = o};
    hb_test_capture capture;
    hb_sink sink = hb_table_sink(hb_test_capture_open(&capture));
    assert_int_equal(sink.ops->end(&sink, &run, &outcome), HB_OK);
    char *text = hb_test_capture_close(&capture);
    assert_non_null(strstr(text, "verdict: interrupted (exit 143): interrupted by SIGTERM after 1 of 3 configurations "
                                 "(2 not run)"));
    free(text);
    char buffer[160];
    outcome.interrupted_by = 0;
    outcome.status = HB_OK;
    assert_string_equal(hb_outcome_verdict(&outcome), "pass");
    assert_string_equal(hb_outcome_reason(&outcome, buffer, sizeof buffer), "");
    free(done);
    free(o);
}

/* The sinks of a run interrupted during its first configuration, before the
 * GPU was read even: every file is there and complete. */
static void test_run_folder_of_a_run_interrupted_at_once(void **state)
{
    (void)state;
    char dir[512], path[700];
    hb_test_make_temp_dir("hb-interrupted", dir, sizeof dir);
    hb_run_options *o = new_options();
    hb_run_record run = {.command = "gate", .run_id = "id", .run_path = dir, .command_line = "hgemm-bench gate",
                         .started_utc = "2026-01-01T00:00:00Z", .options = o, .device = NULL};
    hb_sinks sinks = {0};
    assert_int_equal(hb_sinks_add(&sinks, hb_env_json_sink()), HB_OK);
    assert_int_equal(hb_sinks_add(&sinks, hb_summary_csv_sink()), HB_OK);
    assert_int_equal(hb_sinks_add(&sinks, hb_verdict_sink(NULL)), HB_OK);
    assert_int_equal(hb_sinks_begin(&sinks, &run), HB_OK);
    hb_run_outcome outcome = {.status = (hb_status)(128 + SIGHUP), .interrupted_by = SIGHUP, .not_run = configs,
                              .not_run_count = 3};
    assert_int_equal(hb_sinks_end(&sinks, &run, &outcome), HB_OK);
    hb_sinks_close(&sinks);

    snprintf(path, sizeof path, "%s/summary.csv", dir);
    char *csv = hb_test_read_file(path);
    char *header = hb_test_read_file("tests/data/summary_header.csv");
    assert_non_null(csv);
    assert_non_null(header);
    assert_string_equal(csv, header); /* the header, and nothing else */
    free(csv);
    free(header);
    snprintf(path, sizeof path, "%s/env.json", dir);
    json_t *env = hb_test_load_json(path);
    assert_true(json_is_null(json_object_get(env, "gpu")));
    assert_true(json_is_string(json_object_get(json_object_get(env, "software"), "harness_commit")));
    json_decref(env);
    snprintf(path, sizeof path, "%s/verdict.json", dir);
    json_t *v = hb_test_load_json(path);
    assert_string_equal(json_string_value(json_object_get(v, "signal")), "SIGHUP");
    assert_int_equal(json_integer_value(json_object_get(v, "exit_code")), 129);
    assert_int_equal(json_array_size(json_object_get(v, "configs")), 0);
    assert_int_equal(json_array_size(json_object_get(v, "not_run")), 3);
    assert_mnk(json_array_get(json_object_get(v, "not_run"), 0), 64, 64, 64);
    json_decref(v);
    free(o);
    hb_test_remove_tree(dir);
}

hb_test_list hb_interrupted_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdict_file_interrupted),
        cmocka_unit_test(test_table_line_interrupted),
        cmocka_unit_test(test_run_folder_of_a_run_interrupted_at_once),
    };
    return HB_TEST_LIST(tests);
}
