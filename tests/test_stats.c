/* Tests of bench/stats.c. Expected values are derived by hand in the comments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "stats.h"
#include "test_registry.h"

#define CLOSE(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol))

static void test_quantile_type7(void **state)
{
    (void)state;
    /* numpy.quantile([1, 2, 3, 4, 10], q): position h = 4q, x[floor h] + frac * step */
    const double x[] = {1, 2, 3, 4, 10};
    CLOSE(hb_quantile_sorted(x, 5, 0.0), 1.0, 1e-12);
    CLOSE(hb_quantile_sorted(x, 5, 0.1), 1.4, 1e-12);  /* h 0.4: 1 + 0.4*1 */
    CLOSE(hb_quantile_sorted(x, 5, 0.25), 2.0, 1e-12); /* h 1 */
    CLOSE(hb_quantile_sorted(x, 5, 0.5), 3.0, 1e-12);  /* h 2 */
    CLOSE(hb_quantile_sorted(x, 5, 0.75), 4.0, 1e-12); /* h 3 */
    CLOSE(hb_quantile_sorted(x, 5, 0.9), 7.6, 1e-12);  /* h 3.6: 4 + 0.6*6 */
    CLOSE(hb_quantile_sorted(x, 5, 1.0), 10.0, 1e-12);
    /* even n: [1, 2.5, 3, 5, 7, 8], h = 5q */
    const double y[] = {1, 2.5, 3, 5, 7, 8};
    CLOSE(hb_quantile_sorted(y, 6, 0.1), 1.75, 1e-12); /* h 0.5 */
    CLOSE(hb_quantile_sorted(y, 6, 0.5), 4.0, 1e-12);  /* h 2.5: 3 + 0.5*2 */
    CLOSE(hb_quantile_sorted(y, 6, 0.9), 7.5, 1e-12);  /* h 4.5 */
    /* n = 1 and n = 2 */
    const double one[] = {42};
    CLOSE(hb_quantile_sorted(one, 1, 0.0), 42, 0);
    CLOSE(hb_quantile_sorted(one, 1, 0.5), 42, 0);
    CLOSE(hb_quantile_sorted(one, 1, 1.0), 42, 0);
    const double two[] = {0, 10};
    CLOSE(hb_quantile_sorted(two, 2, 0.3), 3.0, 1e-12);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_quantile_monotone(void **state)
{
    (void)state;
    hb_rng rng;
    hb_rng_seed(&rng, 99);
    double v[37];
    for (size_t i = 0; i < 37; i++)
        v[i] = hb_rng_uniform(&rng) * 100 - 50;
    qsort(v, 37, sizeof v[0], cmp_double);
    double previous = -INFINITY;
    for (int step = 0; step <= 1000; step++) {
        double q = step / 1000.0;
        double value = hb_quantile_sorted(v, 37, q);
        assert_true(value >= previous);
        assert_true(value >= v[0] && value <= v[36]);
        previous = value;
    }
    /* at q = i/(n-1) the quantile is exactly the i-th order statistic */
    for (size_t i = 0; i < 37; i++)
        CLOSE(hb_quantile_sorted(v, 37, (double)i / 36.0), v[i], 1e-9);
}

static void test_student_t(void **state)
{
    (void)state;
    /* two-sided 95 % critical values from standard tables */
    CLOSE(hb_student_t975(1), 12.706, 1e-3);
    CLOSE(hb_student_t975(2), 4.303, 1e-3);
    CLOSE(hb_student_t975(10), 2.228, 1e-3);
    CLOSE(hb_student_t975(30), 2.042, 1e-3);
    CLOSE(hb_student_t975(31), 2.0395, 1e-3);
    CLOSE(hb_student_t975(40), 2.0211, 1e-3);
    CLOSE(hb_student_t975(60), 2.0003, 1e-3);
    CLOSE(hb_student_t975(100), 1.984, 1e-3);
    CLOSE(hb_student_t975(120), 1.9799, 1e-3);
    CLOSE(hb_student_t975(1000), 1.9623, 1e-3);
    CLOSE(hb_student_t975(1000000), 1.95996, 1e-4);
    assert_true(isinf(hb_student_t975(0)) && hb_student_t975(0) > 0);
    /* decreasing in df, always above the normal quantile */
    double previous = INFINITY;
    for (size_t df = 1; df <= 2000; df++) {
        double t = hb_student_t975(df);
        assert_true(t < previous);
        assert_true(t > 1.959963984540054);
        previous = t;
    }
}

