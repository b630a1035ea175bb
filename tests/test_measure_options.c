/* CPU tests of the timing options (--mode, --qps/--mean-gap-ms, --gap, --l2,
 * --target-ci, --min-time-s, --aa, --raw) and of how summary.csv and the
 * report record the windows, the pacing and the telemetry. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/timing_policy.h"
#include "bench/driver/options.h"
#include "bench/report/csv_writer.h"
#include "bench/report/report_table.h"
#include "tests/cli_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define RUN_WORDS(...) WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8", __VA_ARGS__)

static void test_timing_defaults(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8"), cli), HB_OK);
    assert_int_equal(cli->run.mode, HB_MODE_OFFLINE);
    assert_int_equal(cli->run.gap, HB_GAP_PER_CALL);
    assert_true(cli->run.mean_gap_ms == HB_DEFAULT_MEAN_GAP_MS);
    assert_int_equal(cli->run.l2, HB_L2_FRESH);
    assert_true(cli->run.target_ci == 0);
    assert_true(cli->run.min_time_s == HB_DEFAULT_MIN_TIME_S);
    assert_null(cli->run.aa);
    assert_int_equal(cli->run.raw, 0);
    assert_null(cli->run.raw_dir);
    assert_string_equal(hb_candidate_label(&cli->run), "c");
    free(cli);
}

static void test_timing_options(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, RUN_WORDS("--mode", "server", "--qps", "250", "--gap", "per-round", "--l2",
                                               "flush", "--target-ci", "1.5", "--min-time-s", "2", "--raw"),
                                 cli),
                     HB_OK);
    assert_int_equal(cli->run.mode, HB_MODE_SERVER);
    assert_true(fabs(cli->run.mean_gap_ms - 4.0) < 1e-12); /* 1000 ms / 250 calls */
    assert_int_equal(cli->run.gap, HB_GAP_PER_ROUND);
    assert_int_equal(cli->run.l2, HB_L2_FLUSH);
    assert_true(fabs(cli->run.target_ci - 0.015) < 1e-12);
    assert_true(cli->run.min_time_s == 2.0);
    assert_int_equal(cli->run.raw, 1);
    assert_int_equal(parse_words(&a, RUN_WORDS("--mode", "server", "--mean-gap-ms", "0.5", "--l2", "warm"), cli),
                     HB_OK);
    assert_true(cli->run.mean_gap_ms == 0.5);
    assert_int_equal(cli->run.l2, HB_L2_WARM);
    assert_int_equal(cli->run.gap, HB_GAP_PER_CALL);
    free(cli);
}

static void test_aa_replaces_the_candidate(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "--aa", "cublas-nn", "--mnk", "64,64,64"), cli), HB_OK);
    assert_string_equal(cli->run.aa, "cublas-nn");
    assert_null(cli->run.candidate_path);
    assert_string_equal(hb_candidate_label(&cli->run), "aa:cublas-nn");
    assert_int_equal(
        parse_words(&a, WORDS("hgemm-bench", "run", "--aa", "cublaslt-autotune-tn", "--mnk", "64,64,64"), cli), HB_OK);
    assert_string_equal(cli->run.aa, "cublaslt-autotune-tn");
    free(cli);
}

/* gate --decide: its flags, the A/A pair it is measured with, and what it refuses. */
static void test_decide_options(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "gate", "--aa", "cublas-nn", "--vs", "cublas-nn",
                                           "--min-speedup", "0", "--decide", "--mnk", "64,64,64"), cli),
                     HB_OK);
    assert_int_equal(cli->run.decide, 1);
    assert_true(cli->run.decide_alpha == 0.05); /* the default */
    assert_string_equal(hb_candidate_label(&cli->run), "aa:cublas-nn");
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "gate", "--candidate", "c", "--decide", "--decide-alpha",
                                           "0.001", "--mnk", "64,64,64"), cli),
                     HB_OK);
    assert_true(cli->run.decide_alpha == 0.001);
    free(cli);
    const char *const bad_alpha[] = {"0", "0.5", "0.7", "-0.1", "x", "nan"};
    for (size_t i = 0; i < sizeof bad_alpha / sizeof bad_alpha[0]; i++)
        expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--decide", "--decide-alpha",
                           bad_alpha[i]));
    /* gate only; its alpha only with it; not with --target-ci (both end the window) */
    expect_usage(RUN_WORDS("--decide"));
    expect_usage(WORDS("hgemm-bench", "sweep", "--candidate", "c", "--mnk", "8,8,8", "--decide"));
    expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--decide-alpha", "0.01"));
    expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--decide", "--target-ci", "1"));
}

