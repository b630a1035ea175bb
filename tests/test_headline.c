/* The headline (bench/result/headline.h) without a GPU: made-up timed
 * rounds, checks and settings in, the configuration's verdict out.  The
 * first failed check decides; work off the timed stream moves the headline
 * to the wall clock and the gate judges there; an implausible time has no
 * speedup to gate; the threshold passes at itself and fails just above; a
 * finding --forbid names is forbidden, fast or slow; the reward is settled
 * on the final verdict; the stages in three calls give what one call gives. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/result/check_list.h"
#include "bench/result/conduct.h"
#include "bench/result/gate.h"
#include "bench/result/headline.h"
#include "bench/result/plausibility.h"
#include "tests/test_registry.h"

#define ROUNDS 120
#define PARTICIPANTS 4 /* the candidate, torch, cublas-nn, cublas-tn */

/* Everything one call of the headline reads, and the result it writes. */
typedef struct fixture {
    hb_participant_samples samples[PARTICIPANTS];
    double diff_us[PARTICIPANTS][ROUNDS]; /* event - CUPTI's device reading */
    hb_headline_participant parts[PARTICIPANTS];
    hb_check_list checks;
    hb_reward_settings reward;
    hb_device_info device;
    hb_headline_input in;
    hb_config_result r;
} fixture;

static fixture f;

static const char *const names[PARTICIPANTS] = {"candidate", "torch", "cublas-nn", "cublas-tn"};

/* Participant i's rounds: event `event_us`, wall `event_us + gap_us`, each
 * with a little deterministic noise (within +-0.1 us). */
static void time_participant(size_t i, double event_us, double gap_us)
{
    hb_participant_samples_free(&f.samples[i]);
    for (int k = 0; k < ROUNDS; k++) {
        const double noise = 0.1 * sin(k * 1.7 + (double)i);
        assert_int_equal(hb_sample_vec_push(&f.samples[i].event_ms, (event_us + noise) * 1e-3), HB_OK);
        assert_int_equal(hb_sample_vec_push(&f.samples[i].wall_ms, (event_us + gap_us + noise) * 1e-3), HB_OK);
    }
}

/* A fresh result and list, and a `run`'s settings: vs torch, no gate, no
 * reward, no GPU peak; every participant timed, no trace. */
static void start(double cand_us, double cand_gap_us, double base_us)
{
    time_participant(0, cand_us, cand_gap_us);
    time_participant(1, base_us, 7);
    time_participant(2, base_us + 0.5, 7);
    time_participant(3, base_us + 1, 7);
    for (size_t i = 0; i < PARTICIPANTS; i++)
        f.parts[i] = (hb_headline_participant){.name = names[i], .is_candidate = i == 0, .samples = &f.samples[i]};
    memset(&f.checks, 0, sizeof f.checks);
    f.reward = (hb_reward_settings){.on = 0, .alpha = 1, .beta = 0, .length_bytes = -1};
    memset(&f.device, 0, sizeof f.device);
    snprintf(f.device.name, sizeof f.device.name, "a made-up GPU");
    f.device.sm = 90;
    f.device.sm_count = 132;
    f.in = (hb_headline_input){
        .participants = f.parts,
        .count = PARTICIPANTS,
        .timed = 1,
        .checks = &f.checks,
        .options = {.vs = "torch", .reward = &f.reward, .bootstrap_seed = 7},
    };
    const hb_mnk mnk = {1024, 1024, 1024};
    hb_config_result_init(&f.r, &mnk);
    f.r.conduct.traced = 1;
    f.r.battery.deviation.checks = 2; /* what the reward averages: the deviation checks */
    f.r.battery.deviation.paper_dev_sum = 0.004;
    f.r.battery.deviation.paper_dev_max = 0.003;
}

static hb_status decide_all(void)
{
    return hb_headline_decide(&f.in, HB_HEADLINE_ALL, &f.r);
}

static void free_samples(void)
{
    for (size_t i = 0; i < PARTICIPANTS; i++)
        hb_participant_samples_free(&f.samples[i]);
}

