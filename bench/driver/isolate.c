#define _POSIX_C_SOURCE 200809L
#include "bench/driver/isolate.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/fd_io.h"
#include "bench/core/process.h"
#include "bench/driver/interrupt.h"
#include "bench/report/json_lines.h"

/* Wire format, child to parent: any number of heartbeat and phase bytes
 * (bench/core/heartbeat.h), then one RESULT byte, the int32 status and
 * result_size bytes of result.  Any byte before RESULT is a sign of life. */
#define MSG_RESULT 'R'
#define REAP_GRACE_S 10.0 /* after its result or EOF, a child has this long to exit */

/* What the child runs: the work, and its end of the pipe. */
typedef struct child_job {
    int fd, parent_fd; /* the write end; the parent's read end, closed in the child */
    hb_child_fn fn;
    void *context, *result;
    size_t result_size;
    hb_child_note *note; /* shared with the parent */
} child_job;

/* In the child (its own group, dying with the harness, default signals:
 * bench/core/process.h). */
/* What every child does first: the harness's handlers and --json's stdout dropped, the note taken, heartbeats to
 * `fd`. */
static void child_begin(hb_child_note *note, int fd)
{
    hb_interrupt_forget_in_child();
    hb_json_lines_forget_in_child(); /* candidate code runs here: it must not reach --json's stdout */
    hb_child_note_adopt(note);
    hb_heartbeat_attach(fd);
}

/* The RESULT tag, the status and the result; the child's exit code. */
static int send_result(int fd, hb_status status, const void *result, size_t size)
{
    const char tag = MSG_RESULT;
    const int32_t wire = (int32_t)status;
    int ok = hb_write_all(fd, &tag, 1) && hb_write_all(fd, &wire, sizeof wire) && hb_write_all(fd, result, size);
    return ok ? 0 : 120;
}

static int child_main(void *context)
{
    const child_job *job = context;
    close(job->parent_fd);
    child_begin(job->note, job->fd);
    hb_status status = job->fn(job->context, job->result, job->result_size);
    return send_result(job->fd, status, job->result, job->result_size);
}

/* Parent side of the pipe: the phase the child announced last, then the
 * bytes after the RESULT tag. */
typedef struct reader {
    char *payload; /* status + result */
    size_t payload_size, received;
    int in_payload;
    hb_phase phase;
} reader;

static void consume(reader *r, const char *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!r->in_payload) {
            if (data[i] == HB_WIRE_PHASE_CANDIDATE)
                r->phase = HB_PHASE_CANDIDATE;
            else if (data[i] == HB_WIRE_PHASE_SETUP)
                r->phase = HB_PHASE_SETUP;
            r->in_payload = data[i] == MSG_RESULT;
            continue;
        }
        if (r->received < r->payload_size)
            r->payload[r->received++] = data[i];
    }
}

typedef enum watch_end { WATCH_DONE, WATCH_SILENT, WATCH_INTERRUPTED } watch_end;

/* Reads until EOF, the whole result, silence or a caught signal.  Stops at
 * the whole result even while the pipe stays open (something the child
 * started may still hold it). */
