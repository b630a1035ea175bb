#define _POSIX_C_SOURCE 200809L
#include "bench/import/job_pool.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/core/diag.h"
#include "bench/core/process.h"
#include "bench/import/command_run.h"

typedef struct running {
    hb_process process;
    size_t job;
} running;

typedef struct pool {
    running *slots;
    int busy;
    hb_job_done_fn done;
    hb_job_stop_fn stop;
    void *context;
    int stopping; /* the running jobs were sent SIGTERM */
} pool;

/* What a build process runs: job `job` of the caller's function. */
typedef struct job_start {
    hb_job_fn fn;
    void *context;
    size_t job;
} job_start;

static int run_job(void *context)
{
    const job_start *s = context;
    hb_command_end_with_process();
    return (int)s->fn(s->context, s->job);
}

static int should_stop(pool *p)
{
    return p->stop && p->stop() != 0;
}

static void terminate_running(pool *p)
{
    if (p->stopping)
        return;
    p->stopping = 1;
    for (int i = 0; i < p->busy; i++)
        hb_process_kill(&p->slots[i].process, SIGTERM);
}

/* Reports the first job found ended and frees its slot; 0 when all still run. */
static int reap_ended(pool *p)
{
    for (int i = 0; i < p->busy; i++) {
        hb_process_end end;
        if (!hb_process_poll(&p->slots[i].process, &end))
            continue;
        size_t job = p->slots[i].job;
        p->slots[i] = p->slots[--p->busy];
        p->done(p->context, job, !p->stopping && end.exited && end.code == HB_OK);
        return 1;
    }
    return 0;
}

/* Waits for a job to end, polling so a stop is seen while builds run (a
 * signal to this process alone does not end a wait: SA_RESTART). */
static void reap_one(pool *p)
{
    const struct timespec tick = {0, 50 * 1000 * 1000}; /* 50 ms: builds take seconds */
    while (p->busy > 0 && !reap_ended(p)) {
        if (should_stop(p))
            terminate_running(p);
        nanosleep(&tick, NULL);
    }
}

hb_status hb_job_pool_run(size_t n, int width, hb_job_fn fn, hb_job_done_fn done, hb_job_stop_fn stop,
                          void *context)
{
    if (width < 1)
        width = 1;
    pool p = {calloc((size_t)width, sizeof(running)), 0, done, stop, context, 0};
    if (!p.slots)
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    hb_status status = HB_OK;
    for (size_t job = 0; job < n && status == HB_OK && !should_stop(&p); job++) {
        while (p.busy == width && !should_stop(&p))
            reap_one(&p);
        if (should_stop(&p))
            break;
        /* A build process of its own (in this process's group: a Ctrl-C reaches it too), with default signals
         * until it catches SIGINT, SIGTERM and SIGHUP itself (hb_command_end_with_process). */
        job_start start = {fn, context, job};
        hb_process *process = &p.slots[p.busy].process;
        *process = (hb_process)HB_PROCESS_INIT;
        process->fn = run_job;
        process->context = &start;
        process->default_signals = 1;
        status = hb_process_start(process);
        if (status == HB_OK)
            p.slots[p.busy++].job = job;
    }
    if (should_stop(&p))
        terminate_running(&p);
    while (p.busy > 0)
        reap_one(&p);
    free(p.slots);
    return status;
}