static void test_timing_option_errors(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"--mode", "batch"},   {"--mode", ""},           {"--l2", "cold"},        {"--l2", "FRESH"},
        {"--gap", "sometimes"}, {"--target-ci", "0"},   {"--target-ci", "101"},  {"--target-ci", "x"},
        {"--target-ci", "-1"}, {"--min-time-s", "-2"},  {"--aa", "cublas-max"},  {"--aa", "candidate"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_usage(RUN_WORDS(bad[i][0], bad[i][1]));
    static const char *const bad_server[][2] = {{"--qps", "0"},           {"--qps", "-5"},         {"--qps", "abc"},
                                                {"--qps", "0.05"},        {"--qps", "inf"},        {"--mean-gap-ms", "0"},
                                                {"--mean-gap-ms", "20000"}, {"--mean-gap-ms", "nan"}};
    for (size_t i = 0; i < sizeof bad_server / sizeof bad_server[0]; i++)
        expect_usage(RUN_WORDS("--mode", "server", bad_server[i][0], bad_server[i][1]));
    /* Pacing flags need server mode, and one way to set the gap. */
    expect_usage(RUN_WORDS("--qps", "100"));
    expect_usage(RUN_WORDS("--mean-gap-ms", "1"));
    expect_usage(RUN_WORDS("--gap", "per-round"));
    expect_usage(RUN_WORDS("--mode", "offline", "--qps", "100"));
    expect_usage(RUN_WORDS("--mode", "server", "--qps", "100", "--mean-gap-ms", "1"));
    expect_usage(RUN_WORDS("--min-time-s", "3"));
    /* --aa: run and gate, instead of --candidate, no sanitizer. */
    expect_usage(RUN_WORDS("--aa", "cublas-nn"));
    expect_usage(WORDS("hgemm-bench", "check", "--aa", "cublas-nn", "--mnk", "8,8,8"));
    expect_usage(WORDS("hgemm-bench", "gate", "--aa", "cublas-nn", "--candidate", "c", "--mnk", "8,8,8"));
    expect_usage(WORDS("hgemm-bench", "run", "--aa", "cublas-nn", "--mnk", "8,8,8", "--sanitize"));
    expect_usage(WORDS("hgemm-bench", "run", "--mnk", "8,8,8"));
}

static void test_policy_names_round_trip(void **state)
{
    (void)state;
    for (int i = HB_L2_FRESH; i <= HB_L2_WARM; i++) {
        hb_l2_policy back;
        assert_true(hb_l2_policy_parse(hb_l2_policy_name((hb_l2_policy)i), &back));
        assert_int_equal(back, i);
        assert_non_null(strstr(hb_l2_policy_description((hb_l2_policy)i), hb_l2_policy_name((hb_l2_policy)i)));
    }
    assert_string_equal(hb_gap_name(HB_MODE_OFFLINE, HB_GAP_PER_ROUND), "none");
    assert_string_equal(hb_gap_name(HB_MODE_SERVER, HB_GAP_PER_ROUND), "per-round");
    assert_string_equal(hb_gap_name(HB_MODE_SERVER, HB_GAP_PER_CALL), "per-call");
    assert_string_equal(hb_mode_name(HB_MODE_SERVER), "server");
}

/* --- results --------------------------------------------------------------------- */

/* A measured server-mode configuration: candidate, one baseline, telemetry with a power cap. */
static hb_config_result *server_result(void)
{
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->mnk = (hb_mnk){256, 256, 256};
    r->measured = 1;
    r->verdict = HB_VERDICT_PASS;
    r->count = 2;
    snprintf(r->participants[0].name, sizeof r->participants[0].name, "aa:cublas-nn");
    r->participants[0].is_candidate = 1;
    snprintf(r->participants[1].name, sizeof r->participants[1].name, "cublas-nn");
    r->participants[1].speedup_event = (hb_speedup_summary){.n = 500, .geomean = 0.001, .ci95_low = -0.01,
                                                            .ci95_high = 0.012, .paper = 0.9, .ci95_halfwidth = 0.011,
                                                            .bootstrap_block = 8};
    for (int i = 0; i < 2; i++)
        r->participants[i].event_ms = (hb_time_summary){.n = 500, .median = 0.01, .mean = 0.01};
    r->timing = (hb_timing_record){HB_MODE_SERVER, HB_GAP_PER_ROUND, 2.0, HB_L2_FLUSH, HB_STREAM_LEGACY, 0.01, "cublas-nn"};
    r->window = (hb_window_report){.warmup_rounds = 40, .timed_rounds = 500, .timed_s = 1.25,
                                   .stopped_by = "target-ci", .final_halfwidth = 0.0095, .gaps = 500,
                                   .gap_mean_ms = 2.1, .gap_fraction = 0.84, .achieved_rate_per_s = 400};
    hb_telemetry_summary *t = &r->telemetry;
    t->available = 1;
    t->samples = 26;
    t->sm_min_mhz = t->sm_min_busy_mhz = 1600;
    t->sm_max_mhz = t->sm_device_max_mhz = 1980;
    t->sm_mean_mhz = 1900;
    t->mem_min_mhz = 2619;
    t->mem_mean_mhz = 2619;
    t->temp_max_c = 51;
    t->power_mean_w = 420;
    t->power_max_w = 690;
    t->reasons_seen = 0x4 | 0x1;
    t->throttle_reasons = 0x4;
    t->clock_drop = t->throttled = 1;
    r->gpu = (hb_gpu_record){1, "GPU-test", "NVIDIA H100 80GB HBM3"};
    return r;
}

