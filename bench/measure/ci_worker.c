#include "bench/measure/ci_worker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/helper_thread.h"
#include "bench/core/stats.h"

enum { IDLE, POSTED, EVALUATING, DONE };
enum { STOPPED = -1 }; /* the thread's "asked to stop", beside pthread error codes */

/* --- the timing thread's side: O(1) under the lock -------------------------- */

static hb_status lock(hb_ci_worker *w)
{
    int err = pthread_mutex_lock(&w->lock);
    return err ? hb_fail(HB_ERR_INTERNAL, "--target-ci worker: pthread_mutex_lock: %s", strerror(err)) : HB_OK;
}

static hb_status unlock(hb_ci_worker *w)
{
    int err = pthread_mutex_unlock(&w->lock);
    return err ? hb_fail(HB_ERR_INTERNAL, "--target-ci worker: pthread_mutex_unlock: %s", strerror(err)) : HB_OK;
}

hb_status hb_ci_worker_post(hb_ci_worker *w, size_t rounds)
{
    HB_TRY(lock(w));
    int idle = w->phase == IDLE, err = 0;
    if (idle) {
        w->request = rounds;
        w->phase = POSTED;
        err = pthread_cond_signal(&w->wake);
    }
    HB_TRY(unlock(w));
    if (!idle)
        return hb_fail(HB_ERR_INTERNAL, "--target-ci: a request posted while the worker is busy");
    if (err)
        return hb_fail(HB_ERR_INTERNAL, "--target-ci worker: pthread_cond_signal: %s", strerror(err));
    return HB_OK;
}

hb_status hb_ci_worker_collect(hb_ci_worker *w, hb_ci_state *state, hb_ci_result *result)
{
    HB_TRY(lock(w));
    int phase = w->phase;
    hb_status status = w->status;
    char reason[sizeof w->reason] = "";
    if (phase == DONE) {
        *result = w->result;
        snprintf(reason, sizeof reason, "%s", w->reason);
        w->phase = IDLE;
    }
    HB_TRY(unlock(w));
    *state = phase == DONE ? HB_CI_DONE : phase == IDLE ? HB_CI_IDLE : HB_CI_BUSY;
    if (phase == DONE && status != HB_OK)
        return hb_fail(status, "--target-ci: the CI over %zu rounds could not be computed: %s", result->rounds, reason);
    return HB_OK;
}

/* --- the worker thread ------------------------------------------------------ */

/* Waits for a request; returns 0 with *rounds set, STOPPED, or a pthread error. */
static int wait_for_request(hb_ci_worker *w, size_t *rounds)
{
    int err = pthread_mutex_lock(&w->lock);
    while (!err && !atomic_load(&w->stopping) && w->phase != POSTED)
        err = pthread_cond_wait(&w->wake, &w->lock);
    int stop = !err && atomic_load(&w->stopping);
    if (!err && !stop) {
        w->phase = EVALUATING;
        *rounds = w->request;
    }
    int unlock_err = pthread_mutex_unlock(&w->lock);
    if (err || unlock_err)
        return err ? err : unlock_err;
    return stop ? STOPPED : 0;
}

static hb_status column_halfwidth(hb_ci_worker *w, size_t column, size_t rounds, double *halfwidth)
{
    if (rounds > w->buffer_rows) {
        double *grown = realloc(w->buffer, rounds * sizeof *grown);
        if (!grown)
            return hb_fail(HB_ERR_INTERNAL, "out of host memory for %zu log ratios", rounds);
        w->buffer = grown;
        w->buffer_rows = rounds;
    }
    HB_TRY(hb_series_store_copy(w->plan.log_ratios, column, rounds, w->buffer));
    hb_speedup_summary ci;
    memset(&ci, 0, sizeof ci);
    HB_TRY(hb_speedup_from_log_ratios(w->buffer, rounds, w->plan.seed[column], &ci));
    *halfwidth = ci.ci95_halfwidth;
    return HB_OK;
}

/* The columns from w->lead on, until one is not below the target (a NaN
 * half-width, from a non-positive time, is not below it either). */
