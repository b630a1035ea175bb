#define _POSIX_C_SOURCE 200809L
#include "bench/core/clock.h"

#include <stdio.h>
#include <time.h>

double hb_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void hb_utc_now(char *out, size_t size)
{
    time_t now = time(NULL);
    struct tm tm;
    if (now == (time_t)-1 || !gmtime_r(&now, &tm) || strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(out, size, "unknown");
}
