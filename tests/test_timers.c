/* The timers without a GPU (docs/methodology.md, "A call's time covers all
 * of its work" and "Timers out of the candidate's reach"): which timer a
 * headline is on and why, the timers' agreement on made-up rounds (honest
 * noise agrees; a shortened event pair, an event longer than the wall clock
 * do not), and the sealed entry points finding a rewritten GOT slot of this
 * very test binary, the rewrite a launcher's constructor made to pass a gate. */
#define _GNU_SOURCE /* mprotect's page arithmetic, sysconf */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/gpu/entry_points.h"
#include "bench/result/config_result.h"
#include "bench/result/timer_check.h"
#include "tests/test_registry.h"
#include "tests/test_util.h"

#define ROUNDS 200

/* A participant's rounds: event `event_us`, wall `event_us + gap_us`, kernel
 * `kernel_us`, CUPTI's device reading of the events `device_us` (NaN: none),
 * each with a little deterministic noise. */
typedef struct rounds {
    double event_ms[ROUNDS], wall_ms[ROUNDS], kernel_us[ROUNDS], device_us[ROUNDS];
    double diff_us[ROUNDS]; /* event - device: what the series hands the check */
} rounds;

/* The per-call difference the monitor keeps, from the made-up readings. */
static void diffs(rounds *r)
{
    for (int i = 0; i < ROUNDS; i++)
        r->diff_us[i] = r->event_ms[i] * 1e3 - r->device_us[i];
}

static void fill(rounds *r, double event_us, double gap_us, double kernel_us, double device_us)
{
    for (int i = 0; i < ROUNDS; i++) {
        const double noise = 0.2 * sin(i * 1.7); /* within +-0.2 us */
        r->event_ms[i] = (event_us + noise) * 1e-3;
        r->wall_ms[i] = (event_us + gap_us + 2 * noise) * 1e-3;
        r->kernel_us[i] = kernel_us + 0.5 * noise;
        r->device_us[i] = isnan(device_us) ? NAN : device_us + noise + 0.1 * cos(i);
    }
}

static hb_timer_series series_of(const char *name, int candidate, rounds *r, int other_stream_calls)
{
    diffs(r);
    hb_timer_series s = {name, candidate, ROUNDS, r->event_ms, r->wall_ms, r->kernel_us, r->diff_us, ROUNDS,
                         other_stream_calls};
    return s;
}

/* A candidate and two baselines; the baselines honest at 20 us event, 7 us host path. */
static rounds cand, base1, base2;

static void decide(int other_stream_calls, hb_timer_decision *d)
{
    hb_timer_series s[3] = {series_of("candidate", 1, &cand, other_stream_calls), series_of("torch", 0, &base1, 0),
                            series_of("cublas-nn", 0, &base2, 0)};
    hb_decide_timer(s, 3, d);
}

static void honest_baselines(void)
{
    fill(&base1, 20, 7, 6, 20);
    fill(&base2, 20.5, 7.2, 6, 20.5);
}

static void test_timer_events_when_every_clock_agrees(void **state)
{
    (void)state;
    honest_baselines();
    fill(&cand, 15, 7.1, 4, 15);
    static hb_timer_decision d;
    decide(0, &d);
    assert_int_equal(d.timer, HB_TIMER_EVENT);
    assert_int_equal(d.reasons, 0);
    assert_int_equal(d.mismatch, 0);
    assert_int_equal(d.agreement[0].compared, ROUNDS);
    assert_int_equal(d.agreement[0].beyond, 0);
    assert_true(d.agreement[0].max_diff_us < 1.0);
    assert_true(fabs(d.agreement[1].host_gap_us - 7.0) < 0.3);
    assert_string_equal(hb_timer_name(d.timer), "event");
}

/* The five CUDA-L2 files on a stream of their own: events 18 us, wall 88 us. */
static void test_timer_wall_for_work_on_another_stream(void **state)
{
    (void)state;
    honest_baselines();
    fill(&cand, 18, 70, 65, 18);
    static hb_timer_decision d;
    decide(40, &d);
    assert_int_equal(d.timer, HB_TIMER_WALL);
    assert_true(d.reasons & HB_TIMER_REASON_OTHER_STREAM);
    assert_true(d.reasons & HB_TIMER_REASON_EVENT_BELOW_KERNEL);
    assert_true(d.reasons & HB_TIMER_REASON_HOST_GAP);
    assert_int_equal(d.mismatch, 0); /* the events honestly missed the work: a wall figure, not a verdict */
    assert_non_null(strstr(d.why, "candidate put work on another stream in 40 calls"));
    char names[80];
    hb_timer_reason_names(d.reasons, names, sizeof names);
    assert_string_equal(names, "other-stream,event-below-kernel,host-gap");
}

