/* The timed window's cross-check without a GPU (docs/methodology.md, "Timers
 * out of the candidate's reach"): the draw of the cross-checked rounds (its
 * rate, its own stream, its independence from what a round holds), their
 * exclusion from the samples with every round left paired, the sign test's
 * counts, and the judgement on made-up differences of event time - CUPTI's
 * reading: an honest spread never fails, a shave on every round does, a
 * shave on only the rounds that were not checked is not seen. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/binomial.h"
#include "bench/core/rng.h"
#include "bench/core/shuffle.h"
#include "bench/measure/cross_check_rounds.h"
#include "bench/report/cross_check_file.h"
#include "bench/result/cross_check.h"
#include "bench/result/watched_calls.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define PARTICIPANTS 7 /* the candidate and six baselines, as a run has them (the -max rows are not timed) */
#define MOST_ROUNDS 4000

/* --- the draw --------------------------------------------------------------------- */

static void test_cross_check_draw_rate(void **state)
{
    (void)state;
    hb_cross_rounds c;
    hb_cross_rounds_init(&c, 0.03, 11);
    const size_t draws = 100000;
    for (size_t i = 0; i < draws; i++)
        hb_cross_rounds_draw(&c);
    assert_int_equal(c.draws, draws);
    /* 3000 expected, sd 54: five sd either way */
    assert_true(c.drawn > 2730 && c.drawn < 3270);
    hb_cross_rounds_init(&c, 0, 11); /* --cross-check-rounds 0: still one draw a round, none drawn */
    for (size_t i = 0; i < 1000; i++)
        assert_int_equal(hb_cross_rounds_draw(&c), 0);
    assert_int_equal(c.drawn, 0);
    assert_int_equal(c.draws, 1000);
    hb_cross_rounds_init(&c, 0.5, 11); /* the most the option takes */
    for (size_t i = 0; i < 10000; i++)
        hb_cross_rounds_draw(&c);
    assert_true(c.drawn > 4800 && c.drawn < 5200);
}

/* The draw for a round is the seed's alone: the window's generator (its
 * orders, its spot checks) and what a round holds do not move it, and it
 * does not move them; and the rounds drawn are no more often those where the
 * candidate ran first or last than any other. */
static void test_cross_check_draw_ignores_the_round(void **state)
{
    (void)state;
    enum { ROUNDS = 60000 };
    static unsigned char alone[ROUNDS];
    hb_cross_rounds c;
    hb_cross_rounds_init(&c, 0.03, 5);
    for (size_t r = 0; r < ROUNDS; r++)
        alone[r] = (unsigned char)hb_cross_rounds_draw(&c);
    /* The same seed beside a window: each round shuffled by the window's
     * generator, its times made up, a spot-check draw from the window's too. */
    hb_rng window, times, bystander;
    hb_rng_seed(&window, 99);
    hb_rng_seed(&times, 7);
    hb_rng_seed(&bystander, 99); /* what the window's generator gives without the cross-check beside it */
    hb_cross_rounds_init(&c, 0.03, 5);
    size_t drawn_at_slot[PARTICIPANTS] = {0}, rounds_at_slot[PARTICIPANTS] = {0};
    for (size_t r = 0; r < ROUNDS; r++) {
        const int crossed = hb_cross_rounds_draw(&c); /* between rounds, before the round's order exists */
        assert_int_equal(crossed, alone[r]);
        size_t order[PARTICIPANTS], expected[PARTICIPANTS];
        hb_shuffle_order(&window, order, PARTICIPANTS);
        hb_shuffle_order(&bystander, expected, PARTICIPANTS);
        assert_memory_equal(order, expected, sizeof order); /* the orders of a seed are the same with it on */
        (void)hb_rng_uniform(&window), (void)hb_rng_uniform(&bystander); /* the spot check's draw */
        (void)hb_rng_uniform(&times);
        size_t candidate_slot = 0;
        while (order[candidate_slot] != 0)
            candidate_slot++;
        rounds_at_slot[candidate_slot]++;
        drawn_at_slot[candidate_slot] += (size_t)crossed;
    }
    for (size_t s = 0; s < PARTICIPANTS; s++) { /* ~8570 rounds a slot, ~257 drawn, sd 16: five sd */
        const double expected = 0.03 * (double)rounds_at_slot[s];
        assert_true(fabs((double)drawn_at_slot[s] - expected) < 5 * sqrt(expected));
    }
}

