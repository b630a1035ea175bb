/* Tests of the stopping criteria (bench/measure/stop_criterion.h): the time
 * criterion, the target-CI criterion with its worker thread and series store,
 * and the truncation of a window's samples at the decision's round.  They
 * play synthetic paired times through the criteria as bench/measure/windows.c
 * does (a poll before every round, add_round after it), on a fake clock, so
 * no GPU is needed. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/core/rng.h"
#include "bench/core/series_store.h"
#include "bench/core/stats.h"
#include "bench/measure/decide_criterion.h"
#include "bench/measure/target_ci_criterion.h"
#include "bench/measure/time_criterion.h"
#include "bench/result/window_samples.h"
#include "tests/test_registry.h"

#define PARTICIPANTS 8 /* the candidate and 7 baselines, as in a run */
#define CANDIDATE 0
#define BOOTSTRAP_SEED 0x5eed5eedULL
#define ROUND_S 1e-4   /* the fake clock: seconds per round */
#define GAP_S 1e-5     /* a fake idle gap per round, so the decision's progress can be checked */

/* Synthetic rounds: participant p takes (1 + 0.01 p) ms, times a uniform
 * noise of relative width `noise`; kept[p][r] holds them when asked. */
typedef struct round_source {
    hb_rng rng;
    double noise;
    double *kept[PARTICIPANTS]; /* NULL: not kept */
} round_source;

static void source_init(round_source *s, uint64_t seed, double noise, size_t keep_rounds)
{
    memset(s, 0, sizeof *s);
    hb_rng_seed(&s->rng, seed);
    s->noise = noise;
    for (size_t p = 0; keep_rounds && p < PARTICIPANTS; p++) {
        s->kept[p] = malloc(keep_rounds * sizeof *s->kept[p]);
        assert_non_null(s->kept[p]);
    }
}

static void source_free(round_source *s)
{
    for (size_t p = 0; p < PARTICIPANTS; p++)
        free(s->kept[p]);
}

static void next_round(round_source *s, size_t round, double *event_ms)
{
    for (size_t p = 0; p < PARTICIPANTS; p++) {
        event_ms[p] = (1 + 0.01 * (double)p) * (1 + s->noise * (hb_rng_uniform(&s->rng) - 0.5));
        if (s->kept[p])
            s->kept[p][round] = event_ms[p];
    }
}

/* A window's view of its criteria, on the fake clock. */
typedef struct fake_window {
    hb_stop_criteria criteria;
    hb_window_progress now;
    size_t pace_rounds; /* 0, or a real millisecond's sleep after every this many rounds, so the worker keeps up */
} fake_window;

static void sleep_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    assert_int_equal(nanosleep(&ts, NULL), 0);
}

static void play_round(fake_window *w, round_source *s)
{
    double event_ms[PARTICIPANTS];
    next_round(s, w->now.rounds, event_ms);
    assert_int_equal(hb_stop_criteria_add_round(&w->criteria, event_ms, PARTICIPANTS), HB_OK);
    w->now.rounds++;
    w->now.gaps++;
    w->now.gap_total_s += GAP_S;
    w->now.elapsed_s += ROUND_S;
    if (w->pace_rounds && w->now.rounds % w->pace_rounds == 0)
        sleep_ms(1);
}

static int poll_once(fake_window *w, hb_stop_decision *decision)
{
    assert_int_equal(hb_stop_criteria_poll(&w->criteria, &w->now, decision), HB_OK);
    return decision->finished;
}

/* Plays up to `rounds` rounds as a window does, a poll before each; past
 * them, keeps polling with the clock running (1 ms of real sleep apiece, so
 * the worker can answer) at most `wait_polls` times. */
static hb_stop_decision play(fake_window *w, round_source *s, size_t rounds, int wait_polls)
{
    hb_stop_decision d;
    while (!poll_once(w, &d) && w->now.rounds < rounds)
        play_round(w, s);
    for (int i = 0; !d.finished && i < wait_polls; i++) {
        sleep_ms(1);
        w->now.elapsed_s += ROUND_S;
        poll_once(w, &d);
    }
    return d;
}

