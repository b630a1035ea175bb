/* Tests of bench/driver/options.c for the check and gate commands and the options of
 * the correctness battery and isolation; and the driver binary's exit
 * status on bad usage (no GPU needed: usage is checked first). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/driver/options.h"
#include "tests/cli_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- helpers ----------------------------------------------------------------- */

/* `command` --candidate c --mnk 8,8,8 plus one option and its value. */
static void expect_option_usage(const char *command, const char *option, const char *value)
{
    if (value)
        expect_usage(WORDS("hgemm-bench", command, "--candidate", "c", "--mnk", "8,8,8", option, value));
    else
        expect_usage(WORDS("hgemm-bench", command, "--candidate", "c", "--mnk", "8,8,8", option));
}

static void assert_battery_defaults(const hb_run_options *run)
{
    assert_int_equal(run->exact_reps, 3);
    assert_true(run->exact_time_s == 10.0);
    assert_int_equal(run->spot_checks, 4);
    assert_true(run->cross_check_rounds == 0.03);
    assert_int_equal(run->sanitize, 0);
    assert_int_equal(run->isolate, 1);
    assert_true(run->timeout_s == 60.0);
    assert_string_equal(run->vs, "torch");
    assert_true(run->min_speedup == 0.0);
    assert_null(run->verdict_path);
}

/* --- commands and defaults ------------------------------------------------------- */

static void test_cli_commands_set_mode(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    static const struct {
        const char *word;
        hb_command command;
        int check_only, gate;
    } cases[] = {{"run", HB_CMD_RUN, 0, 0}, {"check", HB_CMD_CHECK, 1, 0}, {"gate", HB_CMD_GATE, 0, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(cli, 0xA5, sizeof *cli);
        assert_int_equal(parse_words(&a, WORDS("hgemm-bench", cases[i].word, "--candidate", "c.json", "--mnk", "8,16,32"),
                                     cli),
                         HB_OK);
        assert_int_equal(cli->command, cases[i].command);
        assert_int_equal(cli->run.check_only, cases[i].check_only);
        assert_int_equal(cli->run.gate, cases[i].gate);
        assert_string_equal(cli->run.candidate_path, "c.json");
        assert_int_equal(cli->run.n_configs, 1);
        assert_int_equal(cli->run.configs[0].k, 32);
        assert_battery_defaults(&cli->run);
    }
    /* --help inside check and gate */
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "gate", "--help"), cli), HB_OK);
    assert_int_equal(cli->command, HB_CMD_HELP);
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "check", "--help"), cli), HB_OK);
    assert_int_equal(cli->command, HB_CMD_HELP);
    free(cli);
}

static void test_cli_check_and_gate_need_candidate_and_mnk(void **state)
{
    (void)state;
    expect_usage(WORDS("hgemm-bench", "check", "--mnk", "8,8,8"));
    expect_usage(WORDS("hgemm-bench", "gate", "--mnk", "8,8,8"));
    expect_usage(WORDS("hgemm-bench", "check", "--candidate", "c"));
    expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c"));
    expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "extra"));
    expect_usage(WORDS("hgemm-bench", "frob"));
    expect_usage(WORDS("hgemm-bench", "Gate", "--candidate", "c", "--mnk", "8,8,8"));
    expect_usage(WORDS("hgemm-bench", "--gate"));
}

/* --- options ----------------------------------------------------------------------- */

