/* The test runner's closing line ("hgemm-tests: N passed, N failed, N
 * skipped") counts what cmocka decided: hgemm-tests runs itself on one
 * probe test that passes, fails or calls skip() as told, and the closing
 * line must agree with cmocka's own "[  SKIPPED ]" / "[  FAILED  ]" lines. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_registry.h"
#include "tests/test_util.h"

/* Passes, unless HB_TEST_PROBE says "skip" or "fail" (set only by the test below). */
static void closing_counts_probe(void **state)
{
    (void)state;
    const char *probe = getenv("HB_TEST_PROBE");
    if (probe && strcmp(probe, "skip") == 0)
        skip();
    if (probe && strcmp(probe, "fail") == 0)
        fail_msg("the probe was told to fail");
}

/* Runs hgemm-tests on the probe alone with HB_TEST_PROBE=`probe`; its stdout, which the caller frees. */
static char *run_probe(const char *probe)
{
    char dir[512], out[600], command[2048];
    hb_test_make_temp_dir("hb-counts", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/stdout.txt", dir);
    const char *build = getenv("HB_BUILD") ? getenv("HB_BUILD") : "build";
    snprintf(command, sizeof command, "HB_TEST_SHARD=0/1 HB_TEST_FILTER=closing_counts_probe HB_TEST_PROBE=%s %s/hgemm-tests > %s 2>&1",
             probe, build, out);
    hb_test_shell(command);
    char *text = hb_test_read_file(out);
    hb_test_remove_tree(dir);
    if (!text)
        fail_msg("no output from %s", command);
    return text;
}

static void expect_in(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        fail_msg("expected \"%s\" in:\n%s", needle, text);
}

static void closing_line_counts_skips_and_failures_as_cmocka_does(void **state)
{
    (void)state;
    char *text = run_probe("skip");
    expect_in(text, "[  SKIPPED ] 1 test(s)");
    expect_in(text, "hgemm-tests: 0 passed, 0 failed, 1 skipped");
    free(text);
    text = run_probe("fail");
    expect_in(text, "[  FAILED  ] 1 test(s)");
    expect_in(text, "hgemm-tests: 0 passed, 1 failed, 0 skipped");
    free(text);
    text = run_probe("pass");
    expect_in(text, "[  PASSED  ] 1 test(s)");
    expect_in(text, "hgemm-tests: 1 passed, 0 failed, 0 skipped");
    free(text);
}

hb_test_list hb_closing_counts_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(closing_counts_probe),
        cmocka_unit_test(closing_line_counts_skips_and_failures_as_cmocka_does),
    };
    return HB_TEST_LIST(tests);
}