static hb_status evaluate(hb_ci_worker *w, size_t rounds, hb_ci_result *result)
{
    const double start = hb_now_s();
    const size_t width = w->plan.log_ratios->width;
    *result = (hb_ci_result){.rounds = rounds, .met = 1, .widest = 0, .seconds = 0};
    for (size_t k = 0; k < width && result->met && !atomic_load(&w->stopping); k++) {
        size_t column = (w->lead + k) % width;
        double halfwidth = NAN;
        HB_TRY(column_halfwidth(w, column, rounds, &halfwidth));
        if (halfwidth > result->widest || isnan(halfwidth))
            result->widest = halfwidth;
        if (!(halfwidth < w->plan.target)) {
            result->met = 0;
            w->lead = column;
        }
    }
    result->seconds = hb_now_s() - start;
    return HB_OK;
}

/* Hands the result over; STOPPED when a stop came first (the result, perhaps
 * abandoned half-way, is dropped). */
static int publish(hb_ci_worker *w, const hb_ci_result *result, hb_status status)
{
    int err = pthread_mutex_lock(&w->lock);
    if (err)
        return err;
    int stop = atomic_load(&w->stopping);
    if (!stop) {
        w->result = *result;
        w->status = status;
        snprintf(w->reason, sizeof w->reason, "%s", status == HB_OK ? "" : hb_last_error());
        w->phase = DONE;
    }
    err = pthread_mutex_unlock(&w->lock);
    return err ? err : stop ? STOPPED : 0;
}

static void *worker_main(void *arg)
{
    hb_ci_worker *w = arg;
    size_t rounds;
    int err;
    while ((err = wait_for_request(w, &rounds)) == 0) {
        hb_ci_result result = {.rounds = rounds};
        hb_status status = evaluate(w, rounds, &result);
        if ((err = publish(w, &result, status)) != 0)
            break;
    }
    if (err != STOPPED)
        w->thread_error = err; /* read by stop after the join */
    return NULL;
}

/* --- start and stop --------------------------------------------------------- */

/* Destroys the lock, and the condition variable when `with_wake`. */
static void destroy_sync(hb_ci_worker *w, int with_wake)
{
    int err = with_wake ? pthread_cond_destroy(&w->wake) : 0;
    if (err)
        hb_warn("--target-ci worker: pthread_cond_destroy: %s", strerror(err));
    if ((err = pthread_mutex_destroy(&w->lock)) != 0)
        hb_warn("--target-ci worker: pthread_mutex_destroy: %s", strerror(err));
}

hb_status hb_ci_worker_start(hb_ci_worker *w, const hb_ci_plan *plan)
{
    memset(w, 0, sizeof *w);
    w->plan = *plan;
    atomic_init(&w->stopping, 0);
    int err = pthread_mutex_init(&w->lock, NULL);
    if (err)
        return hb_fail(HB_ERR_INTERNAL, "--target-ci worker: pthread_mutex_init: %s", strerror(err));
    if ((err = pthread_cond_init(&w->wake, NULL)) != 0) {
        destroy_sync(w, 0);
        return hb_fail(HB_ERR_INTERNAL, "--target-ci worker: pthread_cond_init: %s", strerror(err));
    }
    if ((err = hb_helper_thread_create(&w->thread, worker_main, w)) != 0) {
        destroy_sync(w, 1);
        return hb_fail(HB_ERR_INTERNAL, "--target-ci: starting the worker thread: %s", strerror(err));
    }
    w->running = 1;
    return HB_OK;
}

/* Returns 0 once the thread is joined, else a pthread error code. */
static int halt(hb_ci_worker *w)
{
    int err = pthread_mutex_lock(&w->lock);
    if (err)
        return err;
    atomic_store(&w->stopping, 1);
    err = pthread_cond_signal(&w->wake);
    int unlock_err = pthread_mutex_unlock(&w->lock);
    if (err || unlock_err)
        return err ? err : unlock_err;
    return pthread_join(w->thread, NULL);
}

void hb_ci_worker_stop(hb_ci_worker *w)
{
    if (!w->running)
        return;
    int err = halt(w);
    if (err) { /* the thread may still use w: leave it and its memory alone */
        hb_fail(HB_ERR_INTERNAL, "--target-ci: stopping the worker thread: %s", strerror(err));
        return;
    }
    if (w->thread_error)
        hb_warn("--target-ci: the worker thread ended early (%s)", strerror(w->thread_error));
    w->running = 0;
    destroy_sync(w, 1);
    free(w->buffer);
    w->buffer = NULL;
    w->buffer_rows = 0;
}
