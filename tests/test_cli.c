/* Tests of bench/driver/options.c: hb_cli_parse and hb_parse_mnk. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/driver/commands.h"
#include "bench/driver/options.h"
#include "tests/cli_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* --- helpers ---------------------------------------------------------------- */

/* A run command with one --mnk whose value is `mnk`. */
static void expect_mnk_usage(const char *mnk)
{
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c.json", "--mnk", mnk));
}

/* --- valid commands --------------------------------------------------------- */

static void test_cli_full_run(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "run", "--candidate", "cands/set1", "--mnk", "64,128,256",
                                       "--warmup-s", "2.5", "--mnk", "1024,1,7", "--time-s", "0.25", "--seed",
                                       "18446744073709551615", "--out", "/tmp/out dir", "--device", "3",
                                       "--no-progress", "--mnk=262144,262144,1"),
                                 cli),
                     HB_OK);
    assert_int_equal(cli->command, HB_CMD_RUN);
    const hb_run_options *run = &cli->run;
    assert_string_equal(run->candidate_path, "cands/set1");
    assert_int_equal(run->n_configs, 3);
    /* configurations keep their command-line order */
    const long expected[3][3] = {{64, 128, 256}, {1024, 1, 7}, {262144, 262144, 1}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(run->configs[i].m, expected[i][0]);
        assert_int_equal(run->configs[i].n, expected[i][1]);
        assert_int_equal(run->configs[i].k, expected[i][2]);
    }
    assert_true(run->warmup_s == 2.5);
    assert_true(run->time_s == 0.25);
    assert_int_equal(run->seed_given, 1);
    assert_true(run->seed == UINT64_MAX);
    assert_string_equal(run->out_dir, "/tmp/out dir");
    assert_int_equal(run->device, 3);
    assert_int_equal(run->progress, 0);
    free(cli);
}

static void test_cli_defaults(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "--mnk", "1,2,3", "--candidate", "m.json"), cli),
                     HB_OK);
    assert_int_equal(cli->command, HB_CMD_RUN);
    assert_string_equal(cli->run.candidate_path, "m.json");
    assert_int_equal(cli->run.n_configs, 1);
    assert_int_equal(cli->run.configs[0].m, 1);
    assert_int_equal(cli->run.configs[0].n, 2);
    assert_int_equal(cli->run.configs[0].k, 3);
    assert_true(cli->run.warmup_s == 10.0);
    assert_true(cli->run.time_s == 30.0);
    assert_string_equal(cli->run.out_dir, "results");
    assert_int_equal(cli->run.progress, 1);
    assert_int_equal(cli->run.seed_given, 0);
    assert_int_equal(cli->run.device, 0);
    free(cli);
}

static void test_cli_seed_zero_and_edges(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    /* seed 0 is a real seed: seed_given must still say it was given */
    assert_int_equal(
        parse_words(&a, WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--seed", "0"), cli),
        HB_OK);
    assert_int_equal(cli->run.seed_given, 1);
    assert_true(cli->run.seed == 0);
    /* seconds: 0 and 86400 are the ends of the accepted range, 1e3 is decimal notation */
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--warmup-s",
                                       "0", "--time-s", "86400"),
                                 cli),
                     HB_OK);
    assert_true(cli->run.warmup_s == 0.0);
    assert_true(cli->run.time_s == 86400.0);
    assert_int_equal(
        parse_words(&a, WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--time-s", "1e3"), cli),
        HB_OK);
    assert_true(cli->run.time_s == 1000.0);
    free(cli);
}

static void test_cli_help_and_version(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "--help"), cli), HB_OK);
    assert_int_equal(cli->command, HB_CMD_HELP);
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "-h"), cli), HB_OK);
    assert_int_equal(cli->command, HB_CMD_HELP);
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "--version"), cli), HB_OK);
    assert_int_equal(cli->command, HB_CMD_VERSION);
    /* run --help needs none of the required flags */
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "--help"), cli), HB_OK);
    assert_int_equal(cli->command, HB_CMD_HELP);
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "--mnk", "1,1,1", "--help"), cli), HB_OK);
    assert_int_equal(cli->command, HB_CMD_HELP);
    free(cli);
}

