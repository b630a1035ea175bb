#define _GNU_SOURCE /* pipe2, syscall, NSIG */
#include "bench/core/process.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/parent_watch.h"
#include "bench/core/signal_name.h"

#define PROGRAM_PATH_MAX 4352
#define CHILD_CANNOT_RUN 127 /* a shell's code for "cannot run": what a reader of the exit code expects */

/* --- what the child is told, prepared before the fork --------------------------------------- */

typedef struct child_plan {
    const char *program;                 /* the path to execv; NULL for a function */
    int keep[HB_PROCESS_KEEP_MAX + 1];   /* descriptors above 2 a program keeps, ascending */
    size_t keep_count;
    int fd_limit;                        /* the highest descriptor open at the start + 1 */
    pid_t parent;
    int notify;                          /* the start's pipe (closed on exec); -1 in hb_process_exec */
} child_plan;

/* Where the child's set-up failed, sent up the start's pipe with errno. */
enum { FAILED_FOLDER = 1, FAILED_STREAMS, FAILED_EXEC };
typedef struct child_failure {
    int stage;
    int error;
} child_failure;

static const char *name_of(const hb_process *p)
{
    return p->argv && p->argv[0] ? p->argv[0] : "a child process";
}

static int is_program(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int hb_process_find_program(const char *name, char *path, size_t size)
{
    if (!name[0] || strchr(name, '/'))
        return 0;
    for (const char *search = getenv("PATH"); search && *search;) {
        size_t length = strcspn(search, ":");
        if (search[0] == '/' && (size_t)snprintf(path, size, "%.*s/%s", (int)length, search, name) < size &&
            is_program(path))
            return 1;
        search += length + (search[length] == ':');
    }
    return 0;
}

static void keep_descriptor(child_plan *plan, int fd)
{
    if (fd <= STDERR_FILENO)
        return; /* a standard stream is kept anyway */
    size_t at = plan->keep_count++;
    while (at > 0 && plan->keep[at - 1] > fd) { /* ascending: the closes go between them */
        plan->keep[at] = plan->keep[at - 1];
        at--;
    }
    plan->keep[at] = fd;
}

/* The highest descriptor open now, for a child whose kernel lacks
 * close_range (before Linux 5.9): it then closes one by one up to it, not
 * up to a limit that may be a million. */
static int highest_descriptor(void)
{
    DIR *open_fds = opendir("/proc/self/fd");
    if (!open_fds) {
        struct rlimit limit;
        return getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < (1u << 20) ? (int)limit.rlim_cur - 1
                                                                                   : (1 << 20) - 1;
    }
    int highest = STDERR_FILENO;
    for (struct dirent *entry; (entry = readdir(open_fds));) {
        int fd = atoi(entry->d_name);
        if (fd > highest)
            highest = fd;
    }
    closedir(open_fds);
    return highest;
}

static hb_status plan_child(const hb_process *p, char *program, size_t size, child_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->notify = -1;
    plan->parent = getpid();
    if (p->keep_count > HB_PROCESS_KEEP_MAX)
        return hb_fail(HB_ERR_INTERNAL, "%s: %zu descriptors to keep, at most %d", name_of(p), p->keep_count,
                       HB_PROCESS_KEEP_MAX);
    for (size_t i = 0; i < p->keep_count; i++)
        keep_descriptor(plan, p->keep[i]);
    plan->fd_limit = highest_descriptor() + 1;
    if (!p->argv) {
        if (!p->fn)
            return hb_fail(HB_ERR_INTERNAL, "a child process needs a program or a function to run");
        return HB_OK;
    }
    if (!p->argv[0] || !p->argv[0][0])
        return hb_fail(HB_ERR_INTERNAL, "a child process was given no program to run");
    if (p->search_path && !strchr(p->argv[0], '/')) {
        const char *search = getenv("PATH");
        if (!hb_process_find_program(p->argv[0], program, size))
            return hb_fail(HB_ERR_INTERNAL, "cannot run %s: not found in the absolute folders of PATH (%s)",
                           p->argv[0], search ? search : "unset");
    } else if ((size_t)snprintf(program, size, "%s", p->argv[0]) >= size) {
        return hb_fail(HB_ERR_INTERNAL, "cannot run %.200s...: the path is too long", p->argv[0]);
    }
    plan->program = program;
    return HB_OK;
}

/* --- the child's side: only async-signal-safe calls until exec --------------------------------- */

static void reset_signals(void)
{
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            sigaction(s, &fallback, NULL); /* the C library's own signals refuse: nothing to reset there */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Streams 0, 1 and 2 from their sources.  A source that is itself one of
 * 0-2 but not its own target is moved above 2 first, so no dup2 overwrites
 * a source a later one needs. */
static int set_up_streams(const hb_process *p)
{
    int source[3] = {p->in, p->out, p->err}, moved[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        if (source[i] == HB_FD_NULL) {
            source[i] = open("/dev/null", i == 0 ? O_RDONLY : O_WRONLY);
            if (source[i] < 0)
                return -1;
            moved[i] = source[i] != i;
        }
        if (source[i] >= 0 && source[i] <= STDERR_FILENO && source[i] != i) {
            int above = fcntl(source[i], F_DUPFD, STDERR_FILENO + 1);
            if (above < 0)
                return -1;
            source[i] = above;
            moved[i] = 1;
        }
    }
    for (int i = 0; i < 3; i++) {
        if (source[i] == i) {
            int flags = fcntl(i, F_GETFD); /* dup2 onto itself would leave close-on-exec set */
            if (flags < 0 || fcntl(i, F_SETFD, flags & ~FD_CLOEXEC) != 0)
                return -1;
        } else if (source[i] >= 0 && dup2(source[i], i) < 0) {
            return -1;
        }
    }
    for (int i = 0; i < 3; i++)
        if (moved[i] && source[i] > STDERR_FILENO)
            close(source[i]);
    return 0;
}

static void close_between(unsigned first, unsigned last, int fd_limit)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, last, 0) == 0)
        return;
