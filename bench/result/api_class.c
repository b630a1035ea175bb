/* The API-class table: the one place that says which CUDA calls count as an
 * allocation, a synchronization, a creation, ...  docs/trace.md shows it.
 * Rows are tried in order, the first match wins; a name is matched on its
 * base (see base_name): "cudaStreamSynchronize_ptsz_v7000" and
 * "cuStreamSynchronize" both match "…Synchronize". */
#include "bench/result/api_class.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef enum match_kind {
    EXACT,         /* the base name is the pattern */
    PREFIX,        /* the base name starts with the pattern */
    CONTAINS,      /* the pattern appears anywhere in the base name */
    BLOCKING_COPY, /* starts with the pattern and has no "Async": a copy that returns when done */
} match_kind;

typedef struct class_rule {
    match_kind match;
    const char *pattern;
    hb_api_class api_class;
} class_rule;

static const class_rule rules[] = {
    /* sync: the host waits for the device inside the call.  A query
     * (cudaStreamQuery, cudaEventQuery) is how a host polls until the work is
     * done; a GEMM call has no other use for one, so it counts as a wait. */
    {CONTAINS, "Synchronize", HB_API_SYNC},
    {EXACT, "cudaStreamQuery", HB_API_SYNC},
    {EXACT, "cudaEventQuery", HB_API_SYNC},
    {EXACT, "cuStreamQuery", HB_API_SYNC},
    {EXACT, "cuEventQuery", HB_API_SYNC},
    {BLOCKING_COPY, "cudaMemcpy", HB_API_SYNC},
    {BLOCKING_COPY, "cuMemcpy", HB_API_SYNC},
    /* alloc: memory obtained or given back (device, host, managed, pools,
     * virtual memory, pinning).  cudaFree also synchronizes the device. */
    {PREFIX, "cudaMalloc", HB_API_ALLOC},
    {PREFIX, "cudaFree", HB_API_ALLOC},
    {PREFIX, "cudaHostAlloc", HB_API_ALLOC},
    {PREFIX, "cudaHostRegister", HB_API_ALLOC},
    {PREFIX, "cudaHostUnregister", HB_API_ALLOC},
    {PREFIX, "cudaMemPoolCreate", HB_API_ALLOC},
    {PREFIX, "cudaMemPoolDestroy", HB_API_ALLOC},
    {PREFIX, "cudaMemPoolTrimTo", HB_API_ALLOC},
    {PREFIX, "cuMemAlloc", HB_API_ALLOC},
    {PREFIX, "cuMemFree", HB_API_ALLOC},
    {PREFIX, "cuMemHostAlloc", HB_API_ALLOC},
    {PREFIX, "cuMemHostRegister", HB_API_ALLOC},
    {PREFIX, "cuMemHostUnregister", HB_API_ALLOC},
    {PREFIX, "cuMemCreate", HB_API_ALLOC},
    {PREFIX, "cuMemRelease", HB_API_ALLOC},
    {PREFIX, "cuMemMap", HB_API_ALLOC},
    {PREFIX, "cuMemUnmap", HB_API_ALLOC},
    {PREFIX, "cuMemAddressReserve", HB_API_ALLOC},
    {PREFIX, "cuMemAddressFree", HB_API_ALLOC},
    {PREFIX, "cuMemPoolCreate", HB_API_ALLOC},
    {PREFIX, "cuMemPoolDestroy", HB_API_ALLOC},
    {PREFIX, "cuMemPoolTrimTo", HB_API_ALLOC},
    /* graph launch, before the graph rows of create. */
    {PREFIX, "cudaGraphLaunch", HB_API_GRAPH_LAUNCH},
    {PREFIX, "cudaGraphUpload", HB_API_GRAPH_LAUNCH},
    {PREFIX, "cuGraphLaunch", HB_API_GRAPH_LAUNCH},
    {PREFIX, "cuGraphUpload", HB_API_GRAPH_LAUNCH},
    /* create: streams, events, graphs and contexts made or destroyed. */
    {PREFIX, "cudaStreamCreate", HB_API_CREATE},
    {PREFIX, "cudaStreamDestroy", HB_API_CREATE},
    {PREFIX, "cudaEventCreate", HB_API_CREATE},
    {PREFIX, "cudaEventDestroy", HB_API_CREATE},
    {PREFIX, "cudaStreamBeginCapture", HB_API_CREATE},
    {PREFIX, "cudaStreamEndCapture", HB_API_CREATE},
    {PREFIX, "cudaGraphCreate", HB_API_CREATE},
    {PREFIX, "cudaGraphAdd", HB_API_CREATE},
    {PREFIX, "cudaGraphClone", HB_API_CREATE},
    {PREFIX, "cudaGraphInstantiate", HB_API_CREATE},
    {PREFIX, "cudaGraphExecUpdate", HB_API_CREATE},
    {PREFIX, "cudaGraphDestroy", HB_API_CREATE},
    {PREFIX, "cudaGraphExecDestroy", HB_API_CREATE},
    {PREFIX, "cuStreamCreate", HB_API_CREATE},
    {PREFIX, "cuStreamDestroy", HB_API_CREATE},
    {PREFIX, "cuEventCreate", HB_API_CREATE},
    {PREFIX, "cuEventDestroy", HB_API_CREATE},
    {PREFIX, "cuStreamBeginCapture", HB_API_CREATE},
    {PREFIX, "cuStreamEndCapture", HB_API_CREATE},
    {PREFIX, "cuGraphCreate", HB_API_CREATE},
    {PREFIX, "cuGraphAdd", HB_API_CREATE},
    {PREFIX, "cuGraphClone", HB_API_CREATE},
    {PREFIX, "cuGraphInstantiate", HB_API_CREATE},
    {PREFIX, "cuGraphExecUpdate", HB_API_CREATE},
    {PREFIX, "cuGraphDestroy", HB_API_CREATE},
    {PREFIX, "cuGraphExecDestroy", HB_API_CREATE},
    {PREFIX, "cuCtxCreate", HB_API_CREATE},
    {PREFIX, "cuCtxDestroy", HB_API_CREATE},
    {PREFIX, "cuGreenCtxStreamCreate", HB_API_CREATE},
    /* event timing: the participant records events or reads their interval. */
    {PREFIX, "cudaEventRecord", HB_API_EVENT_TIMING},
    {PREFIX, "cudaEventElapsedTime", HB_API_EVENT_TIMING},
    {PREFIX, "cuEventRecord", HB_API_EVENT_TIMING},
    {PREFIX, "cuEventElapsedTime", HB_API_EVENT_TIMING},
    /* launch: a kernel put on a stream (<<<>>> is __cudaLaunchKernel in CUDA 13). */
    {PREFIX, "cudaLaunchKernel", HB_API_LAUNCH},
    {PREFIX, "cudaLaunchCooperativeKernel", HB_API_LAUNCH},
    {EXACT, "cudaLaunch", HB_API_LAUNCH},
    {PREFIX, "cuLaunchKernel", HB_API_LAUNCH},
    {PREFIX, "cuLaunchCooperativeKernel", HB_API_LAUNCH},
    {PREFIX, "cuLaunchGrid", HB_API_LAUNCH},
    {EXACT, "cuLaunch", HB_API_LAUNCH},
};

