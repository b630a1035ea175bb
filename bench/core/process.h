/* Every process the harness starts, started one way (after git's
 * run-command.c): a program run with an argument vector, or a forked copy
 * of the harness running a C function (the watched GPU child, a GPU
 * worker, a build job).  Never through a shell: a path, a GPU name or a
 * folder name holding quotes, backquotes, `$(...)` or `;` reaches the
 * program as one argument, byte for byte, and nothing reads it as a
 * command.
 *
 * What the child gets is described once (hb_process) and set up in the
 * child between fork and exec, in this order: its own process group (a
 * kill reaches whatever it starts: nvcc's cicc and ptxas, a candidate's
 * helper), death with the harness (bench/core/parent_watch.h), every
 * signal back to its default action and none blocked (the harness's
 * interrupt handlers and the heartbeat's ignored SIGPIPE are not the
 * child's; an ignored signal would survive exec), its folder, its standard
 * streams, and for a program every other descriptor closed but the ones
 * named to keep (a folder's lock, a journal or a pipe of the harness never
 * reaches gnuplot or nvcc).
 *
 * A program is found before the fork: a path is run as it is (execv: a file
 * the kernel cannot run is an error, never handed to /bin/sh as execvp
 * would); a bare name is looked up in the absolute folders of $PATH (a
 * relative entry would name another folder once the child has changed its
 * own).  A child that cannot be set up or run says why through a pipe
 * closed on exec, so the start fails with the reason ("cannot run
 * /opt/cuda/bin/nvcc: Permission denied") instead of an exit code to
 * guess from.
 *
 * A child's output files (its stdout, a log) are opened by the caller with
 * hb_open_output (bench/core/out_file.h): never through a link or into a
 * FIFO. */
#ifndef HB_PROCESS_H
#define HB_PROCESS_H

#include <stddef.h>
#include <sys/types.h>

#include "bench/core/status.h"

/* A standard stream of the child: the harness's own, or /dev/null; any
 * descriptor >= 0 is duplicated onto it. */
#define HB_FD_INHERIT (-1)
#define HB_FD_NULL (-2)

/* Descriptors a program may keep beyond its standard streams. */
#define HB_PROCESS_KEEP_MAX 8

/* How a child ended. */
typedef struct hb_process_end {
    int exited;       /* 1: it exited, with `code` */
    int code;         /* -1 unless it exited */
    int signal;       /* the signal that ended it, else 0 */
    int timed_out;    /* 1: its group was killed at the wait's time limit */
    int stopped;      /* 1: its group was killed because the wait's stop function asked */
    double timeout_s; /* the time limit, when timed_out */
    double seconds;   /* from the start to the reap */
} hb_process_end;

/* A function child's work; its return is the child's exit code. */
typedef int (*hb_process_fn)(void *context);

typedef struct hb_process {
    /* What runs: the program argv[0] with `argv` (NULL-terminated), or,
     * when argv is NULL, fn(context) in a forked copy of this process. */
    char *const *argv;
    int search_path; /* 1: a bare argv[0] ("gnuplot") is looked up in $PATH */
    hb_process_fn fn;
    void *context;

    /* The child's set-up (all off when zero, but the streams: use HB_PROCESS_INIT). */
    const char *cwd;     /* NULL: the harness's */
    int in, out, err;    /* HB_FD_INHERIT, HB_FD_NULL or a descriptor */
    int new_group;       /* its own process group: hb_process_kill and a timeout reach its descendants */
    int new_session;     /* its own session (setsid), and so its own group, with no controlling terminal: a
                            detached run (reproduce --detach) that a closed terminal's SIGHUP never reaches */
    int die_with_parent; /* SIGKILLed when the harness dies (PR_SET_PDEATHSIG) */
    int default_signals; /* every signal's default action, none blocked */
    int keep[HB_PROCESS_KEEP_MAX]; /* a program's descriptors to keep open (a heartbeat pipe) */
    size_t keep_count;

    /* Set by hb_process_start and the waits. */
    pid_t pid;
    double started_s;     /* hb_now_s() at the fork */
    int reaped;           /* 1: waited for; `pid` may name another process now */
    hb_process_end ended; /* how it ended, once reaped */
} hb_process;

#define HB_PROCESS_INIT {.in = HB_FD_INHERIT, .out = HB_FD_INHERIT, .err = HB_FD_INHERIT}

/* Starts the child (flushing every stdio stream first, so it writes none
 * of the harness's buffered output again).  HB_ERR_INTERNAL with the
 * reason when the program is not found, cannot be run, its folder cannot
 * be entered, or fork fails; the child is then already reaped. */
hb_status hb_process_start(hb_process *p);

/* This very process becomes the program p->argv (a watched child turning
 * into compute-sanitizer or ncu): the set-up p describes, then execv.  Returns only by exiting, with 127 and the
 * reason on stderr when the program cannot be run. */
_Noreturn void hb_process_exec(const hb_process *p);

/* 1 when the child has ended (reaped now or before), with *end filled; 0
 * while it runs.  Never blocks. */
int hb_process_poll(hb_process *p, hb_process_end *end);

/* Waits for the child to end.  `timeout_s` > 0: its group (or itself, when
 * it has none) is killed with SIGKILL that long after the call, and the end
 * says timed out.  `stop` (may be NULL), polled every 10 ms: a nonzero
 * return kills it the same way and the end says stopped.  HB_ERR_INTERNAL
 * when it cannot be waited for (not this process's child any more). */
hb_status hb_process_wait(hb_process *p, double timeout_s, int (*stop)(void), hb_process_end *end);

/* hb_process_start, then hb_process_wait. */
hb_status hb_process_run(hb_process *p, double timeout_s, int (*stop)(void), hb_process_end *end);

/* A child's stdout read into the caller's buffer. */
typedef struct hb_capture {
    char *text;    /* the buffer: what the child wrote, NUL-terminated */
    size_t size;   /* its size: at most size - 1 bytes are kept */
    size_t length; /* the bytes kept */
    int cut;       /* 1: it wrote more; the rest was read and dropped */
} hb_capture;

/* Runs p (in a group of its own) with its stdout read into `capture`, for
 * at most `timeout_s` seconds (<= 0: no limit): a version probe.  Its
 * stdin and stderr are as p says.  Returns as hb_process_start; the end as
 * hb_process_wait's. */
hb_status hb_process_capture(hb_process *p, double timeout_s, hb_capture *capture, hb_process_end *end);

/* Sends `signal_number` to the child's group (when it has one) and, while
 * it is not reaped, to the child itself: after the reap only the group is
 * signalled (leftovers of the child), never a pid that may have been reused. */
void hb_process_kill(const hb_process *p, int signal_number);

/* "exit 1", "signal 11 (SIGSEGV)", "timed out after 60 s", "stopped". */
void hb_process_end_text(const hb_process_end *end, char *out, size_t size);

/* `name`'s path in an absolute folder of $PATH, into `path`: 1 when found
 * (a regular file this process may execute), else 0. */
int hb_process_find_program(const char *name, char *path, size_t size);

#endif
