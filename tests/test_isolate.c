/* Tests of bench/driver/isolate.c: hb_run_isolated and hb_heartbeat, CPU only.
 *
 * The child functions below run in a forked copy of this test program, so
 * they never use cmocka's assertions (a failed assertion would longjmp back
 * into the test runner inside the child) and they end with _exit or by
 * returning to hb_run_isolated's child code, which _exits.  cmocka installs
 * its own SIGSEGV handler while a test runs; the crashing children restore
 * the default action first, as a real crash would find it. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/heartbeat.h"
#include "bench/core/parent_watch.h"
#include "bench/driver/child_verdict.h"
#include "bench/driver/interrupt.h"
#include "bench/driver/isolate.h"
#include "tests/test_registry.h"

/* --- helpers ----------------------------------------------------------------- */

static void sleep_s(double seconds)
{
    struct timespec t = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

static void sleep_forever(void)
{
    for (;;)
        pause();
}

static void write_pid(int fd)
{
    pid_t pid = getpid();
    ssize_t n = write(fd, &pid, sizeof pid);
    (void)n;
}

/* A pipe whose read end does not block: children report pids through it. */
static void pid_pipe(int fds[2])
{
    assert_int_equal(pipe(fds), 0);
    int flags = fcntl(fds[0], F_GETFL);
    assert_true(flags >= 0);
    assert_int_equal(fcntl(fds[0], F_SETFL, flags | O_NONBLOCK), 0);
}

/* Reads up to `max` pids, waiting at most 1 s for the first. */
static size_t read_pids(int fd, pid_t *pids, size_t max)
{
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, 1000) <= 0)
        return 0;
    ssize_t n = read(fd, pids, max * sizeof *pids);
    return n > 0 ? (size_t)n / sizeof *pids : 0;
}

/* Reads one pid, waiting at most `seconds` for it. */
static pid_t read_pid_within(int fd, double seconds)
{
    const double start = hb_now_s();
    pid_t pid = 0;
    while (hb_now_s() - start < seconds)
        if (read_pids(fd, &pid, 1) == 1)
            return pid;
    return 0;
}

/* Gone, or a zombie nobody has reaped yet (an orphan waiting for init). */
static int process_is_dead(pid_t pid)
{
    if (kill(pid, 0) == -1 && errno == ESRCH)
        return 1;
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1; /* gone between the two looks */
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *close_paren = strrchr(text, ')'); /* "pid (comm) S ..." */
    return close_paren && close_paren[1] == ' ' && (close_paren[2] == 'Z' || close_paren[2] == 'X');
}

/* Polls for up to ~1 s: a killed orphan is reaped by init, not by us. */
static int process_dies_soon(pid_t pid)
{
    for (int i = 0; i < 20; i++) {
        if (process_is_dead(pid))
            return 1;
        sleep_s(0.05);
    }
    return process_is_dead(pid);
}

/* --- children ------------------------------------------------------------------ */

typedef struct payload {
    int32_t answer;
    double value;
    char text[40];
    int heartbeat_fd;
    unsigned char big[200000]; /* larger than a pipe's buffer: several writes and reads */
} payload;

static hb_status child_fills_result(void *context, void *result, size_t size)
{
    const int *salt = context;
    payload *p = result;
    if (size != sizeof *p)
        _exit(90);
    p->answer = 42 + *salt;
    p->value = -1.5e-300;
    snprintf(p->text, sizeof p->text, "from the child %d", *salt);
    p->heartbeat_fd = hb_heartbeat_descriptor();
    for (size_t i = 0; i < sizeof p->big; i++)
        p->big[i] = (unsigned char)(i * 7u + (unsigned)*salt);
    return HB_OK;
}

static hb_status child_incorrect(void *context, void *result, size_t size)
{
    (void)context;
    memset(result, 0x5a, size);
    return HB_ERR_INCORRECT;
}

static hb_status child_segfaults(void *context, void *result, size_t size)
{
    (void)context;
    (void)result;
    (void)size;
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    _exit(91); /* not reached */
}

static hb_status child_aborts(void *context, void *result, size_t size)
{
    (void)context;
    (void)result;
    (void)size;
    signal(SIGABRT, SIG_DFL);
    abort();
}