static void test_headline_first_failed_check_decides(void **state)
{
    (void)state;
    start(20, 7, 25); /* fast: only the checks can fail it */
    f.in.options.gate = 1;
    f.in.options.min_speedup = -1;
    f.reward.on = 1;
    hb_check_list_add(&f.checks, HB_CHECK_EXACT_BINARY, HB_OK, "%s", "");
    hb_check_list_add(&f.checks, HB_CHECK_SPOT, HB_ERR_INCORRECT, "round %d: c[0] = 1, expected 2", 3);
    hb_check_list_add(&f.checks, HB_CHECK_TIMER_INTEGRITY, HB_ERR_TIMER_MISMATCH, "cudaEventRecord rewritten");
    assert_int_equal(decide_all(), HB_ERR_INCORRECT);
    assert_int_equal(f.r.status, HB_ERR_INCORRECT);
    assert_int_equal(f.r.verdict, HB_VERDICT_INCORRECT);
    assert_string_equal(f.r.check, HB_CHECK_SPOT);
    assert_string_equal(f.r.reason, "round 3: c[0] = 1, expected 2");
    assert_int_equal(f.r.measured, 0); /* no figure for a candidate that failed a check */
    assert_int_equal(f.r.rounds, 0);
    assert_int_equal(f.r.reward.earned, 0);
    assert_non_null(strstr(f.r.reward.note, "verdict incorrect (spot-check)"));

    start(20, 7, 25); /* the same two failures the other way round */
    hb_check_list_add(&f.checks, HB_CHECK_TIMER_INTEGRITY, HB_ERR_TIMER_MISMATCH, "cudaEventRecord rewritten");
    hb_check_list_add(&f.checks, HB_CHECK_SPOT, HB_ERR_INCORRECT, "round 3");
    assert_int_equal(decide_all(), HB_ERR_TIMER_MISMATCH);
    assert_int_equal(f.r.verdict, HB_VERDICT_TIMER_MISMATCH);
    assert_string_equal(f.r.check, HB_CHECK_TIMER_INTEGRITY);

    /* An ending no check names: a candidate's fault is execution, the harness's an error. */
    start(20, 7, 25);
    hb_check_list_add_ending(&f.checks, HB_ERR_CANDIDATE_FAULT, "", "", "an illegal memory access");
    assert_int_equal(decide_all(), HB_ERR_CANDIDATE_FAULT);
    assert_int_equal(f.r.verdict, HB_VERDICT_CRASHED);
    assert_string_equal(f.r.check, HB_CHECK_EXECUTION);
    assert_string_equal(f.r.reason, "an illegal memory access");
    start(20, 7, 25);
    hb_check_list_add_ending(&f.checks, HB_ERR_CUDA, "", "", "cudaMalloc: out of memory");
    hb_check_list_add_ending(&f.checks, HB_OK, "", "", "ignored");
    assert_int_equal(f.checks.count, 1);
    assert_int_equal(decide_all(), HB_ERR_CUDA);
    assert_int_equal(f.r.verdict, HB_VERDICT_ERROR);
    assert_string_equal(f.r.check, "");
    free_samples();
}

/* A page of code changed (bench/core/code_pages.h): the verify point ends
 * the evaluation with it, timer-mismatch with no figure, even fast and
 * under a gate it would pass; a check that failed before it still decides. */