static void test_summarize_times_known(void **state)
{
    (void)state;
    /* sorted {1, 2, 3, 4, 10}; mean 4; deviations -3 -2 -1 0 6 -> sum of squares 50;
     * sample variance 50/4 = 12.5 */
    const double times[] = {4, 1, 3, 10, 2};
    double copy[5];
    memcpy(copy, times, sizeof copy);
    hb_time_summary s;
    assert_int_equal(hb_summarize_times(copy, 5, &s), HB_OK);
    assert_memory_equal(copy, times, sizeof copy); /* input left in round order */
    assert_int_equal(s.n, 5);
    CLOSE(s.min, 1, 0);
    CLOSE(s.max, 10, 0);
    CLOSE(s.mean, 4, 1e-12);
    CLOSE(s.median, 3, 1e-12);
    CLOSE(s.p10, 1.4, 1e-12);
    CLOSE(s.p90, 7.6, 1e-12);
    CLOSE(s.stdev, sqrt(12.5), 1e-12);
    CLOSE(s.rel_stdev, sqrt(12.5) / 4, 1e-12);

    /* one sample: no spread */
    const double one[] = {0.25};
    assert_int_equal(hb_summarize_times(one, 1, &s), HB_OK);
    CLOSE(s.mean, 0.25, 0);
    CLOSE(s.median, 0.25, 0);
    CLOSE(s.p10, 0.25, 0);
    CLOSE(s.stdev, 0, 0);
    CLOSE(s.rel_stdev, 0, 0);

    /* no samples: an error */
    assert_int_not_equal(hb_summarize_times(times, 0, &s), HB_OK);
}

