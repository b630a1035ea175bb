#define _POSIX_C_SOURCE 200809L
#include "bench/core/heartbeat.h"

#include <stdlib.h>
#include <unistd.h>

#include "bench/core/clock.h"

#define MSG_HEARTBEAT 'H' /* the wire format's heartbeat byte (bench/driver/isolate.c) */
#define HEARTBEAT_INTERVAL_S 0.25

static int heartbeat_fd = -1;
static double last_heartbeat_s;

void hb_heartbeat(void)
{
    if (heartbeat_fd < 0)
        return;
    double now = hb_now_s();
    if (now - last_heartbeat_s < HEARTBEAT_INTERVAL_S)
        return;
    last_heartbeat_s = now;
    char byte = MSG_HEARTBEAT;
    ssize_t ignored = write(heartbeat_fd, &byte, 1); /* a full pipe or a gone parent: nothing to do */
    (void)ignored;
}

void hb_heartbeat_attach(int fd)
{
    heartbeat_fd = fd;
    last_heartbeat_s = 0;
    hb_heartbeat();
}

int hb_heartbeat_descriptor(void)
{
    return heartbeat_fd;
}

void hb_heartbeat_from_env(void)
{
    const char *text = getenv(HB_HEARTBEAT_FD_ENV);
    if (text && *text)
        heartbeat_fd = atoi(text);
}
