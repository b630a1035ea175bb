/* Process isolation (docs/cli.md, "Isolation and the timeout"): a piece of work that touches the
 * GPU runs in a child process, so a crash, a sticky CUDA error or a hang
 * ends that child, never the harness.  The parent holds no CUDA context;
 * it waits on a pipe and kills the child (its whole process group) when
 * nothing arrives for `silence_timeout_s` seconds.  The child proves it is
 * alive with hb_heartbeat() (bench/core/heartbeat.h) between steps, says
 * when candidate code starts to run (hb_heartbeat_phase), and returns its
 * result as bytes through the same pipe.  The child is started, reaped and
 * killed by bench/core/process.h (its own group, default signals).
 *
 * The child dies with the parent (bench/core/parent_watch.h): a harness
 * killed by SIGKILL leaves no worker holding the GPU, even one stuck in a
 * hung kernel.  A signal the harness catches (bench/driver/interrupt.h)
 * kills the child's group at once and ends the watch as HB_CHILD_INTERRUPTED.
 *
 * Each child gets a note (bench/core/child_note.h), a page shared with the
 * parent, that it and anything it forks can write; the parent copies it into
 * the outcome once the child is reaped, whatever its end. */
#ifndef HB_ISOLATE_H
#define HB_ISOLATE_H

#include <stddef.h>

#include "bench/core/child_note.h"
#include "bench/core/heartbeat.h"
#include "bench/core/process.h"
#include "bench/core/status.h"

/* The work: fills `result` (result_size bytes) and returns a status. */
typedef hb_status (*hb_child_fn)(void *context, void *result, size_t result_size);

typedef enum hb_child_end {
    HB_CHILD_RETURNED,  /* the function returned; status and result are its own */
    HB_CHILD_SIGNALED,  /* killed by a signal before returning (a crash) */
    HB_CHILD_EXITED,    /* exited before returning (e.g. a library called exit) */
    HB_CHILD_TIMED_OUT, /* silent for longer than the timeout; killed */
    HB_CHILD_INTERRUPTED /* the harness caught SIGINT, SIGTERM or SIGHUP; killed */
} hb_child_end;

typedef struct hb_child_outcome {
    hb_child_end end;
    hb_status status;   /* the function's, when end == HB_CHILD_RETURNED */
    int signal;         /* when SIGNALED; when INTERRUPTED, the signal the harness caught */
    hb_phase phase;     /* the last phase the child announced: HB_PHASE_SETUP until candidate code ran */
    int exit_code;      /* when EXITED */
    double seconds;     /* wall time of the child */
    char message[256];  /* one line describing the end, for a verdict reason */
    char note[HB_CHILD_NOTE_TEXT];       /* the child's note: a violation the sandbox refused, "" when none */
    char sandbox[HB_CHILD_NOTE_SANDBOX]; /* what sandbox the child applied, "" when none */
} hb_child_outcome;

/* Runs fn(context, result, result_size) in a child.  Returns HB_OK when
 * the child could be run and watched (whatever its end, see `outcome`);
 * HB_ERR_INTERNAL when fork, pipe or the note's page failed. */
hb_status hb_run_isolated(hb_child_fn fn, void *context, void *result, size_t result_size,
                          double silence_timeout_s, hb_child_outcome *outcome);

/* What a pass that may use the GPU outside a worker's evaluating process calls first, only when it does: the
 * worker's last process is then let finish exiting (bench/driver/config_runner.h).  NULL or no fn: nothing. */
typedef struct hb_gpu_claim {
    void (*fn)(void *context);
    void *context;
} hb_gpu_claim;

static inline void hb_gpu_claim_take(const hb_gpu_claim *claim)
{
    if (claim && claim->fn)
        claim->fn(claim->context);
}

/* --- a child readied before its work is known ---------------------------------------------
 * The parts of a piece of work that need none of its inputs (a CUDA context, CUPTI, the code seal: half a second)
 * run in a child started ahead, while the GPU still measures the work before; the job, sent later, finds the child
 * ready.  The child's readying is not watched (nothing waits on it); the watch starts with the job, so a child
 * stuck readying ends by the timeout as any silent child.  The work before it is told apart on the GPU: the job's
 * function calls hb_ready_child_wait_clear before it times anything, which returns once the previous child of
 * the worker has exited. */

/* Runs in the child first; its failure is its own to keep and report with the job's result. */
typedef void (*hb_ready_fn)(void *context);
/* The work, with the job's bytes; job_fd for hb_ready_child_wait_clear. */
typedef hb_status (*hb_job_fn)(void *context, const void *job, int job_fd, void *result, size_t result_size);

typedef struct hb_ready_child {
    hb_process process;
    int result_fd, job_fd; /* the parent's ends: results and heartbeats in, the job and the clear byte out */
    hb_child_note *note;
    size_t job_size, result_size;
    double started_at;     /* hb_now_s() at its start */
    int live;              /* started and not yet handed a job */
} hb_ready_child;

/* Starts a child that runs ready(context) at once, then waits for a job of job_size bytes. */
hb_status hb_ready_child_start(hb_ready_child *c, hb_ready_fn ready, hb_job_fn run, void *context, size_t job_size,
                               size_t result_size);

/* Sends the job, reaps `exiting` (the worker's previous child, NULL: none), sends the clear byte, and watches the
 * child as hb_run_isolated does.  A child that returned its whole result is left to exit: reap it with
 * hb_ready_child_reap (or pass it as the next run's `exiting`); any other end is reaped here. */
hb_status hb_ready_child_run(hb_ready_child *c, const void *job, hb_ready_child *exiting, void *result,
                             double silence_timeout_s, hb_child_outcome *outcome);

/* In the child: waits for the clear byte; 0 when the parent is gone or sent something else. */
int hb_ready_child_wait_clear(int job_fd);

/* Waits for a child that returned its result to exit (killed after 10 s), and frees its note. */
void hb_ready_child_reap(hb_ready_child *c);

/* A readied child not needed: told to end, killed, reaped. */
void hb_ready_child_discard(hb_ready_child *c);

#endif
