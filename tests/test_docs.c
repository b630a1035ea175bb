/* The docs' worked examples run as written: the shell block under "Worked
 * example" of docs/candidates.md (a cubin) and of docs/launchers.md (a
 * launcher library), taken from the page itself, run from the repository's
 * top folder.  With a GPU the run must pass; without one the build steps must
 * succeed and the run must stop with exit 5 and say why.  And docs/gate.md's
 * python loop over three candidates (test_docs_loop_example). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/candidate/manifest.h"
#include "bench/core/status.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

/* The first block fenced "```LANGUAGE" after `heading` in `page`, into `out`. */
static void extract_fenced(const char *page, const char *heading, const char *language, char *out, size_t size)
{
    FILE *f = fopen(page, "r");
    assert_non_null(f);
    char line[1024];
    int state = 0; /* 0: before the heading, 1: before the block, 2: in it */
    size_t used = 0;
    out[0] = '\0';
    while (state < 3 && fgets(line, sizeof line, f)) {
        if (state == 0 && !strncmp(line, heading, strlen(heading)))
            state = 1;
        else if (state == 1 && !strncmp(line, "```", 3) && !strncmp(line + 3, language, strlen(language)) &&
                 !strcmp(line + 3 + strlen(language), "\n"))
            state = 2;
        else if (state == 2 && !strcmp(line, "```\n"))
            state = 3;
        else if (state == 2) {
            assert_true(used + strlen(line) < size);
            used += (size_t)snprintf(out + used, size - used, "%s", line);
        }
    }
    fclose(f);
    if (state != 3)
        fail_msg("no complete ```%s block after '%s' in %s", language, heading, page);
}

static void extract_block(const char *page, const char *heading, char *out, size_t size)
{
    extract_fenced(page, heading, "sh", out, size);
}

/* The one folder `mktemp -d` made under `parent`. */
static void find_work_dir(const char *parent, char *out, size_t size)
{
    DIR *d = opendir(parent);
    assert_non_null(d);
    out[0] = '\0';
    for (struct dirent *e; (e = readdir(d));)
        if (!strncmp(e->d_name, "tmp.", 4))
            snprintf(out, size, "%s/%s", parent, e->d_name);
    closedir(d);
    if (!out[0])
        fail_msg("the example made no folder under %s", parent);
}

/* Runs the ```sh block after "## Worked example" in `page` as a reader
 * would: from the top folder, nvcc on PATH (the toolkit's bin added where the
 * environment lacks it), mktemp -d under a folder of the test's.  Its exit
 * status; the folder the block made into `work`, the manifest it wrote into
 * `manifest`, its output into `log` (dir: the test's folder, to remove). */
static int run_worked_example(const char *page, char *dir, size_t dir_size, char *work, size_t work_size,
                              hb_manifest *manifest, char *log, size_t log_size)
{
    char block[8192], script[700], command[2400], path[1400];
    extract_block(page, "## Worked example", block, sizeof block);
    hb_test_make_temp_dir("hb-docs", dir, dir_size);
    snprintf(script, sizeof script, "%s/example.sh", dir);
    snprintf(log, log_size, "%s/example.log", dir);
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fputs(block, f);
    fclose(f);
    const char *cuda = getenv("CUDA_HOME");
    snprintf(command, sizeof command, "TMPDIR='%s' PATH=\"$PATH:%s/bin\" bash -e '%s' >'%s' 2>&1", dir,
             cuda && *cuda ? cuda : "/usr/local/cuda", script, log);
    int rc = system(command);
    int status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    find_work_dir(dir, work, work_size);
    snprintf(path, sizeof path, "%s/manifest.json", work);
    assert_int_equal(hb_manifest_load(path, manifest), HB_OK); /* the file it names was built */
    assert_int_equal(manifest->n_files, 1);
    FILE *built = fopen(manifest->files[0].path, "rb");
    if (!built)
        fail_msg("the example did not build %s; its log is %s", manifest->files[0].path, log);
    fclose(built);
    return status;
}

/* With a GPU the example must pass; without one it must stop at the device (exit 5). */
static void expect_example_outcome(int status, const char *log)
{
    if (hb_test_gpu_ready()) {
        if (status != 0)
            fail_msg("the worked example exited %d on a GPU; its log is %s", status, log);
        assert_true(hb_test_file_contains(log, "verdict: pass"));
    } else {
        if (status != HB_ERR_CUDA)
            fail_msg("without a GPU the worked example should stop with exit 5, got %d; its log is %s", status, log);
        assert_true(hb_test_file_contains(log, "no usable CUDA GPU"));
    }
}

