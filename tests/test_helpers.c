/* Tests of pure helpers of the correctness battery: fp16 decoding and the
 * fp32 error bound (verify/reference_crosscheck.c), the density of the
 * exact-match inputs (verify/problem.c) and configuration seeds
 * (bench/driver/config_eval.c).  CPU only. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/driver/config_eval.h"
#include "bench/result/deviation_rule.h"
#include "tests/test_registry.h"
#include "verify/problem.h"
#include "verify/reference_crosscheck.h"

/* --- hb_half_to_double ---------------------------------------------------------------- */

static void test_half_to_double_known_bits(void **state)
{
    (void)state;
    static const struct {
        uint16_t bits;
        double value;
    } cases[] = {
        {0x0000, 0.0},
        {0x3C00, 1.0},
        {0xBC00, -1.0},
        {0xC000, -2.0},
        {0x3800, 0.5},
        {0x3555, 0x1.554p-2},        /* 0.333251953125 */
        {0x3C01, 1.0 + 0x1p-10},     /* 1 + one ulp */
        {0x7BFF, 65504.0},           /* largest finite */
        {0xFBFF, -65504.0},
        {0x0001, 0x1p-24},           /* smallest subnormal */
        {0x03FF, 1023 * 0x1p-24},    /* largest subnormal */
        {0x0400, 0x1p-14},           /* smallest normal */
        {0x6800, 2048.0},
        {0x6801, 2050.0},            /* above 2048 the step is 2 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double got = hb_half_to_double(cases[i].bits);
        if (got != cases[i].value)
            fprintf(stderr, "0x%04X: got %.17g want %.17g\n", cases[i].bits, got, cases[i].value);
        assert_true(got == cases[i].value);
    }
    assert_true(isinf(hb_half_to_double(0x7C00)) && hb_half_to_double(0x7C00) > 0);
    assert_true(isinf(hb_half_to_double(0xFC00)) && hb_half_to_double(0xFC00) < 0);
    assert_true(isnan(hb_half_to_double(0x7E00)));
    assert_true(isnan(hb_half_to_double(0x7C01))); /* signalling NaN */
    assert_true(isnan(hb_half_to_double(0xFE00)));
    double negative_zero = hb_half_to_double(0x8000);
    assert_true(negative_zero == 0.0);
    assert_true(signbit(negative_zero));
    assert_false(signbit(hb_half_to_double(0x0000)));
    assert_true(hb_half_to_double(0x8001) == -0x1p-24);
}

/* Every finite half: decoding is strictly increasing over the positive
 * codes, and each equals sign * 2^(e-15) * (1 + f/1024) (or f * 2^-24). */
static void test_half_to_double_all_codes(void **state)
{
    (void)state;
    double previous = -1;
    for (uint32_t bits = 0; bits < 0x7C00; bits++) {
        const int e = (int)(bits >> 10), f = (int)(bits & 0x3ff);
        const double want = e == 0 ? f * 0x1p-24 : ldexp(1.0 + f / 1024.0, e - 15);
        const double got = hb_half_to_double((uint16_t)bits);
        if (got != want)
            fail_msg("0x%04X: got %.17g want %.17g", bits, got, want);
        assert_true(got > previous);
        previous = got;
        assert_true(hb_half_to_double((uint16_t)(bits | 0x8000)) == -want);
    }
}

/* --- hb_fp32_dot_error_bound ------------------------------------------------------------ */

static void test_fp32_error_bound(void **state)
{
    (void)state;
    const double u = 0x1p-24;
    /* k = 1: gamma_1 = u / (1 - u), about 2^-24 */
    const double b1 = hb_fp32_dot_error_bound(1, 1.0);
    assert_true(b1 == u / (1 - u));
    assert_true(fabs(b1 - u) < u * 1e-6);
    assert_true(hb_fp32_dot_error_bound(1, 3.0) == 3 * (u / (1 - u)));
    assert_true(hb_fp32_dot_error_bound(4096, 0.0) == 0.0);
    /* exactly k u / (1 - k u) * s */
    const long ks[] = {1, 2, 3, 64, 1000, 4096, 65536, 262144};
    double previous = 0;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        const double ku = (double)ks[i] * u;
        const double want = ku / (1 - ku) * 12.5;
        const double got = hb_fp32_dot_error_bound(ks[i], 12.5);
        assert_true(fabs(got - want) <= 1e-15 * want);
        assert_true(got > previous); /* grows with k */
        assert_true(got >= ku * 12.5); /* never below the first-order bound */
        previous = got;
    }
    /* linear in the sum of |products| */
    assert_true(fabs(hb_fp32_dot_error_bound(777, 8.0) - 8 * hb_fp32_dot_error_bound(777, 1.0)) <=
                1e-15 * hb_fp32_dot_error_bound(777, 8.0));
}

