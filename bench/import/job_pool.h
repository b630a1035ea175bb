/* Runs n jobs, at most `width` at a time, each in a child process of its
 * own (a build that crashes or is killed takes only itself down; started
 * by bench/core/process.h, in this process's group, with default signals),
 * and tells the caller as each ends. */
#ifndef HB_JOB_POOL_H
#define HB_JOB_POOL_H

#include <stddef.h>

#include "bench/core/status.h"

/* Runs in the child; its status is the child's exit code. */
typedef hb_status (*hb_job_fn)(void *context, size_t job);
/* Runs in the parent when job `job` has ended: ok = it exited with HB_OK. */
typedef void (*hb_job_done_fn)(void *context, size_t job, int ok);

/* Polled while jobs run: nonzero (a signal's number) stops the pool. */
typedef int (*hb_job_stop_fn)(void);

/* HB_ERR_INTERNAL when a child cannot be started; the jobs already started
 * are waited for first.  When `stop` (may be NULL) says so, no job is
 * started any more, the running ones get SIGTERM (a child ends its command
 * and itself: hb_command_end_with_process) and are reported not ok; the
 * jobs never started are not reported. */
hb_status hb_job_pool_run(size_t n, int width, hb_job_fn fn, hb_job_done_fn done, hb_job_stop_fn stop,
                          void *context);

#endif
