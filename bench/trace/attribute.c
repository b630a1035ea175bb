#include "bench/trace/attribute.h"

#include <stdlib.h>
#include <string.h>

/* An API call's correlation id and the call it was given (-1: none). */
typedef struct correlation_call {
    uint32_t correlation_id;
    int call;
} correlation_call;

static int compare_correlation(const void *a, const void *b)
{
    uint32_t x = ((const correlation_call *)a)->correlation_id, y = ((const correlation_call *)b)->correlation_id;
    return (x > y) - (x < y);
}

static int inside(uint64_t at, uint64_t from, uint64_t to) { return at >= from && at <= to; }

/* The call whose window holds `at` (window end: launch return when `launch_only`), else -1. */
static int call_at(const hb_participant_trace *trace, uint64_t at, int launch_only)
{
    for (int c = 0; c < trace->calls; c++) {
        const hb_call_trace *call = &trace->call[c];
        if (inside(at, call->window_start_ns, launch_only ? call->launch_end_ns : call->window_end_ns))
            return c;
    }
    return -1;
}

static int api_call_of(const hb_record_store *store, const hb_attribution *how, const hb_participant_trace *trace,
                       const hb_traced_api *api)
{
    int found;
    uint64_t external = hb_record_store_external_id(store, api->correlation_id, &found);
    if (found && external >= how->first_external_id && external - how->first_external_id < (uint64_t)trace->calls)
        return (int)(external - how->first_external_id);
    if (how->harness_thread_known && api->thread_id == how->harness_thread)
        return -1; /* the harness's own call (its synchronize ending the window) */
    return call_at(trace, api->start_ns, !how->harness_thread_known);
}

/* A kernel's, copy's or set's call: its API call's, else by its start when no API call has its id. */
static int device_call_of(const correlation_call *by_id, size_t n, const hb_participant_trace *trace,
                          uint32_t correlation_id, uint64_t start_ns)
{
    correlation_call key = {correlation_id, -1};
    const correlation_call *hit = bsearch(&key, by_id, n, sizeof *by_id, compare_correlation);
    return hit ? hit->call : call_at(trace, start_ns, 0);
}

static int by_api_start(const void *a, const void *b)
{
    uint64_t x = ((const hb_traced_api *)a)->start_ns, y = ((const hb_traced_api *)b)->start_ns;
    return (x > y) - (x < y);
}

static int by_kernel_start(const void *a, const void *b)
{
    uint64_t x = ((const hb_traced_kernel *)a)->start_ns, y = ((const hb_traced_kernel *)b)->start_ns;
    return (x > y) - (x < y);
}

static int by_copy_start(const void *a, const void *b)
{
    uint64_t x = ((const hb_traced_copy *)a)->start_ns, y = ((const hb_traced_copy *)b)->start_ns;
    return (x > y) - (x < y);
}

/* Keeps the first `cap` of `n` records of one call, sorted by start: copies
 * the selected records into `scratch`, sorts, and copies out. */
static void keep_sorted(const void *records, const int *call_of, size_t n, int call, size_t size, void *scratch,
                       int (*compare)(const void *, const void *), void *out, int cap, int *kept, int *dropped)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (call_of[i] == call)
            memcpy((char *)scratch + m++ * size, (const char *)records + i * size, size);
    qsort(scratch, m, size, compare);
    *kept = m < (size_t)cap ? (int)m : cap;
    *dropped = (int)(m - (size_t)*kept);
    memcpy(out, scratch, (size_t)*kept * size);
}

/* 1 when `outer` encloses `inner` on the same thread: `inner` is `outer`'s
 * doing (cudaMalloc calling cuMemAlloc_v2; a runtime entry calling another).
 * Of two calls with the same interval, a runtime call encloses a driver call. */
static int encloses(const hb_traced_api *outer, const hb_traced_api *inner)
{
    if (outer == inner || outer->thread_id != inner->thread_id || outer->start_ns > inner->start_ns ||
        inner->end_ns > outer->end_ns)
        return 0;
    return outer->start_ns < inner->start_ns || inner->end_ns < outer->end_ns ||
           (outer->domain == HB_API_RUNTIME && inner->domain == HB_API_DRIVER);
}

/* Marks every API call made inside another of the same thread. */
static void mark_nested(hb_call_trace *call)
{
    for (int i = 0; i < call->n_api; i++) {
        hb_traced_api *inner = &call->api[i];
        inner->nested = 0;
        for (int o = 0; o < call->n_api && !inner->nested; o++)
            inner->nested = encloses(&call->api[o], inner);
    }
}