static void test_cli_battery_options_parse(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--exact-reps",
                                       "7", "--exact-time-s", "2.5", "--spot-checks", "0", "--sanitize",
                                       "--timeout-s", "1", "--no-isolate", "--verdict", "out/v.json", "--vs",
                                       "cublas-nn", "--min-speedup", "0.1"),
                                 cli),
                     HB_OK);
    const hb_run_options *run = &cli->run;
    assert_int_equal(cli->command, HB_CMD_GATE);
    assert_int_equal(run->exact_reps, 7);
    assert_true(run->exact_time_s == 2.5);
    assert_int_equal(run->spot_checks, 0);
    assert_int_equal(run->sanitize, 1);
    assert_true(run->timeout_s == 1.0);
    assert_int_equal(run->isolate, 0);
    assert_string_equal(run->verdict_path, "out/v.json");
    assert_string_equal(run->vs, "cublas-nn");
    assert_true(run->min_speedup == 0.1);

    /* the = form, the other baselines, range ends, a negative speedup */
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8",
                                       "--vs=cublas-tn", "--min-speedup=-0.5", "--exact-reps=1000",
                                       "--spot-checks", "1000", "--exact-time-s", "0", "--timeout-s", "86400"),
                                 cli),
                     HB_OK);
    assert_string_equal(run->vs, "cublas-tn");
    assert_true(run->min_speedup == -0.5);
    assert_int_equal(run->exact_reps, 1000);
    assert_int_equal(run->spot_checks, 1000);
    assert_true(run->exact_time_s == 0.0);
    assert_true(run->timeout_s == 86400.0);
    assert_int_equal(run->isolate, 1);
    assert_int_equal(run->sanitize, 0);
    assert_null(run->verdict_path);

    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--vs", "torch",
                                       "--min-speedup", "1000"),
                                 cli),
                     HB_OK);
    assert_string_equal(run->vs, "torch");
    assert_true(run->min_speedup == 1000.0);
    /* -1 is the lower end: any speed passes */
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--min-speedup",
                                           "-1"),
                                 cli),
                     HB_OK);
    assert_true(run->min_speedup == -1.0);

    /* the battery and isolation options apply to run and check as well */
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "check", "--candidate", "c", "--mnk", "8,8,8", "--exact-reps",
                                       "2", "--no-isolate", "--verdict", "v.json", "--timeout-s", "1.5"),
                                 cli),
                     HB_OK);
    assert_int_equal(cli->command, HB_CMD_CHECK);
    assert_int_equal(run->exact_reps, 2);
    assert_int_equal(run->isolate, 0);
    assert_string_equal(run->verdict_path, "v.json");
    assert_true(run->timeout_s == 1.5);
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8", "--spot-checks",
                                       "9", "--sanitize"),
                                 cli),
                     HB_OK);
    assert_int_equal(cli->command, HB_CMD_RUN);
    assert_int_equal(run->spot_checks, 9);
    assert_int_equal(run->sanitize, 1);
    free(cli);
}

static void test_cli_gate_options_only_for_gate(void **state)
{
    (void)state;
    expect_option_usage("run", "--vs", "torch");
    expect_option_usage("check", "--vs", "torch");
    expect_option_usage("run", "--min-speedup", "0.1");
    expect_option_usage("check", "--min-speedup", "0");
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "8,8,8", "--vs=cublas-nn"));
}

static void test_cli_bad_option_values(void **state)
{
    (void)state;
    /* --vs: the three baselines only, exact spelling */
    expect_option_usage("gate", "--vs", "nope");
    expect_option_usage("gate", "--vs", "");
    expect_option_usage("gate", "--vs", "Torch");
    expect_option_usage("gate", "--vs", "torch ");
    expect_option_usage("gate", "--vs", "candidate");
    expect_option_usage("gate", "--vs", NULL);
    /* --min-speedup: a finite number from -1 (any speed) to 1000 */
    expect_option_usage("gate", "--min-speedup", "-2");
    expect_option_usage("gate", "--min-speedup", "-1.0001");
    expect_option_usage("gate", "--min-speedup", "1000.5");
    expect_option_usage("gate", "--min-speedup", "abc");
    expect_option_usage("gate", "--min-speedup", "inf");
    expect_option_usage("gate", "--min-speedup", "nan");
    expect_option_usage("gate", "--min-speedup", "");
    expect_option_usage("gate", "--min-speedup", "0.1x");
    expect_option_usage("gate", "--min-speedup", "1e999");
    expect_option_usage("gate", "--min-speedup", NULL);
    /* counts */
    expect_option_usage("gate", "--exact-reps", "0");
    expect_option_usage("check", "--exact-reps", "-3");
    expect_option_usage("run", "--exact-reps", "1001");
    expect_option_usage("run", "--exact-reps", "2.5");
    expect_option_usage("run", "--exact-reps", "");
    expect_option_usage("check", "--spot-checks", "-1");
    expect_option_usage("check", "--spot-checks", "1001");
    expect_option_usage("check", "--spot-checks", "four");
    expect_option_usage("run", "--cross-check-rounds", "-1");
    expect_option_usage("run", "--cross-check-rounds", "51");
    expect_option_usage("gate", "--cross-check-rounds", "three");
    expect_option_usage("check", "--cross-check-rounds", "3"); /* check times nothing */
    /* seconds */
    expect_option_usage("gate", "--timeout-s", "0.5");
    expect_option_usage("gate", "--timeout-s", "0");
    expect_option_usage("gate", "--timeout-s", "-5");
    expect_option_usage("gate", "--timeout-s", "86401");
    expect_option_usage("gate", "--timeout-s", "inf");
    expect_option_usage("gate", "--exact-time-s", "-1");
    expect_option_usage("gate", "--exact-time-s", "nan");
    expect_option_usage("gate", "--exact-time-s", "10s");
    /* --verdict needs a file name */
    expect_option_usage("gate", "--verdict", "");
    expect_option_usage("check", "--verdict", "");
    expect_option_usage("gate", "--verdict", NULL);
    /* flags take no value */
    expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--sanitize=1"));
    expect_usage(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--no-isolate=yes"));
}

/* A second parse into the same hb_cli starts from the defaults again. */
static void test_cli_reparse_starts_from_defaults(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--vs",
                                       "cublas-tn", "--min-speedup", "0.3", "--no-isolate", "--exact-reps", "9"),
                                 cli),
                     HB_OK);
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8"), cli),
                     HB_OK);
    assert_battery_defaults(&cli->run);
    assert_int_equal(cli->run.gate, 1);
    free(cli);
}

