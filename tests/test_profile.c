/* --profile on the CPU (docs/gate.md, "Profile"): ncu's CSV read from a
 * fixture in the layout an H100 gave, the flag's relations, the ncu command
 * line, the participants profiled, and the pass end to end with a stand-in
 * ncu (a shell script that prints the fixture): the record, the stdout lines,
 * verdict.json's object, summary.csv's columns, and the notes where ncu is
 * missing, the counters are denied or the configuration failed its checks.
 * The pass with the real ncu runs in tests/test_gpu_profile.c. */
#define _XOPEN_SOURCE 700 /* setenv, realpath */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/analysis/ncu_csv.h"
#include "bench/driver/profile_pass.h"
#include "bench/report/profile_json.h"
#include "bench/report/profile_lines.h"
#include "bench/report/summary_columns.h"
#include "bench/result/kernel_profile.h"
#include "tests/cli_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define FIXTURE "tests/data/ncu/raw_two_ranges.csv"

static void parse_fixture(const char *participant, hb_profile_record *p)
{
    char *text = hb_test_read_file(FIXTURE);
    assert_non_null(text);
    memset(p, 0, sizeof *p);
    assert_int_equal(hb_ncu_csv_parse(FIXTURE, text, strlen(text), participant, p), HB_OK);
    free(text);
}

/* Each participant's kernel from its range, separators stripped, the metric ncu left out named and NaN. */
static void test_ncu_csv_reads_the_fixture(void **state)
{
    (void)state;
    hb_profile_record p;
    parse_fixture("candidate", &p);
    assert_int_equal(p.count, 1); /* the torch range's kernel is the torch process's */
    const hb_kernel_profile *c = &p.kernels[0];
    assert_string_equal(c->participant, "candidate");
    assert_string_equal(c->kernel, "hgemm_mma_pipelined");
    assert_string_equal(c->grid, "(16, 16, 1)");
    assert_string_equal(c->block, "(128, 1, 1)");
    assert_true(c->value[HB_PROFILE_DURATION_NS] == 24512);
    assert_true(c->value[HB_PROFILE_SHARED_BYTES] == 33792);
    assert_true(c->value[HB_PROFILE_REGISTERS] == 96);
    assert_true(fabs(c->value[HB_PROFILE_DRAM_PCT] - 31.02) < 1e-9);
    assert_true(isnan(c->value[HB_PROFILE_L2_HIT_PCT]));
    assert_string_equal(p.missing, "l2_hit_rate_pct");
    parse_fixture("torch", &p);
    assert_int_equal(p.count, 1);
    const hb_kernel_profile *t = &p.kernels[0];
    assert_string_equal(t->kernel, "nvjet_sm90_hsh_128x64_64x8_1x2_h_bz_NNT");
    assert_true(t->value[HB_PROFILE_SHARED_BYTES] == 214292);
    assert_true(t->value[HB_PROFILE_REGISTERS] == 168);
    assert_true(fabs(t->value[HB_PROFILE_TENSOR_PCT] - 46.25) < 1e-9);
    assert_true(fabs(t->value[HB_PROFILE_OCCUPANCY_PCT] - 13.92) < 1e-9);
    assert_true(fabs(t->value[HB_PROFILE_SM_PCT] - 32.24) < 1e-9);
}

/* A time in us is scaled to ns; bytes in another unit are not guessed at but named. */
static void test_ncu_csv_units(void **state)
{
    (void)state;
    const char *text = "==PROF== Connected\n"
                       "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"gpu__time_duration.sum\","
                       "\"launch__shared_mem_per_block\"\n"
                       "\"\",\"\",\"\",\"\",\"usecond\",\"Kbyte/block\"\n"
                       "\"0\",\"k\",\"(1, 1, 1)\",\"(32, 1, 1)\",\"1.5\",\"33.79\"\n";
    hb_profile_record p;
    memset(&p, 0, sizeof p);
    assert_int_equal(hb_ncu_csv_parse("t.csv", text, strlen(text), "candidate", &p), HB_OK);
    assert_int_equal(p.count, 1);
    assert_string_equal(p.kernels[0].participant, "candidate"); /* no NVTX column: the process's participant */
    assert_true(p.kernels[0].value[HB_PROFILE_DURATION_NS] == 1500);
    assert_true(isnan(p.kernels[0].value[HB_PROFILE_SHARED_BYTES]));
    assert_non_null(strstr(p.missing, "shared_mem_per_block_bytes"));
    assert_non_null(strstr(p.note, "Kbyte/block"));
    assert_non_null(strstr(p.missing, "dram_throughput_pct"));
}

