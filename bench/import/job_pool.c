#define _POSIX_C_SOURCE 200809L
#include "bench/import/job_pool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/core/diag.h"

typedef struct running {
    pid_t pid;
    size_t job;
} running;

/* Waits for any child; reports it and frees its slot. */
static void reap_one(running *slots, int *busy, hb_job_done_fn done, void *context)
{
    int status = 0;
    pid_t pid;
    do
        pid = wait(&status);
    while (pid < 0 && errno == EINTR);
    for (int i = 0; i < *busy; i++)
        if (slots[i].pid == pid) {
            size_t job = slots[i].job;
            slots[i] = slots[--*busy];
            done(context, job, WIFEXITED(status) && WEXITSTATUS(status) == HB_OK);
            return;
        }
    if (pid < 0) /* no children left: nothing to wait for */
        *busy = 0;
}

hb_status hb_job_pool_run(size_t n, int width, hb_job_fn fn, hb_job_done_fn done, void *context)
{
    if (width < 1)
        width = 1;
    running *slots = calloc((size_t)width, sizeof *slots);
    if (!slots)
        return hb_fail(HB_ERR_INTERNAL, "out of memory");
    int busy = 0;
    hb_status status = HB_OK;
    fflush(NULL); /* a child must not write the parent's buffered output again */
    for (size_t job = 0; job < n && status == HB_OK; job++) {
        while (busy == width)
            reap_one(slots, &busy, done, context);
        pid_t pid = fork();
        if (pid == 0)
            _exit((int)fn(context, job));
        if (pid < 0)
            status = hb_fail(HB_ERR_INTERNAL, "cannot start a build process: %s", strerror(errno));
        else
            slots[busy++] = (running){pid, job};
    }
    while (busy > 0)
        reap_one(slots, &busy, done, context);
    free(slots);
    return status;
}
