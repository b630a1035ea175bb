/* --sanitize [TOOLS] on the CPU (docs/validation.md, "Sanitizers"): the tool
 * list, the flag with and without its value, each tool's command line, the
 * errors read from compute-sanitizer's summary lines (as an H100 printed
 * them for a kernel with candidates/broken/smem_race's race), and the
 * `sanitize` cell.  The tools themselves run in tests/test_gpu_sanitize.c. */
#include <stdio.h>
#include <string.h>

#include "bench/driver/options.h"
#include "bench/driver/sanitize_pass.h"
#include "bench/result/sanitize_record.h"
#include "tests/cli_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

static void test_sanitize_tool_list(void **state)
{
    (void)state;
    char bad[64], text[64];
    assert_int_equal(hb_sanitizer_parse_list("racecheck", bad, sizeof bad), HB_SANITIZE_BIT(HB_SANITIZE_RACECHECK));
    unsigned all = hb_sanitizer_parse_list("synccheck,memcheck,racecheck", bad, sizeof bad);
    assert_int_equal(all, 7u);
    hb_sanitizer_list(all, text, sizeof text);
    assert_string_equal(text, "memcheck,racecheck,synccheck");
    assert_int_equal(hb_sanitizer_parse_list("memcheck,initcheck", bad, sizeof bad), 0);
    assert_string_equal(bad, "initcheck");
    assert_int_equal(hb_sanitizer_parse_list("", bad, sizeof bad), 0);
    assert_int_equal(hb_sanitizer_parse_list("memcheck,", bad, sizeof bad), 0);
}

/* --sanitize alone is memcheck; the list goes after "=" or as the next word. */
static void test_sanitize_flag_forms(void **state)
{
    (void)state;
    static const struct {
        const char *words[3];
        unsigned tools;
    } forms[] = {
        {{"--sanitize", NULL, NULL}, HB_SANITIZE_BIT(HB_SANITIZE_MEMCHECK)},
        {{"--sanitize", "racecheck", NULL}, HB_SANITIZE_BIT(HB_SANITIZE_RACECHECK)},
        {{"--sanitize=racecheck,synccheck", NULL, NULL},
         HB_SANITIZE_BIT(HB_SANITIZE_RACECHECK) | HB_SANITIZE_BIT(HB_SANITIZE_SYNCCHECK)},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        test_argv a;
        hb_cli *cli = new_cli();
        const char *w1 = forms[i].words[0], *w2 = forms[i].words[1];
        hb_status status = w2 ? parse_words(&a, WORDS("hgemm-bench", "sweep", "--candidate", "c", "--mnk", "8,8,8", w1,
                                                      w2, "--out", "o"),
                                            cli)
                              : parse_words(&a, WORDS("hgemm-bench", "sweep", "--candidate", "c", "--mnk", "8,8,8", w1,
                                                      "--out", "o"),
                                            cli);
        assert_int_equal(status, HB_OK);
        assert_int_equal(cli->run.sanitize, 1);
        assert_int_equal(cli->run.sanitize_tools, forms[i].tools);
    }
    expect_usage(WORDS("hgemm-bench", "check", "--candidate", "c", "--mnk", "8,8,8", "--sanitize=initcheck"));
    expect_usage(WORDS("hgemm-bench", "check", "--candidate", "c", "--mnk", "8,8,8", "--sanitize", "bogus"));
    expect_usage(WORDS("hgemm-bench", "report", "r", "--sanitize"));
}

/* The tool's name after --tool, its log, and the same inner check for every tool. */
static void test_sanitize_tool_command(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "64,64,64", "--sanitize",
                                       "memcheck,racecheck"),
                                 cli),
                     HB_OK);
    hb_argv argv = {0};
    assert_int_equal(hb_sanitize_tool_command(&cli->run, "/opt/cs", HB_SANITIZE_RACECHECK, "/x/hgemm-bench", 0,
                                              "o/r/racecheck", "o/r/racecheck/64_64_64.log", &argv),
                     HB_OK);
    const char *const head[] = {"/opt/cs", "--tool", "racecheck", "--report-api-errors", "no", "--error-exitcode", "86",
                                "--print-limit", "1000",
                                "--log-file", "o/r/racecheck/64_64_64.log", "/x/hgemm-bench", "check"};
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        assert_string_equal(argv.word[i], head[i]);
    for (size_t i = 0; i < argv.count; i++) /* no second pass inside the first */
        assert_null(strstr(argv.word[i], "--sanitize"));
}

/* The summary lines compute-sanitizer 2025.3.1 printed on an H100 (racecheck on a
 * kernel with smem_race's missing barrier; memcheck and synccheck on the same). */
