#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "bench/import/build_width.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int hb_build_width(long cores, unsigned long long available_bytes, unsigned long long per_build_bytes)
{
    long width = cores > 0 ? cores : 1;
    if (available_bytes > 0 && per_build_bytes > 0) {
        unsigned long long fit = available_bytes / per_build_bytes;
        if (fit < (unsigned long long)width)
            width = (long)fit;
    }
    return width < 1 ? 1 : width > 1024 ? 1024 : (int)width;
}

unsigned long long hb_meminfo_available(const char *text)
{
    const char *line = strstr(text, "MemAvailable:");
    if (!line || (line != text && line[-1] != '\n'))
        return 0;
    unsigned long long kib = 0;
    char unit[8] = "";
    if (sscanf(line, "MemAvailable: %llu %7s", &kib, unit) != 2 || strcmp(unit, "kB") != 0)
        return 0;
    return kib * 1024ULL;
}

void hb_host_capacity(long *cores, unsigned long long *available_bytes)
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    *cores = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : sysconf(_SC_NPROCESSORS_ONLN);
    *available_bytes = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return;
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    *available_bytes = hb_meminfo_available(text);
}
