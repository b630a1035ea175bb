/* Tests of what the option rows (bench/driver/option_row.h) drive: each
 * command takes exactly its flags and refuses the others, each command's
 * --help lists exactly its flags, a child command line built from parsed
 * options reads back to the same options, and the sanitize pass's inner
 * `check` gets every flag the user gave that it takes. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/driver/commands.h"
#include "bench/driver/config_eval.h"
#include "bench/driver/option_doc.h"
#include "bench/driver/options.h"
#include "bench/driver/sanitize_pass.h"
#include "tests/cli_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* A value other than the default for every flag of the table (NULL: a
 * switch).  A flag missing here fails test_every_flag_has_a_sample: a new
 * flag must join the round-trip tests below. */
static const struct {
    const char *flag, *value;
} samples[] = {
    {"candidate", "cands/set"},  {"mnk", "64,96,128"},     {"seed", "99"},           {"out", "o"},
    {"device", "3"},             {"no-progress", NULL},    {"verdict", "v.json"},    {"json", NULL},           {"exact-reps", "5"},
    {"exact-time-s", "2.5"},     {"spot-checks", "2"},     {"cross-check-rounds", "10"},     {"sanitize", "racecheck,synccheck"}, {"timeout-s", "7.25"},
    {"no-isolate", NULL},        {"acc", "fp16"},          {"workspace", "1MiB"},    {"autotune-cache", "/tmp/c.tsv"},
    {"retune", NULL},            {"no-autotune-search", NULL}, {"warmup-s", "0.1"}, {"time-s", "1e3"},
    {"mode", "server"},          {"qps", "250"},           {"mean-gap-ms", "0.3"},   {"gap", "per-round"},
    {"l2", "warm"}, {"deviation-reps", "3"}, {"deviation-rule", "paper"},              {"target-ci", "1.5"},     {"min-time-s", "0.7"},    {"aa", "cublas-tn"},
    {"raw", NULL},               {"vs", "cublaslt-autotune-max"}, {"min-speedup", "-0.25"},
    {"peak-tflops", "850.5"},    {"grid", "paper"},        {"mnk-file", "plan.txt"}, {"m", "64,128"},
    {"n", "64"},                 {"k", "256"},             {"sample", "20"},         {"modes", "offline,server"},
    {"devices", "all"},          {"shard", "1/4"},         {"resume", "results/sweep"}, {"dry-run", NULL},
    {"format", "csv"},        {"timer", "wall"},        {"plots", NULL},  {"published", "p.csv"},
    {"noise", "2.5"},            {"threshold", "5"},
    {"reward", "0.1,0.001"},     {"reward-clip", "0.5,4"}, {"source", "kernel.cu"},
    {"no-trace", NULL},          {"sandbox", "off"},       {"form", "launcher"},     {"trace-calls", "3"},     {"profile", NULL},     {"stream", "own"},
    {"strict", NULL},            {"forbid", "alloc,sync"}, {"decide", NULL},        {"decide-alpha", "0.01"},
    {"kernels", "k/h100_F32F16F16F32"}, {"cutlass", "cutlass"}, {"arch", "sm_90a"},     {"jobs", "4"},          {"order", "given"},
    {"cache", "cache"},          {"rebuild", NULL},        {"allow-arch-mismatch", NULL}, {"build-timeout", "60"},
    {"nvcc", "/usr/local/cuda-12.8/bin/nvcc"},
    {"report", "r.csv"},         {"repo", "CUDA-L2"},         {"set", "h100"},          {"tables-only", NULL},    {"no-plots", NULL},
    {"forms", "replay,launcher"}, {"detach", NULL},       {"status", "repro-h100"},
    {"verbose", NULL},
    {"baseline-reference", "/tmp/r.json"}, {"reference-warmup-s", "0.5"}, {"reference-time-s", "2"},
    {"baseline-tolerance", "3%+0.25us,kernel=2%+0.1us"},
};
#define SAMPLE_COUNT (sizeof samples / sizeof samples[0])

static const char *sample_of(const char *flag, int *found)
{
    for (size_t i = 0; i < SAMPLE_COUNT; i++)
        if (!strcmp(samples[i].flag, flag)) {
            *found = 1;
            return samples[i].value;
        }
    *found = 0;
    return NULL;
}

/* 1 if no earlier row of the table has row i's flag (a flag with a row per
 * meaning, such as --out, is one flag). */
static int first_row_of_flag(size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (!strcmp(hb_option_flag(j), hb_option_flag(i)))
            return 0;
    return 1;
}

