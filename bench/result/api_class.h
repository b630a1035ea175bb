/* What a CUDA runtime or driver API call does, as far as a participant's
 * conduct is concerned (docs/trace.md, "API classes").  One table, in
 * api_class.c, read by name: the names are CUPTI's callback names
 * (cuptiGetCallbackName), which the trace keeps with the runtime's version
 * tag removed ("cudaMalloc", "cuMemAlloc_v2").  Plain data, no CUDA. */
#ifndef HB_API_CLASS_H
#define HB_API_CLASS_H

#include <stddef.h>

typedef enum hb_api_class {
    HB_API_OTHER,        /* anything below does not name it: attribute queries, copies that do not block, ... */
    HB_API_ALLOC,        /* device, host, managed or pool memory allocated, freed, pinned or mapped */
    HB_API_SYNC,         /* the host waits for the device: *Synchronize, stream and event queries, blocking copies */
    HB_API_CREATE,       /* a stream, event, graph (or its nodes, capture, instantiation) or context created or destroyed */
    HB_API_GRAPH_LAUNCH, /* a graph launched (its kernels correlate to this call) */
    HB_API_EVENT_TIMING, /* an event recorded or an elapsed time read: the participant times itself */
    HB_API_LAUNCH,       /* a kernel launched */
    HB_N_API_CLASSES
} hb_api_class;

/* "other", "alloc", "sync", "create", "graph-launch", "event-timing", "launch". */
const char *hb_api_class_name(hb_api_class api_class);

/* The class of the call named `name` (a CUPTI callback name, with or without
 * its version tag, "_ptsz"/"_ptds" suffix or leading underscores). */
hb_api_class hb_api_classify(const char *name);

/* `name` with the runtime's version tag removed: "cudaMalloc_v3020" ->
 * "cudaMalloc", "cudaLaunchKernel_ptsz_v7000" -> "cudaLaunchKernel_ptsz".
 * Driver names keep their "_v2" (it is part of the function's name). */
void hb_api_display_name(const char *name, char *out, size_t size);

#endif
