/* Runs n jobs, at most `width` at a time, each in a child process of its
 * own (a build that crashes or is killed takes only itself down), and tells
 * the caller as each ends. */
#ifndef HB_JOB_POOL_H
#define HB_JOB_POOL_H

#include <stddef.h>

#include "bench/core/status.h"

/* Runs in the child; its status is the child's exit code. */
typedef hb_status (*hb_job_fn)(void *context, size_t job);
/* Runs in the parent when job `job` has ended: ok = it exited with HB_OK. */
typedef void (*hb_job_done_fn)(void *context, size_t job, int ok);

/* HB_ERR_INTERNAL when a child cannot be started; the jobs already started
 * are waited for first. */
hb_status hb_job_pool_run(size_t n, int width, hb_job_fn fn, hb_job_done_fn done, void *context);

#endif