/* --- hb_exact_input_density -------------------------------------------------------------- */

static void test_exact_input_density(void **state)
{
    (void)state;
    const long small[] = {1, 2, 16, 100, 1024, 2047, 2048};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        assert_true(hb_exact_input_density(small[i]) == 0.5);
    /* continuous at 2048 */
    assert_true(fabs(hb_exact_input_density(2049) - 0.5) < 1e-3);
    assert_true(hb_exact_input_density(2049) < 0.5);
    const long large[] = {2049, 4096, 16384, 65536, 262144};
    double previous = 0.5;
    for (size_t i = 0; i < sizeof large / sizeof large[0]; i++) {
        const long k = large[i];
        const double p = hb_exact_input_density(k);
        assert_true(fabs(p - sqrt(512.0 / (double)k)) < 1e-15);
        assert_true(p > 0 && p < previous); /* decreasing */
        previous = p;
        assert_true(fabs((double)k * p * p - 512.0) < 1e-9); /* the mean output stays at 512 */
    }
    assert_true(fabs(hb_exact_input_density(16384) - sqrt(1.0 / 32)) < 1e-15);
    assert_true(fabs(16384.0 * hb_exact_input_density(16384) * hb_exact_input_density(16384) - 512.0) < 1e-9);
}

/* --- hb_config_seed ----------------------------------------------------------------------- */

static void test_config_seed(void **state)
{
    (void)state;
    /* deterministic */
    assert_true(hb_config_seed(7, 0) == hb_config_seed(7, 0));
    assert_true(hb_config_seed(UINT64_MAX, 4095) == hb_config_seed(UINT64_MAX, 4095));
    /* differs across indices and run seeds */
    enum { N = 64 };
    static uint64_t seen[3 * N];
    size_t used = 0;
    const uint64_t run_seeds[3] = {0, 1, 0xdeadbeefcafef00dULL};
    for (size_t s = 0; s < 3; s++)
        for (size_t i = 0; i < N; i++)
            seen[used++] = hb_config_seed(run_seeds[s], i);
    for (size_t a = 0; a < used; a++)
        for (size_t b = a + 1; b < used; b++)
            if (seen[a] == seen[b])
                fail_msg("config seeds %zu and %zu collide", a, b);
    /* the seed is not the run seed itself, and adjacent run seeds differ widely */
    assert_true(hb_config_seed(1, 0) != 1);
    const uint64_t x = hb_config_seed(100, 3) ^ hb_config_seed(101, 3);
    int differing = 0;
    for (int bit = 0; bit < 64; bit++)
        differing += (int)((x >> bit) & 1);
    assert_true(differing >= 16);
}

/* --- the deviation rule (bench/result/deviation_rule.h) ------------------------------------- */

/* The analytic tolerance is 32 u sqrt(K) rms(ref): at K = 16384 with
 * N(0,1) inputs (rms = 128) that is 32 * 2^-24 * 128 * 128 = 2^-5. */
