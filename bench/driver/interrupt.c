#define _POSIX_C_SOURCE 200809L
#include "bench/driver/interrupt.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "bench/core/diag.h"

static const int caught_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define SIGNAL_COUNT (sizeof caught_signals / sizeof caught_signals[0])

_Static_assert(sizeof(pid_t) <= sizeof(sig_atomic_t), "a pid must be readable atomically in the handler");

static volatile sig_atomic_t caught;      /* the first signal, 0 until one came */
static volatile sig_atomic_t guarded_pid; /* the worker whose group the handler kills; 0: none */
static struct sigaction previous[SIGNAL_COUNT];
static int installed;

static void kill_guarded(void)
{
    pid_t pid = (pid_t)guarded_pid;
    if (pid > 0) {
        kill(-pid, SIGKILL); /* its group: whatever it started (compute-sanitizer's target) too */
        kill(pid, SIGKILL);
    }
}

/* Async-signal-safe only: sig_atomic_t stores, kill, sigaction, raise. */
static void on_signal(int signal_number)
{
    int saved_errno = errno;
    if (caught) {
        /* Asked again: stop waiting for the run to wind down. */
        struct sigaction fallback;
        memset(&fallback, 0, sizeof fallback);
        fallback.sa_handler = SIG_DFL;
        sigaction(signal_number, &fallback, NULL);
        kill_guarded();
        raise(signal_number);
    }
    caught = signal_number;
    kill_guarded();
    errno = saved_errno;
}

hb_status hb_interrupt_install(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    /* SA_RESTART: a write of the results is not cut short by EINTR.  The watch
     * still wakes at once: Linux never restarts poll or nanosleep, and the
     * watch polls every 200 ms anyway. */
    action.sa_flags = SA_RESTART;
    caught = 0;
    guarded_pid = 0;
    for (size_t i = 0; i < SIGNAL_COUNT; i++)
        if (sigaction(caught_signals[i], &action, &previous[i]) != 0)
            return hb_fail(HB_ERR_INTERNAL, "cannot catch signal %d (sigaction: %s)", caught_signals[i],
                           strerror(errno));
    installed = 1;
    return HB_OK;
}

void hb_interrupt_restore(void)
{
    if (!installed)
        return;
    for (size_t i = 0; i < SIGNAL_COUNT; i++)
        if (sigaction(caught_signals[i], &previous[i], NULL) != 0)
            hb_warn("cannot restore the action of signal %d (sigaction: %s)", caught_signals[i], strerror(errno));
    installed = 0;
    caught = 0;
    guarded_pid = 0;
}

int hb_interrupted(void)
{
    return (int)caught;
}

void hb_interrupt_guard_child(pid_t pid)
{
    guarded_pid = pid;
}

void hb_interrupt_forget_in_child(void)
{
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    for (size_t i = 0; i < SIGNAL_COUNT; i++)
        if (sigaction(caught_signals[i], &fallback, NULL) != 0)
            hb_warn("worker: cannot reset the action of signal %d (sigaction: %s); it will not end this worker",
                    caught_signals[i], strerror(errno));
    caught = 0;
    guarded_pid = 0;
    installed = 0;
}