static void test_headline_code_integrity(void **state)
{
    (void)state;
    const char *why = "libcuda.so.1's code changed at page +0x1a2000 (0x7f0000001a2000, near cuEventRecord+0x0): "
                      "its bytes differ from the seal's (found after a timing window)";
    start(20, 7, 25);
    f.in.options.gate = 1;
    f.in.options.min_speedup = -1;
    hb_check_list_add(&f.checks, HB_CHECK_EXACT_BINARY, HB_OK, "%s", "");
    hb_check_list_add_ending(&f.checks, HB_ERR_TIMER_MISMATCH, HB_CHECK_CODE_INTEGRITY, why, "");
    assert_int_equal(decide_all(), HB_ERR_TIMER_MISMATCH);
    assert_int_equal(f.r.verdict, HB_VERDICT_TIMER_MISMATCH);
    assert_string_equal(f.r.check, "code-integrity");
    assert_string_equal(f.r.reason, why);
    assert_int_equal(f.r.measured, 0);

    start(20, 7, 25);
    hb_check_list_add(&f.checks, HB_CHECK_DEVIATION, HB_ERR_INCORRECT, "excess 3.1 ulp");
    hb_check_list_add_ending(&f.checks, HB_ERR_TIMER_MISMATCH, HB_CHECK_CODE_INTEGRITY, why, "");
    assert_int_equal(decide_all(), HB_ERR_INCORRECT);
    assert_string_equal(f.r.check, HB_CHECK_DEVIATION);
    free_samples();
}

static void test_headline_check_list_keeps_its_first_failure(void **state)
{
    (void)state;
    static hb_check_list list;
    memset(&list, 0, sizeof list);
    for (int i = 0; i < HB_CHECK_LIST_MAX + 8; i++)
        hb_check_list_add(&list, HB_CHECK_DEVIATION, HB_OK, "check %d", i);
    assert_int_equal(list.count, HB_CHECK_LIST_MAX);
    assert_null(hb_check_list_failure(&list));
    assert_int_equal(hb_check_list_add(&list, HB_CHECK_POST_TIMING, HB_ERR_INCORRECT, "late"), HB_ERR_INCORRECT);
    hb_check_list_add(&list, HB_CHECK_GUARD_BAND, HB_ERR_INCORRECT, "later");
    const hb_check_outcome *failed = hb_check_list_failure(&list);
    assert_non_null(failed);
    assert_string_equal(failed->check, HB_CHECK_POST_TIMING); /* a full list still keeps the first */
    assert_string_equal(failed->reason, "late");
}

static void test_headline_wall_when_work_left_the_stream(void **state)
{
    (void)state;
    /* The candidate's events read 10 us while its wall clock reads 30: part
     * of its work ran on another stream, where the events do not see it. */
    start(10, 20, 20);
    f.parts[0].other_stream_calls = 12;
    f.in.options.gate = 1;
    assert_int_equal(decide_all(), HB_ERR_TOO_SLOW);
    assert_int_equal(f.r.headline_timer, HB_TIMER_WALL);
    assert_true(f.r.timer_reasons & HB_TIMER_REASON_OTHER_STREAM);
    assert_non_null(strstr(f.r.timer_why, "candidate put work on another stream in 12 calls"));
    const hb_participant_result *torch = hb_find_participant(&f.r, "torch");
    assert_non_null(torch);
    assert_true(torch->speedup_event.geomean > 0.9); /* 20 / 10: what the events alone would say */
    assert_true(torch->speedup_wall.geomean < -0.05); /* 27 / 30 */
    assert_ptr_equal(hb_headline_speedup(&f.r, torch), &torch->speedup_wall);
    assert_int_equal(f.r.verdict, HB_VERDICT_TOO_SLOW); /* judged on the wall clock */
    assert_string_equal(f.r.check, HB_CHECK_SPEEDUP);
    assert_non_null(strstr(f.r.reason, "wall timer"));
    assert_int_equal(f.r.measured, 1); /* too slow is still timed */
    assert_int_equal(f.checks.count, 1); /* the timers' cross-check ran, and passed */
    assert_string_equal(f.checks.outcomes[0].check, HB_CHECK_TIMER_CROSS_CHECK);
    assert_int_equal(f.checks.outcomes[0].status, HB_OK);

    start(10, 7, 20); /* the same events with the work on the timed stream: events, and a pass */
    f.in.options.gate = 1;
    assert_int_equal(decide_all(), HB_OK);
    assert_int_equal(f.r.headline_timer, HB_TIMER_EVENT);
    assert_int_equal(f.r.verdict, HB_VERDICT_PASS);
    free_samples();
}

