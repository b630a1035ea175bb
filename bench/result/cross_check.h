/* The cross-check of the timed window (docs/methodology.md, "Timers out of
 * the candidate's reach"): on a few timed rounds drawn at random
 * (bench/measure/cross_check_rounds.h), CUPTI also read the device
 * timestamps of the harness's start and stop events of every call.  Per
 * participant and round, d = event time - CUPTI's reading of the same two
 * events, microseconds.  An event pair that reads short only while timed
 * (a detour that acts only in the timed window) makes the candidate's d
 * negative on the rounds it cannot tell from the others.  Pure: the
 * evaluation hands it the call monitor's readings.
 *
 * Two rules, each a `timer-mismatch` (check `timer-cross-check`):
 *  - per participant, the median of d over its cross-checked rounds beyond
 *    the warm-up's tolerance, 2.5 us + 1 % of its event median, over at least
 *    30 rounds (bench/result/timer_check.h: the same rule as the checks' and
 *    the warm-up's readings);
 *  - the candidate paired with the baselines: per round,
 *    c = d(candidate) - median over the baselines of d (CUPTI's offset common
 *    to the round's calls cancels), and a one-sided sign test of c below
 *    -tolerance (0.5 us + 0.5 % of the candidate's event median): k of n
 *    rounds below it fail when P(Bin(n, 1/2) >= k) <= 1e-4.  An honest
 *    candidate whose c lies below -tolerance in at most half of the rounds
 *    (its median paired difference above -tolerance) fails with probability
 *    at most 1e-4, whatever the number of rounds; its real rate is far lower,
 *    as honest rounds fall below it far more rarely than half the time.
 *    Fewer than 14 paired rounds can never fail (2^-13 > 1e-4). */
#ifndef HB_CROSS_CHECK_H
#define HB_CROSS_CHECK_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/participant_desc.h"
#include "bench/result/watched_calls.h"

#define HB_CROSS_CHECK_PAIRED_TOLERANCE_US 0.5        /* one CUDA-event tick */
#define HB_CROSS_CHECK_PAIRED_TOLERANCE_FRACTION 0.005 /* ... plus this share of the candidate's event median */
#define HB_CROSS_CHECK_ALPHA 1e-4                       /* the paired sign test's false-alarm bound */

/* One participant's cross-checked rounds, index = the round among them. */
typedef struct hb_cross_series {
    const char *name;
    int is_candidate;
    size_t n;
    const double *event_us;  /* the harness's event time of the call */
    const double *device_us; /* CUPTI's reading of the same events; NaN: not both seen */
} hb_cross_series;

typedef struct hb_cross_check {
    size_t rounds;            /* cross-checked rounds of the timed window */
    size_t compared;          /* of those, rounds with the candidate's d */
    double median_diff_us;    /* the candidate's median d; NaN: none */
    size_t paired;            /* rounds with the candidate's d and at least one baseline's */
    double paired_median_us;  /* the candidate's median c; NaN: none */
    double tolerance_us;      /* the paired rule's: c below -tolerance_us counts */
    size_t below;             /* paired rounds with c below -tolerance_us */
    double p_value;           /* P(Bin(paired, 1/2) >= below); 1 when none paired */
    int mismatch;             /* 1: a verdict */
    char why[480];            /* which participant, which rule, both figures */
} hb_cross_check;

/* Judges `count` participants' rounds (the candidate among them, baselines
 * the others); `rounds` is the window's count of cross-checked rounds.  A
 * series shorter than another reads NaN past its end.  HB_OK whatever the
 * judgement (out->mismatch says it); HB_ERR_INTERNAL out of memory. */
hb_status hb_judge_cross_check(const hb_cross_series *series, size_t count, size_t rounds, hb_cross_check *out);

/* The same from what the call monitor kept of each participant. */
hb_status hb_judge_cross_checked_calls(const hb_watched *const *watched, size_t count, size_t rounds,
                                       hb_cross_check *out);

/* Each participant's series from what the call monitor kept of it. */
void hb_cross_series_of(const hb_watched *const *watched, size_t count, hb_cross_series *out);

/* Round r's median d over the baselines (the series that are not the
 * candidate's); NaN when CUPTI read none of theirs. */
double hb_cross_baseline_median(const hb_cross_series *series, size_t count, size_t r);

/* The paired rule's tolerance for a candidate of event median `event_us`. */
double hb_cross_check_tolerance_us(double event_us);

/* The chance that one round of a candidate that shaves `shave_us` off its
 * event pair falls below -tolerance, from `m` honest paired differences c
 * (NaN skipped): the share of them below shave_us - tolerance_us.  The sign
 * test's power over n rounds is hb_sign_test_power(n, this, HB_CROSS_CHECK_ALPHA)
 * (bench/core/binomial.h).  NaN when no c is finite. */
double hb_cross_check_round_power(const double *honest_c, size_t m, double shave_us, double tolerance_us);

#endif