/* Behaves only while traced: the trace saw no other stream, yet the events read below the kernel time. */
static void test_timer_wall_when_events_read_below_the_kernels(void **state)
{
    (void)state;
    honest_baselines();
    fill(&cand, 137, 7, 180, 137);
    static hb_timer_decision d;
    decide(0, &d);
    assert_int_equal(d.timer, HB_TIMER_WALL);
    assert_int_equal(d.reasons & HB_TIMER_REASON_EVENT_BELOW_KERNEL, HB_TIMER_REASON_EVENT_BELOW_KERNEL);
    assert_non_null(strstr(d.why, "candidate's event median 13"));
    assert_non_null(strstr(d.why, "is below its kernel median 18"));
}

/* No trace at all (no CUPTI): the host gap alone still moves the headline. */
static void test_timer_wall_from_the_host_gap_alone(void **state)
{
    (void)state;
    honest_baselines();
    fill(&cand, 18, 70, NAN, NAN);
    hb_timer_series s[3] = {{"candidate", 1, ROUNDS, cand.event_ms, cand.wall_ms, NULL, NULL, 0, 0},
                            {"torch", 0, ROUNDS, base1.event_ms, base1.wall_ms, NULL, NULL, 0, 0},
                            {"cublas-nn", 0, ROUNDS, base2.event_ms, base2.wall_ms, NULL, NULL, 0, 0}};
    static hb_timer_decision d;
    hb_decide_timer(s, 3, &d);
    assert_int_equal(d.timer, HB_TIMER_WALL);
    assert_int_equal(d.reasons, HB_TIMER_REASON_HOST_GAP);
    /* A host path a few microseconds longer than the baselines' is not a reason: a launcher's own host code. */
    fill(&cand, 18, 9, NAN, NAN);
    hb_decide_timer(s, 3, &d);
    assert_int_equal(d.timer, HB_TIMER_EVENT);
}

/* A rewritten cudaEventElapsedTime: the event pair reads 25 % short of what CUPTI read of the same events. */
static void test_timer_mismatch_when_events_disagree_with_cupti(void **state)
{
    (void)state;
    honest_baselines();
    fill(&cand, 0.75 * 175, 7, 170, 175);
    static hb_timer_decision d;
    decide(0, &d);
    assert_int_equal(d.mismatch, 1);
    assert_int_equal(d.agreement[0].beyond, ROUNDS);
    assert_non_null(strstr(d.mismatch_why, "candidate: CUDA events read 13"));
    assert_non_null(strstr(d.mismatch_why, "differ from them by -4")); /* 131 - 175 us */
    /* Honest calls that differ by microseconds, as an H100 shows (a quarter of
     * them in server mode, up to 30 us, either way), are noise, not a rewrite... */
    fill(&cand, 15, 7, 4, 15);
    for (int i = 0; i < ROUNDS; i += 4)
        cand.device_us[i] += i % 8 ? -30 : 30;
    decide(0, &d);
    assert_int_equal(d.mismatch, 0);
    assert_int_equal(d.agreement[0].beyond, ROUNDS / 4);
    /* ...but a rewrite of three calls in five is not; one of fewer than half
     * does not move the median (docs/methodology.md says what covers that). */
    fill(&cand, 15, 7, 4, 15);
    for (int i = 0; i < ROUNDS; i++)
        if (i % 5 < 3)
            cand.event_ms[i] *= 0.75;
    decide(0, &d);
    assert_int_equal(d.mismatch, 1);
}

/* A median over a handful of calls (a warm-up of a few rounds) decides nothing. */
static void test_timer_few_device_readings_decide_nothing(void **state)
{
    (void)state;
    honest_baselines();
    fill(&cand, 15, 7, 4, 15);
    for (int i = 0; i < ROUNDS; i++)
        cand.device_us[i] -= 28; /* every reading far off, as a call after idle can be */
    hb_timer_series s[3] = {series_of("candidate", 1, &cand, 0), series_of("torch", 0, &base1, 0),
                            series_of("cublas-nn", 0, &base2, 0)};
    s[0].n_device = HB_TIMER_DEVICE_MIN_CALLS - 1;
    static hb_timer_decision d;
    hb_decide_timer(s, 3, &d);
    assert_int_equal(d.mismatch, 0);
    s[0].n_device = HB_TIMER_DEVICE_MIN_CALLS;
    hb_decide_timer(s, 3, &d);
    assert_int_equal(d.mismatch, 1);
}

