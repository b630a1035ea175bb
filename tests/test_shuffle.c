/* Tests of bench/core/shuffle.c and bench/core/rng.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/rng.h"
#include "bench/core/shuffle.h"
#include "tests/test_registry.h"

/* Reference values below come from an independent Python implementation of
 * splitmix64 -> xoshiro256** (the published algorithms), checked against the
 * well-known first splitmix64(0) output 0xe220a8397b1dcdaf. */
static void test_rng_reference_sequence(void **state)
{
    (void)state;
    hb_rng rng;
    hb_rng_seed(&rng, 0);
    assert_true(hb_rng_next(&rng) == 0x99ec5f36cb75f2b4ULL);
    assert_true(hb_rng_next(&rng) == 0xbf6e1f784956452aULL);
    assert_true(hb_rng_next(&rng) == 0x1a5f849d4933e6e0ULL);
    assert_true(hb_rng_next(&rng) == 0x6aa594f1262d2d2cULL);
    hb_rng_seed(&rng, 12345);
    assert_true(hb_rng_next(&rng) == 0xbe6a36374160d49bULL);
    assert_true(hb_rng_next(&rng) == 0x214aaa0637a688c6ULL);
    assert_true(hb_rng_next(&rng) == 0xf69d16de9954d388ULL);
    assert_true(hb_rng_next(&rng) == 0x0c60048c4e96e033ULL);
}

/* The schedule a seed gives is the same everywhere: same reference. */
static void test_shuffle_reference_schedule(void **state)
{
    (void)state;
    hb_rng rng;
    hb_rng_seed(&rng, 42);
    size_t order[10];
    const size_t first[10] = {7, 3, 8, 9, 5, 6, 4, 1, 0, 2};
    const size_t second[10] = {8, 7, 0, 6, 3, 4, 2, 9, 1, 5};
    hb_shuffle_order(&rng, order, 10);
    assert_memory_equal(order, first, sizeof order);
    hb_shuffle_order(&rng, order, 10);
    assert_memory_equal(order, second, sizeof order);
}

static void test_shuffle_is_permutation(void **state)
{
    (void)state;
    hb_rng rng;
    hb_rng_seed(&rng, 1);
    for (size_t n = 1; n <= 16; n++) {
        for (int trial = 0; trial < 200; trial++) {
            size_t order[17];
            order[n] = 0xDEAD; /* sentinel: nothing written past n */
            hb_shuffle_order(&rng, order, n);
            int seen[16] = {0};
            for (size_t i = 0; i < n; i++) {
                assert_true(order[i] < n);
                seen[order[i]]++;
            }
            for (size_t i = 0; i < n; i++)
                assert_int_equal(seen[i], 1);
            assert_int_equal(order[n], 0xDEAD);
        }
    }
    /* n = 0 writes nothing */
    size_t untouched = 77;
    hb_shuffle_order(&rng, &untouched, 0);
    assert_int_equal(untouched, 77);
}

static void test_shuffle_seeded(void **state)
{
    (void)state;
    hb_rng a, b, c;
    hb_rng_seed(&a, 123456789);
    hb_rng_seed(&b, 123456789);
    hb_rng_seed(&c, 123456790);
    int differs = 0;
    for (int round = 0; round < 100; round++) {
        size_t oa[12], ob[12], oc[12];
        hb_shuffle_order(&a, oa, 12);
        hb_shuffle_order(&b, ob, 12);
        hb_shuffle_order(&c, oc, 12);
        assert_memory_equal(oa, ob, sizeof oa);
        differs |= memcmp(oa, oc, sizeof oa) != 0;
    }
    assert_true(differs);
    /* re-seeding restarts the sequence */
    hb_rng_seed(&a, 5);
    uint64_t x1 = hb_rng_next(&a), x2 = hb_rng_next(&a);
    hb_rng_seed(&a, 5);
    assert_true(hb_rng_next(&a) == x1);
    assert_true(hb_rng_next(&a) == x2);
    assert_true(x1 != x2);
}

