#define _POSIX_C_SOURCE 200809L
#include "bench/core/process_start.h"

#include <stdio.h>
#include <string.h>

int hb_process_start_ticks(pid_t pid, unsigned long long *ticks)
{
    if (pid <= 0)
        return 0;
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    /* the name (field 2) is in brackets and may hold spaces or ')': the fields follow its last ')' */
    const char *after = strrchr(line, ')');
    if (!after)
        return 0;
    /* field 3 (state) is the first after it; the start time is field 22 */
    const char *p = after + 1;
    for (int field = 3; field < 22; field++) {
        p = strchr(p + 1, ' ');
        if (!p)
            return 0;
    }
    return sscanf(p, " %llu", ticks) == 1;
}

int hb_process_is_same(pid_t pid, unsigned long long ticks)
{
    unsigned long long now;
    return hb_process_start_ticks(pid, &now) && now == ticks;
}