static void test_headline_timers_disagreeing_fail_the_figures(void **state)
{
    (void)state;
    start(20, 7, 25);
    for (int k = 0; k < ROUNDS; k++) /* CUPTI reads the candidate's event pair 6 us longer than the events do */
        f.diff_us[0][k] = -6.0;
    f.parts[0].device_diff_us = f.diff_us[0];
    f.parts[0].n_device = ROUNDS;
    f.reward.on = 1;
    assert_int_equal(hb_headline_decide(&f.in, HB_HEADLINE_FIGURES, &f.r), HB_ERR_TIMER_MISMATCH);
    const hb_check_outcome *failed = hb_check_list_failure(&f.checks);
    assert_non_null(failed);
    assert_string_equal(failed->check, HB_CHECK_TIMER_CROSS_CHECK);
    assert_non_null(strstr(failed->reason, "CUPTI's device timestamps"));
    assert_int_equal(f.r.count, PARTICIPANTS); /* the steps after it did not run: no -max row, no reward */
    assert_int_equal(f.r.reward.requested, 0);
    hb_headline_decide(&f.in, HB_HEADLINE_VERDICT | HB_HEADLINE_GATE, &f.r);
    assert_int_equal(f.r.verdict, HB_VERDICT_TIMER_MISMATCH);
    assert_string_equal(f.r.check, HB_CHECK_TIMER_CROSS_CHECK);
    assert_int_equal(f.r.measured, 0);
    assert_int_equal(f.r.reward.earned, 0);
    free_samples();
}

static void test_headline_implausible_has_no_speedup(void **state)
{
    (void)state;
    /* 2 x 1024^3 FLOP in 20 us is 107 TFLOP/s, beyond a peak of 1 TFLOP/s. */
    start(20, 7, 25);
    f.in.options.device = &f.device;
    f.in.options.peak_tflops = 1;
    f.in.options.gate = 1;
    f.reward.on = 1;
    assert_int_equal(decide_all(), HB_ERR_IMPLAUSIBLE);
    assert_int_equal(f.r.verdict, HB_VERDICT_IMPLAUSIBLE);
    assert_string_equal(f.r.check, HB_CHECK_PEAK_THROUGHPUT);
    assert_int_equal(f.r.plausibility.source, HB_PEAK_FLAG);
    assert_true(f.r.plausibility.achieved_tflops > 100);
    assert_int_equal(hb_result_has_speedups(&f.r), 0); /* its times stay, its speedups do not count */
    assert_int_equal(f.r.measured, 1);
    assert_int_equal(f.r.reward.earned, 0);
    assert_non_null(strstr(f.r.reward.note, "implausible (peak-throughput)"));

    start(20, 7, 25); /* under a peak of 1000 TFLOP/s the same time passes, with its speedup */
    f.in.options.device = &f.device;
    f.in.options.peak_tflops = 1000;
    f.in.options.gate = 1;
    assert_int_equal(decide_all(), HB_OK);
    assert_int_equal(hb_result_has_speedups(&f.r), 1);
    assert_true(fabs(f.r.participants[1].speedup_event.geomean - 0.25) < 0.01);
    free_samples();
}

static void test_headline_gate_at_the_threshold(void **state)
{
    (void)state;
    start(20, 7, 25);
    assert_int_equal(decide_all(), HB_OK); /* `run`: no threshold */
    const hb_participant_result *max = hb_find_participant(&f.r, "cublas-max");
    assert_non_null(max);
    assert_string_equal(max->max_of, "cublas-nn"); /* 25.5 us against cublas-tn's 26 */
    const double speedup = f.r.participants[1].speedup_event.geomean;
    assert_true(speedup > 0.24 && speedup < 0.26);

    start(20, 7, 25); /* the same rounds and seed: the same figure, which meets a threshold equal to it */
    f.in.options.gate = 1;
    f.in.options.min_speedup = speedup;
    assert_int_equal(decide_all(), HB_OK);
    assert_int_equal(f.r.verdict, HB_VERDICT_PASS);
    assert_string_equal(f.r.check, "");

    start(20, 7, 25); /* the next double above it does not */
    f.in.options.gate = 1;
    f.in.options.min_speedup = nextafter(speedup, 1.0);
    assert_int_equal(decide_all(), HB_ERR_TOO_SLOW);
    assert_int_equal(f.r.verdict, HB_VERDICT_TOO_SLOW);
    assert_string_equal(f.r.check, HB_CHECK_SPEEDUP);
    assert_non_null(strstr(f.r.reason, "is below the threshold"));
    assert_non_null(strstr(f.r.reason, "event timer"));
    free_samples();
}