/* A cross-checked round leaves every participant's samples, so that sample
 * k of every participant is still the same round; with --raw the slot, start
 * and gap follow. */
static void test_cross_check_rounds_leave_the_samples_paired(void **state)
{
    (void)state;
    static hb_participant_samples samples[3];
    memset(samples, 0, sizeof samples);
    hb_cross_rounds c;
    hb_cross_rounds_init(&c, 0.2, 3);
    size_t kept = 0, crossed_rounds = 0;
    for (size_t r = 0; r < 500; r++) {
        const int crossed = hb_cross_rounds_draw(&c);
        hb_round_figures f;
        for (size_t i = 0; i < 3; i++) { /* each figure says its round and participant */
            f.event_ms[i] = (double)r + 0.1 * (double)i;
            f.wall_ms[i] = f.event_ms[i] + 1000;
            f.slot[i] = (double)((r + i) % 3);
            f.start_s[i] = (double)r;
            f.gap_ms[i] = (double)i;
        }
        assert_int_equal(hb_keep_round(samples, 3, &f, crossed, 1), HB_OK);
        kept += !crossed;
        crossed_rounds += (size_t)crossed;
    }
    assert_int_equal(crossed_rounds, c.drawn);
    assert_true(crossed_rounds > 50); /* 100 expected */
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(samples[i].event_ms.len, kept);
        assert_int_equal(samples[i].wall_ms.len, kept);
        assert_int_equal(samples[i].slot.len, kept);
        assert_int_equal(samples[i].gap_ms.len, kept);
    }
    for (size_t k = 0; k < kept; k++) {
        const double round = floor(samples[0].event_ms.data[k]);
        for (size_t i = 1; i < 3; i++) {
            assert_true(floor(samples[i].event_ms.data[k]) == round);
            assert_true(samples[i].start_s.data[k] == round);
            assert_true(samples[i].wall_ms.data[k] == samples[i].event_ms.data[k] + 1000);
        }
    }
    /* Without --raw, the times alone. */
    static hb_participant_samples lean[2];
    memset(lean, 0, sizeof lean);
    hb_round_figures f = {.event_ms = {1, 2}, .wall_ms = {3, 4}};
    assert_int_equal(hb_keep_round(lean, 2, &f, 0, 0), HB_OK);
    assert_int_equal(hb_keep_round(lean, 2, &f, 1, 0), HB_OK);
    assert_int_equal(lean[1].event_ms.len, 1);
    assert_int_equal(lean[1].slot.len, 0);
    for (size_t i = 0; i < 3; i++)
        hb_participant_samples_free(&samples[i]);
    for (size_t i = 0; i < 2; i++)
        hb_participant_samples_free(&lean[i]);
}

/* --- the sign test's counts ------------------------------------------------------- */

/* P(Bin(n, p) >= k) by a plain sum of products, for small n. */
static double tail_by_hand(size_t n, double p, size_t k)
{
    double sum = 0;
    for (size_t j = k; j <= n; j++) {
        double term = 1;
        for (size_t i = 0; i < j; i++)
            term *= (double)(n - i) / (double)(i + 1) * p;
        for (size_t i = j; i < n; i++)
            term *= 1 - p;
        sum += term;
    }
    return sum;
}

