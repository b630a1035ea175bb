/* Test registry: each tests/test_*.c file hands its cmocka tests to
 * test_main.c, which runs them all as one group and prints the closing
 * "N passed, N failed, N skipped" line. */
#ifndef HB_TEST_REGISTRY_H
#define HB_TEST_REGISTRY_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

typedef struct hb_test_list {
    const struct CMUnitTest *tests;
    size_t count;
} hb_test_list;

/* One function per test file. */
hb_test_list hb_cli_tests(void);
hb_test_list hb_manifest_tests(void);
hb_test_list hb_mma_audit_tests(void);
hb_test_list hb_gpu_sanitize_tests(void);
hb_test_list hb_sanitize_tests(void);
hb_test_list hb_profile_tests(void);
hb_test_list hb_gpu_profile_tests(void);
hb_test_list hb_stats_tests(void);
hb_test_list hb_shuffle_tests(void);
hb_test_list hb_report_tests(void);
hb_test_list hb_files_tests(void);
hb_test_list hb_gpu_tests(void);
hb_test_list hb_gpu_baseline_tests(void);
hb_test_list hb_baseline_option_tests(void);
hb_test_list hb_isolate_tests(void);
hb_test_list hb_replay_pass_tests(void);
hb_test_list hb_gpu_replay_record_tests(void);
hb_test_list hb_sandbox_tests(void);
hb_test_list hb_process_tests(void);
hb_test_list hb_verdict_tests(void);
hb_test_list hb_cli_checks_tests(void);
hb_test_list hb_helper_tests(void);
hb_test_list hb_memory_maps_tests(void);
hb_test_list hb_code_pages_tests(void);
hb_test_list hb_autotune_cache_tests(void);
hb_test_list hb_baseline_reference_tests(void);
hb_test_list hb_gpu_baseline_reference_tests(void);
hb_test_list hb_telemetry_tests(void);
hb_test_list hb_raw_samples_tests(void);
hb_test_list hb_measure_option_tests(void);
hb_test_list hb_option_table_tests(void);
hb_test_list hb_option_message_tests(void);
hb_test_list hb_docs_tests(void);
hb_test_list hb_stop_criterion_tests(void);
hb_test_list hb_sequential_tests(void);
hb_test_list hb_gpu_decide_tests(void);
hb_test_list hb_gpu_timing_tests(void);
hb_test_list hb_module_state_tests(void);
hb_test_list hb_plausibility_tests(void);
hb_test_list hb_gpu_integrity_tests(void);
hb_test_list hb_preflight_tests(void);
hb_test_list hb_json_lines_tests(void);
hb_test_list hb_interrupted_tests(void);
hb_test_list hb_gpu_fault_tests(void);
hb_test_list hb_sweep_tests(void);
hb_test_list hb_older_folder_tests(void);
hb_test_list hb_gpu_sweep_tests(void);
hb_test_list hb_report_command_tests(void);
hb_test_list hb_reproduce_tests(void);
hb_test_list hb_timing_doubt_tests(void);
hb_test_list hb_report_header_tests(void);
hb_test_list hb_result_forms_tests(void);
hb_test_list hb_trace_tests(void);
hb_test_list hb_timer_tests(void);
hb_test_list hb_headline_tests(void);
hb_test_list hb_cross_check_tests(void);
hb_test_list hb_gpu_cross_check_tests(void);
hb_test_list hb_gpu_trace_tests(void);
hb_test_list hb_launcher_tests(void);
hb_test_list hb_import_tests(void);
hb_test_list hb_gpu_import_tests(void);
hb_test_list hb_gpu_launcher_tests(void);
hb_test_list hb_gpu_conduct_tests(void);
hb_test_list hb_gpu_params_tests(void);
hb_test_list hb_output_watch_tests(void);
hb_test_list hb_gpu_output_scan_tests(void);
hb_test_list hb_damage_tests(void);
hb_test_list hb_hostile_folder_tests(void);
hb_test_list hb_hostile_text_tests(void);
hb_test_list hb_no_gpu_tests(void);
hb_test_list hb_compare_rule_tests(void);
hb_test_list hb_compare_command_tests(void);
hb_test_list hb_figure_tests(void);
hb_test_list hb_source_figure_tests(void);

hb_test_list hb_closing_counts_tests(void);
hb_test_list hb_import_fault_tests(void);
hb_test_list hb_import_format_tests(void);
hb_test_list hb_import_plan_tests(void);
hb_test_list hb_reward_tests(void);
hb_test_list hb_gpu_reward_tests(void);
hb_test_list hb_thread_watch_tests(void);
hb_test_list hb_gpu_l2_persistence_tests(void);
hb_test_list hb_gpu_thread_watch_tests(void);
hb_test_list hb_replay_analysis_tests(void);
hb_test_list hb_replay_file_tests(void);
hb_test_list hb_replay_patch_tests(void);
hb_test_list hb_gpu_replay_tests(void);

/* Every skip() in a test comes here (the macro below replaces cmocka's):
 * it counts the skip, then calls cmocka's _skip, which marks the test
 * skipped and leaves it.  So the closing line's skipped count is the number
 * of tests cmocka reports skipped, whichever test file called skip(). */
void hb_test_skip(const char *file, int line);
#undef skip
#define skip() hb_test_skip(__FILE__, __LINE__)

/* GPU tests call this (REQUIRE_GPU) when there is no usable GPU: a skip
 * that the closing line also names as a GPU test skipped. */
void hb_test_skip_no_gpu(void);

#define HB_TEST_LIST(array) ((hb_test_list){(array), sizeof(array) / sizeof((array)[0])})

#endif
