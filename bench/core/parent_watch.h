/* A worker process that must not outlive the harness that started it
 * (bench/driver/isolate.h): when the harness is killed (kill -9, the OOM
 * killer, a CI runner's timeout), a worker stuck in a hung kernel sends
 * nothing and reads nothing, so only the kernel can end it and release the
 * GPU.  Linux's PR_SET_PDEATHSIG asks for exactly that. */
#ifndef HB_PARENT_WATCH_H
#define HB_PARENT_WATCH_H

#include <sys/types.h>

/* The exit status of a worker that found its harness gone (the heartbeat
 * pipe's reader closed, or the parent died before the worker could ask to
 * die with it).  Nobody reads it: it is there for strace and core dumps. */
#define HB_EXIT_PARENT_GONE 121

/* Asks the kernel to SIGKILL this process when its parent dies.  The
 * request is tied to the parent *thread* that forked: the harness forks its
 * workers from its main thread, which lives as long as the harness.
 * `parent` is the parent's pid, read before fork: if it is no longer this
 * process's parent, the parent died before the request could be made (the
 * request then never fires) and the process exits at once with
 * HB_EXIT_PARENT_GONE.  0 skips that check (the parent is not known). */
void hb_die_with_parent(pid_t parent);

#endif
