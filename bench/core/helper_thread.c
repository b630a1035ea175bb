#define _POSIX_C_SOURCE 200809L /* pthread_sigmask */
#include "bench/core/helper_thread.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "bench/core/diag.h"

/* The new thread inherits the creating thread's mask: block everything for
 * the create, then put the caller's mask back. */
int hb_helper_thread_create(pthread_t *thread, void *(*body)(void *), void *arg)
{
    sigset_t all, previous;
    if (sigfillset(&all) != 0)
        return errno;
    int err = pthread_sigmask(SIG_SETMASK, &all, &previous);
    if (err)
        return err;
    err = pthread_create(thread, NULL, body, arg);
    int restore_err = pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (!err && restore_err) /* the thread runs; the caller's mask is what failed */
        hb_warn("restoring the signal mask after starting a helper thread: %s", strerror(restore_err));
    return err;
}
