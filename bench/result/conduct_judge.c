/* The judge of a participant's traced calls (hb_judge_conduct, declared in
 * call_trace.h): its kernel-only time and one line per finding, each line
 * saying what was seen and where (docs/trace.md, "Findings"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/result/call_trace.h"

#define TALLY_NAMES 8   /* distinct names listed in a line; more are counted as "+N more" */
#define NAME_CUT 40     /* bytes of one name in a line: lines are HB_CONDUCT_LINE long */

/* Distinct names in order of first sight, with their counts. */
typedef struct tally {
    int n, more;
    const char *name[TALLY_NAMES];
    int count[TALLY_NAMES];
} tally;

static void tally_add(tally *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->name[i], name)) {
            t->count[i]++;
            return;
        }
    if (t->n == TALLY_NAMES) {
        t->more++;
        return;
    }
    t->name[t->n] = name;
    t->count[t->n++] = 1;
}

static int tally_equal(const tally *a, const tally *b)
{
    if (a->n != b->n || a->more != b->more)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->name[i], b->name[i]) || a->count[i] != b->count[i])
            return 0;
    return 1;
}

typedef enum counts_shown { NO_COUNTS, COUNTS_ABOVE_ONE, ALL_COUNTS } counts_shown;

/* "a x4, b, +2 more" (COUNTS_ABOVE_ONE) into `out`. */
static void tally_text(const tally *t, counts_shown counts, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < t->n && used < size; i++) {
        int cut = (int)strlen(t->name[i]) > NAME_CUT;
        used += (size_t)snprintf(out + used, size - used, "%s%.*s%s", i ? ", " : "", NAME_CUT, t->name[i],
                                 cut ? "..." : "");
        if ((counts == ALL_COUNTS || (counts == COUNTS_ABOVE_ONE && t->count[i] > 1)) && used < size)
            used += (size_t)snprintf(out + used, size - used, " x%d", t->count[i]);
    }
    if (t->more && used < size)
        snprintf(out + used, size - used, ", +%d more", t->more);
}

static void kernel_tally(const hb_call_trace *call, tally *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < call->n_kernels; i++)
        tally_add(t, hb_kernel_display_name(&call->kernels[i]));
}

/* The later calls are 1..calls-1; with one traced call, that call. */
static int first_later(const hb_participant_trace *trace) { return trace->calls > 1 ? 1 : 0; }

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void judge_kernel_time(const hb_participant_trace *trace, hb_kernel_time *time)
{
    double span[HB_TRACE_MAX_CALLS], sum[HB_TRACE_MAX_CALLS], wall[HB_TRACE_MAX_CALLS];
    int n = 0;
    time->traced = 1;
    time->calls = trace->calls;
    for (int i = first_later(trace); i < trace->calls; i++, n++) {
        const hb_call_trace *call = &trace->call[i];
        span[n] = hb_call_kernel_span_us(call);
        sum[n] = hb_call_kernel_sum_us(call);
        wall[n] = call->wall_us;
        if (hb_call_kernel_count(call) > time->kernels_per_call)
            time->kernels_per_call = hb_call_kernel_count(call);
    }
    time->span_us = median(span, n);
    time->sum_us = median(sum, n);
    time->wall_us = median(wall, n);
    time->host_us = time->wall_us - time->span_us;
    time->first_span_us = hb_call_kernel_span_us(&trace->call[0]);
    time->first_call_kernels = hb_call_kernel_count(&trace->call[0]);
}

/* Distinct stream ids, in order of first sight. */
typedef struct stream_set {
    int n, more;
    uint32_t id[TALLY_NAMES];
} stream_set;

static void stream_set_add(stream_set *s, uint32_t id)
{
    for (int i = 0; i < s->n; i++)
        if (s->id[i] == id)
            return;
    if (s->n == TALLY_NAMES)
        s->more++;
    else
        s->id[s->n++] = id;
}