static hb_stop_criterion target_ci(double halfwidth, double min_time_s, size_t min_rounds, double every_s)
{
    hb_target_ci_setup setup = {
        .halfwidth = halfwidth,
        .min_time_s = min_time_s,
        .min_rounds = min_rounds,
        .every_s = every_s,
        .bootstrap_seed = BOOTSTRAP_SEED,
        .candidate = CANDIDATE,
        .count = PARTICIPANTS,
    };
    hb_stop_criterion c;
    assert_int_equal(hb_target_ci_criterion_create(&setup, &c), HB_OK);
    return c;
}

static void push(fake_window *w, hb_stop_criterion c)
{
    assert_int_equal(hb_stop_criteria_push(&w->criteria, c), HB_OK);
}

/* What the window's first criterion, a target-CI one, did so far. */
static hb_target_ci_stats stats_of(const fake_window *w) { return hb_target_ci_criterion_stats(&w->criteria.item[0]); }

/* A fresh window whose first criterion is `first`, fed from a fresh source
 * (which keeps its first `keep_rounds` rounds). */
static void open_window(fake_window *w, round_source *s, hb_stop_criterion first, uint64_t seed, double noise,
                        size_t keep_rounds)
{
    source_init(s, seed, noise, keep_rounds);
    *w = (fake_window){.criteria = {.count = 0}};
    push(w, first);
}

static void push_time(fake_window *w, double window_s, size_t min_rounds, int caps_target)
{
    hb_stop_criterion c;
    assert_int_equal(hb_time_criterion_create(window_s, min_rounds, caps_target, &c), HB_OK);
    push(w, c);
}

/* The summary's widest half-width over the first n kept rounds, seeded as
 * bench/driver/config_eval.c seeds it (bootstrap seed + participant index). */
static double summary_widest(const round_source *s, size_t n, double below)
{
    double widest = 0;
    for (size_t p = 0; p < PARTICIPANTS; p++) {
        if (p == CANDIDATE)
            continue;
        hb_speedup_summary summary;
        assert_int_equal(hb_summarize_speedup(s->kept[p], s->kept[CANDIDATE], n, BOOTSTRAP_SEED + p, &summary), HB_OK);
        assert_true(summary.ci95_halfwidth < below);
        if (summary.ci95_halfwidth > widest)
            widest = summary.ci95_halfwidth;
    }
    return widest;
}

/* Noise 2 % (uniform): log-ratio sd about 0.8 %, so the half-width is about
 * 1.6 %/sqrt(n) and a target of 0.02 % is met near n = 6,400 rounds.  The
 * criterion ends at whatever round its worker answered for, and the half-width
 * it decided on is, exactly, the summary's over those rounds. */
static void test_target_ci_met_is_the_summarys_halfwidth(void **state)
{
    (void)state;
    enum { ROUNDS = 40000 };
    const double target = 0.0002, min_time_s = 0.1;
    round_source s;
    fake_window w;
    open_window(&w, &s, target_ci(target, min_time_s, HB_TARGET_CI_MIN_ROUNDS, 0.05), 11, 0.02, ROUNDS);
    w.pace_rounds = 200;
    push_time(&w, 1e9, 10, 1);
    hb_stop_decision d = play(&w, &s, ROUNDS, 20000);
    hb_target_ci_stats stats = stats_of(&w);
    hb_stop_criteria_destroy(&w.criteria);
    printf("  target %.3g%% met at round %zu of %d: widest half-width %.4g%%; %zu requests, %zu answers\n",
           target * 100, d.at.rounds, ROUNDS, d.halfwidth * 100, stats.requests, stats.results);
    assert_true(d.finished);
    assert_string_equal(d.by, "target-ci");
    assert_true(d.at.rounds >= 1000 && d.at.rounds <= ROUNDS); /* min_time_s is 1,000 rounds of the fake clock */
    assert_true(d.at.elapsed_s >= min_time_s);
    assert_int_equal(d.at.gaps, d.at.rounds); /* the window's progress at the decision's round, not the last */
    assert_true(d.halfwidth < target);
    assert_true(d.halfwidth == summary_widest(&s, d.at.rounds, target));
    assert_true(stats.requests >= 1 && stats.results >= 1 && stats.results <= stats.requests);
    source_free(&s);
}