static void test_cross_check_sign_test_counts(void **state)
{
    (void)state;
    for (size_t n = 1; n <= 40; n += 3)
        for (size_t k = 0; k <= n + 1; k++) {
            assert_true(fabs(hb_binomial_upper_tail(n, 0.5, k) - tail_by_hand(n, 0.5, k)) < 1e-12);
            assert_true(fabs(hb_binomial_upper_tail(n, 0.83, k) - tail_by_hand(n, 0.83, k)) < 1e-12);
        }
    assert_true(hb_binomial_upper_tail(10, 0, 1) == 0 && hb_binomial_upper_tail(10, 1, 10) == 1);
    /* 2^-13 > 1e-4 >= 2^-14: 13 rounds can never fail, 14 all below do */
    assert_int_equal(hb_sign_test_critical(13, HB_CROSS_CHECK_ALPHA), 14);
    assert_int_equal(hb_sign_test_critical(14, HB_CROSS_CHECK_ALPHA), 14);
    assert_true(hb_sign_test_power(13, 1.0, HB_CROSS_CHECK_ALPHA) == 0);
    assert_true(hb_sign_test_power(14, 1.0, HB_CROSS_CHECK_ALPHA) == 1);
    assert_int_equal(hb_sign_test_rounds_for(1.0, HB_CROSS_CHECK_ALPHA, 0.9, 100), 14);
    /* The critical count is the least whose tail is within alpha, for small and large n alike. */
    const size_t ns[] = {14, 30, 100, 1000, 20000};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const size_t n = ns[i], k = hb_sign_test_critical(n, HB_CROSS_CHECK_ALPHA);
        assert_true(k > n / 2 && k <= n);
        assert_true(hb_binomial_upper_tail(n, 0.5, k) <= HB_CROSS_CHECK_ALPHA);
        assert_true(hb_binomial_upper_tail(n, 0.5, k - 1) > HB_CROSS_CHECK_ALPHA);
    }
    /* A round that falls below half the time is a false alarm at most alpha (here far less). */
    assert_true(hb_sign_test_power(200, 0.5, HB_CROSS_CHECK_ALPHA) <= HB_CROSS_CHECK_ALPHA);
    assert_true(hb_sign_test_power(200, 0.1, HB_CROSS_CHECK_ALPHA) < 1e-40);
    /* A round below nine times in ten: a few dozen rounds see it. */
    const size_t needed = hb_sign_test_rounds_for(0.9, HB_CROSS_CHECK_ALPHA, 0.9, 1000);
    assert_true(needed > 14 && needed < 60);
    assert_true(hb_sign_test_power(needed, 0.9, HB_CROSS_CHECK_ALPHA) >= 0.9);
}

/* --- the judgement on made-up differences ----------------------------------------- */

/* Event and CUPTI readings of PARTICIPANTS participants over `rounds`
 * cross-checked rounds; participant 0 is the candidate. */
typedef struct readings {
    size_t rounds;
    double event_us[PARTICIPANTS][MOST_ROUNDS];
    double device_us[PARTICIPANTS][MOST_ROUNDS];
} readings;

static const char *const names[PARTICIPANTS] = {"candidate", "torch", "cublas-nn", "cublas-tn",
                                                "cublaslt-heuristic-nn", "cublaslt-heuristic-tn",
                                                "cublaslt-autotune-nn"};

/* An honest difference as an H100 shows them (timer_check.h): the event's
 * 0.5 us tick, and one call in a hundred off by 5 to 30 us either way
 * (CUPTI stamps beside the event, not from it). */
static double honest_noise(hb_rng *rng)
{
    double d = hb_rng_uniform(rng) - 0.5;
    if (hb_rng_uniform(rng) < 0.01)
        d += (hb_rng_uniform(rng) < 0.5 ? -1 : 1) * (5 + 25 * hb_rng_uniform(rng));
    return d;
}

/* Honest rounds: CUPTI reads every call `offset_us` shorter than its events
 * (a call after an idle gap in server mode reads +1.3 to +1.7 us), each call
 * with its own noise; the candidate `candidate_offset_us` further off. */
static void honest(readings *r, size_t rounds, double offset_us, double candidate_offset_us, uint64_t seed)
{
    hb_rng rng;
    hb_rng_seed(&rng, seed);
    r->rounds = rounds;
    for (size_t k = 0; k < rounds; k++)
        for (size_t i = 0; i < PARTICIPANTS; i++) {
            const double event = i == 0 ? 12.0 : 14.0 + (double)i;
            r->event_us[i][k] = event;
            r->device_us[i][k] = event - offset_us - (i == 0 ? candidate_offset_us : 0) - honest_noise(&rng);
        }
}

