#include "bench/report/trace_file.h"

#include <math.h>

#include <jansson.h>
#include <stdio.h>

#include "bench/core/diag.h"
#include "bench/core/json_file.h"
#include "bench/report/json_values.h"

static json_t *triple(const int v[3]) { return json_pack("[iii]", v[0], v[1], v[2]); }

static json_t *unsigned_triple(const unsigned v[3])
{
    return json_pack("[III]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

static json_t *ns(uint64_t value) { return json_integer((json_int_t)value); }

/* Microseconds from the start of the call's window: easier to read than the clock. */
static json_t *offset_us(const hb_call_trace *call, uint64_t at)
{
    return json_real(((double)at - (double)call->window_start_ns) / 1e3);
}

static json_t *kernel_object(const hb_call_trace *call, const hb_traced_kernel *k)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", hb_json_text(k->name));
    json_object_set_new(o, "display_name", hb_json_text(hb_kernel_display_name(k)));
    json_object_set_new(o, "grid", triple(k->grid));
    json_object_set_new(o, "block", triple(k->block));
    json_object_set_new(o, "cluster", unsigned_triple(k->cluster));
    json_object_set_new(o, "registers", json_integer(k->registers));
    json_object_set_new(o, "static_smem", json_integer(k->static_smem));
    json_object_set_new(o, "dynamic_smem", json_integer(k->dynamic_smem));
    json_object_set_new(o, "stream_id", json_integer(k->stream_id));
    json_object_set_new(o, "correlation_id", json_integer(k->correlation_id));
    json_object_set_new(o, "start_ns", ns(k->start_ns));
    json_object_set_new(o, "end_ns", ns(k->end_ns));
    json_object_set_new(o, "start_us", offset_us(call, k->start_ns));
    json_object_set_new(o, "duration_us", json_real(((double)k->end_ns - (double)k->start_ns) / 1e3));
    return o;
}

static json_t *copy_object(const hb_call_trace *call, const hb_traced_copy *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(hb_copy_kind_name(c->kind)));
    json_object_set_new(o, "bytes", json_integer((json_int_t)c->bytes));
    json_object_set_new(o, "stream_id", json_integer(c->stream_id));
    json_object_set_new(o, "correlation_id", json_integer(c->correlation_id));
    json_object_set_new(o, "start_ns", ns(c->start_ns));
    json_object_set_new(o, "end_ns", ns(c->end_ns));
    json_object_set_new(o, "start_us", offset_us(call, c->start_ns));
    return o;
}

static json_t *api_object(const hb_call_trace *call, const hb_traced_api *a)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", hb_json_text(a->name));
    json_object_set_new(o, "class", json_string(hb_api_class_name(a->api_class)));
    json_object_set_new(o, "domain", json_string(a->domain == HB_API_DRIVER ? "driver" : "runtime"));
    json_object_set_new(o, "cbid", json_integer(a->cbid));
    json_object_set_new(o, "nested", json_boolean(a->nested));
    json_object_set_new(o, "inside", json_boolean(hb_call_api_inside(call, a)));
    json_object_set_new(o, "thread_id", json_integer(a->thread_id));
    json_object_set_new(o, "correlation_id", json_integer(a->correlation_id));
    json_object_set_new(o, "return_value", json_integer(a->return_value));
    json_object_set_new(o, "start_ns", ns(a->start_ns));
    json_object_set_new(o, "end_ns", ns(a->end_ns));
    json_object_set_new(o, "start_us", offset_us(call, a->start_ns));
    return o;
}

static json_t *call_object(const hb_call_trace *call)
{
    json_t *o = json_object(), *kernels = json_array(), *copies = json_array(), *api = json_array();
    json_object_set_new(o, "index", json_integer(call->index));
    json_object_set_new(o, "kind", json_string(hb_call_kind_name(call->kind)));
    json_object_set_new(o, "sample", call->sample >= 0 ? json_integer(call->sample) : json_null());
    json_object_set_new(o, "wall_us", json_real(call->wall_us));
    json_object_set_new(o, "kernel_span_us", json_real(hb_call_kernel_span_us(call)));
    json_object_set_new(o, "kernel_sum_us", json_real(hb_call_kernel_sum_us(call)));
    json_object_set_new(o, "kernel_count", json_integer(hb_call_kernel_count(call)));
    json_object_set_new(o, "window_start_ns", ns(call->window_start_ns));
    json_object_set_new(o, "launch_start_ns", ns(call->launch_start_ns));
    json_object_set_new(o, "launch_end_ns", ns(call->launch_end_ns));
    json_object_set_new(o, "window_end_ns", ns(call->window_end_ns));
    json_object_set_new(o, "timed_stream_id", json_integer(call->timed_stream_id));
    json_object_set_new(o, "event_start_ns", ns(call->event_start_ns));
    json_object_set_new(o, "event_stop_ns", ns(call->event_stop_ns));
    const double device_us = hb_call_event_device_us(call);
    json_object_set_new(o, "event_device_us", isfinite(device_us) ? json_real(device_us) : json_null());
    for (int i = 0; i < call->n_kernels; i++)
        json_array_append_new(kernels, kernel_object(call, &call->kernels[i]));
    for (int i = 0; i < call->n_copies; i++)
        json_array_append_new(copies, copy_object(call, &call->copies[i]));
    for (int i = 0; i < call->n_api; i++)
        json_array_append_new(api, api_object(call, &call->api[i]));
    json_object_set_new(o, "kernels", kernels);
    json_object_set_new(o, "kernels_dropped", json_integer(call->kernels_dropped));
    json_object_set_new(o, "copies", copies);
    json_object_set_new(o, "copies_dropped", json_integer(call->copies_dropped));
    json_object_set_new(o, "api_calls", api);
    json_object_set_new(o, "api_calls_dropped", json_integer(call->api_dropped));
    return o;
}

