#define _POSIX_C_SOURCE 200809L /* setenv */
/* Runs every test of hgemm-bench as one cmocka group. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static int skipped;       /* tests cmocka marked skipped (each came through hb_test_skip) */
static int skipped_no_gpu; /* of them, those that needed a GPU */

/* 1 when `filter` is NULL or empty, or one of its comma-separated words is in `name`. */
static int hb_test_name_matches(const char *name, const char *filter)
{
    if (!filter || !*filter)
        return 1;
    char words[512];
    snprintf(words, sizeof words, "%s", filter);
    for (char *save = NULL, *w = strtok_r(words, ",", &save); w; w = strtok_r(NULL, ",", &save))
        if (strstr(name, w))
            return 1;
    return 0;
}

void hb_test_skip(const char *file, int line)
{
    skipped++;
    _skip(file, line); /* cmocka's: marks the test skipped and jumps out of it */
}

void hb_test_skip_no_gpu(void)
{
    skipped_no_gpu++;
    skip();
}

int main(void)
{
    hb_test_list (*const files[])(void) = {hb_cli_tests,     hb_cli_checks_tests, hb_manifest_tests, hb_stats_tests,
                                           hb_shuffle_tests, hb_report_tests,     hb_files_tests,    hb_helper_tests, hb_memory_maps_tests, hb_code_pages_tests,
                                           hb_verdict_tests, hb_isolate_tests, hb_sandbox_tests,    hb_process_tests,    hb_autotune_cache_tests, hb_baseline_option_tests,
                                           hb_telemetry_tests, hb_raw_samples_tests, hb_measure_option_tests,
                                           hb_option_table_tests, hb_option_message_tests, hb_docs_tests, hb_stop_criterion_tests, hb_sequential_tests,
                                           hb_module_state_tests, hb_plausibility_tests, hb_preflight_tests, hb_json_lines_tests,
                                           hb_interrupted_tests, hb_sweep_tests, hb_older_folder_tests, hb_report_command_tests, hb_trace_tests,
                                           hb_timer_tests, hb_headline_tests, hb_cross_check_tests, hb_gpu_cross_check_tests,
                                           hb_launcher_tests, hb_import_tests, hb_gpu_import_tests,
                                           hb_gpu_tests,     hb_gpu_baseline_tests, hb_gpu_timing_tests,
                                           hb_gpu_integrity_tests, hb_gpu_fault_tests, hb_gpu_sweep_tests,
                                           hb_gpu_trace_tests, hb_gpu_launcher_tests, hb_gpu_conduct_tests,
                                           hb_gpu_params_tests, hb_output_watch_tests, hb_gpu_output_scan_tests,
                                           hb_damage_tests, hb_hostile_folder_tests, hb_hostile_text_tests, hb_no_gpu_tests, hb_reproduce_tests,
                                           hb_compare_rule_tests,
                                           hb_compare_command_tests, hb_figure_tests, hb_source_figure_tests, hb_closing_counts_tests,
                                           hb_import_fault_tests, hb_import_format_tests, hb_import_plan_tests, hb_timing_doubt_tests,
                                           hb_report_header_tests, hb_result_forms_tests, hb_mma_audit_tests, hb_sanitize_tests,
                                           hb_gpu_sanitize_tests, hb_reward_tests, hb_gpu_reward_tests, hb_gpu_decide_tests,
                                           hb_profile_tests, hb_gpu_profile_tests, hb_thread_watch_tests,
                                           hb_gpu_l2_persistence_tests, hb_gpu_thread_watch_tests, hb_replay_pass_tests, hb_gpu_replay_record_tests, hb_baseline_reference_tests,
                                           hb_gpu_baseline_reference_tests,
                                           hb_replay_analysis_tests, hb_replay_file_tests,
                                           hb_replay_patch_tests, hb_gpu_replay_tests};
    size_t total = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        total += files[i]().count;
    struct CMUnitTest *all = calloc(total, sizeof *all);
    if (!all)
        return 1;
    /* HB_TEST_FILTER=a,b: only the tests whose names contain one of the words
     * (a device run of a few tests); unset, every test. */
    const char *filter = getenv("HB_TEST_FILTER");
    /* HB_TEST_SHARD=i/n: only every n-th test from the i-th (0-based), so that
     * a host of n GPUs runs the suite as n processes, one per GPU
     * (CUDA_VISIBLE_DEVICES each); unset, every test. */
    unsigned shard = 0, shards = 1;
    const char *shard_text = getenv("HB_TEST_SHARD");
    if (shard_text && (sscanf(shard_text, "%u/%u", &shard, &shards) != 2 || shards == 0 || shard >= shards)) {
        fprintf(stderr, "HB_TEST_SHARD=%s: give i/n with 0 <= i < n, e.g. 0/4\n", shard_text);
        free(all);
        return 2;
    }
    size_t used = 0, seen = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        hb_test_list list = files[i]();
        for (size_t t = 0; t < list.count; t++)
            if (hb_test_name_matches(list.tests[t].name, filter) && seen++ % shards == shard)
                all[used++] = list.tests[t];
    }
    total = used;
    hb_diag_set_quiet(getenv("HB_TEST_VERBOSE") == NULL); /* expected errors stay off the log */
    /* Runs of the driver keep their autotune cache in a folder of the tests,
     * never in the user's ~/.cache. */
    char cache_dir[512] = "";
    if (!getenv("HGEMM_BENCH_CACHE_DIR")) {
        hb_test_make_temp_dir("hb-cache-home", cache_dir, sizeof cache_dir);
        setenv("HGEMM_BENCH_CACHE_DIR", cache_dir, 1);
    }
    int failed = _cmocka_run_group_tests("hgemm-bench", all, total, NULL, NULL);
    if (cache_dir[0])
        hb_test_remove_tree(cache_dir);
    free(all);
    if (skipped_no_gpu)
        printf("\n%d GPU tests skipped: no usable CUDA GPU on this machine\n", skipped_no_gpu);
    printf("\nhgemm-tests: %d passed, %d failed, %d skipped\n", (int)total - failed - skipped, failed, skipped);
    return failed ? 1 : 0;
}
