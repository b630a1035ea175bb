#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "bench/core/toolkit_program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int executable(const char *path)
{
    return access(path, X_OK) == 0;
}

static int search_path(const char *name, char *out, size_t size)
{
    const char *path = getenv("PATH");
    char *copy = path ? strdup(path) : NULL;
    int found = 0;
    for (char *save = NULL, *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found;
         dir = strtok_r(NULL, ":", &save)) {
        snprintf(out, size, "%.3900s/%s", dir, name);
        found = executable(out);
    }
    free(copy);
    return found;
}

hb_program_found hb_toolkit_program_find(const char *name, const char *variable, char *out, size_t size)
{
    const char *given = getenv(variable), *home = getenv("CUDA_HOME");
    if (given && *given) {
        snprintf(out, size, "%s", given);
        return executable(out) ? HB_PROGRAM_FOUND : HB_PROGRAM_NAMED_BAD;
    }
    const char *homes[2] = {home && *home ? home : NULL, "/usr/local/cuda"};
    for (int i = 0; i < 2; i++) {
        if (!homes[i])
            continue;
        snprintf(out, size, "%.3900s/bin/%s", homes[i], name);
        if (executable(out))
            return HB_PROGRAM_FOUND;
    }
    return search_path(name, out, size) ? HB_PROGRAM_FOUND : HB_PROGRAM_MISSING;
}
