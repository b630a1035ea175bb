/* CPU tests of the baseline options (--acc, --workspace, the autotune
 * cache flags, --vs with every baseline name), of the -max rows and of how
 * summary.csv records a cuBLASLt baseline's algorithm. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/driver/options.h"
#include "bench/report/csv_writer.h"
#include "bench/result/baseline_registry.h"
#include "bench/result/max_rows.h"
#include "tests/cli_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- options --------------------------------------------------------------------- */

static void test_cli_baseline_defaults(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8"), cli), HB_OK);
    assert_int_equal(cli->run.acc, HB_ACC_FP32);
    assert_true(cli->run.workspace_bytes == (size_t)32 << 20);
    assert_null(cli->run.autotune_cache);
    assert_int_equal(cli->run.retune, 0);
    assert_int_equal(cli->run.autotune_search, 1);
    free(cli);
}

static void test_cli_baseline_options(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "check", "--candidate", "c", "--mnk", "8,8,8", "--acc", "fp16",
                                       "--workspace", "4MiB", "--autotune-cache", "/tmp/x.tsv", "--retune"),
                                 cli),
                     HB_OK);
    assert_int_equal(cli->run.acc, HB_ACC_FP16);
    assert_true(cli->run.workspace_bytes == (size_t)4 << 20);
    assert_string_equal(cli->run.autotune_cache, "/tmp/x.tsv");
    assert_int_equal(cli->run.retune, 1);
    static const struct {
        const char *text;
        size_t bytes;
    } sizes[] = {{"0", 0}, {"33554432", 33554432}, {"8519680", 8519680}, {"64KiB", 65536}, {"16GiB", (size_t)16 << 30}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        assert_int_equal(parse_words(&a,
                                     WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8", "--workspace",
                                           sizes[i].text),
                                     cli),
                         HB_OK);
        assert_true(cli->run.workspace_bytes == sizes[i].bytes);
    }
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8",
                                       "--no-autotune-search"),
                                 cli),
                     HB_OK);
    assert_int_equal(cli->run.autotune_search, 0);
    free(cli);
}