static void test_ncu_csv_refuses_text_without_a_table(void **state)
{
    (void)state;
    const char *text = "==PROF== Connected to process 1\n==ERROR== the application returned an error code (1)\n";
    hb_profile_record p;
    memset(&p, 0, sizeof p);
    quiet_stderr();
    hb_status status = hb_ncu_csv_parse("t.csv", text, strlen(text), "candidate", &p);
    restore_stderr();
    assert_int_equal(status, HB_ERR_BAD_RESULTS);
    assert_int_equal(p.count, 0);
}

static void test_ncu_range_cell(void **state)
{
    (void)state;
    char name[64];
    assert_true(hb_ncu_range_participant("582  \"<default domain>:hb-profile-cublas-nn:none:none:none:none:none:none\" ",
                                         name, sizeof name));
    assert_string_equal(name, "cublas-nn");
    assert_false(hb_ncu_range_participant("582  \"<default domain>:other:none\"", name, sizeof name));
    assert_false(hb_ncu_range_participant("", name, sizeof name));
    assert_false(hb_ncu_range_participant(NULL, name, sizeof name));
}

/* run, gate and sweep take --profile; check times nothing and --aa has no candidate's kernel to set beside. */
static void test_profile_flag(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--profile"), cli),
                     HB_OK);
    assert_int_equal(cli->run.profile, 1);
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8"), cli), HB_OK);
    assert_int_equal(cli->run.profile, 0);
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8", "--profile",
                                           "--no-isolate"),
                                 cli),
                     HB_OK);
    expect_usage(WORDS("hgemm-bench", "check", "--candidate", "c", "--mnk", "8,8,8", "--profile"));
    expect_usage(WORDS("hgemm-bench", "run", "--aa", "torch", "--mnk", "8,8,8", "--profile"));
    free(cli);
}

static int has_words(const hb_argv *argv, const char *a, const char *b)
{
    for (size_t i = 0; i + 1 < argv->count; i++)
        if (!strcmp(argv->word[i], a) && (!b || !strcmp(argv->word[i + 1], b)))
            return 1;
    return 0;
}

/* The participant's NVTX range, every metric of the table, `check` of this configuration with the run's flags, and
 * neither --profile nor the user's verdict file. */
static void test_profile_command(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--mnk",
                                           "64,32,16", "--profile", "--device", "2", "--verdict", "v.json", "--seed",
                                           "5", "--vs", "cublas-nn"),
                                 cli),
                     HB_OK);
    static hb_argv argv;
    memset(&argv, 0, sizeof argv);
    assert_int_equal(hb_profile_command(&cli->run, "/opt/ncu", "/x/hgemm-bench", 1, "cublas-nn", "o/r/profile",
                                        "o/r/profile/64_32_16.offline.cublas-nn.csv", &argv),
                     HB_OK);
    assert_string_equal(argv.word[0], "/opt/ncu");
    assert_true(has_words(&argv, "--log-file", "o/r/profile/64_32_16.offline.cublas-nn.csv"));
    assert_true(has_words(&argv, "--nvtx-include", "hb-profile-cublas-nn/"));
    assert_true(has_words(&argv, "--page", "raw"));
    assert_true(has_words(&argv, "/x/hgemm-bench", "check"));
    assert_true(has_words(&argv, "--mnk", "64,32,16"));
    assert_true(has_words(&argv, "--device", "2"));
    assert_true(has_words(&argv, "--no-isolate", NULL));
    assert_false(has_words(&argv, "--verdict", NULL));
    assert_false(has_words(&argv, "--profile", NULL));
    char metrics[1024];
    hb_profile_metric_list(metrics, sizeof metrics);
    assert_true(has_words(&argv, "--metrics", metrics));
    for (int m = 0; m < HB_N_PROFILE_METRICS; m++)
        assert_non_null(strstr(metrics, hb_profile_metrics[m].ncu_name));
    free(cli);
}

