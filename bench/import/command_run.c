#define _POSIX_C_SOURCE 200809L /* kill, setpgid */
#include "bench/import/command_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/signal_name.h"

static void log_command(int fd, char *const argv[])
{
    dprintf(fd, "$");
    for (size_t i = 0; argv[i]; i++)
        dprintf(fd, " %s", argv[i]);
    dprintf(fd, "\n");
}

/* The command this process is waiting for (its process group); 0: none. */
static volatile sig_atomic_t running_group;

/* Async-signal-safe only: kill and _exit.  The build's private folder is
 * left unrenamed, so no cache entry records an interrupted build. */
static void end_with_command(int signal_number)
{
    pid_t group = (pid_t)running_group;
    if (group > 0)
        kill(-group, SIGKILL);
    _exit(128 + signal_number);
}

void hb_command_end_with_process(void)
{
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = end_with_command;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
        sigaction(signals[i], &action, NULL); /* best effort: without it the default action still ends this process */
}

static void child(char *const argv[], const char *cwd, int out_fd, int log_fd)
{
    setpgid(0, 0);
    if (cwd && chdir(cwd) != 0) {
        dprintf(log_fd, "cannot enter %s: %s\n", cwd, strerror(errno));
        _exit(127);
    }
    dup2(out_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0)
        dup2(null_fd, STDIN_FILENO);
    execv(argv[0], argv);
    dprintf(log_fd, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Polled while a command runs in this process: nonzero ends it (an interrupt). */
static int (*stop_asked)(void);

void hb_command_set_stop(int (*stop)(void))
{
    stop_asked = stop;
}

static void wait_for(pid_t pid, int timeout_s, hb_command_end *end)
{
    const double start = hb_now_s();
    const struct timespec tick = {0, 20 * 1000 * 1000}; /* 20 ms: builds take seconds */
    int status = 0;
    for (;;) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid)
            break;
        if (got < 0 && errno != EINTR) {
            status = 0;
            break;
        }
        if (timeout_s > 0 && hb_now_s() - start > timeout_s && !end->timed_out) {
            end->timed_out = 1;
            kill(-pid, SIGKILL);
        }
        if (stop_asked && !end->stopped && stop_asked()) {
            end->stopped = 1;
            kill(-pid, SIGKILL);
        }
        nanosleep(&tick, NULL);
    }
    end->seconds = hb_now_s() - start;
    end->exited = WIFEXITED(status);
    end->code = end->exited ? WEXITSTATUS(status) : -1;
    end->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

hb_status hb_command_run(char *const argv[], const char *cwd, const char *stdout_path, const char *log_path,
                         int timeout_s, hb_command_end *end)
{
    memset(end, 0, sizeof *end);
    int log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log_fd < 0)
        return hb_fail(HB_ERR_IO, "cannot open %s: %s", log_path, strerror(errno));
    int out_fd = stdout_path ? open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : log_fd;
    if (out_fd < 0) {
        int e = errno;
        close(log_fd);
        return hb_fail(HB_ERR_IO, "cannot open %s: %s", stdout_path, strerror(e));
    }
    log_command(log_fd, argv);
    pid_t pid = fork();
    if (pid == 0)
        child(argv, cwd, out_fd, log_fd);
    if (out_fd != log_fd)
        close(out_fd);
    close(log_fd);
    if (pid < 0)
        return hb_fail(HB_ERR_INTERNAL, "cannot start %s: %s", argv[0], strerror(errno));
    setpgid(pid, pid); /* as the child does: the group exists before anyone signals it */
    running_group = pid;
    wait_for(pid, timeout_s, end);
    running_group = 0;
    return HB_OK;
}

void hb_command_end_text(const hb_command_end *end, int timeout_s, char *out, size_t size)
{
    if (end->timed_out)
        snprintf(out, size, "timed out after %d s", timeout_s);
    else if (end->stopped)
        snprintf(out, size, "stopped: the import was interrupted");
    else if (end->signal)
        snprintf(out, size, "signal %d (%s)", end->signal, hb_signal_name(end->signal));
    else
        snprintf(out, size, "exit %d", end->code);
}

static int reports_error(const char *line)
{
    return strstr(line, "error:") || strstr(line, "error :") || strstr(line, " error ") ||
           strstr(line, "undefined reference") || strstr(line, "fatal");
}

void hb_first_error_line(const char *log_path, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(log_path, "r");
    if (!f)
        return;
    char line[2048];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '$' || !reports_error(line))
            continue;
        line[strcspn(line, "\n")] = '\0';
        snprintf(out, size, "%s", line);
        break;
    }
    fclose(f);
}

void hb_remove_tree(const char *dir)
{
    char *argv[] = {"/bin/rm", "-rf", (char *)dir, NULL};
    hb_command_end end;
    hb_command_run(argv, NULL, NULL, "/dev/null", 60, &end);
}