static void test_shuffle_uniform_n4(void **state)
{
    (void)state;
    enum { N = 4, SHUFFLES = 240000 };
    hb_rng rng;
    hb_rng_seed(&rng, 20261121);
    static int counts[256];
    int position_of_zero[N] = {0};
    memset(counts, 0, sizeof counts);
    for (int t = 0; t < SHUFFLES; t++) {
        size_t o[N];
        hb_shuffle_order(&rng, o, N);
        counts[o[0] * 64 + o[1] * 16 + o[2] * 4 + o[3]]++;
        for (int p = 0; p < N; p++)
            if (o[p] == 0)
                position_of_zero[p]++;
    }
    /* exactly the 24 permutations occur, each 10000 +- 5 % (sd ~ 98, so 5 sd) */
    int distinct = 0;
    double chi2 = 0;
    for (int code = 0; code < 256; code++) {
        if (!counts[code])
            continue;
        distinct++;
        assert_true(counts[code] >= 9500 && counts[code] <= 10500);
        chi2 += (counts[code] - 10000.0) * (counts[code] - 10000.0) / 10000.0;
    }
    assert_int_equal(distinct, 24);
    /* 23 degrees of freedom: P(chi2 > 60) ~ 4e-5 */
    assert_true(chi2 < 60);
    for (int p = 0; p < N; p++)
        assert_true(abs(position_of_zero[p] - SHUFFLES / N) < SHUFFLES / N / 50); /* +-2 %, ~5.6 sd */
}

static void test_shuffle_position_uniform_n7(void **state)
{
    (void)state;
    /* every element lands in every position equally often (n odd, not a power of two) */
    enum { N = 7, SHUFFLES = 70000 };
    hb_rng rng;
    hb_rng_seed(&rng, 3);
    static int at[N][N];
    memset(at, 0, sizeof at);
    for (int t = 0; t < SHUFFLES; t++) {
        size_t o[N];
        hb_shuffle_order(&rng, o, N);
        for (int p = 0; p < N; p++)
            at[o[p]][p]++;
    }
    /* expected 10000 each, sd ~ 93 */
    for (int e = 0; e < N; e++)
        for (int p = 0; p < N; p++)
            assert_true(at[e][p] > 9500 && at[e][p] < 10500);
}

static void test_rng_below(void **state)
{
    (void)state;
    hb_rng rng;
    hb_rng_seed(&rng, 11);
    for (int i = 0; i < 1000; i++)
        assert_true(hb_rng_below(&rng, 1) == 0);
    const uint64_t bounds[] = {2, 3, 7, 10, 1000, (1ULL << 32) + 1, (1ULL << 63) + 1, UINT64_MAX};
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++)
        for (int i = 0; i < 2000; i++)
            assert_true(hb_rng_below(&rng, bounds[b]) < bounds[b]);
    /* every value of a small bound shows up */
    int seen[7] = {0};
    for (int i = 0; i < 700; i++)
        seen[hb_rng_below(&rng, 7)]++;
    for (int v = 0; v < 7; v++)
        assert_true(seen[v] > 50);
}

static void test_rng_below_no_modulo_bias(void **state)
{
    (void)state;
    /* bound = 3 * 2^62: a plain x % bound maps [0, 2^62) twice (from [0, 2^62) and
     * [3*2^62, 2^64)), so P(value < 2^62) would be 1/2 instead of 1/3. */
    const uint64_t bound = 3ULL << 62;
    hb_rng rng;
    hb_rng_seed(&rng, 8);
    const int draws = 30000;
    int low = 0;
    for (int i = 0; i < draws; i++)
        low += hb_rng_below(&rng, bound) < (1ULL << 62);
    double fraction = (double)low / draws;
    assert_true(fabs(fraction - 1.0 / 3.0) < 0.02); /* sd 0.0027 */
}

static void test_rng_uniform(void **state)
{
    (void)state;
    hb_rng rng;
    hb_rng_seed(&rng, 99);
    const int draws = 1000000;
    double sum = 0, lo = 1, hi = 0;
    int buckets[10] = {0};
    for (int i = 0; i < draws; i++) {
        double u = hb_rng_uniform(&rng);
        assert_true(u >= 0.0 && u < 1.0);
        sum += u;
        lo = u < lo ? u : lo;
        hi = u > hi ? u : hi;
        buckets[(int)(u * 10)]++;
    }
    assert_true(fabs(sum / draws - 0.5) < 0.002); /* sd 2.9e-4 */
    assert_true(lo < 1e-4 && hi > 1 - 1e-4);
    for (int b = 0; b < 10; b++)
        assert_true(abs(buckets[b] - draws / 10) < 1500); /* sd 300 */
}

static const struct CMUnitTest shuffle_tests[] = {
    cmocka_unit_test(test_rng_reference_sequence),
    cmocka_unit_test(test_shuffle_reference_schedule),
    cmocka_unit_test(test_shuffle_is_permutation),
    cmocka_unit_test(test_shuffle_seeded),
    cmocka_unit_test(test_shuffle_uniform_n4),
    cmocka_unit_test(test_shuffle_position_uniform_n7),
    cmocka_unit_test(test_rng_below),
    cmocka_unit_test(test_rng_below_no_modulo_bias),
    cmocka_unit_test(test_rng_uniform),
};

hb_test_list hb_shuffle_tests(void) { return HB_TEST_LIST(shuffle_tests); }
