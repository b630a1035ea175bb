#define _POSIX_C_SOURCE 200809L /* kill, sigaction, dprintf */
#include "bench/import/command_run.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/out_file.h"
#include "bench/core/process.h"

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

/* Polled while a command runs in this process: nonzero ends it (an interrupt). */
static int (*stop_asked)(void);

void hb_command_set_stop(int (*stop)(void))
{
    stop_asked = stop;
}

/* The log, and the command's stdout: `stdout_path` or the log itself. */
static hb_status open_outputs(const char *stdout_path, const char *log_path, int *out_fd, int *log_fd)
{
    HB_TRY(hb_open_output(log_path, 1, log_fd));
    *out_fd = *log_fd;
    if (stdout_path && hb_open_output(stdout_path, 0, out_fd) != HB_OK) {
        close(*log_fd);
        return HB_ERR_IO;
    }
    return HB_OK;
}

hb_status hb_command_run(char *const argv[], const char *cwd, const char *stdout_path, const char *log_path,
                         int timeout_s, hb_command_end *end)
{
    memset(end, 0, sizeof *end);
    int out_fd, log_fd;
    HB_TRY(open_outputs(stdout_path, log_path, &out_fd, &log_fd));
    log_command(log_fd, argv);
    hb_process command = HB_PROCESS_INIT;
    command.argv = argv;
    command.cwd = cwd;
    command.in = HB_FD_NULL;
    command.out = out_fd;
    command.err = log_fd;
    command.new_group = 1; /* a timeout or a stop kills nvcc's cicc and ptxas too */
    hb_status started = hb_process_start(&command);
    if (started != HB_OK)
        dprintf(log_fd, "%s\n", hb_last_error()); /* the log says why, as a shell would */
    if (out_fd != log_fd)
        close(out_fd);
    close(log_fd);
    if (started != HB_OK)
        return started;
    running_group = command.pid;
    hb_status waited = hb_process_wait(&command, timeout_s, stop_asked, end);
    running_group = 0;
    return waited;
}

void hb_command_end_text(const hb_command_end *end, int timeout_s, char *out, size_t size)
{
    if (end->timed_out)
        snprintf(out, size, "timed out after %d s", timeout_s);
    else if (end->stopped)
        snprintf(out, size, "stopped: the import was interrupted");
    else
        hb_process_end_text(end, out, size);
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
    hb_process rm = HB_PROCESS_INIT;
    rm.argv = argv;
    rm.in = rm.out = rm.err = HB_FD_NULL;
    rm.new_group = 1;
    hb_process_end end;
    hb_process_run(&rm, 60, NULL, &end);
}
