#define _POSIX_C_SOURCE 200809L
#include "bench/import/job_pool.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/import/command_run.h"

typedef struct running {
    pid_t pid;
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
        kill(p->slots[i].pid, SIGTERM);
}

/* Waits for any child, polling so a stop is seen while builds run (a
 * signal to this process alone does not end a wait: SA_RESTART); reports
 * the child and frees its slot. */
static void reap_one(pool *p)
{
    const struct timespec tick = {0, 50 * 1000 * 1000}; /* 50 ms: builds take seconds */
    int status = 0;
    pid_t pid;
    for (;;) {
        pid = waitpid(-1, &status, WNOHANG);
        if (pid != 0 && !(pid < 0 && errno == EINTR))
            break;
        if (should_stop(p))
            terminate_running(p);
        nanosleep(&tick, NULL);
    }
    for (int i = 0; i < p->busy; i++)
        if (p->slots[i].pid == pid) {
            size_t job = p->slots[i].job;
            p->slots[i] = p->slots[--p->busy];
            p->done(p->context, job, !p->stopping && WIFEXITED(status) && WEXITSTATUS(status) == HB_OK);
            return;
        }
    if (pid < 0) /* no children left: nothing to wait for */
        p->busy = 0;
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
    fflush(NULL); /* a child must not write the parent's buffered output again */
    for (size_t job = 0; job < n && status == HB_OK && !should_stop(&p); job++) {
        while (p.busy == width && !should_stop(&p))
            reap_one(&p);
        if (should_stop(&p))
            break;
        pid_t pid = fork();
        if (pid == 0) {
            hb_command_end_with_process();
            _exit((int)fn(context, job));
        }
        if (pid < 0)
            status = hb_fail(HB_ERR_INTERNAL, "cannot start a build process: %s", strerror(errno));
        else
            p.slots[p.busy++] = (running){pid, job};
    }
    if (should_stop(&p))
        terminate_running(&p);
    while (p.busy > 0)
        reap_one(&p);
    free(p.slots);
    return status;
}
