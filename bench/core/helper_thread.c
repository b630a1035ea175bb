#define _GNU_SOURCE /* gettid */
#include "bench/core/helper_thread.h"

#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"

/* The harness runs at most two helpers at once (the sampler and the worker);
 * one past the room here would only be taken for a thread of the candidate's. */
#define MAX_RUNNING 16

static pthread_mutex_t running_lock = PTHREAD_MUTEX_INITIALIZER;
static long running[MAX_RUNNING]; /* 0: a free slot */

static void set_running(long from, long to)
{
    pthread_mutex_lock(&running_lock);
    for (int i = 0; i < MAX_RUNNING; i++)
        if (running[i] == from) {
            running[i] = to;
            break;
        }
    pthread_mutex_unlock(&running_lock);
}

int hb_helper_thread_is_running(long tid)
{
    int found = 0;
    pthread_mutex_lock(&running_lock);
    for (int i = 0; i < MAX_RUNNING && !found; i++)
        found = tid != 0 && running[i] == tid;
    pthread_mutex_unlock(&running_lock);
    return found;
}

typedef struct helper_start {
    void *(*body)(void *);
    void *arg;
    sem_t recorded; /* posted once the new thread's id is in `running` */
} helper_start;

static void *helper_main(void *p)
{
    helper_start *start = p;
    void *(*body)(void *) = start->body;
    void *arg = start->arg;
    const long tid = (long)gettid();
    set_running(0, tid);
    sem_post(&start->recorded); /* `start` lives on the creator's stack: not touched after this */
    void *result = body(arg);
    set_running(tid, 0);
    return result;
}

/* The new thread inherits the creating thread's mask: block everything for
 * the create, then put the caller's mask back. */
static int create_blocked(pthread_t *thread, helper_start *start)
{
    sigset_t all, previous;
    if (sigfillset(&all) != 0)
        return errno;
    int err = pthread_sigmask(SIG_SETMASK, &all, &previous);
    if (err)
        return err;
    err = pthread_create(thread, NULL, helper_main, start);
    int restore_err = pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (!err && restore_err) /* the thread runs; the caller's mask is what failed */
        hb_warn("restoring the signal mask after starting a helper thread: %s", strerror(restore_err));
    return err;
}

int hb_helper_thread_create(pthread_t *thread, void *(*body)(void *), void *arg)
{
    helper_start start = {.body = body, .arg = arg};
    if (sem_init(&start.recorded, 0, 0) != 0)
        return errno;
    int err = create_blocked(thread, &start);
    while (!err && sem_wait(&start.recorded) != 0 && errno == EINTR)
        ;
    sem_destroy(&start.recorded);
    return err;
}