/* The candidate's event pair read `shave_us` short on round k where shaved(k). */
static void shave(readings *r, double shave_us, const unsigned char *shaved)
{
    for (size_t k = 0; k < r->rounds; k++)
        if (!shaved || shaved[k])
            r->event_us[0][k] -= shave_us;
}

static hb_cross_check judge(const readings *r)
{
    hb_cross_series s[PARTICIPANTS];
    for (size_t i = 0; i < PARTICIPANTS; i++)
        s[i] = (hb_cross_series){names[i], i == 0, r->rounds, r->event_us[i], r->device_us[i]};
    hb_cross_check out;
    assert_int_equal(hb_judge_cross_check(s, PARTICIPANTS, r->rounds, &out), HB_OK);
    return out;
}

/* An honest candidate never fails: offline, in server mode's common offset,
 * with a systematic offset of its own inside the tolerance, with the tails,
 * over 600 made-up configurations of 20 to 2000 rounds. */
static void test_cross_check_honest_spread_never_fails(void **state)
{
    (void)state;
    static readings r;
    const double offsets[] = {0, 1.5, -1.5};
    const double own[] = {0, -0.3, 0.3};
    const size_t counts[] = {20, 100, 2000};
    int runs = 0;
    double worst_p = 1;
    for (uint64_t seed = 1; seed <= 600 / 27 + 1; seed++)
        for (size_t o = 0; o < 3; o++)
            for (size_t c = 0; c < 3; c++)
                for (size_t n = 0; n < 3; n++) {
                    honest(&r, counts[n], offsets[o], own[c], seed * 31 + o * 7 + c * 3 + n);
                    hb_cross_check out = judge(&r);
                    if (out.mismatch)
                        fail_msg("an honest candidate failed: %s", out.why);
                    assert_int_equal(out.paired, counts[n]);
                    worst_p = out.p_value < worst_p ? out.p_value : worst_p;
                    runs++;
                }
    assert_true(runs >= 600);
    assert_true(worst_p > 0.01); /* nowhere near the 1e-4 that fails */
}

/* A 3 us shave on every round, which the detour of the driver's event entry
 * points made only while timed (+14 % at 64^3): every checked round sees it. */
static void test_cross_check_shave_on_every_round_fails(void **state)
{
    (void)state;
    static readings r;
    honest(&r, 100, 0, 0, 42);
    shave(&r, 3.0, NULL);
    hb_cross_check out = judge(&r);
    assert_int_equal(out.mismatch, 1);
    assert_int_equal(out.paired, 100);
    assert_true(out.below >= 95);
    assert_true(out.p_value < 1e-20);
    assert_true(out.paired_median_us < -2.5 && out.paired_median_us > -3.5);
    assert_non_null(strstr(out.why, "candidate: on 100 timed rounds drawn at random"));
    assert_non_null(strstr(out.why, "reads short while timed"));
    /* A 1 us shave too, in server mode's common offset: the first rule, on its
     * own median (+0.5 us), sees nothing; the pairing takes the offset out. */
    honest(&r, 100, 1.5, 0, 43);
    shave(&r, 1.0, NULL);
    out = judge(&r);
    assert_true(fabs(out.median_diff_us) < 2.5);
    assert_int_equal(out.mismatch, 1);
    /* Fewer than 14 checked rounds can never fail, whatever they read. */
    honest(&r, 13, 0, 0, 44);
    shave(&r, 10.0, NULL);
    out = judge(&r);
    assert_int_equal(out.mismatch, 0);
    assert_int_equal(out.below, 13);
}

/* A shave only on the rounds that were not cross-checked is not seen: that
 * is why the rounds are drawn where the candidate cannot see the draw.  A
 * window of 3000 rounds, 3 % of them drawn; a launcher that knew the draw
 * would shave every other round and pass; one that cannot know it and shaves
 * every round is caught on the rounds drawn, and one that shaves a random
 * share of them is caught when that share is well above half, and gains at
 * most that share of its shave below it. */