/* A target met from the first rounds on is still not judged before
 * --min-time-s and the least rounds: no request is even posted. */
static void test_target_ci_waits_for_min_time_and_rounds(void **state)
{
    (void)state;
    round_source s;
    fake_window w;
    open_window(&w, &s, target_ci(1.0, 0.5, 100, 0.01), 12, 0.02, 0);
    hb_stop_decision d;
    w.now.elapsed_s = 10; /* past the least time, short of the least rounds */
    for (int r = 0; r < 99; r++) {
        assert_false(poll_once(&w, &d));
        play_round(&w, &s);
    }
    assert_int_equal(stats_of(&w).requests, 0);
    w.now.elapsed_s = 0; /* now short of the least time */
    d = play(&w, &s, 4000, 0);
    assert_false(d.finished);
    assert_int_equal(stats_of(&w).requests, 0);
    w.now.elapsed_s = 0.5;
    d = play(&w, &s, 4000, 20000);
    hb_stop_criteria_destroy(&w.criteria);
    assert_true(d.finished);
    assert_int_equal(d.at.rounds, 4000);
    assert_true(d.at.elapsed_s == 0.5);
    source_free(&s);
}

/* Relative noise 100 %: the half-width stays far above 0.01 %, so the
 * window runs to its length and says the cap ended it. */
static void test_target_ci_never_met_is_time_capped(void **state)
{
    (void)state;
    round_source s;
    fake_window w;
    open_window(&w, &s, target_ci(0.0001, 0, 100, 0.005), 13, 1.0, 0);
    push_time(&w, 0.5, 10, 1);
    hb_stop_decision d = play(&w, &s, 100000, 0);
    hb_target_ci_stats stats = stats_of(&w);
    hb_stop_criteria_destroy(&w.criteria);
    assert_true(d.finished);
    assert_string_equal(d.by, "time-cap");
    assert_true(d.at.rounds >= 4999 && d.at.rounds <= 5001); /* 0.5 s of 0.1 ms rounds, give or take rounding */
    assert_true(isnan(d.halfwidth));
    assert_true(stats.requests >= 1);
    source_free(&s);
}

/* A window of 1e6 rounds of 7 baselines whose criterion has just posted
 * them all, with a target every baseline meets: the worker bootstraps all
 * seven columns, each over 1e6 rounds, a deliberately large request. */
static void post_large_request(fake_window *w, round_source *s, uint64_t seed)
{
    enum { ROUNDS = 1000000 };
    open_window(w, s, target_ci(1.0, 1e9, 100, 0.01), seed, 0.02, 0);
    play(w, s, ROUNDS, 0); /* short of the least time: nothing posted yet */
    assert_int_equal(stats_of(w).requests, 0);
    w->now.elapsed_s = 2e9;
    hb_stop_decision d;
    assert_false(poll_once(w, &d));
    assert_int_equal(stats_of(w).requests, 1);
}

/* Polls while the worker is on the large request answer "not finished" and
 * collect nothing: they returned without waiting for it. */
static void test_poll_while_busy_does_not_block(void **state)
{
    (void)state;
    fake_window w;
    round_source s;
    post_large_request(&w, &s, 14);
    hb_stop_decision d;
    assert_false(poll_once(&w, &d));
    assert_false(poll_once(&w, &d));
    hb_target_ci_stats stats = stats_of(&w);
    assert_int_equal(stats.requests, 1);
    assert_int_equal(stats.results, 0);
    hb_stop_criteria_destroy(&w.criteria);
    source_free(&s);
}

/* Ending the window (time cap, error) while the worker is on the large
 * request: destroy stops it between two baselines and joins it (valgrind: no
 * leak, no error). */
static void test_destroy_while_busy_joins(void **state)
{
    (void)state;
    fake_window w;
    round_source s;
    post_large_request(&w, &s, 15);
    hb_stop_criteria_destroy(&w.criteria);
    assert_int_equal(w.criteria.count, 0);
    source_free(&s);
}