static void test_every_flag_has_a_sample(void **state)
{
    (void)state;
    size_t flags = 0;
    for (size_t i = 0; i < hb_option_count(); i++) {
        int found;
        sample_of(hb_option_flag(i), &found);
        if (!found)
            fail_msg("--%s has no sample value in tests/test_options.c", hb_option_flag(i));
        flags += first_row_of_flag(i);
    }
    assert_int_equal(SAMPLE_COUNT, flags);
}

/* Each flag on a command that does not take it: exit 2 (usage), for every
 * command that evaluates configurations. */
static void test_each_command_refuses_flags_it_does_not_take(void **state)
{
    (void)state;
    const hb_command commands[] = {HB_CMD_RUN, HB_CMD_CHECK, HB_CMD_GATE};
    size_t refused = 0;
    for (size_t c = 0; c < 3; c++) {
        const char *name = hb_command_of(commands[c])->name;
        for (size_t i = 0; i < hb_option_count(); i++) {
            if (!first_row_of_flag(i) || hb_option_flag_applies(hb_option_flag(i), commands[c]))
                continue;
            int found;
            const char *value = sample_of(hb_option_flag(i), &found);
            char flag[64];
            snprintf(flag, sizeof flag, "--%s", hb_option_flag(i));
            if (value)
                expect_usage(WORDS("hgemm-bench", name, "--candidate", "c", "--mnk", "8,8,8", flag, value));
            else
                expect_usage(WORDS("hgemm-bench", name, "--candidate", "c", "--mnk", "8,8,8", flag));
            refused++;
        }
    }
    /* check refuses the timing flags (15, --profile and --cross-check-rounds among them), the reward's (3), the baselines' clean reference's
     * (4) and the gate's (6), run the gate's (6); all
     * three refuse report's and compare's own (--format, --timer, --plots, --published: 12) and the
     * sweep's eleven (33). */
    /* and import's eleven own flags (--out has a row of theirs), compare's --noise and --threshold, and
     * reproduce's seven (--repo, --set, --tables-only, --no-plots, --forms, --detach, --status) */
    assert_int_equal(refused, 46 + 3 * 11 + 3 * 11 + 3 * 2 + 3 * 7);
    /* The case the issue reported: accepted silently before. */
    expect_usage(WORDS("hgemm-bench", "check", "--candidate", "c", "--mnk", "8,8,8", "--mode", "server"));
    expect_usage(WORDS("hgemm-bench", "check", "--candidate", "c", "--mnk", "8,8,8", "--raw"));
    expect_usage(WORDS("hgemm-bench", "check", "--candidate", "c", "--mnk", "8,8,8", "--target-ci", "1"));
    /* baselines takes no flag at all */
    expect_usage(WORDS("hgemm-bench", "baselines", "--mnk", "8,8,8"));
    /* report and compare take none of run's */
    expect_usage(WORDS("hgemm-bench", "report", "d", "--mnk", "8,8,8"));
    expect_usage(WORDS("hgemm-bench", "compare", "d", "--published", "p.csv", "--seed", "1"));
    expect_usage(WORDS("hgemm-bench", "report", "d", "--published", "p.csv"));
    expect_usage(WORDS("hgemm-bench", "report", "d", "--mode", "server"));
}

static char *command_help(hb_command command)
{
    hb_test_capture capture;
    FILE *stream = hb_test_capture_open(&capture);
    hb_print_command_help(stream, command);
    char *text = hb_test_capture_close(&capture);
    return text;
}

/* A flag's entry in a help text: "  --flag" followed by a blank or the end of a line. */
static int lists_flag(const char *text, const char *flag)
{
    size_t length = strlen(flag);
    for (size_t at = 0; text[at]; at++)
        if (!strncmp(text + at, "  --", 4) && !strncmp(text + at + 4, flag, length) &&
            (text[at + 4 + length] == ' ' || text[at + 4 + length] == '\n'))
            return 1;
    return 0;
}

static void test_each_help_lists_exactly_its_flags(void **state)
{
    (void)state;
    const hb_command commands[] = {HB_CMD_RUN, HB_CMD_CHECK, HB_CMD_GATE, HB_CMD_BASELINES, HB_CMD_REPORT,
                                   HB_CMD_COMPARE};
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        char *text = command_help(commands[c]);
        assert_non_null(strstr(text, hb_command_of(commands[c])->name));
        for (size_t i = 0; i < hb_option_count(); i++) {
            int takes = hb_option_flag_applies(hb_option_flag(i), commands[c]);
            if (lists_flag(text, hb_option_flag(i)) != takes)
                fail_msg("%s --help %s --%s", hb_command_of(commands[c])->name, takes ? "omits" : "lists",
                         hb_option_flag(i));
        }
        free(text);
    }
    char *run = command_help(HB_CMD_RUN), *check = command_help(HB_CMD_CHECK);
    assert_string_not_equal(run, check); /* no longer one help for all */
    assert_non_null(strstr(run, "(default 30)")); /* --time-s: the default comes from the table */
    free(run);
    free(check);
}

