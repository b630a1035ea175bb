/* Per-call readings of a traced call; the judge is in conduct_judge.c. */
#include "bench/result/call_trace.h"

#include <math.h>
#include <string.h>

static const char *const copy_kind_names[HB_N_COPY_KINDS] = {
    [HB_COPY_UNKNOWN] = "unknown", [HB_COPY_HTOD] = "HtoD", [HB_COPY_DTOH] = "DtoH",
    [HB_COPY_DTOD] = "DtoD",       [HB_COPY_HTOH] = "HtoH", [HB_COPY_PEER] = "peer",
    [HB_COPY_ARRAY] = "array",     [HB_COPY_MEMSET] = "memset",
};

const char *hb_call_kind_name(hb_call_kind kind)
{
    switch (kind) {
    case HB_CALL_CHECK: return "check";
    case HB_CALL_WARMUP: return "warm-up";
    case HB_CALL_TIMED: return "timed";
    case HB_CALL_CROSS_CHECKED: return "cross-checked";
    }
    return "?";
}

const char *hb_copy_kind_name(hb_copy_kind kind)
{
    return (unsigned)kind < HB_N_COPY_KINDS ? copy_kind_names[kind] : "?";
}

const char *hb_kernel_display_name(const hb_traced_kernel *kernel)
{
    return kernel->display_name[0] ? kernel->display_name : kernel->name;
}

int hb_call_kernel_count(const hb_call_trace *call) { return call->n_kernels + call->kernels_dropped; }

/* CUPTI leaves a kernel's timestamps 0 when it lacked device memory to take them. */
static int timed(const hb_traced_kernel *k) { return k->start_ns != 0 && k->end_ns >= k->start_ns; }

double hb_call_kernel_span_us(const hb_call_trace *call)
{
    uint64_t first = UINT64_MAX, last = 0;
    for (int i = 0; i < call->n_kernels; i++) {
        const hb_traced_kernel *k = &call->kernels[i];
        if (!timed(k))
            continue;
        first = k->start_ns < first ? k->start_ns : first;
        last = k->end_ns > last ? k->end_ns : last;
    }
    return last > first ? (double)(last - first) / 1e3 : 0.0;
}

double hb_call_kernel_sum_us(const hb_call_trace *call)
{
    uint64_t sum = 0;
    for (int i = 0; i < call->n_kernels; i++)
        if (timed(&call->kernels[i]))
            sum += call->kernels[i].end_ns - call->kernels[i].start_ns;
    return (double)sum / 1e3;
}

double hb_call_event_device_us(const hb_call_trace *call)
{
    if (!call->event_start_ns || !call->event_stop_ns || call->event_stop_ns < call->event_start_ns)
        return NAN;
    return (double)(call->event_stop_ns - call->event_start_ns) / 1e3;
}

int hb_call_api_inside(const hb_call_trace *call, const hb_traced_api *api)
{
    return api->start_ns >= call->window_start_ns && api->start_ns <= call->window_end_ns;
}

static int same_kernel(const hb_traced_kernel *a, const hb_traced_kernel *b)
{
    return !strcmp(a->name, b->name) && !memcmp(a->grid, b->grid, sizeof a->grid) &&
           !memcmp(a->block, b->block, sizeof a->block);
}

int hb_calls_same_kernels(const hb_call_trace *a, const hb_call_trace *b)
{
    if (hb_call_kernel_count(a) != hb_call_kernel_count(b) || a->n_kernels != b->n_kernels)
        return 0;
    for (int i = 0; i < a->n_kernels; i++)
        if (!same_kernel(&a->kernels[i], &b->kernels[i]))
            return 0;
    return 1;
}