static watch_end watch(int fd, hb_process *child, reader *r, double timeout_s, hb_process_end *end)
{
    double last = hb_now_s();
    char buffer[4096];
    while (r->received < r->payload_size) {
        if (hb_interrupted())
            return WATCH_INTERRUPTED; /* checked every 200 ms at most: poll below wakes that often */
        double left = timeout_s - (hb_now_s() - last);
        if (left <= 0)
            return WATCH_SILENT;
        struct pollfd p = {fd, POLLIN, 0};
        int ready = poll(&p, 1, left > 0.2 ? 200 : (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0 && hb_process_poll(child, end))
            return WATCH_DONE; /* it died while something it started holds the pipe: drained, so stop */
        if (ready <= 0)
            continue; /* the loop re-checks the deadline */
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return WATCH_DONE; /* EOF: the child exited or closed the pipe */
        consume(r, buffer, (size_t)n);
        last = hb_now_s();
    }
    return WATCH_DONE;
}

static void describe_timeout(hb_child_outcome *out, double timeout_s)
{
    out->end = HB_CHILD_TIMED_OUT;
    if (out->phase == HB_PHASE_SETUP)
        snprintf(out->message, sizeof out->message,
                 "made no progress for %.0f s in the harness's own set-up (device open, cuBLAS handles, autotune "
                 "search), while no candidate code ran; killed (a stuck driver or GPU? raise --timeout-s if an "
                 "autotune search is only slow)",
                 timeout_s);
    else
        snprintf(out->message, sizeof out->message,
                 "no progress for %.0f s (hung kernel or endless loop); killed (raise --timeout-s if it is only slow)",
                 timeout_s);
}

static void describe(hb_child_outcome *out, const hb_process_end *end, watch_end how, int complete, const reader *r,
                     void *result, size_t result_size, double timeout_s)
{
    out->phase = r->phase;
    if (complete) {
        out->end = HB_CHILD_RETURNED;
        int32_t status;
        memcpy(&status, r->payload, sizeof status);
        out->status = (hb_status)status;
        memcpy(result, r->payload + sizeof status, result_size);
        snprintf(out->message, sizeof out->message, "returned %s", hb_status_name(out->status));
    } else if (how == WATCH_INTERRUPTED) {
        out->end = HB_CHILD_INTERRUPTED;
        out->signal = hb_interrupted();
        snprintf(out->message, sizeof out->message, "was killed: the harness caught signal %d (%s)", out->signal,
                 strsignal(out->signal));
    } else if (how == WATCH_SILENT) {
        describe_timeout(out, timeout_s);
    } else if (end->signal) {
        out->end = HB_CHILD_SIGNALED;
        out->signal = end->signal;
        snprintf(out->message, sizeof out->message, "killed by signal %d (%s)", out->signal,
                 strsignal(out->signal));
    } else {
        out->end = HB_CHILD_EXITED;
        out->exit_code = end->exited ? end->code : -1;
        snprintf(out->message, sizeof out->message, "exited with status %d before reporting a result",
                 out->exit_code);
    }
}

/* The reap: a child that closed the pipe and then hung must not hang the harness: its group is killed
 * REAP_GRACE_S after its result or EOF, at once after a caught signal. */
static void reap(hb_process *child, hb_process_end *end)
{
    if (!child->reaped)
        hb_process_wait(child, REAP_GRACE_S, hb_interrupted, end);
}

/* The parent's side once the child runs: watched until its result, EOF, silence or a signal; reaped unless
 * `leave_running` and its whole result came (its exit is then the caller's to reap: hb_ready_child_reap). */
static hb_status await_child(hb_process *child, int fd, hb_child_note *note, double start, void *result,
                             size_t result_size, double silence_timeout_s, int leave_running, hb_child_outcome *outcome)
{
    reader r = {malloc(sizeof(int32_t) + result_size), sizeof(int32_t) + result_size, 0, 0, HB_PHASE_SETUP};
    if (!r.payload) {
        hb_process_kill(child, SIGKILL);
        reap(child, &(hb_process_end){0});
        return hb_fail(HB_ERR_INTERNAL, "out of memory for the child's result (%zu bytes)", result_size);
    }
    hb_interrupt_guard_child(child->pid);
    hb_process_end end;
    memset(&end, 0, sizeof end);
    watch_end how = watch(fd, child, &r, silence_timeout_s, &end);
    const int complete = r.received == r.payload_size;
    /* Silent, or the harness was interrupted (the handler has killed it already); or, once it is reaped, the
     * leftovers of its group (hb_process_kill signals no pid that may have been reused). */
    if (how != WATCH_DONE || child->reaped)
        hb_process_kill(child, SIGKILL);
    hb_interrupt_guard_child(0); /* before the reap below: a reaped pid may be reused */
    if (!(leave_running && how == WATCH_DONE && complete))
        reap(child, &end);
    outcome->seconds = hb_now_s() - start;
    describe(outcome, &end, how, complete, &r, result, result_size, silence_timeout_s);
    /* After the reap, or after its whole result when it is left to exit: what the child wrote is there (a
     * process it started that outlives it may still write, too late to count). */
    hb_child_note_read(note, outcome->note, sizeof outcome->note, outcome->sandbox, sizeof outcome->sandbox);
    free(r.payload);
    return HB_OK;
}

/* A pipe and a note for a child; HB_ERR_INTERNAL when either cannot be made. */
static hb_status child_channel(int fds[2], hb_child_note **note)
{
    *note = hb_child_note_map();
    if (!*note)
        return HB_ERR_INTERNAL;
    if (pipe(fds) != 0) {
        hb_child_note_unmap(*note);
        *note = NULL;
        return hb_fail(HB_ERR_INTERNAL, "cannot create a pipe for the child process: %s", strerror(errno));
    }
    return HB_OK;
}

/* A child in its own group, killed with the harness, with default signal handlers. */
static hb_process child_process(int (*fn)(void *), void *context)
{
    hb_process child = HB_PROCESS_INIT;
    child.fn = fn;
    child.context = context;
    child.new_group = 1; /* a timeout kills whatever it started too */
    child.die_with_parent = 1;
    child.default_signals = 1;
    return child;
}

hb_status hb_run_isolated(hb_child_fn fn, void *context, void *result, size_t result_size, double silence_timeout_s,
                          hb_child_outcome *outcome)
{
    memset(outcome, 0, sizeof *outcome);
    int fds[2];
    hb_child_note *note;
    HB_TRY(child_channel(fds, &note));
    child_job job = {fds[1], fds[0], fn, context, result, result_size, note};
    hb_process child = child_process(child_main, &job);
    const double start = hb_now_s();
    hb_status status = hb_process_start(&child);
    close(fds[1]);
    if (status == HB_OK)
        status = await_child(&child, fds[0], note, start, result, result_size, silence_timeout_s, 0, outcome);
    close(fds[0]);
    hb_child_note_unmap(note);
    return status;
}

/* --- a child readied before its work is known ---------------------------------------------- */

/* Wire format, parent to a readied child: the job's job_size bytes, then, once the GPU is the child's alone, one
 * CLEAR byte.  EOF instead of the job: discarded, the child exits. */
#define MSG_CLEAR 'C'

typedef struct ready_job {
    int result_fd, job_fd;        /* the child's ends */
    int parent_result, parent_job; /* the parent's ends, closed in the child */
    hb_ready_fn ready;
    hb_job_fn run;
    void *context;
    size_t job_size, result_size;
    hb_child_note *note;
} ready_job;

/* Reads exactly `size` bytes of the job pipe; 0 at EOF or an error (the parent gone or done with it). */
static int read_job(int fd, void *data, size_t size)
{
    return hb_read_all(fd, data, size) == 1;
}

static int ready_main(void *context)
{
    const ready_job *job = context;
    close(job->parent_result);
    close(job->parent_job);
    child_begin(job->note, job->result_fd);
    job->ready(job->context);
    void *work = malloc(job->job_size), *result = malloc(job->result_size);
    if (!work || !result || !read_job(job->job_fd, work, job->job_size))
        return 0; /* discarded (or no memory: the parent reads EOF and says the child ended) */
    hb_status status = job->run(job->context, work, job->job_fd, result, job->result_size);
    return send_result(job->result_fd, status, result, job->result_size);
}

int hb_ready_child_wait_clear(int job_fd)
{
    char tag = 0;
    return read_job(job_fd, &tag, 1) && tag == MSG_CLEAR;
}

hb_status hb_ready_child_start(hb_ready_child *c, hb_ready_fn ready, hb_job_fn run, void *context, size_t job_size,
                               size_t result_size)
{
    memset(c, 0, sizeof *c);
    c->result_fd = c->job_fd = -1;
    int results[2], jobs[2];
    HB_TRY(child_channel(results, &c->note));
    if (pipe(jobs) != 0) {
        close(results[0]);
        close(results[1]);
        hb_child_note_unmap(c->note);
        return hb_fail(HB_ERR_INTERNAL, "cannot create a pipe for the child process: %s", strerror(errno));
    }
    ready_job job = {results[1], jobs[0], results[0], jobs[1], ready, run, context, job_size, result_size, c->note};
    c->process = child_process(ready_main, &job);
    c->started_at = hb_now_s();
    hb_status status = hb_process_start(&c->process); /* the job is copied into the child by fork */
    close(results[1]);
    close(jobs[0]);
    c->result_fd = results[0];
    c->job_fd = jobs[1];
    c->job_size = job_size;
    c->result_size = result_size;
    if (status != HB_OK) {
        hb_ready_child_discard(c);
        return status;
    }
    c->live = 1;
    return HB_OK;
}

hb_status hb_ready_child_run(hb_ready_child *c, const void *job, hb_ready_child *exiting, void *result,
                             double silence_timeout_s, hb_child_outcome *outcome)
{
    memset(outcome, 0, sizeof *outcome);
    if (!c->live)
        return hb_fail(HB_ERR_INTERNAL, "no readied child to run the job");
    const double start = hb_now_s();
    /* Written whole even if the child still readies itself: a job is smaller than a pipe's buffer, or the write
     * waits for the child's read; a child that died meanwhile gives EPIPE here (SIGPIPE is ignored by workers,
     * and a closed pipe ends the watch below with the child's end). */
    int sent = hb_write_all(c->job_fd, job, c->job_size);
    if (exiting)
        hb_ready_child_reap(exiting); /* the last item's process gone before this one touches the GPU */
    const char clear = MSG_CLEAR;
    sent = sent && hb_write_all(c->job_fd, &clear, 1);
    (void)sent; /* a child that is gone is described by its end */
    hb_status status = await_child(&c->process, c->result_fd, c->note, start, result, c->result_size,
                                   silence_timeout_s, 1, outcome);
    close(c->result_fd);
    close(c->job_fd);
    c->result_fd = c->job_fd = -1;
    c->live = 0;
    return status;
}

void hb_ready_child_reap(hb_ready_child *c)
{
    hb_process_end end;
    if (c->process.pid > 0 && !c->process.reaped) {
        reap(&c->process, &end);
        hb_process_kill(&c->process, SIGKILL); /* the leftovers of its group */
    }
    if (c->note)
        hb_child_note_unmap(c->note);
    c->note = NULL;
}

void hb_ready_child_discard(hb_ready_child *c)
{
    if (c->job_fd >= 0)
        close(c->job_fd); /* EOF: the child ends after readying */
    if (c->result_fd >= 0)
        close(c->result_fd);
    c->job_fd = c->result_fd = -1;
    if (c->process.pid > 0 && !c->process.reaped)
        hb_process_kill(&c->process, SIGKILL); /* no need to wait for its set-up to end */
    hb_ready_child_reap(c);
    c->live = 0;
}