static void test_headline_forbidden_under_forbid(void **state)
{
    (void)state;
    const unsigned sync = hb_gate_forbidden_findings(0, "sync");
    assert_int_equal(sync, HB_FINDING_BIT(HB_FINDING_SYNC));
    start(20, 7, 25); /* fast enough, but it synchronized inside its calls */
    f.r.conduct.found = HB_FINDING_BIT(HB_FINDING_SYNC);
    snprintf(f.r.conduct.line[HB_FINDING_SYNC], sizeof f.r.conduct.line[HB_FINDING_SYNC],
             "sync: cudaDeviceSynchronize in 120 of 120 calls");
    f.in.options.gate = 1;
    f.in.options.forbidden = sync;
    assert_int_equal(decide_all(), HB_ERR_FORBIDDEN);
    assert_int_equal(f.r.verdict, HB_VERDICT_FORBIDDEN);
    assert_string_equal(f.r.check, HB_CHECK_CONDUCT);
    assert_non_null(strstr(f.r.reason, "cudaDeviceSynchronize"));

    start(20, 7, 25); /* too slow as well: still forbidden, it was correct */
    f.r.conduct.found = HB_FINDING_BIT(HB_FINDING_SYNC);
    f.in.options.gate = 1;
    f.in.options.min_speedup = 0.5;
    f.in.options.forbidden = sync;
    assert_int_equal(decide_all(), HB_ERR_FORBIDDEN);

    start(20, 7, 25); /* the gate without --forbid takes it */
    f.r.conduct.found = HB_FINDING_BIT(HB_FINDING_SYNC);
    f.in.options.gate = 1;
    assert_int_equal(decide_all(), HB_OK);

    start(20, 7, 25); /* `run` refuses nothing */
    f.r.conduct.found = HB_FINDING_BIT(HB_FINDING_SYNC);
    f.in.options.forbidden = sync;
    assert_int_equal(decide_all(), HB_OK);

    start(20, 7, 25); /* no trace judged it: the gate cannot clear it */
    f.r.conduct.traced = 0;
    snprintf(f.r.trace_note, sizeof f.r.trace_note, "--no-trace");
    f.in.options.gate = 1;
    f.in.options.forbidden = sync;
    assert_int_equal(decide_all(), HB_ERR_CUDA);
    assert_string_equal(f.r.check, HB_CHECK_CONDUCT);
    assert_non_null(strstr(f.r.reason, "--no-trace"));
    free_samples();
}

static void test_headline_reward_settled_last(void **state)
{
    (void)state;
    start(20, 7, 25);
    f.reward.on = 1;
    f.in.options.gate = 1;
    assert_int_equal(decide_all(), HB_OK);
    assert_int_equal(f.r.reward.earned, 1);
    assert_string_equal(f.r.reward.vs, "torch");
    assert_string_equal(f.r.reward.timer, "event");
    assert_int_equal(f.r.reward.rounds, ROUNDS);
    assert_true(fabs(f.r.reward.speed_term - 1.25) < 0.01);
    assert_true(fabs(f.r.reward.r - (f.r.reward.speed_term - 1 * 0.002)) < 1e-12); /* alpha x mean deviation */

    start(20, 7, 25); /* the terms were computed with the figures; the verdict after them takes the reward */
    f.reward.on = 1;
    f.r.conduct.found = HB_FINDING_BIT(HB_FINDING_SYNC);
    f.in.options.gate = 1;
    f.in.options.forbidden = HB_FINDING_BIT(HB_FINDING_SYNC);
    assert_int_equal(hb_headline_decide(&f.in, HB_HEADLINE_FIGURES | HB_HEADLINE_VERDICT, &f.r), HB_OK);
    assert_int_equal(f.r.reward.earned, 1); /* before the gate */
    assert_int_equal(hb_headline_decide(&f.in, HB_HEADLINE_GATE, &f.r), HB_ERR_FORBIDDEN);
    assert_int_equal(f.r.reward.earned, 0);
    assert_non_null(strstr(f.r.reward.note, "verdict forbidden (conduct)"));

    start(20, 7, 25); /* too slow is correct: it keeps its reward */
    f.reward.on = 1;
    f.in.options.gate = 1;
    f.in.options.min_speedup = 0.5;
    assert_int_equal(decide_all(), HB_ERR_TOO_SLOW);
    assert_int_equal(f.r.reward.earned, 1);
    free_samples();
}