static void test_sanitize_summary_lines(void **state)
{
    (void)state;
    assert_int_equal(hb_sanitizer_summary_errors("========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)"),
                     2);
    assert_int_equal(hb_sanitizer_summary_errors("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"),
                     0);
    assert_int_equal(hb_sanitizer_summary_errors("========= RACECHECK SUMMARY: 3 hazards displayed (0 errors, 3 warnings)"),
                     0);
    assert_int_equal(hb_sanitizer_summary_errors("========= ERROR SUMMARY: 0 errors"), 0);
    assert_int_equal(hb_sanitizer_summary_errors("========= ERROR SUMMARY: 1 error"), 1);
    assert_int_equal(hb_sanitizer_summary_errors("========= ERROR SUMMARY: 17 errors\n"), 17);
    assert_int_equal(hb_sanitizer_summary_errors("=========     and Read access at k+0x400 [249864 hazards]"), -1);
    assert_int_equal(hb_sanitizer_summary_errors("========= Target application returned an error"), -1);
}

static hb_sanitizer_log read_lines(const char *const *lines, size_t n)
{
    hb_sanitizer_log log;
    hb_sanitizer_log_init(&log);
    for (size_t i = 0; i < n; i++)
        hb_sanitizer_log_line(&log, lines[i]);
    return log;
}

/* racecheck's reports in cuBLAS's Hopper kernels are the baselines', not the candidate's
 * (lines as compute-sanitizer printed them on an H100 for `check` of sample_mma at 1024^3). */
static void test_sanitize_log_leaves_library_kernels_out(void **state)
{
    (void)state;
    static const char *const baselines_only[] = {
        "========= COMPUTE-SANITIZER\n",
        "========= Error: Race reported between Read access at nvjet_sm90_hsh_128x64_64x8_1x2_h_bz_NNT+0xa50\n",
        "=========     and Write access at nvjet_sm90_hsh_128x64_64x8_1x2_h_bz_NNT+0x34f0 [512 hazards]\n",
        "========= \n",
        "========= Error: Race reported between Read access at nvjet_sm90_hsh_64x128_64x8_2x1_v_bz_TNN+0xa60\n",
        "=========     and Write access at nvjet_sm90_hsh_64x128_64x8_2x1_v_bz_TNN+0x33d0 [512 hazards]\n",
        "========= \n",
        "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n",
    };
    hb_sanitizer_log log = read_lines(baselines_only, sizeof baselines_only / sizeof baselines_only[0]);
    assert_int_equal(log.summary_errors, 2);
    assert_int_equal(log.library_reports, 2);
    assert_int_equal(hb_sanitizer_log_candidate_errors(&log), 0);
    assert_string_equal(log.first, "");

    /* The candidate's own race beside a baseline's (its kernel as the smem_race reading named it). */
    static const char *const both[] = {
        "========= Error: Race reported between Read access at nvjet_sm90_hsh_128x64_64x8_1x2_h_bz_NNT+0xa50\n",
        "=========     and Write access at nvjet_sm90_hsh_128x64_64x8_1x2_h_bz_NNT+0x34f0 [512 hazards]\n",
        "========= Error: Race reported between Write access at k+0x3d0\n",
        "=========     and Read access at k+0x400 [249864 hazards]\n",
        "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n",
    };
    log = read_lines(both, sizeof both / sizeof both[0]);
    assert_int_equal(hb_sanitizer_log_candidate_errors(&log), 1);
    assert_string_equal(log.first, "Error: Race reported between Write access at k+0x3d0");

    /* memcheck: the kernel on the line after the report's; a report naming none is the candidate's. */
    static const char *const memcheck[] = {
        "========= Invalid __global__ write of size 2 bytes\n",
        "=========     at hgemm_writes_past_c(const __half *, const __half *, int)+0x2d0\n",
        "=========     by thread (0,0,0) in block (0,0,0)\n",
        "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\"\n",
        "========= ERROR SUMMARY: 2 errors\n",
    };
    log = read_lines(memcheck, sizeof memcheck / sizeof memcheck[0]);
    assert_int_equal(log.library_reports, 0);
    assert_int_equal(hb_sanitizer_log_candidate_errors(&log), 2);
    assert_string_equal(log.first, "Invalid __global__ write of size 2 bytes");

    hb_sanitizer_log none;
    hb_sanitizer_log_init(&none);
    assert_int_equal(hb_sanitizer_log_candidate_errors(&none), -1); /* no summary: the exit status decides */
}

static void test_sanitize_cell(void **state)
{
    (void)state;
    char cell[128];
    hb_sanitize_record r = {0};
    hb_sanitize_cell(&r, cell, sizeof cell);
    assert_string_equal(cell, "");
    r.ran = HB_SANITIZE_BIT(HB_SANITIZE_MEMCHECK) | HB_SANITIZE_BIT(HB_SANITIZE_RACECHECK);
    r.errors[HB_SANITIZE_RACECHECK] = 18;
    hb_sanitize_cell(&r, cell, sizeof cell);
    assert_string_equal(cell, "memcheck=0;racecheck=18");
}

hb_test_list hb_sanitize_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sanitize_tool_list),     cmocka_unit_test(test_sanitize_flag_forms),
        cmocka_unit_test(test_sanitize_tool_command),  cmocka_unit_test(test_sanitize_summary_lines),
        cmocka_unit_test(test_sanitize_log_leaves_library_kernels_out), cmocka_unit_test(test_sanitize_cell),
    };
    return HB_TEST_LIST(tests);
}