/* Parses `hgemm-bench COMMAND` + the words of `argv` from index `from`. */
static hb_status parse_child(const hb_argv *argv, size_t from, const char *command, hb_cli *cli)
{
    char *words[HB_ARGV_MAX + 3];
    int argc = 0;
    words[argc++] = "hgemm-bench";
    words[argc++] = (char *)command;
    for (size_t i = from; i < argv->count; i++)
        words[argc++] = argv->word[i];
    words[argc] = NULL;
    quiet_stderr();
    hb_status status = hb_cli_parse(argc, words, cli);
    restore_stderr();
    return status;
}

/* Every flag `command` takes, but those in `except`, has the same value in a and b. */
static size_t assert_same_flags(const hb_run_options *a, const hb_run_options *b, hb_command command,
                                const char *const *except)
{
    size_t compared = 0;
    for (size_t i = 0; i < hb_option_count(); i++) {
        int skipped = 0;
        for (const char *const *e = except; e && *e; e++)
            skipped |= !strcmp(*e, hb_option_flag(i));
        if (skipped || !hb_option_applies(i, command))
            continue;
        char va[4200] = "", vb[4200] = "";
        int ha = hb_option_value_text(i, a, va, sizeof va), hbv = hb_option_value_text(i, b, vb, sizeof vb);
        if (ha != hbv || strcmp(va, vb))
            fail_msg("--%s: '%s' became '%s'", hb_option_flag(i), ha ? va : "(unset)", hbv ? vb : "(unset)");
        compared += ha;
    }
    return compared;
}

