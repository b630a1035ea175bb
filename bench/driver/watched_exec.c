#define _POSIX_C_SOURCE 200809L
#include "bench/driver/watched_exec.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/heartbeat.h"

void hb_exec_watched(char *const *words, const char *program)
{
    char fd[16];
    snprintf(fd, sizeof fd, "%d", hb_heartbeat_descriptor());
    if (setenv(HB_HEARTBEAT_FD_ENV, fd, 1) != 0)
        fprintf(stderr, "hgemm-bench: warning: cannot pass the heartbeat to the %s pass (setenv: %s): it will look "
                        "silent\n", program, strerror(errno));
    if (signal(SIGPIPE, SIG_DFL) == SIG_ERR)
        fprintf(stderr, "hgemm-bench: warning: cannot restore SIGPIPE for %s: %s\n", program, strerror(errno));
    execv(words[0], words);
    fprintf(stderr, "hgemm-bench: cannot execute %s: %s\n", words[0], strerror(errno));
    _exit(127);
}