/* "stream 17" or "streams 17, 18". */
static void stream_set_text(const stream_set *s, char *out, size_t size)
{
    size_t used = (size_t)snprintf(out, size, "stream%s", s->n + s->more > 1 ? "s" : "");
    for (int i = 0; i < s->n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%u", i ? ", " : " ", s->id[i]);
    if (s->more && used < size)
        snprintf(out + used, size - used, ", +%d more", s->more);
}

/* other-stream: kernels, copies or sets on a stream other than the timed one. */
static void judge_other_stream(const hb_participant_trace *trace, hb_conduct *conduct)
{
    tally names = {0};
    stream_set streams = {0};
    int kernels = 0, other_kernels = 0, copies = 0, other_copies = 0;
    for (int c = 0; c < trace->calls; c++) {
        const hb_call_trace *call = &trace->call[c];
        kernels += call->n_kernels;
        copies += call->n_copies;
        for (int i = 0; i < call->n_kernels; i++)
            if (call->kernels[i].stream_id != trace->timed_stream_id) {
                other_kernels++;
                tally_add(&names, hb_kernel_display_name(&call->kernels[i]));
                stream_set_add(&streams, call->kernels[i].stream_id);
            }
        for (int i = 0; i < call->n_copies; i++)
            if (call->copies[i].stream_id != trace->timed_stream_id) {
                other_copies++;
                stream_set_add(&streams, call->copies[i].stream_id);
            }
    }
    if (other_kernels + other_copies == 0)
        return;
    char what[120] = "", list[64], where[48];
    if (other_kernels) {
        tally_text(&names, NO_COUNTS, list, sizeof list);
        snprintf(what, sizeof what, "%d of %d kernels (%s)", other_kernels, kernels, list);
    }
    if (other_copies)
        snprintf(what + strlen(what), sizeof what - strlen(what), "%s%d of %d copies and sets",
                 other_kernels ? " and " : "", other_copies, copies);
    stream_set_text(&streams, where, sizeof where);
    hb_conduct_add(conduct, HB_FINDING_OTHER_STREAM,
                   "other-stream: %s ran on %s, not the timed stream %u; CUDA events miss them, the wall time "
                   "counts them",
                   what, where, trace->timed_stream_id);
}

/* The calls of one class made inside each call, counted once (a driver call
 * made by a runtime call is the runtime call's). */
static void api_tally(const hb_call_trace *call, hb_api_class api_class, tally *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < call->n_api; i++) {
        const hb_traced_api *api = &call->api[i];
        if (api->api_class == api_class && !api->nested && hb_call_api_inside(call, api))
            tally_add(t, api->name);
    }
}

/* alloc, sync, create: which calls, and whether every call makes them, the
 * first only, or some. */
static void judge_api_class(const hb_participant_trace *trace, hb_api_class api_class, hb_finding finding,
                            const char *consequence, hb_conduct *conduct)
{
    tally per_call[HB_TRACE_MAX_CALLS], total = {0};
    int with = 0, uniform = 1;
    for (int c = 0; c < trace->calls; c++) {
        api_tally(&trace->call[c], api_class, &per_call[c]);
        with += per_call[c].n > 0;
        uniform &= tally_equal(&per_call[c], &per_call[0]);
        for (int i = 0; i < per_call[c].n; i++)
            for (int k = 0; k < per_call[c].count[i]; k++)
                tally_add(&total, per_call[c].name[i]);
    }
    if (with == 0)
        return;
    char list[120], when[48];
    if (uniform) {
        tally_text(&per_call[0], ALL_COUNTS, list, sizeof list);
        snprintf(when, sizeof when, "%s", trace->calls > 1 ? "per call" : "in the traced call");
    } else {
        int first_only = per_call[0].n > 0 && with == 1;
        tally_text(first_only ? &per_call[0] : &total, ALL_COUNTS, list, sizeof list);
        if (first_only)
            snprintf(when, sizeof when, "in the first call only");
        else
            snprintf(when, sizeof when, "over %d calls (in %d of them)", trace->calls, with);
    }
    hb_conduct_add(conduct, finding, "%s: %s %s%s", hb_finding_name(finding), list, when, consequence);
}

