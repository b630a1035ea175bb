#define _POSIX_C_SOURCE 200809L
#include "bench/core/heartbeat.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/core/clock.h"
#include "bench/core/parent_watch.h"

#define HEARTBEAT_INTERVAL_S 0.25

static int heartbeat_fd = -1;
static double last_heartbeat_s;
static hb_phase current_phase = HB_PHASE_SETUP;

/* One byte to the parent.  The pipe blocks, so a full pipe only waits for the
 * parent to read; EPIPE means the parent is gone. */
static void send_byte(char byte)
{
    ssize_t n;
    do
        n = write(heartbeat_fd, &byte, 1);
    while (n < 0 && errno == EINTR);
    if (n < 0 && errno == EPIPE)
        _exit(HB_EXIT_PARENT_GONE); /* the harness died: release the GPU now */
    last_heartbeat_s = hb_now_s();
}

void hb_heartbeat(void)
{
    if (heartbeat_fd < 0)
        return;
    if (hb_now_s() - last_heartbeat_s < HEARTBEAT_INTERVAL_S)
        return;
    send_byte(HB_WIRE_HEARTBEAT);
}

void hb_heartbeat_phase(hb_phase phase)
{
    current_phase = phase;
    if (heartbeat_fd < 0)
        return;
    send_byte(phase == HB_PHASE_CANDIDATE ? HB_WIRE_PHASE_CANDIDATE : HB_WIRE_PHASE_SETUP);
}

hb_phase hb_heartbeat_current_phase(void)
{
    return current_phase;
}

/* A write to the pipe of a gone parent must come back as EPIPE, which
 * send_byte turns into a deliberate exit, not kill the process by SIGPIPE. */
static void ignore_sigpipe(void)
{
    if (signal(SIGPIPE, SIG_IGN) == SIG_ERR)
        fprintf(stderr, "hgemm-bench: warning: cannot ignore SIGPIPE (%s): a gone harness ends this worker by "
                        "SIGPIPE instead of exit status %d\n",
                strerror(errno), HB_EXIT_PARENT_GONE);
}

void hb_heartbeat_attach(int fd)
{
    heartbeat_fd = fd;
    last_heartbeat_s = 0;
    current_phase = HB_PHASE_SETUP; /* a fresh child: its parent starts from the set-up too */
    ignore_sigpipe();
    hb_heartbeat();
}

int hb_heartbeat_descriptor(void)
{
    return heartbeat_fd;
}

void hb_heartbeat_from_env(void)
{
    const char *text = getenv(HB_HEARTBEAT_FD_ENV);
    if (!text || !*text)
        return;
    char *end = NULL;
    errno = 0;
    long fd = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || fd < 0 || fd > 65535) {
        fprintf(stderr, "hgemm-bench: warning: %s=%s is not a file descriptor; running without a heartbeat\n",
                HB_HEARTBEAT_FD_ENV, text);
        return;
    }
    hb_die_with_parent(0); /* the parent is compute-sanitizer, whose pid this process never knew */
    hb_heartbeat_attach((int)fd);
}
