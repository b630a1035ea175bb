/* The tally of a participant's calls and its judge (conduct_tally.h): each
 * line says what was seen, where, and in how many of the calls. */
#include "bench/result/conduct_tally.h"

#include "bench/core/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_CUT 40 /* bytes of one name in a line: lines are HB_CONDUCT_LINE long */

/* --- name tallies ------------------------------------------------------------ */

static void tally_add(hb_name_tally *t, const char *name, int count)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->name[i], name)) {
            t->count[i] += count;
            return;
        }
    if (t->n == HB_TALLY_NAMES) {
        t->more++;
        return;
    }
    snprintf(t->name[t->n], sizeof t->name[0], "%s", name);
    t->count[t->n++] = count;
}

static int tally_equal(const hb_name_tally *a, const hb_name_tally *b)
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
static void tally_text(const hb_name_tally *t, counts_shown counts, char *out, size_t size)
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

static void kernel_tally(const hb_call_trace *call, hb_name_tally *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < call->n_kernels; i++)
        tally_add(t, hb_kernel_display_name(&call->kernels[i]), 1);
}

/* --- folding one call ----------------------------------------------------------- */

static void add_stream(hb_conduct_tally *t, uint32_t id)
{
    for (int i = 0; i < t->n_streams; i++)
        if (t->streams[i] == id)
            return;
    if (t->n_streams == HB_TALLY_STREAMS)
        t->more_streams++;
    else
        t->streams[t->n_streams++] = id;
}

static void fold_streams(hb_conduct_tally *t, const hb_call_trace *call)
{
    int other = 0;
    t->kernels += hb_call_kernel_count(call);
    t->copies += call->n_copies + call->copies_dropped;
    for (int i = 0; i < call->n_kernels; i++)
        if (call->kernels[i].stream_id != call->timed_stream_id) {
            other++;
            t->other_kernels++;
            tally_add(&t->other_names, hb_kernel_display_name(&call->kernels[i]), 1);
            add_stream(t, call->kernels[i].stream_id);
        }
    for (int i = 0; i < call->n_copies; i++)
        if (call->copies[i].stream_id != call->timed_stream_id) {
            other++;
            t->other_copies++;
            add_stream(t, call->copies[i].stream_id);
        }
    t->other_stream_calls += other > 0;
}

/* The calls of one class made inside the call, counted once (a driver call
 * made by a runtime call is the runtime call's). */
static void api_tally(const hb_call_trace *call, hb_api_class api_class, hb_name_tally *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < call->n_api; i++) {
        const hb_traced_api *api = &call->api[i];
        if (api->api_class == api_class && !api->nested && hb_call_api_inside(call, api))
            tally_add(t, api->name, 1);
    }
}

static void fold_api(hb_conduct_tally *t, const hb_call_trace *call)
{
    for (int c = 0; c < HB_N_API_CLASSES; c++) {
        hb_class_tally *k = &t->api[c];
        hb_name_tally now;
        api_tally(call, (hb_api_class)c, &now);
        if (t->calls == 0)
            k->first = now;
        k->uniform &= tally_equal(&now, &k->first);
        k->with += now.n > 0;
        for (int i = 0; i < now.n; i++)
            tally_add(&k->total, now.name[i], now.count[i]);
    }
}

static void fold_kernel_names(hb_conduct_tally *t, const hb_call_trace *call)
{
    for (int i = 0; i < call->n_kernels; i++) {
        const char *name = call->kernels[i].name;
        int known = 0;
        for (int k = 0; k < t->n_kernel_names && !known; k++)
            if (!strcmp(t->kernel_name[k], name)) {
                t->kernel_name_count[k]++;
                known = 1;
            }
        if (known)
            continue;
        if (t->n_kernel_names == HB_TALLY_KERNELS) {
            t->more_kernel_names++;
            continue;
        }
        snprintf(t->kernel_name[t->n_kernel_names], sizeof t->kernel_name[0], "%s", name);
        t->kernel_name_count[t->n_kernel_names++] = 1;
    }
}

static void fold_later_kernels(hb_conduct_tally *t, const hb_call_trace *call)
{
    const int count = hb_call_kernel_count(call);
    if (t->calls == 1) { /* the second call */
        kernel_tally(call, &t->second_kernels);
        t->second_kernel_count = count;
    }
    if (!t->first_matched && hb_calls_same_kernels(t->first, call))
        t->first_matched = 1;
    if (count > t->max_kernels) {
        t->max_kernels = count;
        kernel_tally(call, &t->max_kernel_names);
    }
}

void hb_conduct_tally_init(hb_conduct_tally *tally)
{
    memset(tally, 0, sizeof *tally);
    for (int c = 0; c < HB_N_API_CLASSES; c++)
        tally->api[c].uniform = 1;
}

