/* Tests of bench/core/run_dir.c and bench/core/status.c. */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/run_dir.h"
#include "bench/core/status.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"


static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "YYYYMMDDTHHMMSSZ-xxxx" with a 4-digit lower-case hex suffix */
static void assert_run_id_shape(const char *id)
{
    assert_int_equal(strlen(id), 21);
    for (int i = 0; i < 21; i++) {
        char c = id[i];
        if (i == 8)
            assert_int_equal(c, 'T');
        else if (i == 15)
            assert_int_equal(c, 'Z');
        else if (i == 16)
            assert_int_equal(c, '-');
        else if (i > 16)
            assert_true((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
        else
            assert_true(c >= '0' && c <= '9');
    }
}

static void test_run_dir_nested_parent(void **state)
{
    (void)state;
    char dir[512], parent[600], id[HB_RUN_ID_MAX], path[1024], want[1024];
    hb_test_make_temp_dir("hb-test-files", dir, sizeof dir);
    snprintf(parent, sizeof parent, "%s/a/b/c", dir);
    assert_int_equal(hb_run_dir_create(parent, 0x1234, id, path, sizeof path), HB_OK);
    assert_true(is_dir(parent));
    assert_run_id_shape(id);
    snprintf(want, sizeof want, "%s/%s", parent, id);
    assert_string_equal(path, want);
    assert_true(is_dir(path));
    /* the salt's low 16 bits name the first try */
    assert_string_equal(id + 17, "1234");
    /* a trailing slash on the parent works too */
    snprintf(parent, sizeof parent, "%s/x/y/", dir);
    assert_int_equal(hb_run_dir_create(parent, 1, id, path, sizeof path), HB_OK);
    assert_true(is_dir(path));
    hb_test_remove_tree(dir);
}

static void test_run_dir_unique(void **state)
{
    (void)state;
    char dir[512], id1[HB_RUN_ID_MAX], id2[HB_RUN_ID_MAX], id3[HB_RUN_ID_MAX], p1[1024], p2[1024], p3[1024];
    hb_test_make_temp_dir("hb-test-files", dir, sizeof dir);
    /* same salt, (almost certainly) the same second: still three folders */
    assert_int_equal(hb_run_dir_create(dir, 42, id1, p1, sizeof p1), HB_OK);
    assert_int_equal(hb_run_dir_create(dir, 42, id2, p2, sizeof p2), HB_OK);
    assert_int_equal(hb_run_dir_create(dir, 42, id3, p3, sizeof p3), HB_OK);
    assert_string_not_equal(id1, id2);
    assert_string_not_equal(id1, id3);
    assert_string_not_equal(id2, id3);
    assert_string_not_equal(p1, p2);
    assert_true(is_dir(p1) && is_dir(p2) && is_dir(p3));
    /* an existing folder is never reused: a file placed in the first survives */
    char marker[1100];
    snprintf(marker, sizeof marker, "%s/summary.csv", p1);
    FILE *f = fopen(marker, "w");
    assert_non_null(f);
    fclose(f);
    char id4[HB_RUN_ID_MAX], p4[1024];
    assert_int_equal(hb_run_dir_create(dir, 42, id4, p4, sizeof p4), HB_OK);
    assert_string_not_equal(p4, p1);
    assert_int_equal(access(marker, F_OK), 0);
    hb_test_remove_tree(dir);
}

static void test_run_dir_errors(void **state)
{
    (void)state;
    char dir[512], file[600], below[700], id[HB_RUN_ID_MAX], path[1024];
    hb_test_make_temp_dir("hb-test-files", dir, sizeof dir);
    snprintf(file, sizeof file, "%s/plain-file", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("not a folder\n", f);
    fclose(f);
    /* the parent is a regular file */
    assert_int_equal(hb_run_dir_create(file, 1, id, path, sizeof path), HB_ERR_IO);
    assert_non_null(strstr(hb_last_error(), file));
    /* a component of the parent is a regular file */
    snprintf(below, sizeof below, "%s/sub", file);
    assert_int_equal(hb_run_dir_create(below, 1, id, path, sizeof path), HB_ERR_IO);
    /* the path buffer is too small for parent/run-id */
    char small[16];
    assert_int_equal(hb_run_dir_create(dir, 1, id, small, sizeof small), HB_ERR_IO);
    hb_test_remove_tree(dir);
}

static void test_status_names(void **state)
{
    (void)state;
    const hb_status all[] = {HB_OK,          HB_ERR_INTERNAL, HB_ERR_USAGE, HB_ERR_BAD_INPUT,
                             HB_ERR_UNSUPPORTED, HB_ERR_CUDA, HB_ERR_INCORRECT, HB_ERR_IO,
                             HB_ERR_CANDIDATE_FAULT, HB_ERR_TOO_SLOW, HB_ERR_IMPLAUSIBLE, HB_ERR_BAD_RESULTS,
                             HB_ERR_BASELINE_INTERFERENCE};
    const size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        const char *name = hb_status_name(all[i]);
        assert_non_null(name);
        assert_true(name[0] != '\0');
        assert_string_not_equal(name, "unknown");
        /* names go into CSV fields unquoted: no commas, quotes or blanks */
        assert_null(strpbrk(name, ",\" \n"));
        for (size_t j = i + 1; j < n; j++)
            assert_string_not_equal(name, hb_status_name(all[j]));
    }
    /* the documented exit codes */
    assert_int_equal(HB_OK, 0);
    assert_int_equal(HB_ERR_USAGE, 2);
    assert_int_equal(HB_ERR_UNSUPPORTED, 4);
    assert_int_equal(HB_ERR_IO, 7);
    assert_int_equal(HB_ERR_CANDIDATE_FAULT, 8);
    assert_int_equal(HB_ERR_TOO_SLOW, 9);
    assert_int_equal(HB_ERR_IMPLAUSIBLE, 10);
    assert_int_equal(HB_ERR_BAD_RESULTS, 11);
    assert_int_equal(HB_ERR_BASELINE_INTERFERENCE, 16);
    assert_string_equal(hb_status_name(HB_ERR_BASELINE_INTERFERENCE), "baseline-interference");
    assert_string_equal(hb_status_name(HB_ERR_IMPLAUSIBLE), "implausible");
    assert_string_equal(hb_status_name(HB_OK), "ok");
    assert_string_equal(hb_status_name(HB_ERR_UNSUPPORTED), "unsupported");
    assert_string_equal(hb_status_name((hb_status)99), "unknown");
}

static void test_status_severity(void **state)
{
    (void)state;
    const hb_status all[] = {HB_OK,          HB_ERR_INTERNAL, HB_ERR_USAGE, HB_ERR_BAD_INPUT,
                             HB_ERR_UNSUPPORTED, HB_ERR_CUDA, HB_ERR_INCORRECT, HB_ERR_IO,
                             HB_ERR_CANDIDATE_FAULT, HB_ERR_TOO_SLOW, HB_ERR_IMPLAUSIBLE, HB_ERR_BAD_RESULTS,
                             HB_ERR_BASELINE_INTERFERENCE};
    const size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        if (all[i] != HB_OK)
            assert_true(hb_status_severity(all[i]) > hb_status_severity(HB_OK));
        if (all[i] != HB_ERR_INTERNAL)
            assert_true(hb_status_severity(all[i]) < hb_status_severity(HB_ERR_INTERNAL));
        /* a total order: no two statuses tie, so the run's exit code is well defined */
        for (size_t j = i + 1; j < n; j++)
            assert_int_not_equal(hb_status_severity(all[i]), hb_status_severity(all[j]));
    }
    /* harness-side failures outrank verdicts about the candidate */
    assert_true(hb_status_severity(HB_ERR_IO) > hb_status_severity(HB_ERR_INCORRECT));
    assert_true(hb_status_severity(HB_ERR_CUDA) > hb_status_severity(HB_ERR_CANDIDATE_FAULT));
    assert_true(hb_status_severity(HB_ERR_INCORRECT) > hb_status_severity(HB_ERR_UNSUPPORTED));
    /* a time faster than the hardware outranks the candidate's other verdicts, not the harness's failures */
    assert_true(hb_status_severity(HB_ERR_IMPLAUSIBLE) > hb_status_severity(HB_ERR_CANDIDATE_FAULT));
    assert_true(hb_status_severity(HB_ERR_IMPLAUSIBLE) < hb_status_severity(HB_ERR_BAD_INPUT));
    /* baselines slowed by the candidate: above an implausible time, below timers that cannot be trusted at all */
    assert_true(hb_status_severity(HB_ERR_BASELINE_INTERFERENCE) > hb_status_severity(HB_ERR_IMPLAUSIBLE));
    assert_true(hb_status_severity(HB_ERR_BASELINE_INTERFERENCE) < hb_status_severity(HB_ERR_TIMER_MISMATCH));
    /* an unknown value counts as the worst */
    assert_true(hb_status_severity((hb_status)99) >= hb_status_severity(HB_ERR_INTERNAL));
}

static const struct CMUnitTest files_tests[] = {
    cmocka_unit_test(test_run_dir_nested_parent),
    cmocka_unit_test(test_run_dir_unique),
    cmocka_unit_test(test_run_dir_errors),
    cmocka_unit_test(test_status_names),
    cmocka_unit_test(test_status_severity),
};

hb_test_list hb_files_tests(void) { return HB_TEST_LIST(files_tests); }
