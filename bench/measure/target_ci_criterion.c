#include "bench/measure/target_ci_criterion.h"

#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"
#include "bench/core/series_store.h"
#include "bench/core/stats.h"
#include "bench/measure/ci_worker.h"

typedef struct target_ci {
    hb_target_ci_setup setup;
    size_t baseline[HB_SERIES_MAX_WIDTH]; /* column c's participant index */
    size_t columns;
    hb_series_store log_ratios;           /* appended here, read by the worker */
    hb_ci_worker worker;
    hb_window_progress asked;             /* the window when the request in flight was posted */
    double next_post_s;                   /* window seconds before which no request is posted */
    hb_target_ci_stats stats;
} target_ci;

static hb_status target_add_round(void *state, const double *event_ms, size_t count)
{
    target_ci *t = state;
    if (count != t->setup.count)
        return hb_fail(HB_ERR_INTERNAL, "--target-ci: a round of %zu participants, %zu expected", count,
                       t->setup.count);
    double row[HB_SERIES_MAX_WIDTH];
    for (size_t c = 0; c < t->columns; c++)
        row[c] = hb_log_ratio(event_ms[t->baseline[c]], event_ms[t->setup.candidate]);
    return hb_series_store_append(&t->log_ratios, row);
}

static int request_due(const target_ci *t, const hb_window_progress *now)
{
    return now->rounds >= t->setup.min_rounds && now->elapsed_s >= t->setup.min_time_s &&
           now->elapsed_s >= t->next_post_s;
}

/* Asks the worker about every round so far, and keeps the window's progress
 * at that round: it becomes the decision's if the answer is yes. */
static hb_status post_request(target_ci *t, const hb_window_progress *now)
{
    size_t stored = hb_series_store_published(&t->log_ratios);
    if (stored != now->rounds)
        return hb_fail(HB_ERR_INTERNAL, "--target-ci: the window played %zu rounds, the criterion saw %zu",
                       now->rounds, stored);
    HB_TRY(hb_ci_worker_post(&t->worker, now->rounds));
    t->asked = *now;
    t->next_post_s = now->elapsed_s + t->setup.every_s;
    t->stats.requests++;
    return HB_OK;
}

static void count_result(target_ci *t, const hb_ci_result *result)
{
    t->stats.results++;
    t->stats.eval_s_total += result->seconds;
    if (result->seconds > t->stats.eval_s_max)
        t->stats.eval_s_max = result->seconds;
}

static hb_status target_poll(void *state, const hb_window_progress *now, hb_stop_decision *decision)
{
    target_ci *t = state;
    hb_ci_state worker;
    hb_ci_result result;
    HB_TRY(hb_ci_worker_collect(&t->worker, &worker, &result));
    if (worker == HB_CI_DONE) {
        count_result(t, &result);
        if (result.met) {
            *decision = (hb_stop_decision){.finished = 1, .by = "target-ci", .at = t->asked,
                                           .halfwidth = result.widest};
            return HB_OK;
        }
    }
    if (worker != HB_CI_BUSY && request_due(t, now))
        return post_request(t, now);
    return HB_OK;
}

static void target_destroy(void *state)
{
    target_ci *t = state;
    hb_ci_worker_stop(&t->worker); /* first: the worker reads the store */
    hb_series_store_free(&t->log_ratios);
    free(t);
}

static const hb_stop_criterion_ops target_ops = {target_add_round, target_poll, target_destroy};

static hb_status check_setup(const hb_target_ci_setup *s)
{
    if (s->count < 2 || s->count > HB_SERIES_MAX_WIDTH + 1 || s->candidate >= s->count)
        return hb_fail(HB_ERR_INTERNAL, "--target-ci over %zu participants with the candidate at %zu", s->count,
                       s->candidate);
    if (!(s->halfwidth > 0))
        return hb_fail(HB_ERR_INTERNAL, "--target-ci of %g: the target must be a positive fraction", s->halfwidth);
    return HB_OK;
}

/* Every participant but the candidate is a column, in participant order;
 * each column's seed is the one the summary gives that participant. */
static hb_ci_plan plan_columns(target_ci *t)
{
    hb_ci_plan plan = {.log_ratios = &t->log_ratios, .target = t->setup.halfwidth};
    for (size_t i = 0; i < t->setup.count; i++) {
        if (i == t->setup.candidate)
            continue;
        plan.seed[t->columns] = t->setup.bootstrap_seed + i;
        t->baseline[t->columns++] = i;
    }
    return plan;
}

hb_status hb_target_ci_criterion_create(const hb_target_ci_setup *setup, hb_stop_criterion *out)
{
    HB_TRY(check_setup(setup));
    target_ci *t = calloc(1, sizeof *t);
    if (!t)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for the --target-ci criterion");
    t->setup = *setup;
    hb_ci_plan plan = plan_columns(t);
    hb_status status = hb_series_store_init(&t->log_ratios, t->columns);
    if (status == HB_OK)
        status = hb_ci_worker_start(&t->worker, &plan);
    if (status != HB_OK) {
        hb_series_store_free(&t->log_ratios);
        free(t);
        return status;
    }
    *out = (hb_stop_criterion){&target_ops, t};
    return HB_OK;
}

hb_target_ci_stats hb_target_ci_criterion_stats(const hb_stop_criterion *criterion)
{
    hb_target_ci_stats none = {0};
    if (criterion->ops != &target_ops)
        return none;
    return ((const target_ci *)criterion->state)->stats;
}