/* The candidate and --vs; a -max figure's layout taken, or both layouts where it has no row. */
static void test_profile_participants(void **state)
{
    (void)state;
    hb_run_options o;
    memset(&o, 0, sizeof o);
    static hb_config_result r;
    hb_mnk mnk = {64, 64, 64};
    hb_config_result_init(&r, &mnk);
    const char *names[HB_PROFILE_MAX_PARTICIPANTS];
    o.vs = "torch";
    assert_int_equal(hb_profile_participants(&o, &r, names, HB_PROFILE_MAX_PARTICIPANTS), 2);
    assert_string_equal(names[0], "candidate");
    assert_string_equal(names[1], "torch");
    o.vs = "cublas-max";
    assert_int_equal(hb_profile_participants(&o, &r, names, HB_PROFILE_MAX_PARTICIPANTS), 3);
    assert_string_equal(names[1], "cublas-nn");
    assert_string_equal(names[2], "cublas-tn");
    snprintf(r.participants[1].name, sizeof r.participants[1].name, "cublas-max");
    snprintf(r.participants[1].max_of, sizeof r.participants[1].max_of, "cublas-tn");
    r.count = 2;
    assert_int_equal(hb_profile_participants(&o, &r, names, HB_PROFILE_MAX_PARTICIPANTS), 2);
    assert_string_equal(names[1], "cublas-tn");
}

/* --- the pass with a stand-in ncu ------------------------------------------------------------- */

typedef struct pass_setup {
    char dir[512];
    char script[700];
    hb_cli *cli;
    test_argv argv;
} pass_setup;

/* A stand-in ncu: --version says its version; otherwise it notes its arguments and the participant, then prints
 * `body` (the fixture when NULL). */
static void make_fake_ncu(pass_setup *s, const char *body)
{
    char fixture[1024], text[4096];
    if (!realpath(FIXTURE, fixture))
        fail_msg("cannot find %s", FIXTURE);
    snprintf(s->script, sizeof s->script, "%s/ncu", s->dir);
    snprintf(text, sizeof text,
             "#!/bin/sh\n"
             "if [ \"$1\" = --version ]; then echo 'NVIDIA (R) Nsight Compute Command Line Profiler'; "
             "echo 'Version 2099.1.0.0 (build 1) (public-release)'; exit 0; fi\n"
             "echo \"$HB_PROFILE_CALLS $*\" >> '%s/calls.txt'\n"
             /* ncu writes its report to the file after --log-file; the rest goes to the pass's log */
             "report=/dev/null; while [ $# -gt 0 ]; do [ \"$1\" = --log-file ] && report=$2; shift; done\n"
             "exec > \"$report\"\n"
             "%s\n",
             s->dir, body ? body : "");
    FILE *f = fopen(s->script, "w");
    assert_non_null(f);
    fputs(text, f);
    if (!body)
        fprintf(f, "cat '%s'\n", fixture);
    assert_int_equal(fclose(f), 0);
    char chmod_line[800];
    snprintf(chmod_line, sizeof chmod_line, "chmod +x '%s'", s->script);
    assert_int_equal(hb_test_shell(chmod_line), 0);
}

static void pass_begin(pass_setup *s, const char *vs_flag)
{
    hb_test_make_temp_dir("hb-profile", s->dir, sizeof s->dir);
    s->cli = new_cli();
    hb_status status = vs_flag ? parse_words(&s->argv, WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk",
                                                             "64,64,64", "--profile", "--vs", vs_flag),
                                             s->cli)
                               : parse_words(&s->argv, WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk",
                                                             "64,64,64", "--profile"),
                                             s->cli);
    assert_int_equal(status, HB_OK);
}