static char *help_text(hb_command command)
{
    hb_test_capture capture;
    FILE *stream = hb_test_capture_open(&capture);
    if (command == HB_CMD_NONE)
        hb_print_overview(stream);
    else
        hb_print_command_help(stream, command);
    char *text = hb_test_capture_close(&capture);
    return text;
}

static void test_cli_help_text(void **state)
{
    (void)state;
    /* every run flag is documented in run's help */
    char *text = help_text(HB_CMD_RUN);
    const char *flags[] = {"--candidate", "--mnk", "--warmup-s", "--time-s", "--seed", "--out", "--device",
                           "--no-progress", NULL};
    for (const char **f = flags; *f; f++)
        assert_non_null(strstr(text, *f));
    free(text);
    /* and the overview names every command and --version */
    text = help_text(HB_CMD_NONE);
    const char *words[] = {"run", "check", "gate", "baselines", "--version", "exit codes", NULL};
    for (const char **w = words; *w; w++)
        assert_non_null(strstr(text, *w));
    free(text);
}

/* --- usage errors ------------------------------------------------------------- */

static void test_cli_command_errors(void **state)
{
    (void)state;
    expect_usage(WORDS("hgemm-bench"));
    expect_usage(WORDS("hgemm-bench", "bench"));
    expect_usage(WORDS("hgemm-bench", "RUN", "--candidate", "c", "--mnk", "1,1,1"));
    expect_usage(WORDS("hgemm-bench", "--verbose"));
    /* argc 0 (argv[0] only NULL) must not crash */
    char *empty[] = {NULL};
    hb_cli *cli = new_cli();
    quiet_stderr();
    hb_status status = hb_cli_parse(0, empty, cli);
    restore_stderr();
    assert_int_equal(status, HB_ERR_USAGE);
    free(cli);
}

static void test_cli_run_errors(void **state)
{
    (void)state;
    /* unknown flag */
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--bogus"));
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--no-progress=1"));
    /* missing value (flag last) */
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk"));
    expect_usage(WORDS("hgemm-bench", "run", "--mnk", "1,1,1", "--candidate"));
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--seed"));
    /* missing required flags */
    expect_usage(WORDS("hgemm-bench", "run", "--mnk", "64,64,64"));
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c"));
    expect_usage(WORDS("hgemm-bench", "run"));
    /* stray positional argument, before or after the flags */
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "extra"));
    expect_usage(WORDS("hgemm-bench", "run", "extra", "--candidate", "c", "--mnk", "1,1,1"));
    /* --out must name something */
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--out", ""));
}