/* run's options, written out as a command line and read back: the same. */
static void test_options_round_trip_through_a_command_line(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *parent = new_cli(), *child = new_cli();
    /* every flag run takes, at its sample value; --qps and --mean-gap-ms, --aa and --candidate, --retune and
     * --no-autotune-search exclude each other, so the second of each pair sits this one out */
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "run", "--candidate", "cands/set", "--mnk", "64,96,128",
                                       "--seed", "99", "--out", "o", "--device", "3", "--no-progress", "--verdict",
                                       "v.json", "--exact-reps", "5", "--exact-time-s", "2.5", "--spot-checks", "2",
                                       "--cross-check-rounds", "0",
                                       "--sanitize", "racecheck,synccheck", "--timeout-s", "7.25", "--no-isolate",
                                       "--sandbox", "off", "--form", "launcher",
                                       "--acc", "fp16",
                                       "--workspace", "1MiB", "--autotune-cache", "/tmp/c.tsv", "--retune",
                                       "--warmup-s", "0.1", "--time-s", "1e3", "--mode", "server", "--qps", "250",
                                       "--gap", "per-round", "--l2", "warm", "--target-ci", "1.5", "--min-time-s",
                                       "0.7", "--raw", "--peak-tflops", "850.5", "--reward", "0.125,1e-3",
                                       "--reward-clip", "0.5,4", "--source", "kernel.cu"),
                                 parent),
                     HB_OK);
    hb_argv argv = {0};
    assert_int_equal(hb_argv_add_options(&argv, &parent->run, HB_CMD_RUN, NULL), HB_OK);
    hb_argv_add(&argv, "--mnk");
    hb_argv_add(&argv, "64,96,128");
    assert_int_equal(parse_child(&argv, 0, "run", child), HB_OK);
    size_t compared = assert_same_flags(&parent->run, &child->run, HB_CMD_RUN, NULL);
    assert_true(compared >= 27);
    assert_true(child->run.reward.on && child->run.reward.clip && child->run.reward.beta == 1e-3);
    assert_true(child->run.mean_gap_ms == 4.0); /* --qps 250 went as --mean-gap-ms 4 */
    assert_true(child->run.target_ci == parent->run.target_ci);
    /* 0 is a value, not "unset": a child left without it would cross-check at the default 3 % */
    assert_true(parent->run.cross_check_rounds == 0 && child->run.cross_check_rounds == 0);
    assert_int_equal(child->run.sandbox, 0); /* --sandbox off reaches the child */
    assert_int_equal(child->run.form, HB_FORM_CHOICE_LAUNCHER); /* and --form launcher: it would time the replay */
    assert_int_equal(child->run.sanitize_tools, parent->run.sanitize_tools); /* --sanitize's list, as a sweep's plan keeps it */
    assert_int_equal(child->run.sanitize_tools, 6u);

    /* Options at their defaults add no flag at all. */
    hb_argv none = {0};
    assert_int_equal(parse_words(&a, WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8"), parent), HB_OK);
    const char *const except[] = {"candidate", NULL};
    assert_int_equal(hb_argv_add_options(&none, &parent->run, HB_CMD_GATE, except), HB_OK);
    assert_int_equal(none.count, 0);
    free(parent);
    free(child);
}

/* The memcheck pass's inner `check`: the user's --device and every other
 * flag check takes arrive; the pass's own settings replace the rest. */
static void test_sanitize_pass_carries_every_flag(void **state)
{
    (void)state;
    test_argv a;
    hb_cli *outer = new_cli(), *inner = new_cli();
    assert_int_equal(parse_words(&a,
                                 WORDS("hgemm-bench", "gate", "--candidate", "cands/set", "--mnk", "64,64,64",
                                       "--mnk", "128,256,512", "--device", "3", "--acc", "fp16", "--workspace",
                                       "1MiB", "--exact-time-s", "2.5", "--timeout-s", "7", "--seed", "99", "--out",
                                       "o", "--sanitize", "--verdict", "v.json", "--autotune-cache", "/tmp/c.tsv",
                                       "--exact-reps", "5", "--spot-checks", "2", "--mode", "server", "--vs",
                                       "cublas-max", "--json"),
                                 outer),
                     HB_OK);
    hb_argv argv = {0};
    assert_int_equal(hb_sanitize_command(&outer->run, "/opt/cs", "/x/hgemm-bench", 1, "o/r/memcheck", "o/r/m.log",
                                         &argv),
                     HB_OK);
    const char *const tool[] = {"/opt/cs", "--tool", "memcheck", "--report-api-errors", "no", "--error-exitcode", "86",
                                "--print-limit", "1000", "--log-file", "o/r/m.log", "/x/hgemm-bench", "check"};
    for (size_t i = 0; i < sizeof tool / sizeof tool[0]; i++)
        assert_string_equal(argv.word[i], tool[i]);
    assert_null(argv.word[argv.count]);
    assert_int_equal(parse_child(&argv, sizeof tool / sizeof tool[0], "check", inner), HB_OK);
    assert_int_equal(inner->run.json_lines, 0); /* the outer run's lines alone reach the loop */

    /* --device was dropped before; it and every other flag check takes arrive */
    assert_int_equal(inner->run.device, 3);
    assert_int_equal(inner->run.acc, HB_ACC_FP16);
    assert_int_equal(inner->run.workspace_bytes, 1u << 20);
    assert_true(inner->run.exact_time_s == 2.5);
    assert_true(inner->run.timeout_s == 7.0);
    assert_string_equal(inner->run.candidate_path, "cands/set");
    assert_true(assert_same_flags(&outer->run, &inner->run, HB_CMD_CHECK, hb_sanitize_pass_flags) >= 5);
    /* the pass's own: this configuration and its seed, once, in-process, no search, no recursion */
    assert_int_equal(inner->run.n_configs, 1);
    assert_int_equal(inner->run.configs[0].m, 128);
    assert_int_equal(inner->run.configs[0].k, 512);
    assert_true(inner->run.seed == hb_config_seed(99, 1));
    assert_string_equal(inner->run.out_dir, "o/r/memcheck");
    assert_int_equal(inner->run.isolate, 0);
    assert_int_equal(inner->run.exact_reps, 1);
    assert_int_equal(inner->run.progress, 0);
    assert_int_equal(inner->run.autotune_search, 0);
    assert_string_equal(inner->run.autotune_cache, "/tmp/c.tsv");
    assert_int_equal(inner->run.sanitize, 0);
    assert_null(inner->run.verdict_path);
    free(outer);
    free(inner);
}

/* docs/cli.md's flag table has a row per flag of the option table, and its
 * "commands" cell names exactly the commands that take the flag. */
static void test_cli_doc_lists_each_flag_with_its_commands(void **state)
{
    (void)state;
    FILE *doc = fopen("docs/cli.md", "r");
    assert_non_null(doc);
    char line[2048];
    size_t rows = 0;
    while (fgets(line, sizeof line, doc)) {
        if (strncmp(line, "| `--", 5) != 0)
            continue;
        rows++;
        size_t flag_length = strcspn(line + 5, " `");
        const char *cell = strchr(line + 1, '|') + 1; /* the commands column */
        size_t cell_length = strcspn(cell, "|");
        /* the row of the table with this flag and exactly the commands the doc's row names */
        const hb_command commands[] = {HB_CMD_RUN, HB_CMD_CHECK, HB_CMD_GATE, HB_CMD_REPORT, HB_CMD_COMPARE};
        size_t matched = hb_option_count(), same_flag = 0;
        for (size_t i = 0; i < hb_option_count() && matched == hb_option_count(); i++) {
            if (strlen(hb_option_flag(i)) != flag_length || strncmp(hb_option_flag(i), line + 5, flag_length))
                continue;
            same_flag++;
            int agrees = 1;
            for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
                const char *name = hb_command_of(commands[c])->name;
                int documented = 0;
                for (const char *hit = cell; (hit = strstr(hit, name)) && hit < cell + cell_length; hit++)
                    documented |= (hit == cell || hit[-1] == ' ') &&
                                  (hit[strlen(name)] == ',' || hit[strlen(name)] == ' ');
                agrees &= documented == hb_option_applies(i, commands[c]);
            }
            if (agrees)
                matched = i;
        }
        if (!same_flag)
            fail_msg("docs/cli.md documents --%.*s, which the harness does not have", (int)flag_length, line + 5);
        if (matched == hb_option_count())
            fail_msg("docs/cli.md's row of --%.*s names commands no row of the option table gives it: %.*s",
                     (int)flag_length, line + 5, (int)cell_length, cell);
    }
    fclose(doc);
    assert_int_equal(rows, hb_option_count());
}

