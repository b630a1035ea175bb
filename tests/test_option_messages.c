/* What the command line says back: a unique prefix of a flag taken, an
 * ambiguous one refused naming the flags it begins, a typo answered with
 * the nearest flag (git's edit distance), garbage with none; the help texts
 * that state a default or a meaning (sweep's and import's --seed, sweep's
 * --out, compare's usage line); a usage error sending the user to the
 * command's own --help; and --verbose: the source line of an error, and the
 * flag passed on to the command lines of the processes a command starts. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/edit_distance.h"
#include "bench/driver/commands.h"
#include "bench/driver/options.h"
#include "bench/driver/sanitize_pass.h"
#include "tests/cli_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* Parses `words`; the status, and the error's message in hb_last_error(). */
static hb_status parse(const char *const *words, hb_cli *cli)
{
    test_argv a;
    hb_status status = parse_words(&a, words, cli);
    return status;
}

static void expect_message(const char *const *words, const char *message)
{
    hb_cli *cli = new_cli();
    assert_int_equal(parse(words, cli), HB_ERR_USAGE);
    if (strcmp(hb_last_error(), message))
        fail_msg("expected \"%s\", got \"%s\"", message, hb_last_error());
    free(cli);
}

/* --- prefixes, ambiguity, typos -------------------------------------------------- */

static void test_option_edit_distance_is_gits(void **state)
{
    (void)state;
    const hb_edit_costs git = {.swap = 0, .substitute = 2, .insert = 1, .remove = 3};
    assert_int_equal(hb_edit_distance("warmup-s", "warmup-s", &git), 0);
    assert_int_equal(hb_edit_distance("warmpu-s", "warmup-s", &git), 0); /* a swap is free */
    assert_int_equal(hb_edit_distance("timout-s", "timeout-s", &git), 1); /* a letter left out */
    assert_int_equal(hb_edit_distance("timeeout-s", "timeout-s", &git), 3); /* one too many */
    assert_int_equal(hb_edit_distance("seex", "seed", &git), 2);           /* one for another */
    assert_int_equal(hb_edit_distance("", "raw", &git), 3);
    assert_int_equal(hb_edit_distance("raw", "", &git), 9);
    char longer[HB_EDIT_WORD_MAX + 2];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    assert_int_equal(hb_edit_distance(longer, "raw", &git), HB_EDIT_FAR);
}

static void test_option_unique_prefix_is_taken(void **state)
{
    (void)state;
    hb_cli *cli = new_cli();
    assert_int_equal(parse(WORDS("hgemm-bench", "run", "--cand", "c", "--mnk", "1,2,3", "--warm", "2.5", "--time-s=4",
                                 "--no-prog", "--sani", "racecheck"),
                           cli),
                     HB_OK);
    assert_string_equal(cli->run.candidate_path, "c");
    assert_true(cli->run.warmup_s == 2.5);
    assert_true(cli->run.time_s == 4.0); /* an exact flag that begins another (--time-s, --timeout-s) is itself */
    assert_int_equal(cli->run.progress, 0);
    assert_int_equal(cli->run.sanitize_tools, 2u); /* the optional value after a prefix too */
    assert_int_equal(parse(WORDS("hgemm-bench", "report", "d", "--forma=csv", "--tim", "kernel"), cli), HB_OK);
    assert_string_equal(cli->run.report.format, "csv");
    assert_string_equal(cli->run.report.timer, "kernel");
    assert_int_equal(parse(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "1,1,1", "--he"), cli), HB_OK);
    assert_int_equal(cli->command, HB_CMD_HELP); /* --help is a flag like the others */
    assert_int_equal(cli->help_for, HB_CMD_GATE);
    free(cli);
}

static void test_option_ambiguous_prefix_names_the_flags(void **state)
{
    (void)state;
    expect_message(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--time", "3"),
                   "ambiguous option --time: --time-s or --timeout-s?");
    expect_message(WORDS("hgemm-bench", "sweep", "--candidate", "c", "--mnk", "1,1,1", "--dev", "0"),
                   "ambiguous option --dev: --deviation-reps, --deviation-rule, --device or --devices?");
    /* the flags are the command's own: of report's, --timer alone begins "tim" */
    hb_cli *cli = new_cli();
    assert_int_equal(parse(WORDS("hgemm-bench", "report", "d", "--tim", "wall"), cli), HB_OK);
    assert_string_equal(cli->run.report.timer, "wall");
    free(cli);
}