/* The time criterion: the window's length and its least rounds, whichever
 * comes last; "time-cap" beside a target. */
static void test_time_criterion_min_rounds(void **state)
{
    (void)state;
    fake_window w = {.criteria = {.count = 0}};
    push_time(&w, 0.1, 50, 0);
    hb_stop_decision d;
    w.now = (hb_window_progress){.rounds = 10, .elapsed_s = 5.0};
    assert_false(poll_once(&w, &d)); /* 50 times the length, 10 rounds short */
    w.now = (hb_window_progress){.rounds = 49, .elapsed_s = 100.0};
    assert_false(poll_once(&w, &d));
    w.now = (hb_window_progress){.rounds = 500, .elapsed_s = 0.05};
    assert_false(poll_once(&w, &d));
    w.now = (hb_window_progress){.rounds = 50, .elapsed_s = 0.1, .gaps = 7};
    assert_true(poll_once(&w, &d));
    assert_string_equal(d.by, "time");
    assert_int_equal(d.at.rounds, 50);
    assert_int_equal(d.at.gaps, 7);
    hb_stop_criteria_destroy(&w.criteria);
    push_time(&w, 0.1, 1, 1);
    assert_true(poll_once(&w, &d));
    assert_string_equal(d.by, "time-cap");
    hb_stop_criteria_destroy(&w.criteria);
}

/* Columns copied across chunk boundaries come back as appended. */
static void test_series_store_prefix_copy(void **state)
{
    (void)state;
    enum { WIDTH = 3, ROWS = 3 * HB_SERIES_FIRST_CHUNK + 5 }; /* into the second chunk, past its end */
    hb_series_store store;
    assert_int_equal(hb_series_store_init(&store, WIDTH), HB_OK);
    for (size_t r = 0; r < ROWS; r++) {
        double row[WIDTH] = {(double)r, -(double)r, 0.5 * (double)r};
        assert_int_equal(hb_series_store_append(&store, row), HB_OK);
    }
    assert_int_equal(hb_series_store_published(&store), ROWS);
    double *out = malloc(ROWS * sizeof *out);
    assert_non_null(out);
    const size_t lengths[] = {1, HB_SERIES_FIRST_CHUNK, HB_SERIES_FIRST_CHUNK + 1, ROWS};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        assert_int_equal(hb_series_store_copy(&store, 1, lengths[i], out), HB_OK);
        for (size_t r = 0; r < lengths[i]; r++)
            assert_true(out[r] == -(double)r);
    }
    assert_int_equal(hb_series_store_copy(&store, 2, ROWS + 1, out), HB_ERR_INTERNAL);
    assert_int_equal(hb_series_store_copy(&store, WIDTH, 1, out), HB_ERR_INTERNAL);
    free(out);
    hb_series_store_free(&store);
}

/* A window decided at round n keeps n rounds of every vector, --raw's too. */
static void test_samples_truncated_to_decision(void **state)
{
    (void)state;
    hb_participant_samples s;
    memset(&s, 0, sizeof s);
    hb_sample_vec *all[] = {&s.event_ms, &s.wall_ms, &s.slot, &s.start_s, &s.gap_ms};
    for (size_t v = 0; v < 5; v++)
        for (int r = 0; r < 12; r++)
            assert_int_equal(hb_sample_vec_push(all[v], r), HB_OK);
    hb_participant_samples_truncate(&s, 9);
    for (size_t v = 0; v < 5; v++) {
        assert_int_equal(all[v]->len, 9);
        assert_true(all[v]->data[8] == 8);
    }
    hb_participant_samples_truncate(&s, 20); /* never grows */
    assert_int_equal(s.event_ms.len, 9);
    hb_participant_samples_free(&s);
}

/* --- the decide criterion (gate --decide) ------------------------------------------------ */

/* A decide criterion judging participants `columns` against `threshold`, capped at `cap_s` of the fake clock. */
static hb_stop_criterion decide_on(const size_t *columns, size_t count, double threshold, double cap_s,
                                   hb_decision_record *record)
{
    hb_decide_setup setup = {.alpha = 0.05, .log_threshold = log1p(threshold), .cap_s = cap_s, .min_rounds = 10,
                             .candidate = CANDIDATE, .columns = count, .count = PARTICIPANTS, .record = record};
    for (size_t c = 0; c < count; c++)
        setup.column[c] = columns[c];
    hb_stop_criterion c;
    assert_int_equal(hb_decide_criterion_create(&setup, &c), HB_OK);
    return c;
}

