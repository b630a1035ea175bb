#define _POSIX_C_SOURCE 200809L
#include "bench/driver/watched_exec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/heartbeat.h"
#include "bench/core/out_file.h"
#include "bench/core/process.h"

void hb_exec_watched(char *const *words, const char *program, const char *log)
{
    hb_process tool = HB_PROCESS_INIT;
    tool.argv = words;
    tool.default_signals = 1;
    int heartbeat = hb_heartbeat_descriptor();
    if (heartbeat >= 0)
        tool.keep[tool.keep_count++] = heartbeat;
    char fd[16];
    snprintf(fd, sizeof fd, "%d", heartbeat);
    if (setenv(HB_HEARTBEAT_FD_ENV, fd, 1) != 0)
        fprintf(stderr, "hgemm-bench: warning: cannot pass the heartbeat to the %s pass (setenv: %s): it will look "
                        "silent\n", program, strerror(errno));
    int log_fd = -1;
    if (log && hb_open_output(log, 0, &log_fd) != HB_OK)
        _exit(126); /* the reason is on stderr */
    if (log)
        tool.out = tool.err = log_fd;
    hb_process_exec(&tool);
}