static void test_cli_mnk_malformed(void **state)
{
    (void)state;
    const char *bad[] = {
        "64,64",          /* two numbers */
        "64,64,64,64",    /* four numbers */
        "0,1,1",          /* zero */
        "1,1,0",          /* zero, last */
        "-1,2,3",         /* negative */
        "1e3,2,3",        /* not an integer in decimal */
        "64,,64",         /* empty field */
        ",64,64",         /* empty field first */
        "64,64,",         /* empty field last */
        "",               /* nothing */
        "a,b,c",          /* not numbers */
        "64,64,64x",      /* trailing garbage */
        "64 ,64,64",      /* trailing blank inside a field */
        "1.5,2,3",        /* fraction */
        "262145,1,1",     /* over HB_MAX_DIM */
        "1,1,262145",     /* over HB_MAX_DIM, last */
        "99999999999999999999,1,1", /* overflows long */
        NULL};
    for (const char **text = bad; *text; text++) {
        hb_mnk mnk;
        quiet_stderr();
        hb_status status = hb_parse_mnk(*text, &mnk);
        restore_stderr();
        if (status != HB_ERR_USAGE)
            fprintf(stderr, "--mnk '%s' was accepted\n", *text);
        assert_int_equal(status, HB_ERR_USAGE);
        expect_mnk_usage(*text); /* and the same through hb_cli_parse */
    }
    /* an over-long value is rejected, not truncated */
    char long_text[200];
    memset(long_text, '1', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    expect_mnk_usage(long_text);
}

static void test_cli_mnk_accepted_forms(void **state)
{
    (void)state;
    hb_mnk mnk;
    assert_int_equal(hb_parse_mnk("262144,1,262144", &mnk), HB_OK);
    assert_int_equal(mnk.m, HB_MAX_DIM);
    assert_int_equal(mnk.n, 1);
    assert_int_equal(mnk.k, HB_MAX_DIM);
    /* leading zeros are decimal, not octal */
    assert_int_equal(hb_parse_mnk("010,08,0009", &mnk), HB_OK);
    assert_int_equal(mnk.m, 10);
    assert_int_equal(mnk.n, 8);
    assert_int_equal(mnk.k, 9);
    /* strtol skips leading white space and takes a '+' sign, and hb_parse_mnk
     * inherits that: " 64" and "+64" are read as 64.  Trailing blanks are
     * rejected (see test_cli_mnk_malformed).  Accepting a leading blank is
     * harmless (the value is unambiguous), so this documents it rather than
     * calling it a bug. */
    assert_int_equal(hb_parse_mnk(" 64,64,64", &mnk), HB_OK);
    assert_int_equal(mnk.m, 64);
    assert_int_equal(hb_parse_mnk("+64,64,+1", &mnk), HB_OK);
    assert_int_equal(mnk.m, 64);
    assert_int_equal(mnk.k, 1);
}

static void test_cli_seconds_errors(void **state)
{
    (void)state;
    const char *bad[] = {"-1", "-0.001", "nan", "NaN", "inf", "-inf", "infinity", "abc", "", "10s", "1,5",
                         "86400.5", "1e9", NULL};
    for (const char **text = bad; *text; text++) {
        expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--time-s", *text));
        expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--warmup-s", *text));
    }
}

static void test_cli_seed_and_device_errors(void **state)
{
    (void)state;
    const char *bad_seed[] = {"-1", "abc", "", "12x", "1.0", "18446744073709551616", NULL};
    for (const char **text = bad_seed; *text; text++)
        expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--seed", *text));
    const char *bad_device[] = {"x", "-1", "", "1.5", "0x1", "1025", NULL};
    for (const char **text = bad_device; *text; text++)
        expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--device", *text));
}

/* strtoull skips leading blanks and then negates a '-': " -1" must not
 * become seed 18446744073709551615 any more than "-1" does. */
static void test_cli_seed_blank_then_minus(void **state)
{
    (void)state;
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--seed", " -1"));
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--seed", "\t-5"));
}

static void test_cli_too_many_configs(void **state)
{
    (void)state;
    static char prog[] = "hgemm-bench", run[] = "run", cand_flag[] = "--candidate", cand[] = "c",
                mnk_flag[] = "--mnk", mnk[] = "2,3,4";
    for (int extra = 0; extra <= 1; extra++) {
        int n = HB_MAX_CONFIGS + extra;
        int argc = 4 + 2 * n;
        char **argv = calloc((size_t)argc + 1, sizeof *argv);
        assert_non_null(argv);
        argv[0] = prog;
        argv[1] = run;
        argv[2] = cand_flag;
        argv[3] = cand;
        for (int i = 0; i < n; i++) {
            argv[4 + 2 * i] = mnk_flag;
            argv[5 + 2 * i] = mnk;
        }
        hb_cli *cli = new_cli();
        quiet_stderr();
        hb_status status = hb_cli_parse(argc, argv, cli);
        restore_stderr();
        if (extra == 0) {
            assert_int_equal(status, HB_OK);
            assert_int_equal(cli->run.n_configs, HB_MAX_CONFIGS);
            assert_int_equal(cli->run.configs[HB_MAX_CONFIGS - 1].k, 4);
        } else {
            assert_int_equal(status, HB_ERR_USAGE);
        }
        free(cli);
        free(argv);
    }
}

/* --- repeated parses in one process ------------------------------------------ */

static void test_cli_repeated_parses_independent(void **state)
{
    (void)state;
    test_argv a, b;
    hb_cli *first = new_cli(), *second = new_cli();
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "run", "--candidate", "first", "--mnk", "8,8,8", "--mnk",
                                       "16,16,16", "--seed", "77", "--no-progress", "--device", "2", "--out", "o1",
                                       "--time-s", "5"),
                                 first),
                     HB_OK);
    assert_int_equal(parse_words(&b, WORDS("hgemm-bench", "run", "--mnk", "32,48,64", "--candidate", "second"), second),
                     HB_OK);
    /* the second parse sees none of the first one's options */
    assert_string_equal(second->run.candidate_path, "second");
    assert_int_equal(second->run.n_configs, 1);
    assert_int_equal(second->run.configs[0].m, 32);
    assert_int_equal(second->run.configs[0].n, 48);
    assert_int_equal(second->run.configs[0].k, 64);
    assert_int_equal(second->run.seed_given, 0);
    assert_int_equal(second->run.progress, 1);
    assert_int_equal(second->run.device, 0);
    assert_string_equal(second->run.out_dir, "results");
    assert_true(second->run.time_s == 30.0);
    /* and the first result is intact */
    assert_string_equal(first->run.candidate_path, "first");
    assert_int_equal(first->run.n_configs, 2);
    assert_int_equal(first->run.configs[1].m, 16);
    assert_true(first->run.seed == 77);
    assert_int_equal(first->run.progress, 0);
    assert_int_equal(first->run.device, 2);
    /* an error parse in between does not poison the next one */
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--bogus", "--mnk", "1,1,1"));
    expect_usage(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk"));
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "--candidate", "third", "--mnk", "4,5,6"), first),
                     HB_OK);
    assert_string_equal(first->run.candidate_path, "third");
    assert_int_equal(first->run.n_configs, 1);
    assert_int_equal(first->run.configs[0].k, 6);
    free(first);
    free(second);
}

