/* The target-CI criterion (--target-ci; bench/measure/stop_criterion.h): a
 * window is finished once every baseline's 95 % CI half-width of the
 * headline speedup is below the target.
 *
 * On the timing thread, per round, O(1): each baseline's log ratio
 * hb_log_ratio(t_base, t_cand) of CUDA-event times goes into a series store.
 * At most every `every_s`, once the window has lasted `min_time_s` and played
 * `min_rounds` rounds, and only while the worker is idle, poll posts "the
 * first n rounds" to the worker thread (bench/measure/ci_worker.h) and keeps
 * the window's progress at n; a later poll collects the answer.  When it is
 * yes, the decision is at round n: the window keeps those n rounds, and the
 * summary over them, seeded with the same `bootstrap_seed`, reports the very
 * half-widths the criterion saw. */
#ifndef HB_TARGET_CI_CRITERION_H
#define HB_TARGET_CI_CRITERION_H

#include <stddef.h>
#include <stdint.h>

#include "bench/measure/stop_criterion.h"

#define HB_TARGET_CI_MIN_ROUNDS 100
/* Seconds between two requests.  A request costs the timing thread O(1);
 * the evaluation runs on the worker, one at a time, and the rounds played
 * while it runs are dropped when it says yes.  So the interval only sets how
 * finely the decision round is placed (a 5 s window at 1e5 rounds/s is
 * judged about every 25,000 rounds) and how long the window runs on past the
 * round that met the target: at most this plus one evaluation. */
#define HB_TARGET_CI_EVERY_S 0.25

typedef struct hb_target_ci_setup {
    double halfwidth;        /* the target, fraction (0.01 = 1 %); > 0 */
    double min_time_s;       /* no request before the window has lasted this long, seconds */
    size_t min_rounds;       /* nor before it has played this many rounds */
    double every_s;          /* at least this long between two requests, seconds */
    uint64_t bootstrap_seed; /* the summary's: participant i's CI is seeded bootstrap_seed + i */
    size_t candidate;        /* the candidate's participant index; every other participant is a baseline */
    size_t count;            /* participants, 2..HB_SERIES_MAX_WIDTH + 1 */
} hb_target_ci_setup;

/* Starts the worker thread; destroy joins it. */
hb_status hb_target_ci_criterion_create(const hb_target_ci_setup *setup, hb_stop_criterion *out);

/* What the criterion did so far (tests and scripts/bench_target_ci.sh). */
typedef struct hb_target_ci_stats {
    size_t requests;      /* requests posted */
    size_t results;       /* answers collected */
    double eval_s_total;  /* the worker's wall time over those answers, seconds */
    double eval_s_max;    /* its longest evaluation, seconds */
} hb_target_ci_stats;

/* All zero for a criterion that is not a target-CI one. */
hb_target_ci_stats hb_target_ci_criterion_stats(const hb_stop_criterion *criterion);

#endif