static const char *const class_names[HB_N_API_CLASSES] = {
    [HB_API_OTHER] = "other",           [HB_API_ALLOC] = "alloc",
    [HB_API_SYNC] = "sync",             [HB_API_CREATE] = "create",
    [HB_API_GRAPH_LAUNCH] = "graph-launch", [HB_API_EVENT_TIMING] = "event-timing",
    [HB_API_LAUNCH] = "launch",
};

const char *hb_api_class_name(hb_api_class api_class)
{
    return (unsigned)api_class < HB_N_API_CLASSES ? class_names[api_class] : "?";
}

/* Length of `name` without a trailing "_v<digits>" of at least `min_digits`
 * digits; the whole length when it has none. */
static size_t without_version_tag(const char *name, size_t len, size_t min_digits)
{
    size_t digits = 0;
    while (digits < len && isdigit((unsigned char)name[len - 1 - digits]))
        digits++;
    if (digits >= min_digits && digits > 0 && len >= digits + 2 && name[len - digits - 1] == 'v' &&
        name[len - digits - 2] == '_')
        return len - digits - 2;
    return len;
}

static int ends_with(const char *name, size_t len, const char *tail)
{
    size_t n = strlen(tail);
    return len >= n && !strncmp(name + len - n, tail, n);
}

/* The function's base name, for matching: no leading underscores, no version
 * tags (runtime "_v3020", driver "_v2"), no per-thread-stream suffix, and the
 * old "cu64" prefix read as "cu". */
static void base_name(const char *name, char *out, size_t size)
{
    while (*name == '_')
        name++;
    size_t len = strlen(name), before;
    do {
        before = len;
        len = without_version_tag(name, len, 1);
        if (ends_with(name, len, "_ptsz") || ends_with(name, len, "_ptds"))
            len -= 5;
    } while (len != before);
    if (!strncmp(name, "cu64", 4) && len > 4) {
        snprintf(out, size, "cu%.*s", (int)(len - 4), name + 4);
        return;
    }
    snprintf(out, size, "%.*s", (int)len, name);
}

static int rule_matches(const class_rule *rule, const char *base)
{
    size_t n = strlen(rule->pattern);
    switch (rule->match) {
    case EXACT:
        return !strcmp(base, rule->pattern);
    case PREFIX:
        return !strncmp(base, rule->pattern, n);
    case CONTAINS:
        return strstr(base, rule->pattern) != NULL;
    case BLOCKING_COPY:
        return !strncmp(base, rule->pattern, n) && !strstr(base, "Async");
    }
    return 0;
}

hb_api_class hb_api_classify(const char *name)
{
    char base[128];
    base_name(name, base, sizeof base);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (rule_matches(&rules[i], base))
            return rules[i].api_class;
    return HB_API_OTHER;
}

void hb_api_display_name(const char *name, char *out, size_t size)
{
    /* The runtime's tags are the CUDA version that added the call, 4 or 5
     * digits ("_v3020", "_v11060"); the driver's "_v2" is shorter. */
    size_t len = without_version_tag(name, strlen(name), 4);
    snprintf(out, size, "%.*s", (int)len, name);
}