/* first-call: the first call's kernels match none of the later calls'. */
static void judge_first_call(const hb_participant_trace *trace, hb_conduct *conduct)
{
    if (trace->calls < 2)
        return;
    for (int c = 1; c < trace->calls; c++)
        if (hb_calls_same_kernels(&trace->call[0], &trace->call[c]))
            return;
    tally first, later;
    char first_text[80], later_text[80];
    kernel_tally(&trace->call[0], &first);
    kernel_tally(&trace->call[1], &later);
    tally_text(&first, COUNTS_ABOVE_ONE, first_text, sizeof first_text);
    tally_text(&later, COUNTS_ABOVE_ONE, later_text, sizeof later_text);
    hb_conduct_add(conduct, HB_FINDING_FIRST_CALL, "first-call: the first call ran %d kernels (%s), later calls %d (%s)",
                   hb_call_kernel_count(&trace->call[0]), first_text, hb_call_kernel_count(&trace->call[1]),
                   later_text);
}

static void judge_multi_kernel(const hb_participant_trace *trace, const hb_kernel_time *time, hb_conduct *conduct)
{
    if (time->kernels_per_call <= 1)
        return;
    for (int c = first_later(trace); c < trace->calls; c++)
        if (hb_call_kernel_count(&trace->call[c]) == time->kernels_per_call) {
            tally names;
            char text[140];
            kernel_tally(&trace->call[c], &names);
            tally_text(&names, COUNTS_ABOVE_ONE, text, sizeof text);
            hb_conduct_add(conduct, HB_FINDING_MULTI_KERNEL, "multi-kernel: %d kernels per call (%s)",
                           time->kernels_per_call, text);
            return;
        }
}

static void judge_host_time(const hb_participant_trace *trace, const hb_kernel_time *time, hb_conduct *conduct)
{
    char dropped[80] = "";
    if (trace->records_dropped)
        snprintf(dropped, sizeof dropped, "; CUPTI dropped %llu records, findings may be incomplete",
                 trace->records_dropped);
    if (time->kernels_per_call == 0)
        hb_conduct_add(conduct, HB_FINDING_HOST_TIME, "host-time: no kernel ran; all %.1f us of the wall time per call is host time%s",
                       time->wall_us, dropped);
    else
        hb_conduct_add(conduct, HB_FINDING_HOST_TIME,
                       "host-time: %.1f us of the %.1f us wall time per call ran outside any kernel (kernel span %.1f us, "
                       "kernel sum %.1f us)%s",
                       time->host_us, time->wall_us, time->span_us, time->sum_us, dropped);
}

void hb_judge_conduct(const hb_participant_trace *trace, hb_kernel_time *time, hb_conduct *conduct)
{
    memset(time, 0, sizeof *time);
    memset(conduct, 0, sizeof *conduct);
    if (trace->calls < 1 || trace->calls > HB_TRACE_MAX_CALLS)
        return;
    conduct->traced = 1;
    judge_kernel_time(trace, time);
    judge_other_stream(trace, conduct);
    judge_api_class(trace, HB_API_ALLOC, HB_FINDING_ALLOC, "", conduct);
    judge_api_class(trace, HB_API_SYNC, HB_FINDING_SYNC, "; the host waits inside the call", conduct);
    judge_api_class(trace, HB_API_CREATE, HB_FINDING_CREATE, "", conduct);
    judge_first_call(trace, conduct);
    if (trace->device_state[0])
        hb_conduct_add(conduct, HB_FINDING_DEVICE_STATE, "device-state: %s", trace->device_state);
    judge_multi_kernel(trace, time, conduct);
    judge_host_time(trace, time, conduct);
}