/* `page`'s example, whose manifest must be of `kind`. */
static void expect_worked_example(const char *page, hb_candidate_kind kind)
{
    char dir[512], work[1024], log[700];
    static hb_manifest manifest;
    int status = run_worked_example(page, dir, sizeof dir, work, sizeof work, &manifest, log, sizeof log);
    assert_int_equal(manifest.kind, kind);
    expect_example_outcome(status, log);
    hb_test_remove_tree(dir);
}

static void test_docs_worked_example(void **state)
{
    (void)state;
    expect_worked_example("docs/candidates.md", HB_CANDIDATE_CUBIN);
}

/* docs/launchers.md's example: a launcher library built with nvcc -shared. */
static void test_docs_launcher_example(void **state)
{
    (void)state;
    expect_worked_example("docs/launchers.md", HB_CANDIDATE_LAUNCHER);
}

/* docs/gate.md's loop over three candidates (--json, --decide, --reward,
 * --profile), run with python3 from the top folder as the page says.  With a
 * GPU it must finish and rank sample_mma first (the wrong product earns the
 * floor, and sample_simple is tens of times slower); without one it must stop
 * at the first gate call, naming a harness failure and the missing GPU. */
static void test_docs_loop_example(void **state)
{
    (void)state;
    if (hb_test_shell("command -v python3 >/dev/null") != 0) {
        printf("  no python3: docs/gate.md's loop example skipped\n");
        hb_test_skip(__FILE__, __LINE__);
        return;
    }
    static char block[16384];
    extract_fenced("docs/gate.md", "### Worked example: a loop", "python", block, sizeof block);
    char dir[512], script[700], log[700], command[1600];
    hb_test_make_temp_dir("hb-docs-loop", dir, sizeof dir);
    snprintf(script, sizeof script, "%s/loop.py", dir);
    snprintf(log, sizeof log, "%s/loop.log", dir);
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fputs(block, f);
    assert_int_equal(fclose(f), 0);
    snprintf(command, sizeof command, "python3 '%s' >'%s' 2>&1", script, log);
    int status = hb_test_shell(command);
    if (hb_test_gpu_ready()) {
        if (status != 0)
            fail_msg("docs/gate.md's loop exited %d on a GPU; its log is %s", status, log);
        assert_true(hb_test_file_contains(log, "best: build/candidates/sample_mma"));
        assert_true(hb_test_file_contains(log, "build/candidates/broken/wrong_result: exit 6, reward -1.000"));
        assert_true(hb_test_file_contains(log, "[decided "));
    } else {
        if (status != 1)
            fail_msg("without a GPU the loop should stop with exit 1, got %d; its log is %s", status, log);
        assert_true(hb_test_file_contains(log, "hgemm-bench exit 5: a harness or machine failure"));
        assert_true(hb_test_file_contains(log, "no usable CUDA GPU"));
    }
    hb_test_remove_tree(dir);
}

/* docs/cli.md quotes the usage error of a flag the command does not take
 * (`check --mode server`) as the harness prints it. */
static void test_docs_quote_the_flag_refusal(void **state)
{
    (void)state;
    char dir[512], err[600];
    hb_test_make_temp_dir("hb-docs-quote", dir, sizeof dir);
    snprintf(err, sizeof err, "%s/err.txt", dir);
    assert_int_equal(hb_test_run(hb_test_bench(), (const char *const[]){"check", "--mode", "server", NULL},
                                 "/dev/null", err),
                     HB_ERR_USAGE);
    char *said = hb_test_read_file(err), *doc = hb_test_read_file("docs/cli.md");
    assert_non_null(said);
    assert_non_null(doc);
    char *message = strstr(said, "error: ");
    assert_non_null(message);
    message += strlen("error: ");
    message[strcspn(message, "\n")] = '\0';
    for (char *c = doc; *c; c++) /* a quote may wrap */
        if (*c == '\n')
            *c = ' ';
    char quoted[1024];
    snprintf(quoted, sizeof quoted, "`check --mode server`: \"%s\"", message);
    if (!strstr(doc, quoted))
        fail_msg("docs/cli.md does not quote %s", quoted);
    free(said);
    free(doc);
    hb_test_remove_tree(dir);
}

hb_test_list hb_docs_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_worked_example),
        cmocka_unit_test(test_docs_launcher_example),
        cmocka_unit_test(test_docs_loop_example),
        cmocka_unit_test(test_docs_quote_the_flag_refusal),
    };
    return HB_TEST_LIST(tests);
}
