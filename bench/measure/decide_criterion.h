/* The decide criterion (gate --decide; bench/measure/stop_criterion.h): the
 * timed window ends as soon as the sequential test (bench/core/
 * sequential_test.h) decides that the speedup over the --vs baseline is
 * above or below the threshold, or at the window's length, the cap, with a
 * last look over the rounds since the previous one.
 *
 * On the timing thread, per round, O(1): each judged baseline's log ratio
 * hb_log_ratio(t_base, t_cand) of CUDA-event times is appended.  Before
 * every round: a look when one is due, synchronously.  Looks come at
 * 64 x 2^(k-1) rounds, each reading every round so far once, so a window of
 * n rounds costs about 2n reads in all (3 ns a round measured in
 * tests/test_sequential_test.c): no worker thread is needed.  The decision
 * is at the current round, so the window keeps every round it played.
 * Every look is written to the caller's record, the last one being the
 * window's verdict on CUDA-event times. */
#ifndef HB_DECIDE_CRITERION_H
#define HB_DECIDE_CRITERION_H

#include <stddef.h>

#include "bench/core/sequential_test.h"
#include "bench/measure/stop_criterion.h"
#include "bench/result/decision_record.h"

typedef struct hb_decide_setup {
    double alpha;          /* the error spent over every look, (0, 0.5) */
    double log_threshold;  /* log(1 + --min-speedup); -INFINITY for -1 */
    double cap_s;          /* the window ends here, seconds (--time-s) */
    size_t min_rounds;     /* ... but not before this many rounds */
    size_t candidate;      /* the candidate's participant index */
    size_t column[HB_SEQUENTIAL_MAX_SERIES]; /* the judged baselines' indices: --vs, or a -max figure's two layouts */
    size_t columns;
    size_t count;          /* participants in a round */
    hb_decision_record *record; /* every look goes here (looks, last, seconds, window_state) */
} hb_decide_setup;

hb_status hb_decide_criterion_create(const hb_decide_setup *setup, hb_stop_criterion *out);

#endif