static void test_rule_analytic_tolerance(void **state)
{
    (void)state;
    hb_rule_figures f;
    hb_rule_judge(HB_ACC_FP32, 16384, 128.0, 0.0, 0.0, 0.1, 0.05, &f);
    assert_true(f.analytic == 0x1p-5);
    assert_true(f.tolerance == f.analytic);
    assert_true(f.excess_pass && f.paper_pass);
    /* fp16 class: u = 2^-11, 2^13 times wider */
    hb_rule_judge(HB_ACC_FP16, 16384, 128.0, 0.0, 0.0, 0.1, 0.05, &f);
    assert_true(f.analytic == 0x1p8);
}

/* The larger of the two terms sets the tolerance; the candidate passes up
 * to it and fails above it; the paper's rule is judged on its own figures. */
static void test_rule_decides_on_the_larger_term(void **state)
{
    (void)state;
    hb_rule_figures f;
    hb_rule_judge(HB_ACC_FP32, 64, 8.0, 0.01, 0.02, 0.004, 0.0041, &f);
    assert_true(f.tolerance == 0.02); /* 2 x baseline excess beats 32 * 2^-24 * 8 * 8 */
    assert_true(f.excess_pass);
    assert_true(f.ratio == 1.0);
    assert_false(f.paper_pass); /* 0.0041 > 0.004: the paper's rule alone would reject */
    assert_true(hb_rule_passes(HB_RULE_ULP_EXCESS, &f));
    assert_false(hb_rule_passes(HB_RULE_PAPER, &f));
    hb_rule_judge(HB_ACC_FP32, 64, 8.0, 0.01, 0.0200001, 0.004, 0.001, &f);
    assert_false(f.excess_pass);
    assert_true(f.paper_pass);
    /* NaN fails both */
    hb_rule_judge(HB_ACC_FP32, 64, 8.0, 0.01, NAN, 0.004, NAN, &f);
    assert_false(f.excess_pass || f.paper_pass);
}

static void test_rule_record_keeps_the_worst(void **state)
{
    (void)state;
    hb_deviation_record r;
    memset(&r, 0, sizeof r);
    hb_rule_figures f;
    hb_rule_judge(HB_ACC_FP32, 1024, 32.0, 0.001, 0.001, 0.01, 0.02, &f); /* paper fails */
    hb_deviation_record_add(&r, &f);
    hb_rule_judge(HB_ACC_FP32, 1024, 32.0, 0.001, 0.0015, 0.01, 0.005, &f);
    hb_deviation_record_add(&r, &f);
    hb_rule_judge(HB_ACC_FP32, 1024, 32.0, 0.001, 0.0005, 0.01, 0.001, &f);
    hb_deviation_record_add(&r, &f);
    assert_int_equal(r.checks, 3);
    assert_int_equal(r.paper_failures, 1);
    assert_true(r.worst_ratio == 0.0015 / 0.002);
    assert_true(r.tolerance == 0.002);
    assert_true(r.paper_worst_ratio == 2.0);
    hb_deviation_rule rule;
    assert_true(hb_deviation_rule_parse("paper", &rule) && rule == HB_RULE_PAPER);
    assert_true(hb_deviation_rule_parse("ulp-excess", &rule) && rule == HB_RULE_ULP_EXCESS);
    assert_false(hb_deviation_rule_parse("max", &rule));
    assert_string_equal(hb_deviation_rule_name(HB_RULE_PAPER), "paper");
}

static const struct CMUnitTest helper_tests[] = {
    cmocka_unit_test(test_rule_analytic_tolerance),
    cmocka_unit_test(test_rule_decides_on_the_larger_term),
    cmocka_unit_test(test_rule_record_keeps_the_worst),
    cmocka_unit_test(test_half_to_double_known_bits),
    cmocka_unit_test(test_half_to_double_all_codes),
    cmocka_unit_test(test_fp32_error_bound),
    cmocka_unit_test(test_exact_input_density),
    cmocka_unit_test(test_config_seed),
};

hb_test_list hb_helper_tests(void) { return HB_TEST_LIST(helper_tests); }