/* Participant 5 takes 5 % longer than the candidate: against 0 the first
 * look (64 rounds) decides above, the window ends there and keeps them. */
static void test_decide_ends_the_window_at_the_deciding_look(void **state)
{
    (void)state;
    fake_window w;
    round_source s;
    hb_decision_record record = {0};
    const size_t column[] = {5};
    open_window(&w, &s, decide_on(column, 1, 0, 10.0, &record), 21, 0.02, 0);
    hb_stop_decision d = play(&w, &s, 100000, 0);
    assert_true(d.finished);
    assert_string_equal(d.by, "decided");
    assert_int_equal(d.at.rounds, HB_SEQUENTIAL_FIRST_LOOK);
    assert_int_equal(record.ran, 1);
    assert_int_equal(record.looks, 1);
    assert_int_equal(record.last.look, 1);
    assert_int_equal(record.last.state, HB_LOOK_ABOVE);
    assert_int_equal(record.window_state, HB_LOOK_ABOVE);
    assert_true(record.last.low > 0 && record.last.low < log(1.05) && record.last.high > log(1.05));
    hb_stop_criteria_destroy(&w.criteria);
    source_free(&s);

    /* a -max figure: both layouts judged; 6 % above one, 5 % above the other, against +5.5 %: below */
    const size_t both[] = {5, 6};
    hb_decision_record max_record = {0};
    open_window(&w, &s, decide_on(both, 2, 0.055, 10.0, &max_record), 22, 0.02, 0);
    d = play(&w, &s, 100000, 0);
    assert_string_equal(d.by, "decided");
    assert_int_equal(max_record.last.state, HB_LOOK_BELOW);
    hb_stop_criteria_destroy(&w.criteria);
    source_free(&s);
}

/* A threshold at the true speedup: no look decides, and the cap (0.05 s of
 * the fake clock, 500 rounds) makes a last look over all of them. */
static void test_decide_at_the_threshold_is_capped_undecided(void **state)
{
    (void)state;
    fake_window w;
    round_source s;
    hb_decision_record record = {0};
    const size_t column[] = {5};
    open_window(&w, &s, decide_on(column, 1, 0.05, 0.05, &record), 23, 0.02, 0);
    hb_stop_decision d = play(&w, &s, 100000, 0);
    assert_string_equal(d.by, "time-cap");
    assert_int_equal(d.at.rounds, 500);
    assert_int_equal(record.looks, 4); /* 64, 128, 256, and the cap's at 500 */
    assert_int_equal(record.last.look, 4);
    assert_int_equal(record.last.rounds, 500);
    assert_int_equal(record.last.state, HB_LOOK_UNDECIDED);
    assert_true(fabs(record.last.alpha - hb_look_alpha(0.05, 4)) < 1e-15);
    hb_stop_criteria_destroy(&w.criteria);
    source_free(&s);
}

static const struct CMUnitTest stop_criterion_tests[] = {
    cmocka_unit_test(test_decide_ends_the_window_at_the_deciding_look),
    cmocka_unit_test(test_decide_at_the_threshold_is_capped_undecided),
    cmocka_unit_test(test_target_ci_met_is_the_summarys_halfwidth),
    cmocka_unit_test(test_target_ci_waits_for_min_time_and_rounds),
    cmocka_unit_test(test_target_ci_never_met_is_time_capped),
    cmocka_unit_test(test_poll_while_busy_does_not_block),
    cmocka_unit_test(test_destroy_while_busy_joins),
    cmocka_unit_test(test_time_criterion_min_rounds),
    cmocka_unit_test(test_series_store_prefix_copy),
    cmocka_unit_test(test_samples_truncated_to_decision),
};

hb_test_list hb_stop_criterion_tests(void) { return HB_TEST_LIST(stop_criterion_tests); }
