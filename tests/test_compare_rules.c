/* compare's rules on their own (docs/reports.md, "compare"): the status of
 * a configuration against its noise, the CUDA-L2 repository's estimator
 * against a direct computation over samples, the timing-doubt marker, and
 * what a published file's name says. */
#include <math.h>
#include <string.h>

#include "bench/analysis/compare_status.h"
#include "bench/analysis/compare_timers.h"
#include "bench/analysis/published_name.h"
#include "bench/analysis/timing_doubt.h"
#include "bench/core/rng.h"
#include "tests/test_registry.h"

#define TWO_PI 6.283185307179586476925

static void expect_status(double ours, double published, double our_noise, double floor, hb_compare_status want,
                          double want_noise)
{
    double diff, noise;
    hb_compare_status got = hb_compare_status_of(ours, published, our_noise, floor, &diff, &noise);
    if (got != want)
        fail_msg("ours %g, published %g, noise %g, floor %g: %s, not %s", ours, published, our_noise, floor,
                 hb_compare_status_name(got), hb_compare_status_name(want));
    if (!(isnan(want_noise) && isnan(noise)) && fabs(noise - want_noise) > 1e-12)
        fail_msg("ours %g, published %g: noise %g, not %g", ours, published, noise, want_noise);
}

/* d = ours/published - 1 against the larger of our noise and the floor. */
static void test_compare_status_against_the_noise(void **state)
{
    (void)state;
    expect_status(1.20, 1.20, 0.01, 0, HB_CMP_SAME, 0.01);
    expect_status(1.21, 1.20, 0.01, 0, HB_CMP_SAME, 0.01);     /* d = +0.83 % */
    expect_status(1.23, 1.20, 0.01, 0, HB_CMP_FASTER, 0.01);   /* d = +2.5 % */
    expect_status(1.10, 1.20, 0.01, 0, HB_CMP_SLOWER, 0.01);   /* d = -8.3 % */
    expect_status(1.10, 1.20, 0.01, 0.10, HB_CMP_SAME, 0.10);  /* the floor is larger */
    expect_status(1.10, 1.20, 0.12, 0.05, HB_CMP_SAME, 0.12);  /* ours is larger */
    expect_status(1.10, 1.20, NAN, 0.05, HB_CMP_SLOWER, 0.05); /* no CI: the floor alone */
    expect_status(1.10, 1.20, NAN, 0, HB_CMP_UNKNOWN, NAN);    /* nothing to judge by */
    expect_status(NAN, 1.20, 0.01, 0, HB_CMP_UNKNOWN, 0.01);   /* no figure of ours */
    expect_status(1.10, NAN, 0.01, 0, HB_CMP_UNKNOWN, 0.01);
    expect_status(1.10, 1.20, 0.0, 0, HB_CMP_SLOWER, 0.0);     /* no noise at all: any difference counts */
    double diff, noise;
    hb_compare_status_of(0.9, 1.2, 0.01, 0, &diff, &noise);
    assert_true(fabs(diff - (0.9 / 1.2 - 1)) < 1e-15);
    assert_string_equal(hb_compare_status_name(HB_CMP_SLOWER), "slower");
}

/* mean(F/t_c) / mean(F/t_b) over lognormal samples, against the estimator
 * from the means and relative standard deviations: exact for constant
 * times, and within the third-order terms (well under 1e-3 at 5-20 %
 * noise) for noisy ones; a plain ratio of means misses by cv^2. */