static hb_status child_exits_3(void *context, void *result, size_t size)
{
    (void)context;
    (void)result;
    (void)size;
    _exit(3);
}

static hb_status child_hangs(void *context, void *result, size_t size)
{
    (void)result;
    (void)size;
    write_pid(*(const int *)context);
    sleep_forever();
    return HB_OK;
}

static hb_status child_heartbeats(void *context, void *result, size_t size)
{
    (void)context;
    (void)size;
    const double start = hb_now_s();
    int beats = 0;
    while (hb_now_s() - start < 2.5) {
        hb_heartbeat();
        beats++;
        sleep_s(0.1);
    }
    *(int *)result = beats;
    return HB_OK;
}

static hb_status child_with_grandchild(void *context, void *result, size_t size)
{
    (void)result;
    (void)size;
    const int fd = *(const int *)context;
    pid_t pid = fork();
    if (pid == 0) {
        write_pid(fd);
        sleep_forever();
    }
    if (pid < 0)
        _exit(92);
    write_pid(fd);
    sleep_forever();
    return HB_OK;
}

static hb_status child_returns_size(void *context, void *result, size_t size)
{
    (void)context;
    (void)result;
    return size == 0 ? HB_ERR_UNSUPPORTED : HB_ERR_INTERNAL;
}


static hb_status child_announces_then_hangs(void *context, void *result, size_t size)
{
    (void)result;
    (void)size;
    hb_heartbeat_phase(HB_PHASE_CANDIDATE);
    write_pid(*(const int *)context);
    sleep_forever();
    return HB_OK;
}

/* A launcher's library loading (bench/candidate/launcher_library.c): the
 * candidate's phase for a while, then back to the one it found. */
static hb_status child_goes_back_to_setup_then_hangs(void *context, void *result, size_t size)
{
    (void)result;
    (void)size;
    hb_phase before = hb_heartbeat_current_phase();
    hb_heartbeat_phase(HB_PHASE_CANDIDATE);
    if (hb_heartbeat_current_phase() != HB_PHASE_CANDIDATE)
        _exit(93);
    hb_heartbeat_phase(before);
    write_pid(*(const int *)context);
    sleep_forever();
    return HB_OK;
}

static hb_status child_announces_then_returns(void *context, void *result, size_t size)
{
    (void)context;
    (void)result;
    (void)size;
    hb_heartbeat_phase(HB_PHASE_CANDIDATE);
    return HB_OK;
}

/* Reports its pid, then sends `signal` to the harness watching it and waits to be killed. */
typedef struct signal_job {
    int fd;
    int signal;
} signal_job;

static hb_status child_signals_parent(void *context, void *result, size_t size)
{
    (void)result;
    (void)size;
    const signal_job *job = context;
    write_pid(job->fd);
    kill(getppid(), job->signal);
    sleep_forever();
    return HB_OK;
}

static hb_status child_raises_sigterm(void *context, void *result, size_t size)
{
    (void)context;
    (void)result;
    (void)size;
    raise(SIGTERM);
    _exit(93); /* not reached: the harness's handler is not the worker's */
}

/* --- tests ----------------------------------------------------------------------- */

static void test_isolate_result_round_trips(void **state)
{
    (void)state;
    payload *p = calloc(1, sizeof *p);
    assert_non_null(p);
    int salt = 5;
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_fills_result, &salt, p, sizeof *p, 10, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_RETURNED);
    assert_int_equal(outcome.status, HB_OK);
    assert_int_equal(p->answer, 47);
    assert_true(p->value == -1.5e-300);
    assert_string_equal(p->text, "from the child 5");
    assert_true(p->heartbeat_fd >= 0); /* inside the child, the pipe */
    for (size_t i = 0; i < sizeof p->big; i++)
        if (p->big[i] != (unsigned char)(i * 7u + 5u))
            fail_msg("result byte %zu differs", i);
    assert_true(outcome.seconds >= 0 && outcome.seconds < 5);
    assert_non_null(strstr(outcome.message, "returned"));
    /* Outside a child, no descriptor and hb_heartbeat does nothing. */
    assert_int_equal(hb_heartbeat_descriptor(), -1);
    hb_heartbeat();
    free(p);
}

