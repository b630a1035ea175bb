#define _POSIX_C_SOURCE 200809L /* sigaction, setpgid, readlink */
#include "bench/driver/stage_child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"

static volatile sig_atomic_t running_child; /* the stage's pid while it runs, else 0 */
static volatile sig_atomic_t caught;        /* the first signal caught while it ran */

/* Passes the signal on to the stage (its own process group), once. */
static void pass_on(int sig)
{
    if (!caught)
        caught = sig;
    if (running_child > 0)
        kill(-(pid_t)running_child, sig);
}

static hb_status self_path(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot read /proc/self/exe to run the next stage: %s", strerror(errno));
    out[n] = '\0';
    return HB_OK;
}

/* In the child: its own group, default signals, stdout to the file. */
static void become_stage(hb_argv *argv, const char *self, int out_fd)
{
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    if (out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0)
        _exit(127);
    execv(self, argv->word);
    fprintf(stderr, "hgemm-bench: reproduce: cannot run %s: %s\n", self, strerror(errno));
    _exit(127);
}

static int exit_code_of(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

hb_status hb_stage_child_run(hb_argv *argv, const char *stdout_path, hb_stage_end *end)
{
    char self[4096];
    HB_TRY(self_path(self, sizeof self));
    argv->word[0] = self; /* the builder's first word is a placeholder; execv wants the path */
    int out_fd = -1;
    if (stdout_path && (out_fd = open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
        return hb_fail(HB_ERR_IO, "cannot write %s: %s", stdout_path, strerror(errno));
    struct sigaction action = {.sa_handler = pass_on}, old[3];
    sigemptyset(&action.sa_mask);
    const int signals[3] = {SIGINT, SIGTERM, SIGHUP};
    caught = 0;
    fflush(NULL);
    double started = hb_now_s();
    pid_t pid = fork();
    if (pid < 0) {
        if (out_fd >= 0)
            close(out_fd);
        return hb_fail(HB_ERR_INTERNAL, "cannot start the next stage: fork: %s", strerror(errno));
    }
    if (pid == 0)
        become_stage(argv, self, out_fd);
    setpgid(pid, pid); /* also here: no signal may find the child still in our group */
    running_child = pid;
    for (int i = 0; i < 3; i++)
        sigaction(signals[i], &action, &old[i]);
    int status = 0;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    running_child = 0;
    for (int i = 0; i < 3; i++)
        sigaction(signals[i], &old[i], NULL);
    if (out_fd >= 0)
        close(out_fd);
    if (got < 0)
        return hb_fail(HB_ERR_INTERNAL, "waiting for the stage failed: %s", strerror(errno));
    *end = (hb_stage_end){exit_code_of(status), caught, hb_now_s() - started};
    return HB_OK;
}