static void pass_end(pass_setup *s)
{
    unsetenv(HB_NCU_ENV);
    free(s->cli);
    hb_test_remove_tree(s->dir);
}

static hb_config_result *passed_config(void)
{
    static hb_config_result r;
    hb_mnk mnk = {64, 64, 64};
    hb_config_result_init(&r, &mnk);
    r.measured = 1;
    return &r;
}

static char *table_of(const hb_profile_record *p)
{
    hb_test_capture capture;
    hb_report_profile(hb_test_capture_open(&capture), p);
    return hb_test_capture_close(&capture);
}

static const char *cell_text(const char *column, const hb_config_result *r, size_t participant, char *out, size_t size)
{
    hb_row row = {"id", "fp32", r, &r->participants[participant]};
    hb_cell cell = hb_summary_column_find(column)->value(&row);
    if (cell.kind == HB_CELL_NUMBER)
        snprintf(out, size, "%g", cell.number);
    else
        snprintf(out, size, "%s", hb_cell_text(&cell));
    return out;
}

/* One ncu process per participant, each given its range; the candidate's and torch's kernels, the version and the
 * cost recorded; the verdict untouched; the lines, verdict.json's object and summary.csv's columns from them. */
static void test_profile_pass_with_a_stand_in_ncu(void **state)
{
    (void)state;
    pass_setup s;
    pass_begin(&s, NULL);
    make_fake_ncu(&s, NULL);
    setenv(HB_NCU_ENV, s.script, 1);
    hb_config_result *r = passed_config();
    hb_profile_config(&s.cli->run, 0, s.dir, r);
    assert_int_equal(r->status, HB_OK);
    const hb_profile_record *p = &r->profile;
    assert_true(p->ran);
    assert_int_equal(p->count, 2);
    assert_string_equal(p->kernels[0].participant, "candidate");
    assert_string_equal(p->kernels[1].participant, "torch");
    assert_string_equal(p->version, "Version 2099.1.0.0 (build 1) (public-release)");
    assert_true(p->seconds > 0 && p->seconds < 60);
    assert_string_equal(p->missing, "l2_hit_rate_pct");
    char calls[700];
    snprintf(calls, sizeof calls, "%s/calls.txt", s.dir);
    assert_true(hb_test_file_contains(calls, "candidate --log-file "));
    assert_true(hb_test_file_contains(calls, ".candidate.csv --nvtx --nvtx-include hb-profile-candidate/"));
    assert_true(hb_test_file_contains(calls, "torch --log-file "));
    assert_true(hb_test_file_contains(calls, ".torch.csv --nvtx --nvtx-include hb-profile-torch/"));
    char csv[700];
    snprintf(csv, sizeof csv, "%s/profile/64_64_64.offline.torch.csv", s.dir);
    assert_true(hb_test_file_contains(csv, "==PROF=="));

    char *lines = table_of(p);
    assert_non_null(strstr(lines, "profile (ncu Version 2099.1.0.0"));
    assert_non_null(strstr(lines, "  candidate                  31.0     48.3     61.5     22.1        -       96    33792"
                                  "    24.51  (16, 16, 1) x (128, 1, 1), hgemm_mma_pipelined\n"));
    assert_non_null(strstr(lines, "  torch                      14.4     32.2     46.2     13.9        -      168   214292"));
    assert_non_null(strstr(lines, "not reported by this ncu or GPU: l2_hit_rate_pct"));
    free(lines);

    json_t *o = hb_profile_json(p);
    assert_string_equal(json_string_value(json_object_get(o, "tool")), "ncu");
    assert_true(json_real_value(json_object_get(o, "seconds")) > 0);
    json_t *torch = json_array_get(json_object_get(o, "kernels"), 1);
    assert_string_equal(json_string_value(json_object_get(torch, "participant")), "torch");
    assert_true(json_real_value(json_object_get(torch, "shared_mem_per_block_bytes")) == 214292);
    assert_true(json_real_value(json_object_get(torch, "duration_ns")) == 8736);
    assert_true(json_is_null(json_object_get(torch, "l2_hit_rate_pct")));
    json_decref(o);

    snprintf(r->participants[1].name, sizeof r->participants[1].name, "torch");
    r->count = 2;
    char cell[300];
    assert_string_equal(cell_text("profile_dram_pct", r, 0, cell, sizeof cell), "31.02");
    assert_string_equal(cell_text("profile_tensor_pct", r, 1, cell, sizeof cell), "46.25");
    assert_string_equal(cell_text("profile_kernel", r, 1, cell, sizeof cell), "nvjet_sm90_hsh_128x64_64x8_1x2_h_bz_NNT");
    assert_string_equal(cell_text("profile_l2_hit_pct", r, 0, cell, sizeof cell), "");
    pass_end(&s);
}

