/* --target-ci's worker thread: it answers "is every baseline's CI half-width
 * below the target over the first n rounds?" off the timing thread.  The
 * timing thread appends each round's log ratios to a series store (one
 * column per baseline, bench/core/series_store.h), posts a request for the
 * rounds published so far when the worker is idle, and collects the answer
 * on a later round; neither call waits for an evaluation.
 *
 * An evaluation copies each column's first n values and computes the CI with
 * hb_speedup_from_log_ratios, seeded as the summary seeds that baseline: its
 * half-widths are the summary's over the same n rounds, bit for bit.  It
 * stops at the first column at or above the target (the answer is then no)
 * and starts the next evaluation with that column, so until the target is
 * nearly met an evaluation costs one bootstrap, not one per baseline. */
#ifndef HB_CI_WORKER_H
#define HB_CI_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/core/series_store.h"
#include "bench/core/status.h"

typedef struct hb_ci_plan {
    const hb_series_store *log_ratios;  /* one column per baseline; outlives the worker */
    uint64_t seed[HB_SERIES_MAX_WIDTH]; /* column c's bootstrap seed: the summary's for that baseline */
    double target;                      /* half-width to be below, fraction (0.01 = 1 %) */
} hb_ci_plan;

typedef struct hb_ci_result {
    size_t rounds;  /* n, the rounds evaluated */
    int met;        /* 1: every column's half-width is below the target */
    double widest;  /* the widest half-width among the columns evaluated (all of them when met), fraction */
    double seconds; /* the evaluation's wall time */
} hb_ci_result;

typedef enum hb_ci_state {
    HB_CI_IDLE,   /* no request: one may be posted */
    HB_CI_BUSY,   /* a request is posted or being evaluated */
    HB_CI_DONE    /* collect just took a result; the worker is idle again */
} hb_ci_state;

/* Fields are private to ci_worker.c; the struct stays at one address from
 * start to stop (the thread holds a pointer to it). */
typedef struct hb_ci_worker {
    pthread_t thread;
    pthread_mutex_t lock;    /* guards phase, request, result, status, reason; held for O(1) only */
    pthread_cond_t wake;     /* a request or a stop for the thread */
    hb_ci_plan plan;
    int phase;               /* ci_worker.c's phases: idle, posted, evaluating, done */
    size_t request;
    hb_ci_result result;
    hb_status status;        /* of the result: HB_OK or the evaluation's failure */
    char reason[256];        /* the failure's message, from the worker thread */
    atomic_int stopping;     /* set by stop; the thread reads it between columns */
    int thread_error;        /* errno-style code of a pthread call that failed on the thread; read after join */
    int running;             /* 1 between a successful start and stop */
    size_t lead;             /* thread only: the column evaluated first */
    double *buffer;          /* thread only: one column's copy */
    size_t buffer_rows;
} hb_ci_worker;

/* Starts the thread; it waits for requests. */
hb_status hb_ci_worker_start(hb_ci_worker *worker, const hb_ci_plan *plan);

/* Asks for the first `rounds` published rows; the worker must be idle. */
hb_status hb_ci_worker_post(hb_ci_worker *worker, size_t rounds);

/* Where the worker stands; HB_CI_DONE fills *result.  Fails with the
 * evaluation's error when it failed. */
hb_status hb_ci_worker_collect(hb_ci_worker *worker, hb_ci_state *state, hb_ci_result *result);

/* Stops the thread, which abandons an evaluation between two columns (it
 * never waits for more than the bootstrap under way), joins it and frees
 * what it held.  Safe once after start, and after a failed start. */
void hb_ci_worker_stop(hb_ci_worker *worker);

#endif
