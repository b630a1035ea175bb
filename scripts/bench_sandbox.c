/* scripts/bench_sandbox.sh's program: what the sandbox (bench/driver/sandbox.h)
 * costs a call on this CPU.  Each trial is a fresh child of its own process
 * group, sandboxed or not (alternating, so drift hits both alike), that times
 * N getppid() calls (a system call the filters all read and pass: the cost
 * of every system call the timed path makes, e.g. a blocking synchronize's)
 * and N clock_gettime(CLOCK_MONOTONIC) calls (the vDSO: no system call, the
 * host clock the harness's wall timer reads), and, sandboxed, how long
 * applying the sandbox took.  Prints the medians over the trials, ns per
 * call, and the difference.  A benchmark, not a test.
 * usage: bench-sandbox [CALLS [TRIALS]]   (default 2000000 calls, 7 trials) */
#define _GNU_SOURCE /* syscall */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/stats.h"
#include "bench/driver/sandbox.h"

typedef struct trial {
    double getppid_ns, clock_ns, apply_ms;
    char summary[64];
} trial;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static trial measure(int sandboxed, long calls)
{
    trial t = {0, 0, 0, "none"};
    if (sandboxed) {
        hb_sandbox_setup setup = {.protected_fds = {0, 1, 2}, .n_fds = 3};
        double start = now_ns();
        if (hb_sandbox_apply(&setup, t.summary, sizeof t.summary) != HB_OK)
            _exit(2);
        t.apply_ms = (now_ns() - start) / 1e6;
    }
    double start = now_ns();
    for (long i = 0; i < calls; i++)
        syscall(SYS_getppid); /* the system call itself, whatever the C library wraps around it */
    t.getppid_ns = (now_ns() - start) / (double)calls;
    struct timespec sink;
    start = now_ns();
    for (long i = 0; i < calls; i++)
        clock_gettime(CLOCK_MONOTONIC, &sink);
    t.clock_ns = (now_ns() - start) / (double)calls;
    return t;
}

/* One trial in a child that leads its own group (the sandbox kills its group on a violation). */
static trial run_trial(int sandboxed, long calls)
{
    int fds[2];
    trial t = {0};
    if (pipe(fds) != 0)
        exit(1);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        close(fds[0]);
        t = measure(sandboxed, calls);
        _exit(write(fds[1], &t, sizeof t) == (ssize_t)sizeof t ? 0 : 1);
    }
    close(fds[1]);
    int status = 0;
    if (pid < 0 || read(fds[0], &t, sizeof t) != (ssize_t)sizeof t || waitpid(pid, &status, 0) != pid || status != 0) {
        fprintf(stderr, "bench-sandbox: a %s trial failed (status %d)\n", sandboxed ? "sandboxed" : "plain", status);
        exit(1);
    }
    close(fds[0]);
    return t;
}

static double median(const double *v, int n)
{
    double scratch[100];
    return hb_finite_quantile(v, (size_t)n, 0.5, scratch);
}

int main(int argc, char **argv)
{
    const long calls = argc > 1 ? atol(argv[1]) : 2000000;
    const int trials = argc > 2 ? atoi(argv[2]) : 7;
    if (calls < 1 || trials < 1 || trials > 100) {
        fprintf(stderr, "usage: bench-sandbox [CALLS [TRIALS]] (TRIALS 1..100)\n");
        return 2;
    }
    double ppid[2][100], clk[2][100], apply[100];
    char summary[64] = "";
    for (int i = 0; i < trials; i++)
        for (int s = 0; s < 2; s++) {
            trial t = run_trial((i + s) % 2, calls); /* alternate which goes first */
            int sandboxed = (i + s) % 2;
            ppid[sandboxed][i] = t.getppid_ns;
            clk[sandboxed][i] = t.clock_ns;
            if (sandboxed) {
                apply[i] = t.apply_ms;
                snprintf(summary, sizeof summary, "%s", t.summary);
            }
        }
    double p0 = median(ppid[0], trials), p1 = median(ppid[1], trials);
    double c0 = median(clk[0], trials), c1 = median(clk[1], trials);
    printf("sandbox: %s; %ld calls a trial, %d trials a side, medians\n", summary, calls, trials);
    printf("getppid (a system call)      : %7.1f ns plain, %7.1f ns sandboxed, %+6.1f ns\n", p0, p1, p1 - p0);
    printf("clock_gettime (vDSO)         : %7.1f ns plain, %7.1f ns sandboxed, %+6.1f ns\n", c0, c1, c1 - c0);
    printf("applying the sandbox         : %7.2f ms\n", median(apply, trials));
    return 0;
}
