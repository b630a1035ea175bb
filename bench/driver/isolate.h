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

#endif