/* HB_NCU naming nothing: a note, no profile, the configuration's verdict as it was. */
static void test_profile_pass_without_ncu(void **state)
{
    (void)state;
    pass_setup s;
    pass_begin(&s, "cublas-nn");
    setenv(HB_NCU_ENV, "/nonexistent/ncu", 1);
    hb_config_result *r = passed_config();
    hb_profile_config(&s.cli->run, 0, s.dir, r);
    assert_int_equal(r->status, HB_OK);
    assert_false(r->profile.ran);
    assert_true(r->profile.asked);
    assert_non_null(strstr(r->profile.note, "HB_NCU=/nonexistent/ncu is not an executable"));
    json_t *o = hb_profile_json(&r->profile);
    assert_true(json_is_null(o));
    json_decref(o);
    char *lines = table_of(&r->profile);
    assert_non_null(strstr(lines, "  profile: none (HB_NCU=/nonexistent/ncu is not an executable"));
    free(lines);
    pass_end(&s);
}

/* ERR_NVGPUCTRPERM: the note says what to change. */
static void test_profile_pass_counters_denied(void **state)
{
    (void)state;
    pass_setup s;
    pass_begin(&s, NULL);
    make_fake_ncu(&s, "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
                      "Performance Counters on the target device 0.'; exit 1");
    setenv(HB_NCU_ENV, s.script, 1);
    hb_config_result *r = passed_config();
    hb_profile_config(&s.cli->run, 0, s.dir, r);
    assert_false(r->profile.ran);
    assert_non_null(strstr(r->profile.note, "NVreg_RestrictProfilingToAdminUsers=0"));
    assert_non_null(strstr(r->profile.note, "candidate: "));
    pass_end(&s);
}

/* A configuration that failed its checks is not profiled, and no ncu runs for it. */
static void test_profile_pass_skips_a_failed_configuration(void **state)
{
    (void)state;
    pass_setup s;
    pass_begin(&s, NULL);
    make_fake_ncu(&s, NULL);
    setenv(HB_NCU_ENV, s.script, 1);
    hb_config_result *r = passed_config();
    r->status = HB_ERR_INCORRECT;
    r->verdict = HB_VERDICT_INCORRECT;
    hb_profile_config(&s.cli->run, 0, s.dir, r);
    assert_false(r->profile.ran);
    assert_non_null(strstr(r->profile.note, "not profiled: the configuration did not pass its checks (incorrect)"));
    char calls[700];
    snprintf(calls, sizeof calls, "%s/calls.txt", s.dir);
    assert_false(hb_test_file_contains(calls, "hb-profile"));
    pass_end(&s);
}

hb_test_list hb_profile_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ncu_csv_reads_the_fixture),
        cmocka_unit_test(test_ncu_csv_units),
        cmocka_unit_test(test_ncu_csv_refuses_text_without_a_table),
        cmocka_unit_test(test_ncu_range_cell),
        cmocka_unit_test(test_profile_flag),
        cmocka_unit_test(test_profile_command),
        cmocka_unit_test(test_profile_participants),
        cmocka_unit_test(test_profile_pass_with_a_stand_in_ncu),
        cmocka_unit_test(test_profile_pass_without_ncu),
        cmocka_unit_test(test_profile_pass_counters_denied),
        cmocka_unit_test(test_profile_pass_skips_a_failed_configuration),
    };
    return (hb_test_list){tests, sizeof tests / sizeof tests[0]};
}