/* docs/cli.md's table is the one `hgemm-bench help --markdown` makes from
 * the rows, line for line, markers included. */
static void test_cli_doc_table_is_made_from_the_rows(void **state)
{
    (void)state;
    hb_test_capture capture;
    FILE *stream = hb_test_capture_open(&capture);
    hb_option_doc_print(stream);
    char *made = hb_test_capture_close(&capture);
    char *doc = hb_test_read_file("docs/cli.md");
    assert_non_null(doc);
    const char *begin = strstr(doc, HB_OPTION_DOC_BEGIN), *end = begin ? strstr(begin, HB_OPTION_DOC_END) : NULL;
    if (!begin || !end)
        fail_msg("docs/cli.md lacks the lines around its option table: %s ... %s", HB_OPTION_DOC_BEGIN,
                 HB_OPTION_DOC_END);
    size_t length = (size_t)(end - begin) + strlen(HB_OPTION_DOC_END) + 1;
    size_t line = 1, start = 0; /* the differing line's number, and where it starts */
    for (size_t at = 0; at < length; at++) {
        if (made[at] != begin[at])
            fail_msg("docs/cli.md's option table differs from `build/hgemm-bench help --markdown` at its line %zu:\n"
                     "  docs: %.*s\n  made: %.*s\nscripts/cli_doc_table.sh puts the made one in its place",
                     line, (int)strcspn(begin + start, "\n"), begin + start, (int)strcspn(made + start, "\n"),
                     made + start);
        if (begin[at] == '\n') {
            line++;
            start = at + 1;
        }
    }
    assert_int_equal(strlen(made), length);
    free(made);
    free(doc);
}

/* A command takes a flag by one row: its parser, its --help and its child
 * command lines then agree on what the flag is. */
static void test_each_command_takes_a_flag_by_one_row(void **state)
{
    (void)state;
    for (size_t c = 0; hb_command_at(c); c++) {
        const hb_option_group *const *groups = hb_command_at(c)->options;
        const hb_option_row *o;
        for (size_t i = 0; (o = hb_option_at(groups, i)); i++)
            if (hb_option_find(groups, o->flag) != o)
                fail_msg("%s takes --%s by two rows", hb_command_at(c)->name, o->flag);
    }
}

hb_test_list hb_option_table_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_flag_has_a_sample),
        cmocka_unit_test(test_each_command_refuses_flags_it_does_not_take),
        cmocka_unit_test(test_each_help_lists_exactly_its_flags),
        cmocka_unit_test(test_options_round_trip_through_a_command_line),
        cmocka_unit_test(test_sanitize_pass_carries_every_flag),
        cmocka_unit_test(test_cli_doc_lists_each_flag_with_its_commands),
        cmocka_unit_test(test_cli_doc_table_is_made_from_the_rows),
        cmocka_unit_test(test_each_command_takes_a_flag_by_one_row),
    };
    return HB_TEST_LIST(tests);
}