static void test_cross_check_shave_on_unchecked_rounds_is_not_seen(void **state)
{
    (void)state;
    static readings r;
    hb_cross_rounds draw;
    hb_cross_rounds_init(&draw, 0.03, 77);
    size_t checked = 0;
    for (size_t round = 0; round < 3000; round++)
        checked += (size_t)hb_cross_rounds_draw(&draw);
    assert_true(checked > 60 && checked < 120);
    /* Each checked round of the window: what the candidate did there. */
    honest(&r, checked, 0, 0, 9);
    hb_cross_check out = judge(&r); /* it knew: every checked round is honest */
    assert_int_equal(out.mismatch, 0);
    shave(&r, 3.0, NULL); /* it could not know: it shaved them too */
    out = judge(&r);
    assert_int_equal(out.mismatch, 1);
    static unsigned char shaved[MOST_ROUNDS];
    hb_rng coin;
    hb_rng_seed(&coin, 4);
    for (size_t k = 0; k < checked; k++)
        shaved[k] = hb_rng_uniform(&coin) < 0.3;
    honest(&r, checked, 0, 0, 9);
    shave(&r, 3.0, shaved);
    out = judge(&r); /* 30 % of its rounds, at random: below half, not seen */
    assert_int_equal(out.mismatch, 0);
    for (size_t k = 0; k < checked; k++)
        shaved[k] = hb_rng_uniform(&coin) < 0.9;
    honest(&r, checked, 0, 0, 9);
    shave(&r, 3.0, shaved);
    out = judge(&r); /* 90 % of them: seen */
    assert_int_equal(out.mismatch, 1);
}

/* The first rule, per participant over 30 rounds or more: a baseline whose
 * events read long while timed (slowed inside its event pair) is named. */
static void test_cross_check_median_rule_names_the_participant(void **state)
{
    (void)state;
    static readings r;
    honest(&r, 40, 0, 0, 5);
    for (size_t k = 0; k < r.rounds; k++)
        r.event_us[2][k] += 6.0;
    hb_cross_check out = judge(&r);
    assert_int_equal(out.mismatch, 1);
    assert_non_null(strstr(out.why, "cublas-nn: on 40 timed rounds drawn at random"));
    assert_non_null(strstr(out.why, "differ from the CUDA events by +5.9 us (median; CUDA events read 22.0 us)"));
    r.rounds = 29; /* a median over fewer rounds decides nothing; the candidate is honest */
    out = judge(&r);
    assert_int_equal(out.mismatch, 0);
    /* No baseline read: the candidate's own median still judges it. */
    honest(&r, 40, 0, 0, 6);
    shave(&r, 5.0, NULL);
    for (size_t i = 1; i < PARTICIPANTS; i++)
        for (size_t k = 0; k < r.rounds; k++)
            r.device_us[i][k] = NAN;
    out = judge(&r);
    assert_int_equal(out.paired, 0);
    assert_int_equal(out.compared, 40);
    assert_int_equal(out.mismatch, 1);
    assert_non_null(strstr(out.why, "candidate: on 40 timed rounds"));
}

/* The share of honest rounds a shave puts below the tolerance: the power's input. */
static void test_cross_check_round_power(void **state)
{
    (void)state;
    const double c[] = {-0.4, -0.2, 0, 0.1, 0.3, NAN, 2.0, -3.0};
    assert_true(hb_cross_check_round_power(c, 8, 0, 0.5) == 1.0 / 7);     /* honest: -3 alone */
    assert_true(hb_cross_check_round_power(c, 8, 1.0, 0.5) == 6.0 / 7);   /* below +0.5 */
    assert_true(hb_cross_check_round_power(c, 8, 10.0, 0.5) == 1.0);
    assert_true(isnan(hb_cross_check_round_power(c + 5, 1, 1.0, 0.5)));
    assert_true(fabs(hb_cross_check_tolerance_us(200) - 1.5) < 1e-12);
}

/* --- what the monitor keeps, and the --raw file ---------------------------------- */

static hb_call_trace call_of(hb_call_kind kind, long sample, double event_us, double device_us)
{
    hb_call_trace c;
    memset(&c, 0, sizeof c);
    c.index = 5;
    c.kind = kind;
    c.sample = sample;
    c.event_us = event_us;
    c.event_start_ns = 1000000;
    c.event_stop_ns = 1000000 + (uint64_t)(device_us * 1e3);
    return c;
}