static void test_summarize_times_large_offset(void **state)
{
    (void)state;
    /* 1e9 + {4, 7, 13, 16}: mean 1e9+10, squared deviations 36+9+9+36 = 90, sample variance 30.
     * The naive sum-of-squares formula loses this entirely in double precision. */
    const double times[] = {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
    hb_time_summary s;
    assert_int_equal(hb_summarize_times(times, 4, &s), HB_OK);
    CLOSE(s.mean, 1e9 + 10, 1e-6);
    CLOSE(s.stdev, sqrt(30.0), 1e-6);
    CLOSE(s.median, 1e9 + 10, 1e-6);
}

static void test_speedup_identical(void **state)
{
    (void)state;
    const double t[] = {1.0, 2.0, 0.5, 3.0, 1.25, 7.0};
    hb_speedup_summary s;
    assert_int_equal(hb_summarize_speedup(t, t, 6, &s), HB_OK);
    assert_int_equal(s.n, 6);
    CLOSE(s.geomean, 0, 1e-15);
    CLOSE(s.paper, 0, 1e-15);
    CLOSE(s.ratio_of_means, 0, 1e-15);
    CLOSE(s.median, 0, 1e-15);
    assert_true(s.ci95_low <= 0 && s.ci95_high >= 0);
    CLOSE(s.ci95_high - s.ci95_low, 0, 1e-12);
}

static void test_speedup_constant_ratio(void **state)
{
    (void)state;
    /* base = 2 * cand in every round: the candidate is exactly 2x, speedup 1.0 by every estimator */
    const double cand[] = {1.0, 1.5, 2.0, 3.0, 5.0, 0.125, 9.75};
    double base[7];
    for (int i = 0; i < 7; i++)
        base[i] = 2 * cand[i];
    hb_speedup_summary s;
    assert_int_equal(hb_summarize_speedup(base, cand, 7, &s), HB_OK);
    CLOSE(s.geomean, 1.0, 1e-12);
    CLOSE(s.paper, 1.0, 1e-12);
    CLOSE(s.ratio_of_means, 1.0, 1e-12);
    CLOSE(s.median, 1.0, 1e-12);
    CLOSE(s.p10, 1.0, 1e-12);
    CLOSE(s.p90, 1.0, 1e-12);
    CLOSE(s.ci95_low, 1.0, 1e-9);
    CLOSE(s.ci95_high, 1.0, 1e-9);
    /* the other way round: candidate twice as slow, -50 % */
    assert_int_equal(hb_summarize_speedup(cand, base, 7, &s), HB_OK);
    CLOSE(s.geomean, -0.5, 1e-12);
    CLOSE(s.paper, -0.5, 1e-12);
}

static void test_speedup_paper_bias_two_rounds(void **state)
{
    (void)state;
    /* A/A with swapped noise: (base, cand) = (1, 2), (2, 1).  q = 0.5, 2.
     * paper = ((0.5-1) + (2-1)) / 2 = 0.25;  geomean = sqrt(0.5*2) - 1 = 0;
     * ratio of means = 3/3 - 1 = 0; median of s = (-0.5 + 1)/2 = 0.25.
     * CI: log q = -ln2, ln2; sample sd = ln2*sqrt(2); half width = t(1) * ln2*sqrt2 / sqrt2
     * = 12.706 ln2, so the CI is [2^-12.706 - 1, 2^12.706 - 1]. */
    const double base[] = {1, 2}, cand[] = {2, 1};
    hb_speedup_summary s;
    assert_int_equal(hb_summarize_speedup(base, cand, 2, &s), HB_OK);
    CLOSE(s.paper, 0.25, 1e-12);
    CLOSE(s.geomean, 0.0, 1e-12);
    CLOSE(s.ratio_of_means, 0.0, 1e-12);
    CLOSE(s.median, 0.25, 1e-12);
    CLOSE(s.p10, -0.5 + 0.1 * 1.5, 1e-12);
    CLOSE(s.p90, -0.5 + 0.9 * 1.5, 1e-12);
    double t1 = hb_student_t975(1);
    CLOSE(s.ci95_low, pow(2, -t1) - 1, 1e-9);
    CLOSE(s.ci95_high / (pow(2, t1) - 1), 1.0, 1e-9);
    assert_true(s.paper > s.geomean);
}

static void test_speedup_paper_bias_all_pairs(void **state)
{
    (void)state;
    /* Every ordered pair (a, b) of {1, 2, 3, 4}: base and candidate are the same
     * distribution.  Logs are antisymmetric, so geomean = 0 exactly; the paper's
     * mean of a/b - 1 = (sum a)(sum 1/b)/16 - 1 = 10 * (25/12) / 16 - 1 = 0.302083... */
    const double v[] = {1, 2, 3, 4};
    double base[16], cand[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            base[4 * i + j] = v[i];
            cand[4 * i + j] = v[j];
        }
    hb_speedup_summary s;
    assert_int_equal(hb_summarize_speedup(base, cand, 16, &s), HB_OK);
    CLOSE(s.geomean, 0.0, 1e-12);
    CLOSE(s.paper, 10.0 * (25.0 / 12.0) / 16.0 - 1.0, 1e-12);
    CLOSE(s.ratio_of_means, 0.0, 1e-12);
    assert_true(s.ci95_low < 0 && s.ci95_high > 0);
    /* the CI is symmetric in log space around 0 */
    CLOSE((1 + s.ci95_low) * (1 + s.ci95_high), 1.0, 1e-9);
}

static void test_speedup_symmetry(void **state)
{
    (void)state;
    hb_rng rng;
    hb_rng_seed(&rng, 2024);
    enum { N = 257 };
    double a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = 0.5 + hb_rng_uniform(&rng);
        b[i] = 0.4 + 1.3 * hb_rng_uniform(&rng);
    }
    hb_speedup_summary ab, ba;
    assert_int_equal(hb_summarize_speedup(a, b, N, &ab), HB_OK);
    assert_int_equal(hb_summarize_speedup(b, a, N, &ba), HB_OK);
    CLOSE((1 + ab.geomean) * (1 + ba.geomean), 1.0, 1e-12);
    CLOSE((1 + ab.ci95_low) * (1 + ba.ci95_high), 1.0, 1e-12);
    CLOSE((1 + ab.ci95_high) * (1 + ba.ci95_low), 1.0, 1e-12);
    CLOSE((1 + ab.ratio_of_means) * (1 + ba.ratio_of_means), 1.0, 1e-12);
    /* the paper's score is not symmetric: mean(q) * mean(1/q) >= 1 (Cauchy-Schwarz), strictly with noise */
    assert_true((1 + ab.paper) * (1 + ba.paper) > 1.0 + 1e-6);
    /* and geomean matches a direct computation */
    double sum_log = 0;
    for (int i = 0; i < N; i++)
        sum_log += log(a[i] / b[i]);
    CLOSE(ab.geomean, exp(sum_log / N) - 1, 1e-12);
}

