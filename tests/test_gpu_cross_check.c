/* GPU tests of the timed window's cross-check (docs/methodology.md, "Timers
 * out of the candidate's reach"): with --cross-check-rounds 10, the sample
 * candidate at 256^3 has timed rounds on which CUPTI read its event pairs,
 * left out of the samples, with a difference an honest call shows, and
 * passes; with 0 it has none.  Each runs the driver binary; each skips
 * without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/result/timer_check.h"
#include "tests/gpu_test_util.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define SIZE 256
#define PARTICIPANTS 8 /* the candidate and the seven baselines timed (the -max rows copy theirs) */

static void run_sample(const char *extra, char *out, size_t out_size, char *csv, size_t csv_size)
{
    char args[1536];
    hb_test_make_temp_dir("hb-cross-check", out, out_size);
    snprintf(args, sizeof args,
             "--candidate %s/candidates/sample_simple --mnk %d,%d,%d --autotune-cache %s/cache.tsv %s",
             hb_test_build_dir(), SIZE, SIZE, SIZE, out, extra);
    assert_int_equal(hb_test_run_bench("run", args, out), 0);
    hb_test_summary_path(out, csv, csv_size);
}

static double col(const char *csv, const char *column)
{
    return hb_test_csv_number(csv, "candidate", SIZE, column);
}

static void test_gpu_cross_check_rounds(void **state)
{
    (void)state;
    REQUIRE_GPU();
    char out[512], csv[1200], verdict[64];
    run_sample("--warmup-s 0.3 --time-s 1.5 --cross-check-rounds 10 --raw", out, sizeof out, csv, sizeof csv);
    hb_test_csv_text(csv, "candidate", SIZE, "verdict", verdict, sizeof verdict);
    assert_string_equal(verdict, "pass");
    const double crossed = col(csv, "cross_checked_rounds"), kept = col(csv, "samples");
    const double median = col(csv, "cross_check_median_diff_us"), paired = col(csv, "cross_check_paired_median_us");
    const double p = col(csv, "cross_check_sign_p");
    printf("  256^3 --cross-check-rounds 10: %.0f rounds cross-checked beside %.0f kept; candidate's median "
           "event - CUPTI %+.2f us, paired with the baselines %+.2f us, sign test p %.3g\n",
           crossed, kept, median, paired, p);
    assert_true(crossed > 0);
    /* about a tenth of the rounds played: well within 3 % to 20 % over hundreds of rounds */
    assert_true(crossed > 0.03 * (crossed + kept) && crossed < 0.2 * (crossed + kept));
    /* CUPTI did read them: an honest call's difference, and no alarm */
    assert_true(fabs(median) < HB_TIMER_DEVICE_TOLERANCE_US);
    assert_true(isfinite(paired));
    assert_true(p > 1e-4);
    /* --raw: every cross-checked round of every participant, beside the samples */
    char run_dir[1024], path[1200];
    hb_test_find_run_dir(out, run_dir, sizeof run_dir);
    snprintf(path, sizeof path, "%s/raw/0000_%dx%dx%d.cross.csv", run_dir, SIZE, SIZE, SIZE);
    assert_int_equal(hb_test_count_lines(path), 1 + (int)crossed * PARTICIPANTS);
    hb_test_remove_tree(out);

    run_sample("--warmup-s 0.1 --time-s 0.3 --cross-check-rounds 0", out, sizeof out, csv, sizeof csv);
    assert_true(col(csv, "cross_checked_rounds") == 0);
    char cell[64];
    assert_int_equal(hb_test_csv_field(csv, "candidate", SIZE, "cross_check_median_diff_us", cell, sizeof cell), 1);
    assert_string_equal(cell, ""); /* no round read: no figure */
    hb_test_remove_tree(out);
}

hb_test_list hb_gpu_cross_check_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_cross_check_rounds),
    };
    return HB_TEST_LIST(tests);
}