static void test_cross_check_watched_calls_keep_the_rounds_apart(void **state)
{
    (void)state;
    static hb_watched w;
    assert_int_equal(hb_watched_init(&w, "candidate", 1, 2), HB_OK);
    hb_call_trace warm = call_of(HB_CALL_WARMUP, -1, 12.0, 11.0);
    hb_call_trace crossed = call_of(HB_CALL_CROSS_CHECKED, 2, 12.0, 15.0);
    hb_call_trace timed = call_of(HB_CALL_TIMED, 0, 12.0, 0);
    timed.event_start_ns = timed.event_stop_ns = 0; /* CUPTI off in a timed round */
    assert_int_equal(hb_watched_add(&w, &warm), HB_OK);
    assert_int_equal(hb_watched_add(&w, &crossed), HB_OK);
    assert_int_equal(hb_watched_add(&w, &timed), HB_OK);
    assert_int_equal(w.device_diff_us.len, 1); /* the warm-up's check keeps its own calls */
    assert_true(fabs(w.device_diff_us.data[0] - 1.0) < 1e-9);
    assert_int_equal(w.cross_event_us.len, 3); /* by the round's index among the cross-checked */
    assert_true(isnan(w.cross_event_us.data[0]));
    assert_true(w.cross_event_us.data[2] == 12.0);
    assert_true(fabs(w.cross_device_us.data[2] - 15.0) < 1e-6);
    assert_int_equal(w.timed_span_us.len, 1); /* the timed call, not the cross-checked one */
    assert_int_equal(w.later_span_us.len, 1); /* the warm-up's call */
    assert_int_equal(w.tally.timed_calls, 2);
    hb_watched_free(&w);
}

static void test_cross_check_raw_file(void **state)
{
    (void)state;
    char dir[512], path[600];
    hb_test_make_temp_dir("hb-cross", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/0000_64x64x64.cross.csv", dir);
    const double ce[] = {12, 11}, cd[] = {11.5, NAN}, be[] = {15, 15}, bd[] = {14, 15}, te[] = {16, 16},
                 td[] = {16, 15.5};
    const hb_cross_series s[] = {{"candidate", 1, 2, ce, cd}, {"torch", 0, 2, be, bd}, {"=cublas,nn", 0, 2, te, td}};
    assert_int_equal(hb_cross_check_file_write(path, s, 3, 2), HB_OK);
    char *text = hb_test_read_file(path);
    assert_non_null(text);
    assert_non_null(strstr(text, HB_CROSS_CHECK_FILE_HEADER "\n"));
    /* round 0: baselines' median diff (1 + 0) / 2 = 0.5; the candidate's 0.5 - 0.5 */
    assert_non_null(strstr(text, "\n0,0,candidate,candidate,12,11.5,0.5,0\n"));
    assert_non_null(strstr(text, "\n0,2,\"'=cublas,nn\",baseline,16,16,0,-0.5\n"));
    assert_non_null(strstr(text, "\n1,0,candidate,candidate,11,,,\n")); /* CUPTI did not read it */
    free(text);
    hb_test_remove_tree(dir);
}

hb_test_list hb_cross_check_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cross_check_draw_rate),
        cmocka_unit_test(test_cross_check_draw_ignores_the_round),
        cmocka_unit_test(test_cross_check_rounds_leave_the_samples_paired),
        cmocka_unit_test(test_cross_check_sign_test_counts),
        cmocka_unit_test(test_cross_check_honest_spread_never_fails),
        cmocka_unit_test(test_cross_check_shave_on_every_round_fails),
        cmocka_unit_test(test_cross_check_shave_on_unchecked_rounds_is_not_seen),
        cmocka_unit_test(test_cross_check_median_rule_names_the_participant),
        cmocka_unit_test(test_cross_check_round_power),
        cmocka_unit_test(test_cross_check_watched_calls_keep_the_rounds_apart),
        cmocka_unit_test(test_cross_check_raw_file),
    };
    return HB_TEST_LIST(tests);
}