/* What a result's verdict and headline are, for comparing two. */
typedef struct outcome {
    hb_status status;
    hb_verdict verdict;
    char check[24], reason[512];
    hb_timer timer;
    double speedup, reward;
    size_t count;
} outcome;

static outcome outcome_of(const hb_config_result *r)
{
    outcome o = {r->status, r->verdict, "", "", r->headline_timer, hb_headline_speedup(r, &r->participants[1])->geomean,
                 r->reward.r, r->count};
    snprintf(o.check, sizeof o.check, "%s", r->check);
    snprintf(o.reason, sizeof o.reason, "%s", r->reason);
    return o;
}

static void test_headline_stages_in_turn_give_one_call(void **state)
{
    (void)state;
    for (int wall = 0; wall < 2; wall++) {
        start(wall ? 10 : 20, wall ? 20 : 7, 20);
        f.parts[0].other_stream_calls = wall ? 5 : 0;
        f.reward.on = 1;
        f.in.options.gate = 1;
        f.in.options.min_speedup = 0.01;
        decide_all();
        const outcome one = outcome_of(&f.r);

        start(wall ? 10 : 20, wall ? 20 : 7, 20);
        f.parts[0].other_stream_calls = wall ? 5 : 0;
        f.reward.on = 1;
        f.in.options.gate = 1;
        f.in.options.min_speedup = 0.01;
        hb_headline_decide(&f.in, HB_HEADLINE_FIGURES, &f.r);
        hb_headline_decide(&f.in, HB_HEADLINE_VERDICT, &f.r);
        hb_headline_input parent = {.options = f.in.options}; /* the parent has no list: the verdict is in r */
        hb_headline_decide(&parent, HB_HEADLINE_GATE, &f.r);
        const outcome staged = outcome_of(&f.r);

        assert_int_equal(staged.status, one.status);
        assert_int_equal(staged.verdict, one.verdict);
        assert_string_equal(staged.check, one.check);
        assert_string_equal(staged.reason, one.reason);
        assert_int_equal(staged.timer, one.timer);
        assert_true(staged.speedup == one.speedup);
        assert_true(staged.reward == one.reward);
        assert_int_equal(staged.count, one.count);
        assert_int_equal(one.timer, wall ? HB_TIMER_WALL : HB_TIMER_EVENT);
        assert_int_equal(one.count, PARTICIPANTS + 1); /* cublas-max: the faster of cublas-nn and cublas-tn */
    }
    free_samples();
}

hb_test_list hb_headline_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_headline_first_failed_check_decides),
        cmocka_unit_test(test_headline_check_list_keeps_its_first_failure),
        cmocka_unit_test(test_headline_code_integrity),
        cmocka_unit_test(test_headline_wall_when_work_left_the_stream),
        cmocka_unit_test(test_headline_timers_disagreeing_fail_the_figures),
        cmocka_unit_test(test_headline_implausible_has_no_speedup),
        cmocka_unit_test(test_headline_gate_at_the_threshold),
        cmocka_unit_test(test_headline_forbidden_under_forbid),
        cmocka_unit_test(test_headline_reward_settled_last),
        cmocka_unit_test(test_headline_stages_in_turn_give_one_call),
    };
    return HB_TEST_LIST(tests);
}