static void test_repo_estimator_against_samples(void **state)
{
    (void)state;
    assert_true(fabs(hb_repo_estimator(30.0, 0, 20.0, 0) - 1.5) < 1e-15);
    assert_true(isnan(hb_repo_estimator(0, 0.1, 20.0, 0.1)));
    assert_true(isnan(hb_repo_estimator(30.0, 0.1, NAN, 0.1)));
    assert_true(fabs(hb_repo_estimator(30.0, NAN, 20.0, NAN) - 1.5) < 1e-15); /* no cv: as constant */
    const double cvs[][2] = {{0.05, 0.05}, {0.20, 0.03}, {0.02, 0.15}};
    hb_rng rng;
    hb_rng_seed(&rng, 7);
    for (size_t c = 0; c < sizeof cvs / sizeof cvs[0]; c++) {
        enum { N = 400000 };
        double sigma_b = sqrt(log(1 + cvs[c][0] * cvs[c][0])), sigma_c = sqrt(log(1 + cvs[c][1] * cvs[c][1]));
        double sum_b = 0, sum_c = 0, inv_b = 0, inv_c = 0, sq_b = 0, sq_c = 0;
        for (int i = 0; i < N; i++) {
            double u1 = hb_rng_uniform(&rng), u2 = hb_rng_uniform(&rng);
            double z1 = sqrt(-2 * log(1 - u1)) * cos(TWO_PI * u2), z2 = sqrt(-2 * log(1 - u1)) * sin(TWO_PI * u2);
            double tb = 40.0 * exp(sigma_b * z1), tc = 25.0 * exp(sigma_c * z2);
            sum_b += tb;
            sum_c += tc;
            sq_b += tb * tb;
            sq_c += tc * tc;
            inv_b += 1 / tb;
            inv_c += 1 / tc;
        }
        double mean_b = sum_b / N, mean_c = sum_c / N;
        double cv_b = sqrt(sq_b / N - mean_b * mean_b) / mean_b, cv_c = sqrt(sq_c / N - mean_c * mean_c) / mean_c;
        double direct = (inv_c / N) / (inv_b / N); /* CUDA-L2: mean TFLOP/s of the candidate over the baseline's */
        double estimate = hb_repo_estimator(mean_b, cv_b, mean_c, cv_c);
        double plain = mean_b / mean_c;
        if (fabs(estimate / direct - 1) > 1e-3)
            fail_msg("cv %g/%g: the estimator %.6f, the samples %.6f", cvs[c][0], cvs[c][1], estimate, direct);
        /* and the correction matters: the plain ratio of means is further off where the cvs differ */
        if (fabs(cvs[c][0] - cvs[c][1]) > 0.1)
            assert_true(fabs(plain / direct - 1) > 5 * fabs(estimate / direct - 1));
    }
}

static void test_timing_doubt_marker(void **state)
{
    (void)state;
    char why[160];
    assert_int_equal(hb_timing_doubt("event", "", "", why, sizeof why), 0);
    assert_string_equal(why, "");
    assert_int_equal(hb_timing_doubt(NULL, NULL, NULL, why, sizeof why), 0);
    assert_int_equal(hb_timing_doubt("wall", "other-stream", "", why, sizeof why), 1);
    assert_string_equal(why, "wall headline: other-stream");
    assert_int_equal(hb_timing_doubt("event", "", "--no-trace", why, sizeof why), 1);
    assert_string_equal(why, "not traced: --no-trace");
    assert_int_equal(hb_timing_doubt("wall", "host-gap", "CUPTI not found", why, sizeof why), 1);
    assert_string_equal(why, "wall headline: host-gap; not traced: CUPTI not found");
}

static void test_published_file_names(void **state)
{
    (void)state;
    hb_published_name n;
    hb_published_name_parse("eval_results/cuda_l2_h100_F32F16F16F32_speedup_offline.csv", &n);
    assert_true(n.has_mode && n.mode == HB_MODE_OFFLINE);
    assert_string_equal(n.gpu, "h100");
    assert_string_equal(n.class_tag, "F32F16F16F32");
    assert_string_equal(n.acc, "fp32");
    hb_published_name_parse("cuda_l2_a100_F16F16F16F16_speedup_server.csv", &n);
    assert_true(n.has_mode && n.mode == HB_MODE_SERVER);
    assert_string_equal(n.gpu, "a100");
    assert_string_equal(n.acc, "fp16");
    hb_published_name_parse("out/speedup_server.csv", &n); /* the report's: the mode only */
    assert_true(n.has_mode && n.mode == HB_MODE_SERVER);
    assert_string_equal(n.gpu, "");
    assert_null(n.acc);
    hb_published_name_parse("cuda_l2_test_speedup_offline.csv", &n); /* no class: neither said */
    assert_string_equal(n.gpu, "");
    assert_string_equal(n.class_tag, "");
    hb_published_name_parse("cuda_l2_h100_BF16_speedup_x.csv", &n); /* a class CUDA-L2 does not publish */
    assert_false(n.has_mode);
    assert_string_equal(n.class_tag, "BF16");
    assert_null(n.acc);
}

hb_test_list hb_compare_rule_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_status_against_the_noise),
        cmocka_unit_test(test_repo_estimator_against_samples),
        cmocka_unit_test(test_timing_doubt_marker),
        cmocka_unit_test(test_published_file_names),
    };
    return HB_TEST_LIST(tests);
}