#endif
    for (unsigned fd = first; fd <= last && fd < (unsigned)fd_limit; fd++)
        close((int)fd);
}

static void close_others(const child_plan *plan)
{
    unsigned first = STDERR_FILENO + 1;
    for (size_t i = 0; i < plan->keep_count; i++) {
        unsigned kept = (unsigned)plan->keep[i];
        if (kept > first)
            close_between(first, kept - 1, plan->fd_limit);
        if (kept >= first)
            first = kept + 1;
    }
    close_between(first, ~0u, plan->fd_limit);
}

/* 0, or the stage that failed (errno says why). */
static int set_up(const hb_process *p, const child_plan *plan)
{
    if (p->new_session)
        setsid(); /* a fresh child is no group's leader: this cannot fail */
    else if (p->new_group)
        setpgid(0, 0);
    if (p->die_with_parent)
        hb_die_with_parent(plan->parent);
    if (p->default_signals)
        reset_signals();
    if (p->cwd && chdir(p->cwd) != 0)
        return FAILED_FOLDER;
    if (set_up_streams(p) != 0)
        return FAILED_STREAMS;
    return 0;
}

static _Noreturn void tell_failure(int notify, int stage)
{
    child_failure failure = {stage, errno};
    ssize_t written = write(notify, &failure, sizeof failure);
    (void)written; /* the parent sees an exit without a message otherwise */
    _exit(CHILD_CANNOT_RUN);
}

static _Noreturn void run_child(const hb_process *p, const child_plan *plan)
{
    int stage = set_up(p, plan);
    if (stage)
        tell_failure(plan->notify, stage);
    if (plan->program) {
        close_others(plan);
        execv(plan->program, p->argv);
        tell_failure(plan->notify, FAILED_EXEC);
    }
    close(plan->notify);
    int code = p->fn(p->context);
    fflush(stdout);
    fflush(stderr);
    _exit(code);
}

/* --- the harness's side --------------------------------------------------------------------- */

static hb_status report_failure(const hb_process *p, const child_failure *f)
{
    const char *reason = strerror(f->error);
    if (f->stage == FAILED_FOLDER)
        return hb_fail(HB_ERR_INTERNAL, "cannot run %s in %s: %s", name_of(p), p->cwd, reason);
    if (f->stage == FAILED_STREAMS)
        return hb_fail(HB_ERR_INTERNAL, "cannot set up the standard streams of %s: %s", name_of(p), reason);
    return hb_fail(HB_ERR_INTERNAL, "cannot run %s: %s", name_of(p), reason);
}

