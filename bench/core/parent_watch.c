#define _POSIX_C_SOURCE 200809L
#include "bench/core/parent_watch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

void hb_die_with_parent(pid_t parent)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
        /* Not fatal: the silence timeout and the heartbeat's EPIPE still end
         * a worker whose parent lives; only a killed harness is not covered. */
        fprintf(stderr, "hgemm-bench: warning: cannot ask to die with the harness (prctl PR_SET_PDEATHSIG: %s); "
                        "if the harness is killed, this worker may keep the GPU until it ends\n",
                strerror(errno));
    if (parent > 0 && getppid() != parent)
        _exit(HB_EXIT_PARENT_GONE); /* re-parented already: the request above will never fire */
}
