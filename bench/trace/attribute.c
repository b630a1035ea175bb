#include "bench/trace/attribute.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

static int by_api_start(const void *a, const void *b)
{
    uint64_t x = ((const hb_traced_api *)a)->start_ns, y = ((const hb_traced_api *)b)->start_ns;
    return (x > y) - (x < y);
}

static int by_correlation(const void *a, const void *b)
{
    uint32_t x = ((const hb_traced_event *)a)->correlation_id, y = ((const hb_traced_event *)b)->correlation_id;
    return (x > y) - (x < y);
}

/* The first of `n` records of `size` bytes, sorted by the uint64_t start
 * time at byte `start_offset`, that starts at or after `from`. */
static size_t first_from(const void *records, size_t n, size_t size, size_t start_offset, uint64_t from)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t start;
        memcpy(&start, (const char *)records + mid * size + start_offset, sizeof start);
        if (start < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void begin_call(const hb_logged_call *c, uint32_t stream_id, hb_call_trace *t)
{
    /* Counts and scalars only: the arrays are filled up to their counts. */
    t->index = c->ordinal;
    t->kind = c->kind;
    t->sample = c->sample;
    t->window_start_ns = c->window_start_ns;
    t->launch_start_ns = c->launch_start_ns;
    t->launch_end_ns = c->launch_end_ns;
    t->window_end_ns = c->window_end_ns;
    t->wall_us = c->window_end_ns > c->window_start_ns ? (double)(c->window_end_ns - c->window_start_ns) / 1e3 : 0;
    t->timed_stream_id = stream_id;
    t->event_start_ns = t->event_stop_ns = 0;
    t->event_us = c->event_us;
    t->n_kernels = t->n_copies = t->n_api = 0;
    t->kernels_dropped = t->copies_dropped = t->api_dropped = 0;
}

static void add_device_records(const hb_record_store *s, const hb_logged_call *c, hb_call_trace *t)
{
    const size_t first_kernel = first_from(s->kernels, s->n_kernels, sizeof *s->kernels,
                                           offsetof(hb_traced_kernel, start_ns), c->window_start_ns);
    for (size_t i = first_kernel; i < s->n_kernels && s->kernels[i].start_ns <= c->window_end_ns; i++) {
        if (t->n_kernels < HB_TRACE_MAX_KERNELS)
            t->kernels[t->n_kernels++] = s->kernels[i];
        else
            t->kernels_dropped++;
    }
    const size_t first_copy = first_from(s->copies, s->n_copies, sizeof *s->copies, offsetof(hb_traced_copy, start_ns),
                                         c->window_start_ns);
    for (size_t i = first_copy; i < s->n_copies && s->copies[i].start_ns <= c->window_end_ns; i++) {
        if (t->n_copies < HB_TRACE_MAX_COPIES)
            t->copies[t->n_copies++] = s->copies[i];
        else
            t->copies_dropped++;
    }
}

static void add_api(const hb_call_log *log, const hb_logged_call *c, hb_call_trace *t)
{
    for (size_t i = 0; i < c->n_api; i++) {
        if (t->n_api < HB_TRACE_MAX_API)
            t->api[t->n_api++] = log->api[c->first_api + i];
        else
            t->api_dropped++;
    }
    /* Threads append in their own order: the call's list goes by start. */
    qsort(t->api, (size_t)t->n_api, sizeof t->api[0], by_api_start);
}

/* The call's marks from *next on (marks are logged in call order). */
static void add_events(const hb_record_store *s, const hb_call_log *log, size_t call, size_t *next, hb_call_trace *t)
{
    while (*next < log->n_marks && log->marks[*next].call < call)
        (*next)++;
    for (; *next < log->n_marks && log->marks[*next].call == call; (*next)++) {
        const hb_event_mark *mark = &log->marks[*next];
        hb_traced_event key = {mark->correlation_id, 0, 0};
        const hb_traced_event *e = bsearch(&key, s->events, s->n_events, sizeof key, by_correlation);
        if (!e)
            continue;
        if (mark->stop) {
            t->event_stop_ns = e->device_ns;
        } else {
            t->event_start_ns = e->device_ns;
            t->timed_stream_id = e->stream_id; /* where the harness recorded its start event: the timed stream */
        }
    }
}

void hb_attribute_calls(hb_record_store *store, const hb_call_log *log, uint32_t stream_id, hb_call_trace *scratch,
                        hb_call_fold fold, void *context)
{
    qsort(store->kernels, store->n_kernels, sizeof *store->kernels, by_kernel_start);
    qsort(store->copies, store->n_copies, sizeof *store->copies, by_copy_start);
    qsort(store->events, store->n_events, sizeof *store->events, by_correlation);
    size_t next_mark = 0;
    for (size_t c = 0; c < log->n_calls; c++) {
        const hb_logged_call *call = &log->calls[c];
        if (call->open)
            continue;
        begin_call(call, stream_id, scratch);
        add_device_records(store, call, scratch);
        add_api(log, call, scratch);
        add_events(store, log, c, &next_mark, scratch);
        fold(context, call, scratch);
    }
}
