/* What ends a window: stopping criteria, after nvbench's stopping_criterion.
 * The window tells each criterion every round it played (add_round, O(1),
 * on the timing thread) and asks, before the next round, whether it is
 * finished (poll: O(1), never waits for other work).  A criterion may judge
 * an earlier round than the last: its decision says at which round the
 * window stands for the results, and the window keeps the rounds up to it
 * only.  Three criteria: time (bench/measure/time_criterion.h), target CI
 * (bench/measure/target_ci_criterion.h) and decide, gate --decide's
 * sequential test with its own cap (bench/measure/decide_criterion.h). */
#ifndef HB_STOP_CRITERION_H
#define HB_STOP_CRITERION_H

#include <stddef.h>

#include "bench/core/status.h"

/* Where a window stands after its last complete round: what a criterion
 * judges, and what the window report is made of. */
typedef struct hb_window_progress {
    size_t rounds;
    double elapsed_s;   /* seconds since the window started */
    size_t gaps;        /* idle gaps slept (server mode) */
    double gap_total_s; /* their total, seconds */
} hb_window_progress;

typedef struct hb_stop_decision {
    int finished;
    const char *by;          /* the window report's stopped_by: "time", "time-cap", "target-ci" or "decided" */
    hb_window_progress at;   /* the window as it stood at the decision's round: the rounds it keeps */
    double halfwidth;        /* target-ci: the widest CI half-width at at.rounds (fraction); else NAN */
} hb_stop_decision;

typedef struct hb_stop_criterion_ops {
    /* After every round, on the timing thread: each participant's CUDA-event
     * time of this round, milliseconds, by participant index. */
    hb_status (*add_round)(void *state, const double *event_ms, size_t count);
    /* Before the next round: sets decision->finished (and the rest when 1). */
    hb_status (*poll)(void *state, const hb_window_progress *now, hb_stop_decision *decision);
    /* Ends whatever the criterion runs (it may be busy) and frees it. */
    void (*destroy)(void *state);
} hb_stop_criterion_ops;

typedef struct hb_stop_criterion {
    const hb_stop_criterion_ops *ops;
    void *state;
} hb_stop_criterion;

/* A window's criteria, asked in order: the first finished one ends it. */
#define HB_MAX_STOP_CRITERIA 2

typedef struct hb_stop_criteria {
    hb_stop_criterion item[HB_MAX_STOP_CRITERIA];
    size_t count;
} hb_stop_criteria;

/* Appends `c` (made by a criterion's create function); when the list is
 * full, destroys `c` and fails. */
hb_status hb_stop_criteria_push(hb_stop_criteria *list, hb_stop_criterion c);
hb_status hb_stop_criteria_add_round(hb_stop_criteria *list, const double *event_ms, size_t count);
hb_status hb_stop_criteria_poll(hb_stop_criteria *list, const hb_window_progress *now, hb_stop_decision *decision);
/* Destroys every criterion of the list and empties it. */
void hb_stop_criteria_destroy(hb_stop_criteria *list);

#endif