/* --- the driver binary --------------------------------------------------------------- */

static const char *bench_path(void)
{
    const char *bench = getenv("HB_BENCH");
    return bench && *bench ? bench : "build/hgemm-bench";
}

/* Runs `hgemm-bench <args>` with its output in `dir`; the exit status, -1 if it did not exit. */
static int run_binary(const char *args, const char *dir)
{
    char command[2048];
    snprintf(command, sizeof command, "%s %s >%s/stdout.txt 2>%s/stderr.txt", bench_path(), args, dir, dir);
    int rc = system(command);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int folder_is_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return 1; /* not even created */
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return entries == 0;
}

static void test_binary_usage_errors_exit_2(void **state)
{
    (void)state;
    char dir[512], args[1600], out[700], err[700];
    hb_test_make_temp_dir("hb-cli-bin", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/results", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);

    snprintf(args, sizeof args, "gate --candidate X --mnk 64,64,64 --vs nope --out %s", out);
    assert_int_equal(run_binary(args, dir), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "nope"));
    assert_true(folder_is_empty(out)); /* usage is checked before anything is created */

    snprintf(args, sizeof args, "run --candidate X --mnk 64,64,64 --min-speedup 0.1 --out %s", out);
    assert_int_equal(run_binary(args, dir), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "--min-speedup"));
    assert_true(folder_is_empty(out));

    snprintf(args, sizeof args, "check --candidate X --mnk 64,64,64 --vs torch --out %s", out);
    assert_int_equal(run_binary(args, dir), HB_ERR_USAGE);

    snprintf(args, sizeof args, "gate --candidate X --mnk 64,64,64 --min-speedup -2 --out %s", out);
    assert_int_equal(run_binary(args, dir), HB_ERR_USAGE);

    assert_int_equal(run_binary("frob", dir), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "frob"));
    assert_int_equal(run_binary("", dir), HB_ERR_USAGE);

    /* and the good paths of the same parser */
    assert_int_equal(run_binary("gate --help", dir), 0);
    char stdout_path[700];
    snprintf(stdout_path, sizeof stdout_path, "%s/stdout.txt", dir);
    assert_true(hb_test_file_contains(stdout_path, "--min-speedup"));
    hb_test_remove_tree(dir);
}

static const struct CMUnitTest cli_checks_tests[] = {
    cmocka_unit_test(test_cli_commands_set_mode),
    cmocka_unit_test(test_cli_check_and_gate_need_candidate_and_mnk),
    cmocka_unit_test(test_cli_battery_options_parse),
    cmocka_unit_test(test_cli_gate_options_only_for_gate),
    cmocka_unit_test(test_cli_bad_option_values),
    cmocka_unit_test(test_cli_reparse_starts_from_defaults),
    cmocka_unit_test(test_binary_usage_errors_exit_2),
};

hb_test_list hb_cli_checks_tests(void) { return HB_TEST_LIST(cli_checks_tests); }