static void test_speedup_errors(void **state)
{
    (void)state;
    double base[] = {1, 2, 3}, cand[] = {1, 2, 3};
    hb_speedup_summary s;
    assert_int_not_equal(hb_summarize_speedup(base, cand, 0, &s), HB_OK);
    base[1] = 0;
    assert_int_not_equal(hb_summarize_speedup(base, cand, 3, &s), HB_OK);
    base[1] = 2;
    cand[2] = -1;
    assert_int_not_equal(hb_summarize_speedup(base, cand, 3, &s), HB_OK);
    cand[2] = NAN;
    assert_int_not_equal(hb_summarize_speedup(base, cand, 3, &s), HB_OK);
    cand[2] = 3;
    base[0] = NAN;
    assert_int_not_equal(hb_summarize_speedup(base, cand, 3, &s), HB_OK);
    base[0] = 1;
    assert_int_equal(hb_summarize_speedup(base, cand, 3, &s), HB_OK);
    /* one round: a point estimate with an unbounded interval */
    double b1[] = {3}, c1[] = {2};
    assert_int_equal(hb_summarize_speedup(b1, c1, 1, &s), HB_OK);
    CLOSE(s.geomean, 0.5, 1e-12);
    CLOSE(s.paper, 0.5, 1e-12);
    CLOSE(s.ci95_low, -1.0, 1e-12);
    assert_true(isinf(s.ci95_high));
}

/* rounds with log q = 0.1 + uniform noise in [-0.05, 0.05] */
static void fill_rounds(hb_rng *rng, double *base, double *cand, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cand[i] = 1.0 + 0.2 * hb_rng_uniform(rng);
        base[i] = cand[i] * exp(0.1 + 0.1 * (hb_rng_uniform(rng) - 0.5));
    }
}

static void test_speedup_large_n(void **state)
{
    (void)state;
    const size_t big = 1000000, small = 100;
    double *base = malloc(big * sizeof *base), *cand = malloc(big * sizeof *cand);
    assert_non_null(base);
    assert_non_null(cand);
    hb_rng rng;
    hb_rng_seed(&rng, 7);
    hb_speedup_summary s_small, s_big;
    fill_rounds(&rng, base, cand, small);
    assert_int_equal(hb_summarize_speedup(base, cand, small, &s_small), HB_OK);
    fill_rounds(&rng, base, cand, big);
    assert_int_equal(hb_summarize_speedup(base, cand, big, &s_big), HB_OK);
    assert_int_equal(s_big.n, big);
    /* true headline: e^0.1 - 1.  Standard error at 1e6 rounds: (0.1/sqrt12)/1000 = 2.9e-5 */
    const double truth = exp(0.1) - 1;
    CLOSE(s_big.geomean, truth, 2e-4);
    assert_true(s_big.ci95_low < s_big.geomean && s_big.geomean < s_big.ci95_high);
    /* the CI narrows like 1/sqrt(n): 100x more precise; allow a wide margin */
    double w_small = s_small.ci95_high - s_small.ci95_low, w_big = s_big.ci95_high - s_big.ci95_low;
    assert_true(w_big > 0);
    assert_true(w_big < w_small / 30);
    /* expected width at 1e6: 2 * 1.96 * 0.02887 / 1000 * 1.105 = 1.25e-4 */
    CLOSE(w_big, 2 * 1.959964 * (0.1 / sqrt(12.0)) / 1000 * (1 + truth), 1e-5);
    free(base);
    free(cand);
}

static const struct CMUnitTest stats_tests[] = {
    cmocka_unit_test(test_quantile_type7),
    cmocka_unit_test(test_quantile_monotone),
    cmocka_unit_test(test_student_t),
    cmocka_unit_test(test_summarize_times_known),
    cmocka_unit_test(test_summarize_times_large_offset),
    cmocka_unit_test(test_speedup_identical),
    cmocka_unit_test(test_speedup_constant_ratio),
    cmocka_unit_test(test_speedup_paper_bias_two_rounds),
    cmocka_unit_test(test_speedup_paper_bias_all_pairs),
    cmocka_unit_test(test_speedup_symmetry),
    cmocka_unit_test(test_speedup_errors),
    cmocka_unit_test(test_speedup_large_n),
};

hb_test_list hb_stats_tests(void) { return HB_TEST_LIST(stats_tests); }
