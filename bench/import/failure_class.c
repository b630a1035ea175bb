#include "bench/import/failure_class.h"

#include <stdio.h>
#include <string.h>

/* Error lines that name an API a CUDA release changed: the text nvcc prints
 * (all needles must be in the line) and what changed.  One row per change;
 * add a row when a release changes another API CUDA-L2's files call. */
static const struct {
    const char *needle[2];
    const char *api;
} api_changes[] = {
    {{"cudaMemLocation", NULL},
     "cudaMemPrefetchAsync / cudaMemAdvise: CUDA 13 takes a cudaMemLocation where CUDA 12 took an int device"},
    {{"cudaDeviceProp", "has no member"},
     "cudaDeviceProp: CUDA 13 removed fields (clockRate, memoryClockRate, ...); cudaDeviceGetAttribute has them"},
    {{"cudaLaunchCooperativeKernelMultiDevice", "undefined"},
     "cudaLaunchCooperativeKernelMultiDevice: removed in CUDA 13"},
};

const char *hb_toolkit_api_change(const char *line)
{
    for (size_t i = 0; i < sizeof api_changes / sizeof api_changes[0]; i++) {
        int all = 1;
        for (int n = 0; n < 2 && api_changes[i].needle[n]; n++)
            all &= strstr(line, api_changes[i].needle[n]) != NULL;
        if (all)
            return api_changes[i].api;
    }
    return NULL;
}

/* The first API change any error line of the log names; NULL when none. */
static const char *api_change_in_log(const char *log_path)
{
    FILE *f = log_path ? fopen(log_path, "r") : NULL;
    if (!f)
        return NULL;
    char line[4096];
    const char *api = NULL;
    while (!api && fgets(line, sizeof line, f))
        if (strstr(line, "error"))
            api = hb_toolkit_api_change(line);
    fclose(f);
    return api;
}

void hb_failure_classify(const hb_build_outcome *o, const char *log_path, hb_failure_class *out)
{
    out->name = "";
    out->api[0] = '\0';
    if (o->built)
        return;
    const char *api = NULL;
    if (o->timed_out || strncmp(o->first_error, "timed out", 9) == 0)
        out->name = "timeout";
    else if (strcmp(o->step, "compile") == 0 &&
             ((api = hb_toolkit_api_change(o->first_error)) != NULL || (api = api_change_in_log(log_path)) != NULL))
        out->name = "toolkit-api-change";
    else if (strcmp(o->step, "compile") == 0)
        out->name = "compile-error";
    else if (strcmp(o->step, "link") == 0)
        out->name = "link-error";
    else if (strcmp(o->step, "record") == 0)
        out->name = "record-failed";
    else
        out->name = "build-process-failed";
    if (api)
        snprintf(out->api, sizeof out->api, "%s", api);
}