static void test_option_typo_names_the_nearest_flag(void **state)
{
    (void)state;
    expect_message(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--warmpu-s", "3"),
                   "unknown option '--warmpu-s'; did you mean --warmup-s?");
    expect_message(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "1,1,1", "--min-sped", "0.1"),
                   "unknown option '--min-sped'; did you mean --min-speedup?");
    expect_message(WORDS("hgemm-bench", "report", "d", "--fromat", "csv"),
                   "unknown option '--fromat'; did you mean --format?");
    /* a flag of other commands is named as such, not as a typo */
    expect_message(WORDS("hgemm-bench", "check", "--candidate", "c", "--mnk", "1,1,1", "--mode", "server"),
                   "--mode does not apply to 'check' (it applies to run, gate, sweep, compare)");
}

static void test_option_garbage_gets_no_suggestion(void **state)
{
    (void)state;
    expect_message(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--zqxjvbnmwp"),
                   "unknown option '--zqxjvbnmwp'");
    expect_message(WORDS("hgemm-bench", "report", "d", "--completely-unrelated-words"),
                   "unknown option '--completely-unrelated-words'");
    expect_message(WORDS("hgemm-bench", "run", "--candidate", "c", "--mnk", "1,1,1", "--raw=1"),
                   "--raw takes no value (got '--raw=1')");
}

/* --- help texts ------------------------------------------------------------------- */

static char *command_help(hb_command command)
{
    hb_test_capture capture;
    FILE *stream = hb_test_capture_open(&capture);
    hb_print_command_help(stream, command);
    return hb_test_capture_close(&capture);
}

/* A flag's entry in a help text, its wrapped lines joined by single blanks (free it). */
static char *help_entry(const char *text, const char *flag)
{
    char start[64];
    snprintf(start, sizeof start, "\n  %s ", flag);
    const char *at = strstr(text, start);
    if (!at)
        fail_msg("no entry for %s in:\n%s", flag, text);
    char *entry = calloc(1, strlen(at) + 1);
    assert_non_null(entry);
    for (const char *line = at + 1; *line;) {
        size_t length = strcspn(line, "\n");
        if (line != at + 1 && strncmp(line, "                      ", 22)) /* not a continuation line */
            break;
        strncat(entry, line, length);
        strcat(entry, " ");
        line += length + (line[length] == '\n');
    }
    for (char *p = entry, *q = entry; (*q = *p); q += !(p[0] == ' ' && p[1] == ' '), p++)
        ;
    return entry;
}

static void assert_entry(hb_command command, const char *flag, const char *has, const char *lacks)
{
    char *text = command_help(command), *entry = help_entry(text, flag);
    if (!strstr(entry, has) || (lacks && strstr(entry, lacks)))
        fail_msg("%s --help, %s: \"%s\" (should say \"%s\"%s%s)", hb_command_of(command)->name, flag, entry, has,
                 lacks ? ", not " : "", lacks ? lacks : "");
    free(entry);
    free(text);
}

static void test_option_help_states_the_real_defaults(void **state)
{
    (void)state;
    assert_entry(HB_CMD_SWEEP, "--seed", "(default 20251201", "clock");
    assert_entry(HB_CMD_RUN, "--seed", "(default from the clock", NULL);
    assert_entry(HB_CMD_SWEEP, "--out", "(default results/sweep-<sweep-id>", "(default results)");
    assert_entry(HB_CMD_RUN, "--out", "(default results)", NULL);
    assert_entry(HB_CMD_IMPORT, "--seed", "--sample's draw", "round order");
    assert_entry(HB_CMD_IMPORT, "--seed", "(default 0)", "inputs");
    assert_entry(HB_CMD_REPRODUCE, "--seed", "(default 20251201", "clock");
    assert_entry(HB_CMD_REPORT, "--verbose", "source line", NULL);
    assert_non_null(strstr(hb_command_of(HB_CMD_COMPARE)->usage, "[--timer event|wall|kernel]"));
    char *text = command_help(HB_CMD_COMPARE);
    assert_non_null(strstr(text, "usage: hgemm-bench compare DIR... --published FILE.csv"));
    assert_non_null(strstr(text, "--timer event|wall|kernel"));
    free(text);
}

/* The sweep's help says 20251201 and a sweep plans with it: the plan's
 * recorded options, printed by --dry-run, hold the seed it drew with. */