static void test_isolate_status_propagates(void **state)
{
    (void)state;
    unsigned char result[64];
    memset(result, 0, sizeof result);
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_incorrect, NULL, result, sizeof result, 10, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_RETURNED);
    assert_int_equal(outcome.status, HB_ERR_INCORRECT);
    assert_int_equal(result[0], 0x5a);
    assert_int_equal(result[63], 0x5a);
    assert_non_null(strstr(outcome.message, hb_status_name(HB_ERR_INCORRECT)));

    /* A zero-byte result (what the sanitizer pass uses) still carries the status. */
    char nothing = 'x';
    assert_int_equal(hb_run_isolated(child_returns_size, NULL, &nothing, 0, 10, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_RETURNED);
    assert_int_equal(outcome.status, HB_ERR_UNSUPPORTED);
    assert_int_equal(nothing, 'x');
}

static void expect_signal(hb_child_fn fn, int signal_number)
{
    int result = 12345;
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(fn, NULL, &result, sizeof result, 10, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_SIGNALED);
    assert_int_equal(outcome.signal, signal_number);
    assert_int_equal(result, 12345); /* nothing arrived: the caller's result is untouched */
    char number[16];
    snprintf(number, sizeof number, "%d", signal_number);
    assert_non_null(strstr(outcome.message, number));
    assert_non_null(strstr(outcome.message, strsignal(signal_number)));
    assert_true(outcome.seconds < 5);
}

static void test_isolate_crash_is_signaled(void **state)
{
    (void)state;
    expect_signal(child_segfaults, SIGSEGV);
    expect_signal(child_aborts, SIGABRT);
}

static void test_isolate_early_exit(void **state)
{
    (void)state;
    int result = 0;
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_exits_3, NULL, &result, sizeof result, 10, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_EXITED);
    assert_int_equal(outcome.exit_code, 3);
    assert_non_null(strstr(outcome.message, "3"));
}

static void test_isolate_hang_times_out(void **state)
{
    (void)state;
    int fds[2];
    pid_pipe(fds);
    int result = 0;
    hb_child_outcome outcome;
    const double start = hb_now_s();
    assert_int_equal(hb_run_isolated(child_hangs, &fds[1], &result, sizeof result, 1.0, &outcome), HB_OK);
    const double wall = hb_now_s() - start;
    assert_int_equal(outcome.end, HB_CHILD_TIMED_OUT);
    assert_true(outcome.seconds >= 0.9 && outcome.seconds < 5);
    assert_true(wall >= 0.9 && wall < 5);
    assert_true(strlen(outcome.message) > 0);
    pid_t pid;
    assert_int_equal(read_pids(fds[0], &pid, 1), 1);
    assert_true(pid > 0);
    /* hb_run_isolated waited for it: no process, not even a zombie, remains. */
    errno = 0;
    assert_int_equal(kill(pid, 0), -1);
    assert_int_equal(errno, ESRCH);
    close(fds[0]);
    close(fds[1]);
}

static void test_isolate_heartbeats_keep_child_alive(void **state)
{
    (void)state;
    int beats = 0;
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_heartbeats, NULL, &beats, sizeof beats, 1.0, &outcome), HB_OK);
    if (outcome.end != HB_CHILD_RETURNED)
        fprintf(stderr, "heartbeating child: %s\n", outcome.message);
    assert_int_equal(outcome.end, HB_CHILD_RETURNED);
    assert_int_equal(outcome.status, HB_OK);
    assert_true(beats >= 20);
    assert_true(outcome.seconds >= 2.4 && outcome.seconds < 6);
}

static void test_isolate_timeout_kills_process_group(void **state)
{
    (void)state;
    int fds[2];
    pid_pipe(fds);
    int result = 0;
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_with_grandchild, &fds[1], &result, sizeof result, 1.0, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_TIMED_OUT);
    assert_true(outcome.seconds < 5);
    pid_t pids[2] = {0, 0};
    size_t n = read_pids(fds[0], pids, 2);
    if (n == 1) /* the second write may land separately */
        n += read_pids(fds[0], pids + 1, 1);
    assert_int_equal(n, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_true(pids[i] > 0 && pids[i] != getpid());
        if (!process_dies_soon(pids[i])) {
            kill(pids[i], SIGKILL); /* do not leave it behind */
            fail_msg("process %ld of the timed-out child's group is still alive", (long)pids[i]);
        }
    }
    close(fds[0]);
    close(fds[1]);
}