static void test_cli_baseline_option_errors(void **state)
{
    (void)state;
    static const char *const bad[][2] = {{"--acc", "bf16"},         {"--acc", "FP16"},       {"--workspace", "-1"},
                                         {"--workspace", "17GiB"},  {"--workspace", "1.5MiB"}, {"--workspace", "32MB"},
                                         {"--workspace", ""},       {"--workspace", "99999999999999999999"},
                                         {"--autotune-cache", ""}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8", bad[i][0], bad[i][1]));
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8", "--retune", "--no-autotune-search"));
    expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--vs", "cublaslt"));
    expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--vs", "cublas-nn-max"));
}

/* Every timed baseline and every -max figure can be the gate's reference. */
static void test_cli_vs_takes_every_baseline(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    const char *names[HB_N_BASELINES + 3];
    assert_int_equal(hb_max_pair_count(), 3); /* cuBLAS, cuBLASLt heuristic, cuBLASLt autotune */
    for (int i = 0; i < HB_N_BASELINES; i++)
        names[i] = hb_baselines[i].name;
    for (size_t i = 0; i < hb_max_pair_count(); i++)
        names[HB_N_BASELINES + i] = hb_max_pair_at(i).name;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        assert_int_equal(
            parse_words(&a, WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--vs", names[i]), cli),
            HB_OK);
        assert_string_equal(cli->run.vs, names[i]);
        assert_non_null(strstr(hb_baseline_name_list(1), names[i]));
    }
    free(cli);
}

/* --- -max rows ------------------------------------------------------------------- */

static void add_row(hb_config_result *r, const char *name, double median_ms, double speedup)
{
    hb_participant_result *p = &r->participants[r->count++];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->is_candidate = !strcmp(name, "candidate");
    p->event_ms.median = median_ms;
    p->speedup_event.geomean = speedup;
}

static hb_config_result *result_with_pairs(void)
{
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->measured = 1;
    add_row(r, "candidate", 1.0, 0);
    add_row(r, "cublas-nn", 1.2, 0.2);
    add_row(r, "cublas-tn", 1.1, 0.1);   /* faster: TN */
    add_row(r, "cublaslt-heuristic-nn", 0.9, -0.1);
    add_row(r, "cublaslt-heuristic-tn", 0.9, -0.1); /* tie: NN */
    add_row(r, "cublaslt-autotune-nn", 0.8, -0.2);  /* TN missing: no row */
    return r;
}

static void test_max_rows_take_the_faster_layout(void **state)
{
    (void)state;
    hb_config_result *r = result_with_pairs();
    hb_add_max_rows(r);
    assert_int_equal(r->count, 8);
    assert_string_equal(r->participants[6].name, "cublas-max");
    assert_string_equal(r->participants[6].max_of, "cublas-tn");
    assert_true(r->participants[6].speedup_event.geomean == 0.1);
    assert_string_equal(r->participants[7].name, "cublaslt-heuristic-max");
    assert_string_equal(r->participants[7].max_of, "cublaslt-heuristic-nn");
    hb_add_max_rows(r); /* a second call adds nothing */
    assert_int_equal(r->count, 8);
    r->count = 6;
    r->measured = 0; /* a candidate that failed a check has no times: no -max rows */
    hb_add_max_rows(r);
    assert_int_equal(r->count, 6);
    free(r);
}

/* --- summary.csv ------------------------------------------------------------------- */

static char *csv_of(const hb_config_result *r)
{
    hb_test_capture capture;
    FILE *out = hb_test_capture_open(&capture);
    hb_csv_write_header(out);
    assert_int_equal(hb_csv_write_config(out, "id", "fp16", r), HB_OK);
    char *text = hb_test_capture_close(&capture);
    return text;
}

static int fields_in(const char *line)
{
    int fields = 1;
    for (const char *c = line; *c && *c != '\n'; c++)
        fields += *c == ',';
    return fields;
}

static void test_csv_records_lt_algorithm_and_max_rows(void **state)
{
    (void)state;
    hb_config_result *r = result_with_pairs();
    hb_algo_record *a = &r->participants[3].desc.algo;
    *a = (hb_algo_record){1, 21, 4, 1, 0, "128x256", "64x4", "none", "MMA16816", "2x1x1", 1048576, "search", 3, 24,
                          1.5, 12.25, 1.6};
    hb_add_max_rows(r);
    char *text = csv_of(r);
    const int columns = fields_in(text);
    for (const char *line = text; *line; line = strchr(line, '\n') + 1)
        assert_int_equal(fields_in(line), columns); /* every row as wide as the header */
    assert_non_null(strstr(text, ",max_of,algo_id,algo_tile,algo_stages,algo_splitk,algo_reduction,algo_swizzle,"));
    assert_non_null(strstr(text, ",21,128x256,64x4,4,none,1,0,MMA16816,2x1x1,1048576,search,3,24,1.5,12.25,1.6,"));
    assert_non_null(strstr(text, "id,0,0,0,cublas-max,baseline-max,"));
    assert_non_null(strstr(text, ",cublas-tn,,,,,,,,,,,,,,,,,offline,")); /* cublas-max: from cublas-tn, no algorithm */
    free(text);
    free(r);
}

hb_test_list hb_baseline_option_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_baseline_defaults),
        cmocka_unit_test(test_cli_baseline_options),
        cmocka_unit_test(test_cli_baseline_option_errors),
        cmocka_unit_test(test_cli_vs_takes_every_baseline),
        cmocka_unit_test(test_max_rows_take_the_faster_layout),
        cmocka_unit_test(test_csv_records_lt_algorithm_and_max_rows),
    };
    return HB_TEST_LIST(tests);
}
