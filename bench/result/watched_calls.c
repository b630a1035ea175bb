#include "bench/result/watched_calls.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/diag.h"

hb_status hb_watched_init(hb_watched *w, const char *name, int is_candidate, int detail_calls)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", name);
    w->is_candidate = is_candidate;
    w->detail_calls = detail_calls < 1 ? 1 : detail_calls > HB_TRACE_MAX_CALLS ? HB_TRACE_MAX_CALLS : detail_calls;
    hb_conduct_tally_init(&w->tally);
    w->detail = calloc(1, sizeof *w->detail);
    if (!w->detail)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for the trace of %s (%zu bytes)", name,
                       sizeof *w->detail);
    snprintf(w->detail->name, sizeof w->detail->name, "%s", name);
    return HB_OK;
}

void hb_watched_free(hb_watched *w)
{
    hb_conduct_tally_free(&w->tally);
    free(w->detail);
    w->detail = NULL;
    hb_sample_vec_free(&w->timed_span_us);
    hb_sample_vec_free(&w->timed_sum_us);
    hb_sample_vec_free(&w->timed_event_device_us);
    hb_sample_vec_free(&w->device_diff_us);
    hb_sample_vec_free(&w->cross_event_us);
    hb_sample_vec_free(&w->cross_device_us);
    hb_sample_vec_free(&w->later_span_us);
    hb_sample_vec_free(&w->later_sum_us);
    hb_sample_vec_free(&w->later_wall_us);
}

/* A call with no kernel CUPTI timed has no span: NaN, not 0, so that it
 * leaves the medians rather than pulling them down. */
static double span_or_nan(const hb_call_trace *call)
{
    return hb_call_kernel_count(call) > 0 ? hb_call_kernel_span_us(call) : NAN;
}

static void keep_detail(hb_watched *w, const hb_call_trace *call)
{
    if (call->index < 0 || call->index >= w->detail_calls)
        return;
    hb_participant_trace *d = w->detail;
    d->call[call->index] = *call;
    if (call->index + 1 > d->calls)
        d->calls = call->index + 1;
    if (call->index == 0)
        d->timed_stream_id = call->timed_stream_id;
}

hb_status hb_watched_add(hb_watched *w, const hb_call_trace *call)
{
    if (hb_conduct_tally_add(&w->tally, call) != 0)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory keeping the first call of %s", w->name);
    keep_detail(w, call);
    const double device_us = hb_call_event_device_us(call);
    if (call->kind == HB_CALL_CROSS_CHECKED) { /* judged on its own, paired by round (bench/result/cross_check.h) */
        if (call->sample < 0)
            return HB_OK;
        HB_TRY(hb_sample_vec_set(&w->cross_event_us, (size_t)call->sample, call->event_us));
        return hb_sample_vec_set(&w->cross_device_us, (size_t)call->sample, device_us);
    }
    if (isfinite(device_us) && isfinite(call->event_us))
        HB_TRY(hb_sample_vec_push(&w->device_diff_us, call->event_us - device_us));
    if (call->kind == HB_CALL_TIMED && call->sample >= 0) {
        const size_t i = (size_t)call->sample;
        HB_TRY(hb_sample_vec_set(&w->timed_span_us, i, span_or_nan(call)));
        HB_TRY(hb_sample_vec_set(&w->timed_sum_us, i, hb_call_kernel_count(call) ? hb_call_kernel_sum_us(call) : NAN));
        HB_TRY(hb_sample_vec_set(&w->timed_event_device_us, i, hb_call_event_device_us(call)));
    } else if (call->index > 0) {
        HB_TRY(hb_sample_vec_push(&w->later_span_us, span_or_nan(call)));
        HB_TRY(hb_sample_vec_push(&w->later_sum_us, hb_call_kernel_count(call) ? hb_call_kernel_sum_us(call) : NAN));
        HB_TRY(hb_sample_vec_push(&w->later_wall_us, call->wall_us));
    }
    return HB_OK;
}

void hb_watched_truncate_timed(hb_watched *w, size_t rounds)
{
    hb_sample_vec_truncate(&w->timed_span_us, rounds);
    hb_sample_vec_truncate(&w->timed_sum_us, rounds);
    hb_sample_vec_truncate(&w->timed_event_device_us, rounds);
}

void hb_watched_kernel_time(const hb_watched *w, const double *timed_wall_us, size_t timed, hb_kernel_time *out)
{
    if (timed_wall_us && timed > 0) {
        /* Calls the monitor never saw (a window cut short) have NaN spans. */
        size_t n = timed < w->timed_span_us.len ? timed : w->timed_span_us.len;
        hb_kernel_time_of(w->timed_span_us.data, w->timed_sum_us.data, timed_wall_us, (int)n, 1, &w->tally, out);
        return;
    }
    hb_kernel_time_of(w->later_span_us.data, w->later_sum_us.data, w->later_wall_us.data, (int)w->later_span_us.len, 0,
                      &w->tally, out);
    if (w->later_span_us.len == 0 && w->tally.first) { /* one call: that call */
        const hb_call_trace *first = w->tally.first;
        double span = span_or_nan(first), sum = hb_call_kernel_sum_us(first), wall = first->wall_us;
        hb_kernel_time_of(&span, &sum, &wall, 1, 0, &w->tally, out);
    }
}

void hb_watched_library_names(const hb_watched *all, size_t count, hb_library_names *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < count; i++) {
        if (all[i].is_candidate)
            continue;
        for (int k = 0; k < all[i].tally.n_kernel_names; k++)
            hb_library_names_add(out, all[i].tally.kernel_name[k]);
    }
}