/* A harness killed by SIGKILL takes its worker with it (PR_SET_PDEATHSIG),
 * even one that sends nothing: the case of a hung kernel. */
static void test_isolate_worker_dies_with_killed_harness(void **state)
{
    (void)state;
    int fds[2];
    pid_pipe(fds);
    fflush(stdout);
    fflush(stderr);
    pid_t harness = fork();
    assert_true(harness >= 0);
    if (harness == 0) { /* a stand-in harness: watches a hanging worker with a long timeout */
        int result = 0;
        hb_child_outcome outcome;
        hb_run_isolated(child_hangs, &fds[1], &result, sizeof result, 600, &outcome);
        _exit(0);
    }
    pid_t worker = read_pid_within(fds[0], 10);
    assert_true(worker > 0);
    assert_int_equal(kill(harness, SIGKILL), 0);
    assert_int_equal(waitpid(harness, NULL, 0), harness);
    if (!process_dies_soon(worker)) {
        kill(worker, SIGKILL);
        fail_msg("worker %ld outlived its killed harness", (long)worker);
    }
    close(fds[0]);
    close(fds[1]);
}

/* A worker whose harness closed the pipe exits with HB_EXIT_PARENT_GONE at
 * its next heartbeat, not by SIGPIPE. */
static void test_isolate_heartbeat_to_gone_parent_exits(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(close(fds[0]), 0); /* nobody will read */
    pid_t worker = fork();
    assert_true(worker >= 0);
    if (worker == 0) {
        hb_heartbeat_attach(fds[1]); /* its first beat meets EPIPE */
        _exit(94);
    }
    close(fds[1]);
    int status = 0;
    assert_int_equal(waitpid(worker, &status, 0), worker);
    if (WIFSIGNALED(status))
        fail_msg("the worker died by signal %d instead of exiting", WTERMSIG(status));
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), HB_EXIT_PARENT_GONE);
}

static void expect_timeout_in_phase(hb_child_fn fn, hb_phase phase, const char *words)
{
    int fds[2];
    pid_pipe(fds);
    int result = 0;
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(fn, &fds[1], &result, sizeof result, 1.0, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_TIMED_OUT);
    assert_int_equal(outcome.phase, phase);
    if (!strstr(outcome.message, words))
        fail_msg("expected '%s' in: %s", words, outcome.message);
    close(fds[0]);
    close(fds[1]);
}

/* Silence before the phase marker is the harness's set-up; after it, the candidate's. */
static void test_isolate_timeout_names_the_phase(void **state)
{
    (void)state;
    expect_timeout_in_phase(child_hangs, HB_PHASE_SETUP, "while no candidate code ran");
    expect_timeout_in_phase(child_announces_then_hangs, HB_PHASE_CANDIDATE, "hung kernel");
    /* Back to the set-up after a candidate's stretch: a later silence is the harness's again. */
    expect_timeout_in_phase(child_goes_back_to_setup_then_hangs, HB_PHASE_SETUP, "while no candidate code ran");
    int result = 0;
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_announces_then_returns, NULL, &result, sizeof result, 10, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_RETURNED);
    assert_int_equal(outcome.phase, HB_PHASE_CANDIDATE);
}