typedef struct assignment {
    int *api, *kernels, *copies; /* the call of each stored record, -1: none */
    correlation_call *by_id;
    void *scratch;
} assignment;

static void assignment_free(assignment *a)
{
    free(a->api);
    free(a->kernels);
    free(a->copies);
    free(a->by_id);
    free(a->scratch);
}

static size_t largest(size_t a, size_t b, size_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

static int assign(const hb_record_store *store, const hb_attribution *how, const hb_participant_trace *trace,
                  assignment *a)
{
    size_t scratch = largest(store->n_api * sizeof(hb_traced_api), store->n_kernels * sizeof(hb_traced_kernel),
                             store->n_copies * sizeof(hb_traced_copy));
    a->api = malloc((store->n_api + 1) * sizeof *a->api);
    a->kernels = malloc((store->n_kernels + 1) * sizeof *a->kernels);
    a->copies = malloc((store->n_copies + 1) * sizeof *a->copies);
    a->by_id = malloc((store->n_api + 1) * sizeof *a->by_id);
    a->scratch = malloc(scratch + 1);
    if (!a->api || !a->kernels || !a->copies || !a->by_id || !a->scratch)
        return -1;
    for (size_t i = 0; i < store->n_api; i++) {
        a->api[i] = api_call_of(store, how, trace, &store->api[i]);
        a->by_id[i] = (correlation_call){store->api[i].correlation_id, a->api[i]};
    }
    /* Sorted by id; of a runtime call and its driver call sharing an id, either one's call will do: they agree. */
    qsort(a->by_id, store->n_api, sizeof *a->by_id, compare_correlation);
    for (size_t i = 0; i < store->n_kernels; i++)
        a->kernels[i] = device_call_of(a->by_id, store->n_api, trace, store->kernels[i].correlation_id,
                                       store->kernels[i].start_ns);
    for (size_t i = 0; i < store->n_copies; i++)
        a->copies[i] = device_call_of(a->by_id, store->n_api, trace, store->copies[i].correlation_id,
                                      store->copies[i].start_ns);
    return 0;
}

int hb_attribute_records(const hb_record_store *store, const hb_attribution *how, hb_participant_trace *trace)
{
    assignment a = {0};
    if (assign(store, how, trace, &a) != 0) {
        assignment_free(&a);
        return -1;
    }
    for (int c = 0; c < trace->calls; c++) {
        hb_call_trace *call = &trace->call[c];
        keep_sorted(store->api, a.api, store->n_api, c, sizeof *store->api, a.scratch, by_api_start, call->api,
                    HB_TRACE_MAX_API, &call->n_api, &call->api_dropped);
        keep_sorted(store->kernels, a.kernels, store->n_kernels, c, sizeof *store->kernels, a.scratch,
                    by_kernel_start, call->kernels, HB_TRACE_MAX_KERNELS, &call->n_kernels, &call->kernels_dropped);
        keep_sorted(store->copies, a.copies, store->n_copies, c, sizeof *store->copies, a.scratch, by_copy_start,
                    call->copies, HB_TRACE_MAX_COPIES, &call->n_copies, &call->copies_dropped);
        mark_nested(call);
    }
    assignment_free(&a);
    return 0;
}

int hb_find_probe(const hb_record_store *store, uint64_t external_id, uint64_t bytes, uint64_t from_ns, uint64_t to_ns,
                  uint32_t *stream_id, uint32_t *thread_id, int *thread_known)
{
    int by_time = -1, matches = 0;
    *thread_known = 0;
    for (size_t i = 0; i < store->n_api; i++) {
        int found;
        uint64_t id = hb_record_store_external_id(store, store->api[i].correlation_id, &found);
        if (found && id == external_id) {
            *thread_id = store->api[i].thread_id;
            *thread_known = 1;
            for (size_t s = 0; s < store->n_copies; s++)
                if (store->copies[s].kind == HB_COPY_MEMSET && store->copies[s].correlation_id ==
                                                                   store->api[i].correlation_id) {
                    *stream_id = store->copies[s].stream_id;
                    return 0;
                }
        }
    }
    for (size_t s = 0; s < store->n_copies; s++)
        if (store->copies[s].kind == HB_COPY_MEMSET && store->copies[s].bytes == bytes &&
            inside(store->copies[s].start_ns, from_ns, to_ns)) {
            by_time = (int)s;
            matches++;
        }
    if (matches != 1)
        return -1;
    *stream_id = store->copies[by_time].stream_id;
    return 0;
}