static json_t *kernel_time_object(const hb_kernel_time *t)
{
    json_t *o = json_object();
    json_object_set_new(o, "calls", json_integer(t->calls));
    json_object_set_new(o, "from_timed_calls", json_boolean(t->from_timed));
    json_object_set_new(o, "span_us", json_real(t->span_us));
    json_object_set_new(o, "span_p10_us", json_real(t->span_p10_us));
    json_object_set_new(o, "span_p90_us", json_real(t->span_p90_us));
    json_object_set_new(o, "sum_us", json_real(t->sum_us));
    json_object_set_new(o, "wall_us", json_real(t->wall_us));
    json_object_set_new(o, "host_us", json_real(t->host_us));
    json_object_set_new(o, "first_span_us", json_real(t->first_span_us));
    json_object_set_new(o, "kernels_per_call", json_integer(t->kernels_per_call));
    json_object_set_new(o, "first_call_kernels", json_integer(t->first_call_kernels));
    return o;
}

static json_t *findings_array(const hb_conduct *conduct)
{
    json_t *a = json_array();
    for (int f = 0; f < HB_N_FINDINGS; f++)
        if (conduct->found & HB_FINDING_BIT(f))
            json_array_append_new(a, json_pack("{s:s, s:o, s:b}", "name", hb_finding_name((hb_finding)f), "line",
                                               hb_json_text(conduct->line[f]), "strict",
                                               (hb_finding_strict_mask() & HB_FINDING_BIT(f)) != 0));
    return a;
}

static json_t *participant_object(const hb_trace_file_entry *e)
{
    const hb_participant_trace *trace = e->trace;
    json_t *o = json_object(), *calls = json_array();
    json_object_set_new(o, "name", hb_json_text(trace->name));
    json_object_set_new(o, "timed_stream_id", json_integer(trace->timed_stream_id));
    json_object_set_new(o, "records_dropped", json_integer((json_int_t)trace->records_dropped));
    json_object_set_new(o, "device_state", hb_json_text(trace->device_state));
    json_object_set_new(o, "calls_watched", json_integer(e->calls_watched));
    json_object_set_new(o, "timed_calls", json_integer(e->timed_calls));
    json_object_set_new(o, "kernel_time", kernel_time_object(e->time));
    json_object_set_new(o, "findings", findings_array(e->conduct));
    for (int c = 0; c < trace->calls && c < HB_TRACE_MAX_CALLS; c++)
        json_array_append_new(calls, call_object(&trace->call[c]));
    json_object_set_new(o, "calls", calls);
    return o;
}

hb_status hb_trace_file_write(const char *path, const hb_mnk *mnk, const hb_trace_file_entry *entries, size_t count)
{
    json_t *root = json_object(), *participants = json_array();
    if (!root || !participants) {
        json_decref(root);
        json_decref(participants);
        return hb_fail(HB_ERR_INTERNAL, "out of memory building %s", path);
    }
    json_object_set_new(root, "format", json_string(HB_TRACE_FORMAT));
    json_object_set_new(root, "mnk", json_pack("{s:I, s:I, s:I}", "m", (json_int_t)mnk->m, "n", (json_int_t)mnk->n,
                                               "k", (json_int_t)mnk->k));
    json_object_set_new(root, "time_unit", json_string("ns on CUPTI's clock; *_us fields in microseconds"));
    for (size_t i = 0; i < count; i++)
        json_array_append_new(participants, participant_object(&entries[i]));
    json_object_set_new(root, "participants", participants);
    hb_status status = hb_json_write_file(path, root);
    json_decref(root);
    return status;
}