static char *render(const hb_config_result *r, int csv)
{
    hb_test_capture capture;
    FILE *out = hb_test_capture_open(&capture);
    if (csv) {
        hb_csv_write_header(out);
        assert_int_equal(hb_csv_write_config(out, "id", "fp32", r), HB_OK);
    } else {
        hb_report_config(out, r);
    }
    char *text = hb_test_capture_close(&capture);
    return text;
}

static void test_csv_records_window_and_telemetry(void **state)
{
    (void)state;
    hb_config_result *r = server_result();
    char *text = render(r, 1);
    assert_non_null(strstr(text, ",mode,gap,mean_gap_ms,l2_policy,aa_of,speedup_ci95_halfwidth,bootstrap_block,"
                                 "warmup_rounds,timed_s,stopped_by,target_ci,final_ci_halfwidth,gaps,gap_mean_ms,"));
    /* Candidate row: policy, the window, then telemetry with the power cap named. */
    assert_non_null(strstr(text, ",server,per-round,2,flush,cublas-nn,,,40,1.25,target-ci,0.01,0.0095,500,2.1,0.84,400,"
                                 "nvml,26,1600,1900,1980,1600,1980,2619,51,420,690,gpu_idle|sw_power_cap,"));
    /* Baseline row: the CI's half-width and block; no window or telemetry figures, nor
     * any after them (columns appended later are the candidate's too). */
    const char *policy = ",server,per-round,2,flush,cublas-nn,0.011,8";
    const char *baseline = strstr(text, ",server,per-round,2,flush,cublas-nn,0.011,8,,,,,,,,,,,,,,,,,,,,,,");
    assert_non_null(baseline);
    baseline += strlen(policy);
    /* ... but the GPU it ran on and the timed stream, on every row (no trace ran: the trace columns after them are
     * empty), then the headline's timer, the event figures beside it (0 here), no kernel time or CUPTI cross-check,
     * the participant's host path (0 in this made-up result), and the candidate's audit, reward, profile and
     * code columns and the baseline reference's (none held here), the timed cross-check's, the sandbox's and the
     * candidate's form's, empty. */
    const char *placement = ",1,GPU-test,NVIDIA H100 80GB HBM3,legacy,,,,,,,,,,,,event,,,0.001,0.9,,,,,,,,0,0,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
                            ",,,,,,,,,\n";
    const char *end = strchr(baseline, '\n') + 1 - strlen(placement);
    assert_memory_equal(end, placement, strlen(placement));
    assert_int_equal(strspn(baseline, ","), (size_t)(end - baseline) + 1); /* up to the device column */
    /* Offline: no pacing figures; telemetry missing is said, not left blank. */
    r->timing.mode = HB_MODE_OFFLINE;
    r->telemetry.available = 0;
    snprintf(r->telemetry.why, sizeof r->telemetry.why, "libnvidia-ml.so.1 not found");
    free(text);
    text = render(r, 1);
    assert_non_null(strstr(text, ",offline,none,,flush,cublas-nn,,,40,1.25,target-ci,0.01,0.0095,,,,,"
                                 "libnvidia-ml.so.1 not found,,"));
    free(text);
    free(r);
}

static void test_report_shows_pacing_and_warning(void **state)
{
    (void)state;
    hb_config_result *r = server_result();
    char *text = render(r, 0);
    assert_non_null(strstr(text, "server mode, L2 flush; timed 1.2 s, 500 rounds, ended by target-ci"));
    assert_non_null(strstr(text, "per-round gaps, mean 2.00 ms asked, 2.10 ms slept, 400/s, 84% of the window idle"));
    assert_non_null(strstr(text, "SM clock min 1600 / mean 1900 / max 1980 MHz"));
    assert_non_null(strstr(text, "throttle: sw_power_cap"));
    assert_non_null(strstr(text, "WARNING:"));
    assert_non_null(strstr(text, "+90.00%")); /* the paper's estimator beside the headline */
    r->telemetry.clock_drop = r->telemetry.throttled = 0;
    r->telemetry.throttle_reasons = 0;
    free(text);
    text = render(r, 0);
    assert_null(strstr(text, "WARNING:"));
    free(text);
    free(r);
}

hb_test_list hb_measure_option_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timing_defaults),
        cmocka_unit_test(test_timing_options),
        cmocka_unit_test(test_aa_replaces_the_candidate),
    cmocka_unit_test(test_decide_options),
    cmocka_unit_test(test_timing_option_errors),
        cmocka_unit_test(test_policy_names_round_trip),
        cmocka_unit_test(test_csv_records_window_and_telemetry),
        cmocka_unit_test(test_report_shows_pacing_and_warning),
    };
    return HB_TEST_LIST(tests);
}