static void test_option_sweep_seed_default_is_the_one_used(void **state)
{
    (void)state;
    char dir[512], out[700];
    hb_test_make_temp_dir("hb-option-seed", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/plan.txt", dir);
    assert_int_equal(hb_test_run(hb_test_bench(),
                                 WORDS("sweep", "--candidate", "c", "--grid", "paper", "--sample", "5", "--dry-run"),
                                 out, NULL),
                     0);
    assert_true(hb_test_file_contains(out, "--seed 20251201"));
    hb_test_remove_tree(dir);
}

/* A value too long for a child's command line is refused, not cut: the
 * sweep would have recorded (and its children used) another path. */
static void test_option_value_too_long_for_a_child_is_refused(void **state)
{
    (void)state;
    char dir[512], out[700], err[700];
    hb_test_make_temp_dir("hb-option-long", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/plan.txt", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    static char path[4400];
    memset(path, 'a', sizeof path - 1);
    path[0] = '/';
    path[sizeof path - 1] = '\0';
    assert_int_equal(hb_test_run(hb_test_bench(), WORDS("sweep", "--candidate", path, "--mnk", "64,64,64", "--dry-run"),
                                 out, err),
                     HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "the value of --candidate is longer than"));
    hb_test_remove_tree(dir);
}

/* A usage error ends with the command's own --help, not the overview's. */
static void test_option_usage_error_points_to_the_commands_help(void **state)
{
    (void)state;
    char dir[512], err[700];
    hb_test_make_temp_dir("hb-option-try", dir, sizeof dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    assert_int_equal(hb_test_run(hb_test_bench(), WORDS("sweep", "--candidate", "c", "--grdi", "paper"), NULL, err),
                     HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "did you mean --grid?"));
    assert_true(hb_test_file_contains(err, "Try 'hgemm-bench sweep --help'."));
    assert_int_equal(hb_test_run(hb_test_bench(), WORDS("gate", "--candidate", "c", "--mnk", "1,1,1", "--vs", "nope"),
                                 NULL, err),
                     HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "Try 'hgemm-bench gate --help'."));
    assert_int_equal(hb_test_run(hb_test_report(), WORDS("compare", "d"), NULL, err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "Try 'hgemm-report compare --help'."));
    /* no command, or an unknown one: the overview */
    assert_int_equal(hb_test_run(hb_test_bench(), WORDS("frob"), NULL, err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "Try 'hgemm-bench --help'."));
    hb_test_remove_tree(dir);
}

/* --- --verbose ------------------------------------------------------------------------ */