static void test_child_verdict_blames_by_phase(void **state)
{
    (void)state;
    hb_config_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    hb_child_outcome o = {.end = HB_CHILD_TIMED_OUT, .phase = HB_PHASE_SETUP, .seconds = 61};
    snprintf(o.message, sizeof o.message, "made no progress for 60 s in the harness's own set-up");
    hb_record_child_end(r, &o, "the evaluating process");
    assert_int_equal(r->status, HB_ERR_CUDA);
    assert_int_equal(r->verdict, HB_VERDICT_ERROR);
    assert_string_equal(r->check, "");
    assert_non_null(strstr(r->reason, "the evaluating process made no progress for 60 s"));
    assert_non_null(strstr(r->reason, "not the candidate's"));
    assert_true(r->seconds == 61);

    o.phase = HB_PHASE_CANDIDATE;
    hb_record_child_end(r, &o, "the evaluating process");
    assert_int_equal(r->status, HB_ERR_CANDIDATE_FAULT);
    assert_int_equal(r->verdict, HB_VERDICT_TIMED_OUT);
    assert_string_equal(r->check, "timeout");

    /* A crash is the candidate's in either phase (as before the marker existed). */
    o = (hb_child_outcome){.end = HB_CHILD_SIGNALED, .signal = SIGSEGV, .phase = HB_PHASE_SETUP};
    hb_record_child_end(r, &o, "the evaluating process");
    assert_int_equal(r->status, HB_ERR_CANDIDATE_FAULT);
    assert_int_equal(r->verdict, HB_VERDICT_CRASHED);
    assert_string_equal(r->check, "execution");
    free(r);
}

/* SIGINT, SIGTERM and SIGHUP to the harness: the worker's group is killed at
 * once (the timeout here is a minute) and the watch ends as interrupted. */
static void test_isolate_interrupt_kills_worker(void **state)
{
    (void)state;
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        int fds[2];
        pid_pipe(fds);
        assert_int_equal(hb_interrupt_install(), HB_OK);
        signal_job job = {fds[1], signals[i]};
        int result = 0;
        hb_child_outcome outcome;
        const double start = hb_now_s();
        assert_int_equal(hb_run_isolated(child_signals_parent, &job, &result, sizeof result, 60, &outcome), HB_OK);
        const double wall = hb_now_s() - start;
        const int caught = hb_interrupted();
        hb_interrupt_restore();
        assert_int_equal(outcome.end, HB_CHILD_INTERRUPTED);
        assert_int_equal(outcome.signal, signals[i]);
        assert_int_equal(caught, signals[i]);
        assert_true(wall < 5);
        pid_t worker = read_pid_within(fds[0], 1);
        assert_true(worker > 0);
        errno = 0;
        assert_int_equal(kill(worker, 0), -1); /* killed and reaped */
        assert_int_equal(errno, ESRCH);
        assert_int_equal(hb_interrupted(), 0); /* restore forgets it */
        close(fds[0]);
        close(fds[1]);
    }
}

/* A signal caught between workers: the next watch ends at once, its worker killed. */
static void test_isolate_interrupt_before_worker(void **state)
{
    (void)state;
    int fds[2];
    pid_pipe(fds);
    assert_int_equal(hb_interrupt_install(), HB_OK);
    assert_int_equal(raise(SIGTERM), 0);
    assert_int_equal(hb_interrupted(), SIGTERM);
    int result = 0;
    hb_child_outcome outcome;
    const double start = hb_now_s();
    assert_int_equal(hb_run_isolated(child_hangs, &fds[1], &result, sizeof result, 60, &outcome), HB_OK);
    hb_interrupt_restore();
    assert_int_equal(outcome.end, HB_CHILD_INTERRUPTED);
    assert_true(hb_now_s() - start < 5);
    close(fds[0]);
    close(fds[1]);
}

/* The harness's handlers are not the worker's: SIGTERM still ends a worker. */
static void test_isolate_worker_keeps_default_signals(void **state)
{
    (void)state;
    assert_int_equal(hb_interrupt_install(), HB_OK);
    int result = 0;
    hb_child_outcome outcome;
    assert_int_equal(hb_run_isolated(child_raises_sigterm, NULL, &result, sizeof result, 10, &outcome), HB_OK);
    const int caught = hb_interrupted();
    hb_interrupt_restore();
    assert_int_equal(outcome.end, HB_CHILD_SIGNALED);
    assert_int_equal(outcome.signal, SIGTERM);
    assert_int_equal(caught, 0);
}

/* --- a child readied before its job (hb_ready_child_*) ---------------------------------------------------- */

static int readied_value; /* set by ready_sets_value in the child, before the job comes */

static void ready_sets_value(void *context)
{
    readied_value = *(const int *)context;
}

/* The result: the job's number plus what the readying set, once the clear byte came (-1 without it). */
static hb_status job_adds(void *context, const void *job, int job_fd, void *result, size_t size)
{
    (void)context;
    (void)size;
    int cleared = hb_ready_child_wait_clear(job_fd);
    *(int *)result = cleared ? *(const int *)job + readied_value : -1;
    return HB_OK;
}

