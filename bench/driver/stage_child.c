#define _POSIX_C_SOURCE 200809L /* sigaction, readlink */
#include "bench/driver/stage_child.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/core/diag.h"
#include "bench/core/out_file.h"
#include "bench/core/process.h"

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

static int exit_code_of(const hb_process_end *end)
{
    if (end->exited)
        return end->code;
    return end->signal ? 128 + end->signal : 1;
}

static const int passed_signals[3] = {SIGINT, SIGTERM, SIGHUP};

/* The stage in its own group, with default signals, stdout to out_fd;
 * reproduce's handlers pass a signal on while it runs.  The handlers are in
 * place before the fork: a signal caught before the stage's pid is known is
 * passed on as soon as it is. */
static hb_status run_stage(hb_process *stage, hb_process_end *end)
{
    struct sigaction action = {.sa_handler = pass_on}, old[3];
    sigemptyset(&action.sa_mask);
    caught = 0;
    running_child = 0;
    for (int i = 0; i < 3; i++)
        sigaction(passed_signals[i], &action, &old[i]);
    hb_status status = hb_process_start(stage);
    if (status == HB_OK) {
        running_child = stage->pid;
        if (caught)
            kill(-stage->pid, caught);
        status = hb_process_wait(stage, 0, NULL, end);
        running_child = 0;
    }
    for (int i = 0; i < 3; i++)
        sigaction(passed_signals[i], &old[i], NULL);
    return status;
}

static hb_status run_into(hb_argv *argv, int out_fd, hb_stage_end *end)
{
    char self[4096];
    HB_TRY(self_path(self, sizeof self));
    argv->word[0] = self; /* the builder's first word is a placeholder; execv wants the path */
    hb_process stage = HB_PROCESS_INIT;
    stage.argv = argv->word;
    stage.out = out_fd;
    stage.new_group = 1;       /* a Ctrl-C at the terminal reaches reproduce alone, which passes it on */
    stage.default_signals = 1; /* reproduce's handlers are not the stage's */
    hb_process_end ended;
    HB_TRY(run_stage(&stage, &ended));
    *end = (hb_stage_end){exit_code_of(&ended), caught, ended.seconds};
    return HB_OK;
}

static int accepted_code(const hb_stage_end *end, const int *accepted)
{
    if (end->signal)
        return 0; /* interrupted: what it printed may be cut short */
    for (const int *ok = accepted; *ok >= 0; ok++)
        if (end->code == *ok)
            return 1;
    return 0;
}

/* The file the tables replace: none yet, or a regular file.  A link or a
 * FIFO in its place is refused before the stage runs, as a command's
 * output always is (bench/core/out_file.h), not silently replaced. */
static hb_status check_target(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? HB_OK : hb_fail(HB_ERR_IO, "cannot inspect %s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return hb_fail(HB_ERR_IO, "%s is %s, not a regular file: the stage's tables are not written there (remove "
                       "it)", path, S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISFIFO(st.st_mode) ? "a FIFO"
                                                                                                   : "not a file");
    return HB_OK;
}

hb_status hb_stage_child_run(hb_argv *argv, const char *stdout_path, const int *accepted, hb_stage_end *end)
{
    if (!stdout_path)
        return run_into(argv, HB_FD_INHERIT, end);
    HB_TRY(check_target(stdout_path));
    /* The tables go to a new temporary beside the file, renamed over it only
     * when the stage ended with an accepted code: a stage that failed (or
     * never started) leaves the file as it was, never empty or half written. */
    hb_out_file tables = {0};
    HB_TRY(hb_out_file_begin(&tables, stdout_path));
    hb_status status = run_into(argv, fileno(tables.stream), end);
    if (status == HB_OK && accepted_code(end, accepted))
        return hb_out_file_commit(&tables);
    hb_out_file_abandon(&tables);
    return status;
}