/* A short-option cluster such as "-xy" makes getopt stop inside an argument
 * (its internal "next char" points at "y").  The next hb_cli_parse must not
 * resume from there. */
static void test_cli_repeated_parse_after_short_cluster(void **state)
{
    (void)state;
    test_argv a, b;
    hb_cli *cli = new_cli();
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "run", "-xy", "--candidate", "c", "--mnk", "1,1,1"), cli),
                     HB_ERR_USAGE);
    assert_int_equal(parse_words(&b, WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,2,3"), cli), HB_OK);
    assert_int_equal(cli->command, HB_CMD_RUN);
    assert_int_equal(cli->run.configs[0].n, 2);
    free(cli);
}

static const struct CMUnitTest cli_tests[] = {
    cmocka_unit_test(test_cli_full_run),
    cmocka_unit_test(test_cli_defaults),
    cmocka_unit_test(test_cli_seed_zero_and_edges),
    cmocka_unit_test(test_cli_help_and_version),
    cmocka_unit_test(test_cli_help_text),
    cmocka_unit_test(test_cli_command_errors),
    cmocka_unit_test(test_cli_run_errors),
    cmocka_unit_test(test_cli_mnk_malformed),
    cmocka_unit_test(test_cli_mnk_accepted_forms),
    cmocka_unit_test(test_cli_seconds_errors),
    cmocka_unit_test(test_cli_seed_and_device_errors),
    cmocka_unit_test(test_cli_seed_blank_then_minus),
    cmocka_unit_test(test_cli_too_many_configs),
    cmocka_unit_test(test_cli_repeated_parses_independent),
    cmocka_unit_test(test_cli_repeated_parse_after_short_cluster),
};

hb_test_list hb_cli_tests(void) { return HB_TEST_LIST(cli_tests); }