static hb_status job_crashes(void *context, const void *job, int job_fd, void *result, size_t size)
{
    (void)context, (void)job, (void)job_fd, (void)result, (void)size;
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    return HB_OK;
}

/* The readying ran first, in the child; the job's bytes and the clear byte arrived; the result came back and the
 * child was left to exit, then reaped; the previous child given as `exiting` is reaped before the clear byte. */
static void test_ready_child_runs_its_job_after_readying(void **state)
{
    (void)state;
    int ready_with = 40, job = 2, result = 0;
    hb_ready_child first, second;
    assert_int_equal(hb_ready_child_start(&first, ready_sets_value, job_adds, &ready_with, sizeof job, sizeof result),
                     HB_OK);
    assert_true(first.live);
    hb_child_outcome outcome;
    assert_int_equal(hb_ready_child_run(&first, &job, NULL, &result, 10, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_RETURNED);
    assert_int_equal(outcome.status, HB_OK);
    assert_int_equal(result, 42);
    assert_false(first.live);
    ready_with = 100, job = 5;
    assert_int_equal(hb_ready_child_start(&second, ready_sets_value, job_adds, &ready_with, sizeof job, sizeof result),
                     HB_OK);
    assert_int_equal(hb_ready_child_run(&second, &job, &first, &result, 10, &outcome), HB_OK);
    assert_true(first.process.reaped); /* before the second one's clear byte */
    assert_int_equal(outcome.end, HB_CHILD_RETURNED);
    assert_int_equal(result, 105);
    hb_ready_child_reap(&second);
    assert_true(second.process.reaped);
}

/* A readied child that is never handed a job ends when discarded; one that crashes in its job is reported so. */
static void test_ready_child_discarded_or_crashing(void **state)
{
    (void)state;
    int ready_with = 1, job = 0, result = 0;
    hb_ready_child c;
    assert_int_equal(hb_ready_child_start(&c, ready_sets_value, job_adds, &ready_with, sizeof job, sizeof result),
                     HB_OK);
    const pid_t pid = c.process.pid;
    hb_ready_child_discard(&c);
    assert_true(c.process.reaped);
    assert_false(c.live);
    assert_int_equal(kill(pid, 0), -1); /* gone */
    assert_int_equal(hb_ready_child_start(&c, ready_sets_value, job_crashes, &ready_with, sizeof job, sizeof result),
                     HB_OK);
    hb_child_outcome outcome;
    assert_int_equal(hb_ready_child_run(&c, &job, NULL, &result, 10, &outcome), HB_OK);
    assert_int_equal(outcome.end, HB_CHILD_SIGNALED);
    assert_int_equal(outcome.signal, SIGSEGV);
    assert_true(c.process.reaped); /* any end but a result is reaped at once */
    hb_ready_child_reap(&c);
}

static const struct CMUnitTest isolate_tests[] = {
    cmocka_unit_test(test_isolate_result_round_trips),
    cmocka_unit_test(test_isolate_status_propagates),
    cmocka_unit_test(test_isolate_crash_is_signaled),
    cmocka_unit_test(test_isolate_early_exit),
    cmocka_unit_test(test_isolate_hang_times_out),
    cmocka_unit_test(test_isolate_heartbeats_keep_child_alive),
    cmocka_unit_test(test_isolate_timeout_kills_process_group),
    cmocka_unit_test(test_isolate_worker_dies_with_killed_harness),
    cmocka_unit_test(test_isolate_heartbeat_to_gone_parent_exits),
    cmocka_unit_test(test_isolate_timeout_names_the_phase),
    cmocka_unit_test(test_child_verdict_blames_by_phase),
    cmocka_unit_test(test_isolate_interrupt_kills_worker),
    cmocka_unit_test(test_isolate_interrupt_before_worker),
    cmocka_unit_test(test_isolate_worker_keeps_default_signals),
    cmocka_unit_test(test_ready_child_runs_its_job_after_readying),
    cmocka_unit_test(test_ready_child_discarded_or_crashing),
};

hb_test_list hb_isolate_tests(void) { return HB_TEST_LIST(isolate_tests); }