static void test_option_verbose_shows_the_source_line(void **state)
{
    (void)state;
    char dir[512], err[700];
    hb_test_make_temp_dir("hb-option-verbose", dir, sizeof dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    const char *const *plain = WORDS("run", "--candidate", "c", "--mnk", "1,1,1", "--time-s", "soon");
    assert_int_equal(hb_test_run(hb_test_bench(), plain, NULL, err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "--time-s expects seconds"));
    assert_false(hb_test_file_contains(err, "[bench/"));
    /* after the bad flag or before it: --verbose is read first */
    const char *const *after = WORDS("run", "--candidate", "c", "--mnk", "1,1,1", "--time-s", "soon", "--verbose");
    assert_int_equal(hb_test_run(hb_test_bench(), after, NULL, err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "--time-s expects seconds"));
    assert_true(hb_test_file_contains(err, "[bench/"));
    const char *const *before = WORDS("report", "--verbose", "d", "--plots");
    assert_int_equal(hb_test_run(hb_test_report(), before, NULL, err), HB_ERR_USAGE);
    assert_true(hb_test_file_contains(err, "[bench/"));
    hb_test_remove_tree(dir);
}

/* Every command takes it; a child's command line carries it (the sanitize
 * pass's inner check); a sweep's recorded settings do not (a shard or a
 * resume may be verbose or not), and --resume takes it. */
static void test_option_verbose_is_passed_on(void **state)
{
    (void)state;
    for (size_t i = 0; i < hb_command_count(); i++)
        if (!hb_option_flag_applies("verbose", hb_command_at(i)->id))
            fail_msg("%s does not take --verbose", hb_command_at(i)->name);
    hb_cli *cli = new_cli();
    assert_int_equal(parse(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8", "--sanitize",
                                 "--verb"),
                           cli),
                     HB_OK);
    assert_int_equal(cli->run.verbose, 1);
    assert_int_equal(hb_diag_is_verbose(), 1);
    hb_diag_set_verbose(0); /* the other tests' errors stay as a user sees them */
    hb_argv argv = {0};
    assert_int_equal(hb_sanitize_command(&cli->run, "/opt/cs", "/x/hgemm-bench", 0, "o/r", "o/r/m.log", &argv), HB_OK);
    int carried = 0;
    for (size_t i = 0; i < argv.count; i++)
        carried |= !strcmp(argv.word[i], "--verbose");
    assert_true(carried);
    hb_argv none = {0};
    assert_int_equal(parse(WORDS("hgemm-bench", "gate", "--candidate", "c", "--mnk", "8,8,8"), cli), HB_OK);
    assert_int_equal(hb_argv_add_options(&none, &cli->run, HB_CMD_CHECK, NULL), HB_OK);
    for (size_t i = 0; i < none.count; i++)
        assert_string_not_equal(none.word[i], "--verbose");
    assert_int_equal(parse(WORDS("hgemm-bench", "sweep", "--resume", "results/s", "--verbose"), cli), HB_OK);
    hb_diag_set_verbose(0);
    free(cli);

    char dir[512], out[700];
    hb_test_make_temp_dir("hb-option-verbose-sweep", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/plan.txt", dir);
    assert_int_equal(hb_test_run(hb_test_bench(),
                                 WORDS("sweep", "--candidate", "c", "--mnk", "64,64,64", "--dry-run", "--verbose"), out,
                                 NULL),
                     0);
    assert_true(hb_test_file_contains(out, "# options: --candidate c"));
    assert_false(hb_test_file_contains(out, "--verbose"));
    hb_test_remove_tree(dir);
}

/* reproduce's stages get it: every stage's command line, once. */
static void test_option_verbose_reaches_reproduce_stages(void **state)
{
    (void)state;
    char dir[512], kernels[700], file[800], out[700], folder[700], command[4096];
    hb_test_make_temp_dir("hb-option-verbose-repro", dir, sizeof dir);
    snprintf(kernels, sizeof kernels, "%s/CUDA-L2/kernels/h100_F32F16F16F32", dir);
    snprintf(command, sizeof command, "mkdir -p '%s' '%s/CUDA-L2/eval_results'", kernels, dir);
    assert_int_equal(hb_test_shell(command), 0);
    snprintf(file, sizeof file, "%s/64_64_64.cu", kernels);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    assert_int_equal(fclose(f), 0);
    snprintf(out, sizeof out, "%s/stages.txt", dir);
    snprintf(folder, sizeof folder, "%s/out", dir);
    snprintf(command, sizeof command, "'%s' reproduce cuda-l2 --repo '%s/CUDA-L2' --set h100 --arch sm_90a --dry-run "
             "--verbose --out '%s' > '%s' 2>&1", hb_test_bench(), dir, folder, out);
    assert_int_equal(hb_test_shell(command), 0);
    char *text = hb_test_read_file(out);
    assert_non_null(text);
    size_t stages = 0;
    for (char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n')) {
        size_t length = strcspn(line, "\n");
        if (!strncmp(line, "import: ", 8) || !strncmp(line, "sweep: ", 7) || !strncmp(line, "report: ", 8)) {
            char copy[4096];
            snprintf(copy, sizeof copy, "%.*s", (int)length, line);
            char *first = strstr(copy, " --verbose");
            if (!first || strstr(first + 1, " --verbose"))
                fail_msg("a stage's line without --verbose, or with it twice: %s", copy);
            stages++;
        }
    }
    assert_int_equal(stages, 3);
    free(text);
    hb_test_remove_tree(dir);
}

hb_test_list hb_option_message_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_option_edit_distance_is_gits),
        cmocka_unit_test(test_option_unique_prefix_is_taken),
        cmocka_unit_test(test_option_ambiguous_prefix_names_the_flags),
        cmocka_unit_test(test_option_typo_names_the_nearest_flag),
        cmocka_unit_test(test_option_garbage_gets_no_suggestion),
        cmocka_unit_test(test_option_help_states_the_real_defaults),
        cmocka_unit_test(test_option_sweep_seed_default_is_the_one_used),
        cmocka_unit_test(test_option_usage_error_points_to_the_commands_help),
        cmocka_unit_test(test_option_value_too_long_for_a_child_is_refused),
        cmocka_unit_test(test_option_verbose_shows_the_source_line),
        cmocka_unit_test(test_option_verbose_is_passed_on),
        cmocka_unit_test(test_option_verbose_reaches_reproduce_stages),
    };
    return HB_TEST_LIST(tests);
}