static void test_timer_mismatch_when_events_exceed_the_wall_clock(void **state)
{
    (void)state;
    honest_baselines();
    fill(&base2, 20, -5, 6, NAN); /* a baseline slowed inside its event pair only: events longer than the wall */
    fill(&cand, 15, 7, 4, 15);
    static hb_timer_decision d;
    decide(0, &d);
    assert_int_equal(d.mismatch, 1);
    assert_non_null(strstr(d.mismatch_why, "cublas-nn: CUDA events read longer than the wall clock"));
}

static void test_headline_follows_the_timer(void **state)
{
    (void)state;
    static hb_config_result r;
    hb_mnk mnk = {64, 64, 64};
    hb_config_result_init(&r, &mnk);
    hb_participant_result *p = &r.participants[0];
    p->speedup_event.geomean = 2.75;
    p->speedup_wall.geomean = -0.1;
    p->event_ms.median = 0.018;
    p->wall_ms.median = 0.088;
    assert_true(hb_headline_speedup(&r, p)->geomean == 2.75);
    r.headline_timer = HB_TIMER_WALL;
    assert_true(hb_headline_speedup(&r, p)->geomean == -0.1);
    assert_true(hb_headline_times(&r, p)->median == 0.088);
}

/* --- the sealed entry points ------------------------------------------------------------ */

static int stand_in_calls;
static cudaError_t stand_in(void **ptr, size_t bytes)
{
    (void)ptr, (void)bytes;
    stand_in_calls++;
    return cudaSuccess;
}

static void set_slot(void **slot, void *value)
{
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    void *start = (void *)((uintptr_t)slot & ~(page - 1));
    assert_int_equal(mprotect(start, page, PROT_READ | PROT_WRITE), 0); /* full RELRO: read-only since start */
    *slot = value;
    assert_int_equal(mprotect(start, page, PROT_READ), 0);
}

static void test_entry_points_find_a_rewritten_slot(void **state)
{
    (void)state;
    assert_int_equal(hb_entry_points_seal(), HB_OK);
    assert_true(hb_entry_points_slot_count() > 10);
    int changed = 1;
    char what[700];
    assert_int_equal(hb_entry_points_verify(&changed, what, sizeof what), HB_OK);
    assert_int_equal(changed, 0);
    assert_non_null(hb_entry()->event_elapsed_time);
    /* The rewrite a launcher's constructor makes: this binary's slot for cudaMalloc. */
    void **slot = hb_entry_points_slot_of("cudaMalloc");
    assert_non_null(slot);
    void *original = *slot, *replacement;
    cudaError_t (*fn)(void **, size_t) = stand_in;
    memcpy(&replacement, &fn, sizeof replacement);
    set_slot(slot, replacement);
    assert_int_equal(hb_entry_points_verify(&changed, what, sizeof what), HB_OK);
    set_slot(slot, original);
    assert_int_equal(changed, 1);
    assert_non_null(strstr(what, "dynamic-link slot for cudaMalloc was rewritten"));
    assert_non_null(strstr(what, "hgemm-tests")); /* where the new target lies */
    assert_int_equal(hb_entry_points_verify(&changed, what, sizeof what), HB_OK);
    assert_int_equal(changed, 0);
    assert_null(hb_entry_points_slot_of("no_such_symbol_anywhere"));
    assert_int_equal(stand_in_calls, 0);
}

hb_test_list hb_timer_tests(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timer_events_when_every_clock_agrees),
        cmocka_unit_test(test_timer_wall_for_work_on_another_stream),
        cmocka_unit_test(test_timer_wall_when_events_read_below_the_kernels),
        cmocka_unit_test(test_timer_wall_from_the_host_gap_alone),
        cmocka_unit_test(test_timer_mismatch_when_events_disagree_with_cupti),
        cmocka_unit_test(test_timer_few_device_readings_decide_nothing),
        cmocka_unit_test(test_timer_mismatch_when_events_exceed_the_wall_clock),
        cmocka_unit_test(test_headline_follows_the_timer),
        cmocka_unit_test(test_entry_points_find_a_rewritten_slot),
    };
    return HB_TEST_LIST(tests);
}