void hb_conduct_tally_free(hb_conduct_tally *tally)
{
    free(tally->first);
    tally->first = NULL;
}

int hb_conduct_tally_add(hb_conduct_tally *t, const hb_call_trace *call)
{
    if (t->calls == 0) {
        t->first = malloc(sizeof *t->first);
        if (!t->first)
            return -1;
        *t->first = *call;
        t->timed_stream_id = call->timed_stream_id;
    } else {
        fold_later_kernels(t, call);
    }
    fold_streams(t, call);
    fold_api(t, call);
    fold_kernel_names(t, call);
    t->timed_calls += call->kind == HB_CALL_TIMED || call->kind == HB_CALL_CROSS_CHECKED;
    t->calls++;
    return 0;
}

/* --- the judge -------------------------------------------------------------------- */

/* "stream 17" or "streams 17, 18". */
static void streams_text(const hb_conduct_tally *t, char *out, size_t size)
{
    size_t used = (size_t)snprintf(out, size, "stream%s", t->n_streams + t->more_streams > 1 ? "s" : "");
    for (int i = 0; i < t->n_streams && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%u", i ? ", " : " ", t->streams[i]);
    if (t->more_streams && used < size)
        snprintf(out + used, size - used, ", +%d more", t->more_streams);
}

/* " (in 3 of 5 calls)", " (in every call)", or "" for a single call. */
static void in_calls(int with, int calls, char *out, size_t size)
{
    if (with == calls)
        snprintf(out, size, "%s", calls > 1 ? " (in every call)" : "");
    else
        snprintf(out, size, " (in %d of %d calls)", with, calls);
}

static void judge_other_stream(const hb_conduct_tally *t, hb_conduct *conduct)
{
    if (t->other_kernels + t->other_copies == 0)
        return;
    char what[120] = "", list[64], where[48], calls[40];
    if (t->other_kernels) {
        tally_text(&t->other_names, NO_COUNTS, list, sizeof list);
        snprintf(what, sizeof what, "%lld of %lld kernels (%s)", t->other_kernels, t->kernels, list);
    }
    if (t->other_copies)
        snprintf(what + strlen(what), sizeof what - strlen(what), "%s%lld of %lld copies and sets",
                 t->other_kernels ? " and " : "", t->other_copies, t->copies);
    streams_text(t, where, sizeof where);
    in_calls(t->other_stream_calls, t->calls, calls, sizeof calls);
    hb_conduct_add(conduct, HB_FINDING_OTHER_STREAM,
                   "other-stream: %s ran on %s, not the timed stream %u%s; CUDA events miss them, the wall time "
                   "counts them",
                   what, where, t->timed_stream_id, calls);
}

/* alloc, sync, create: which calls, and whether every call makes them, the
 * first only, or some. */
static void judge_api_class(const hb_conduct_tally *t, hb_api_class api_class, hb_finding finding,
                            const char *consequence, hb_conduct *conduct)
{
    const hb_class_tally *k = &t->api[api_class];
    if (k->with == 0)
        return;
    char list[120], when[48];
    if (k->uniform) {
        tally_text(&k->first, ALL_COUNTS, list, sizeof list);
        snprintf(when, sizeof when, "%s", t->calls > 1 ? "per call" : "in the traced call");
    } else {
        int first_only = k->first.n > 0 && k->with == 1;
        tally_text(first_only ? &k->first : &k->total, ALL_COUNTS, list, sizeof list);
        if (first_only)
            snprintf(when, sizeof when, "in the first call only");
        else
            snprintf(when, sizeof when, "over %d calls (in %d of them)", t->calls, k->with);
    }
    hb_conduct_add(conduct, finding, "%s: %s %s%s", hb_finding_name(finding), list, when, consequence);
}

/* first-call: the first call's kernels match none of the later calls'. */
static void judge_first_call(const hb_conduct_tally *t, hb_conduct *conduct)
{
    if (t->calls < 2 || t->first_matched)
        return;
    hb_name_tally first;
    char first_text[80], later_text[80];
    kernel_tally(t->first, &first);
    tally_text(&first, COUNTS_ABOVE_ONE, first_text, sizeof first_text);
    tally_text(&t->second_kernels, COUNTS_ABOVE_ONE, later_text, sizeof later_text);
    hb_conduct_add(conduct, HB_FINDING_FIRST_CALL, "first-call: the first call ran %d kernels (%s), later calls %d (%s)",
                   hb_call_kernel_count(t->first), first_text, t->second_kernel_count, later_text);
}

/* multi-kernel: over the later calls; with one call, that call. */
static void judge_multi_kernel(const hb_conduct_tally *t, hb_conduct *conduct)
{
    hb_name_tally names = t->max_kernel_names;
    int most = t->max_kernels;
    if (t->calls == 1) {
        most = hb_call_kernel_count(t->first);
        kernel_tally(t->first, &names);
    }
    if (most <= 1)
        return;
    char text[140];
    tally_text(&names, COUNTS_ABOVE_ONE, text, sizeof text);
    hb_conduct_add(conduct, HB_FINDING_MULTI_KERNEL, "multi-kernel: %d kernels per call (%s)", most, text);
}

static void judge_host_time(const hb_conduct_tally *t, const hb_kernel_time *time, hb_conduct *conduct)
{
    char dropped[80] = "";
    if (t->records_dropped)
        snprintf(dropped, sizeof dropped, "; CUPTI dropped %llu records, findings may be incomplete",
                 t->records_dropped);
    if (time->kernels_per_call == 0)
        hb_conduct_add(conduct, HB_FINDING_HOST_TIME,
                       "host-time: no kernel ran; all %.1f us of the wall time per call is host time%s", time->wall_us,
                       dropped);
    else
        hb_conduct_add(conduct, HB_FINDING_HOST_TIME,
                       "host-time: %.1f us of the %.1f us wall time per call ran outside any kernel (kernel span %.1f us, "
                       "kernel sum %.1f us)%s",
                       time->host_us, time->wall_us, time->span_us, time->sum_us, dropped);
}

static void judge_library_kernel(const hb_conduct_tally *t, const hb_library_names *library, hb_conduct *conduct)
{
    long long library_calls = 0, all = 0;
    int first = -1;
    for (int k = 0; k < t->n_kernel_names; k++) {
        all += t->kernel_name_count[k];
        if (hb_is_library_kernel(t->kernel_name[k], library)) {
            library_calls += t->kernel_name_count[k];
            if (first < 0)
                first = k;
        }
    }
    if (first < 0)
        return;
    const char *family = hb_library_family(t->kernel_name[first]);
    hb_conduct_add(conduct, HB_FINDING_LIBRARY_KERNEL,
                   "library-kernel: %lld of its %lld kernels are cuBLAS's or cuBLASLt's (%.60s%s, %s)", library_calls,
                   all, t->kernel_name[first], strlen(t->kernel_name[first]) > 60 ? "..." : "",
                   family ? family : "a kernel a baseline ran");
}

void hb_judge_tally(const hb_conduct_tally *t, const hb_kernel_time *time, const char *device_state,
                    const hb_library_names *library, hb_conduct *conduct)
{
    memset(conduct, 0, sizeof *conduct);
    if (t->calls < 1)
        return;
    conduct->traced = 1;
    conduct->calls = t->calls;
    judge_other_stream(t, conduct);
    judge_api_class(t, HB_API_ALLOC, HB_FINDING_ALLOC, "", conduct);
    judge_api_class(t, HB_API_SYNC, HB_FINDING_SYNC, "; the host waits inside the call", conduct);
    judge_api_class(t, HB_API_CREATE, HB_FINDING_CREATE, "", conduct);
    judge_first_call(t, conduct);
    if (device_state && device_state[0])
        hb_conduct_add(conduct, HB_FINDING_DEVICE_STATE, "device-state: %s", device_state);
    judge_multi_kernel(t, conduct);
    judge_host_time(t, time, conduct);
    judge_library_kernel(t, library, conduct);
}

/* --- kernel time -------------------------------------------------------------------- */

void hb_kernel_time_of(const double *span_us, const double *sum_us, const double *wall_us, int n, int from_timed,
                       const hb_conduct_tally *tally, hb_kernel_time *time)
{
    memset(time, 0, sizeof *time);
    if (n <= 0)
        return;
    double *scratch = malloc((size_t)n * sizeof *scratch);
    if (!scratch)
        return; /* traced stays 0: no figure rather than a wrong one */
    time->traced = 1;
    time->calls = n;
    time->from_timed = from_timed;
    time->span_us = hb_finite_quantile(span_us, (size_t)n, 0.5, scratch);
    time->span_p10_us = hb_finite_quantile(span_us, (size_t)n, 0.1, scratch);
    time->span_p90_us = hb_finite_quantile(span_us, (size_t)n, 0.9, scratch);
    time->sum_us = hb_finite_quantile(sum_us, (size_t)n, 0.5, scratch);
    time->wall_us = hb_finite_quantile(wall_us, (size_t)n, 0.5, scratch);
    free(scratch);
    if (!isfinite(time->span_us)) /* no call ran a kernel CUPTI timed */
        time->span_us = time->span_p10_us = time->span_p90_us = time->sum_us = 0;
    time->host_us = time->wall_us - time->span_us;
    const int first_kernels = tally->first ? hb_call_kernel_count(tally->first) : 0;
    time->kernels_per_call = tally->calls > 1 ? tally->max_kernels : first_kernels;
    time->first_call_kernels = first_kernels;
    time->first_span_us = tally->first ? hb_call_kernel_span_us(tally->first) : 0;
}