static void record_reap(hb_process *p, int status, int known)
{
    p->reaped = 1;
    p->ended.exited = known && WIFEXITED(status);
    p->ended.code = p->ended.exited ? WEXITSTATUS(status) : -1;
    p->ended.signal = known && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    p->ended.seconds = hb_now_s() - p->started_s;
}

/* After a failed set-up: the child exits at once. */
static void reap_now(hb_process *p)
{
    int status = 0;
    pid_t got;
    while ((got = waitpid(p->pid, &status, 0)) < 0 && errno == EINTR)
        ;
    record_reap(p, status, got == p->pid);
}

hb_status hb_process_start(hb_process *p)
{
    char program[PROGRAM_PATH_MAX];
    child_plan plan;
    p->pid = 0;
    p->reaped = 0;
    memset(&p->ended, 0, sizeof p->ended);
    HB_TRY(plan_child(p, program, sizeof program, &plan));
    int notify[2];
    if (pipe2(notify, O_CLOEXEC) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot start %s: pipe: %s", name_of(p), strerror(errno));
    plan.notify = notify[1];
    keep_descriptor(&plan, notify[1]); /* until exec closes it */
    fflush(NULL);
    p->started_s = hb_now_s();
    p->pid = fork();
    if (p->pid < 0) {
        int error = errno;
        close(notify[0]);
        close(notify[1]);
        p->pid = 0;
        return hb_fail(HB_ERR_INTERNAL, "cannot start %s: fork: %s", name_of(p), strerror(error));
    }
    if (p->pid == 0) {
        close(notify[0]);
        run_child(p, &plan);
    }
    close(notify[1]);
    if (p->new_group && !p->new_session) /* a session leader's group is its own already */
        setpgid(p->pid, p->pid); /* also here: the group exists before anyone signals it */
    child_failure failure;
    ssize_t got;
    while ((got = read(notify[0], &failure, sizeof failure)) < 0 && errno == EINTR)
        ;
    close(notify[0]);
    if (got != (ssize_t)sizeof failure)
        return HB_OK; /* closed by exec, or by a function child before its function */
    reap_now(p);
    return report_failure(p, &failure);
}

_Noreturn void hb_process_exec(const hb_process *p)
{
    char program[PROGRAM_PATH_MAX];
    child_plan plan;
    if (!p->argv || plan_child(p, program, sizeof program, &plan) != HB_OK)
        _exit(CHILD_CANNOT_RUN);
    child_failure failure = {set_up(p, &plan), 0};
    if (!failure.stage) {
        close_others(&plan);
        execv(plan.program, p->argv);
        failure.stage = FAILED_EXEC;
    }
    failure.error = errno;
    report_failure(p, &failure); /* on stderr: the log, when it was set up */
    fflush(stderr);
    _exit(CHILD_CANNOT_RUN);
}

int hb_process_poll(hb_process *p, hb_process_end *end)
{
    if (!p->reaped) {
        int status = 0;
        pid_t got = waitpid(p->pid, &status, WNOHANG);
        if (got == 0 || (got < 0 && errno == EINTR))
            return 0;
        record_reap(p, status, got == p->pid); /* an error: not a child any more, its end unknown */
    }
    *end = p->ended;
    return 1;
}

static void kill_for(hb_process *p, int *flag)
{
    *flag = 1;
    hb_process_kill(p, SIGKILL);
}

hb_status hb_process_wait(hb_process *p, double timeout_s, int (*stop)(void), hb_process_end *end)
{
    const double start = hb_now_s();
    const struct timespec tick = {0, 10 * 1000 * 1000}; /* 10 ms */
    const int watched = timeout_s > 0 || stop;
    while (!p->reaped) {
        int status = 0;
        pid_t got = waitpid(p->pid, &status, watched ? WNOHANG : 0);
        if (got == p->pid) {
            record_reap(p, status, 1);
            break;
        }
        if (got < 0 && errno != EINTR) {
            int error = errno;
            record_reap(p, 0, 0);
            *end = p->ended;
            return hb_fail(HB_ERR_INTERNAL, "cannot wait for %s (process %ld): %s", name_of(p), (long)p->pid,
                           strerror(error));
        }
        if (!watched)
            continue; /* EINTR */
        if (timeout_s > 0 && !p->ended.timed_out && hb_now_s() - start > timeout_s) {
            p->ended.timeout_s = timeout_s;
            kill_for(p, &p->ended.timed_out);
        }
        if (stop && !p->ended.stopped && stop())
            kill_for(p, &p->ended.stopped);
        nanosleep(&tick, NULL);
    }
    *end = p->ended;
    return HB_OK;
}

hb_status hb_process_run(hb_process *p, double timeout_s, int (*stop)(void), hb_process_end *end)
{
    memset(end, 0, sizeof *end);
    HB_TRY(hb_process_start(p));
    return hb_process_wait(p, timeout_s, stop, end);
}

/* Reads the child's stdout into the capture until EOF; 1 when the deadline
 * (0: none) passed first. */
static int read_output(int fd, double deadline, hb_capture *c)
{
    char dropped[4096];
    for (;;) {
        int wait_ms = 1000; /* the loop re-checks the deadline at least this often */
        if (deadline > 0) {
            double left = deadline - hb_now_s();
            if (left <= 0)
                return 1;
            if (left < 1.0)
                wait_ms = (int)(left * 1000) + 1;
        }
        struct pollfd ready = {fd, POLLIN, 0};
        int n_ready = poll(&ready, 1, wait_ms);
        if (n_ready < 0 && errno != EINTR)
            return 0;
        if (n_ready <= 0)
            continue;
        int keep = c->length + 1 < c->size;
        char *into = keep ? c->text + c->length : dropped;
        size_t room = keep ? c->size - 1 - c->length : sizeof dropped;
        ssize_t n = read(fd, into, room);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        if (!keep) {
            c->cut = 1;
            continue;
        }
        c->length += (size_t)n;
        c->text[c->length] = '\0';
    }
}

hb_status hb_process_capture(hb_process *p, double timeout_s, hb_capture *capture, hb_process_end *end)
{
    memset(end, 0, sizeof *end);
    capture->length = 0;
    capture->cut = 0;
    if (capture->size > 0)
        capture->text[0] = '\0';
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot start %s: pipe: %s", name_of(p), strerror(errno));
    p->out = fds[1];
    p->new_group = 1; /* a time limit kills what it started too */
    hb_status started = hb_process_start(p);
    close(fds[1]);
    if (started != HB_OK) {
        close(fds[0]);
        return started;
    }
    const double deadline = timeout_s > 0 ? hb_now_s() + timeout_s : 0;
    int expired = read_output(fds[0], deadline, capture);
    close(fds[0]);
    if (expired)
        kill_for(p, &p->ended.timed_out);
    double left = deadline > 0 && !expired ? deadline - hb_now_s() : 0;
    hb_status waited = hb_process_wait(p, deadline > 0 && !expired ? (left > 0.001 ? left : 0.001) : 0, NULL, end);
    if (p->ended.timed_out)
        p->ended.timeout_s = timeout_s; /* the whole limit, not what was left of it */
    *end = p->ended;
    return waited;
}

void hb_process_kill(const hb_process *p, int signal_number)
{
    if (p->pid <= 0)
        return;
    if (p->new_group)
        kill(-p->pid, signal_number);
    if (!p->reaped)
        kill(p->pid, signal_number);
}

void hb_process_end_text(const hb_process_end *end, char *out, size_t size)
{
    if (end->timed_out)
        snprintf(out, size, "timed out after %g s", end->timeout_s);
    else if (end->stopped)
        snprintf(out, size, "stopped");
    else if (end->signal)
        snprintf(out, size, "signal %d (%s)", end->signal, hb_signal_name(end->signal));
    else if (end->exited)
        snprintf(out, size, "exit %d", end->code);
    else
        snprintf(out, size, "an end that could not be read (the process was not this one's child)");
}
