#include "bench/trace/tracer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/cupti_runtime.h"
#include "bench/trace/activity_buffers.h"
#include "bench/trace/attribute.h"

/* The tracer's external correlation kind.  CUDA's own libraries push none;
 * a participant that pushes ids of this kind itself is told apart by the ids,
 * which start at FIRST_EXTERNAL_ID ("HB" in the top bytes). */
#define EXTERNAL_KIND CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2
#define FIRST_EXTERNAL_ID 0x4842000000000000ull
#define PROBE_BYTES 1u          /* the set that names the timed stream */
#define PROBE_ALLOCATION 256u   /* bytes: cudaMalloc's granularity anyway */

static const CUpti_ActivityKind full_kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, /* unlike KIND_KERNEL, leaves kernels free to overlap */
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
};
static const CUpti_ActivityKind kernel_kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL};

struct hb_tracer {
    const hb_cupti_api *api;
    int kernels_only;
    const CUpti_ActivityKind *kinds;
    size_t n_kinds, n_enabled;
    hb_record_store store; /* written by CUPTI's callbacks under hb_activity_lock */
    hb_activity_sink sink;
    uint64_t next_external_id;
    void *probe_target;    /* device memory the probe sets */
};

/* One tracer at a time: CUPTI's activity kinds and callbacks are the process's. */
static int tracer_is_open;

static const char *kind_name(CUpti_ActivityKind kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return "CONCURRENT_KERNEL";
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return "MEMCPY";
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return "MEMSET";
    case CUPTI_ACTIVITY_KIND_RUNTIME:
        return "RUNTIME";
    case CUPTI_ACTIVITY_KIND_DRIVER:
        return "DRIVER";
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
        return "EXTERNAL_CORRELATION";
    default:
        return "?";
    }
}

static hb_status enable_kinds(hb_tracer *t)
{
    for (size_t i = 0; i < t->n_kinds; i++) {
        CUptiResult result = t->api->activity_enable(t->kinds[i]);
        if (result != CUPTI_SUCCESS)
            return hb_fail(HB_ERR_UNSUPPORTED,
                           "CUPTI cannot trace here: cuptiActivityEnable(CUPTI_ACTIVITY_KIND_%s) failed: %s (no NVIDIA "
                           "driver, or another profiler attached: nsys, ncu or compute-sanitizer? CUPTI serves one at "
                           "a time)",
                           kind_name(t->kinds[i]), hb_cupti_result_name(t->api, result));
        t->n_enabled++;
    }
    return HB_OK;
}

static void disable_kinds(hb_tracer *t)
{
    for (size_t i = 0; i < t->n_enabled; i++) {
        CUptiResult result = t->api->activity_disable(t->kinds[i]);
        if (result != CUPTI_SUCCESS)
            hb_warn("cuptiActivityDisable(CUPTI_ACTIVITY_KIND_%s) failed: %s; CUPTI keeps recording until the process "
                    "ends", kind_name(t->kinds[i]), hb_cupti_result_name(t->api, result));
    }
    t->n_enabled = 0;
}

static hb_status open_tracer(hb_tracer **out, int kernels_only)
{
    *out = NULL;
    char why[2048];
    const hb_cupti_api *api = hb_cupti_load(why, sizeof why);
    if (!api)
        return hb_fail(HB_ERR_UNSUPPORTED, "the trace pass needs CUPTI: %s", why);
    if (tracer_is_open)
        return hb_fail(HB_ERR_INTERNAL, "a tracer is already open: CUPTI's activity buffers serve one per process");
    hb_tracer *t = calloc(1, sizeof *t);
    if (!t)
        return hb_fail(HB_ERR_INTERNAL, "out of memory for the tracer");
    t->api = api;
    t->kernels_only = kernels_only;
    t->kinds = kernels_only ? kernel_kinds : full_kinds;
    t->n_kinds = kernels_only ? sizeof kernel_kinds / sizeof kernel_kinds[0] : sizeof full_kinds / sizeof full_kinds[0];
    t->sink.store = kernels_only ? NULL : &t->store;
    t->sink.external_kind = EXTERNAL_KIND;
    t->next_external_id = FIRST_EXTERNAL_ID;
    hb_status status = hb_activity_attach(api, &t->sink);
    if (status == HB_OK)
        status = enable_kinds(t);
    if (status != HB_OK) {
        disable_kinds(t);
        hb_activity_detach();
        free(t);
        return status;
    }
    tracer_is_open = 1;
    *out = t;
    return HB_OK;
}

hb_status hb_tracer_open(hb_tracer **out) { return open_tracer(out, 0); }

hb_status hb_tracer_open_kernels_only(hb_tracer **out) { return open_tracer(out, 1); }

void hb_tracer_close(hb_tracer *tracer)
{
    if (!tracer)
        return;
    disable_kinds(tracer);
    (void)hb_activity_flush(tracer->api); /* what CUPTI still holds goes to the store and with it; a failure is reported */
    hb_activity_detach();
    if (tracer->probe_target) {
        cudaError_t err = cudaFree(tracer->probe_target);
        if (err != cudaSuccess)
            hb_warn("cudaFree of the tracer's probe byte failed: %s (%s)", cudaGetErrorName(err),
                    cudaGetErrorString(err));
    }
    hb_record_store_free(&tracer->store);
    tracer_is_open = 0;
    free(tracer);
}

unsigned long long hb_tracer_records_seen(const hb_tracer *tracer)
{
    (void)hb_activity_flush(tracer->api); /* a failure is reported; the count is then what arrived */
    hb_activity_lock();
    unsigned long long seen = tracer->sink.seen;
    hb_activity_unlock();
    return seen;
}

unsigned long long hb_tracer_records_dropped(const hb_tracer *tracer)
{
    hb_activity_lock();
    unsigned long long dropped = tracer->sink.dropped + tracer->store.lost;
    hb_activity_unlock();
    return dropped;
}

static hb_status timestamp(const hb_tracer *t, uint64_t *ns)
{
    HB_CUPTI_TRY(t->api, t->api->get_timestamp(ns));
    return HB_OK;
}

static hb_status push_id(const hb_tracer *t, uint64_t id)
{
    HB_CUPTI_TRY(t->api, t->api->push_external_correlation_id(EXTERNAL_KIND, id));
    return HB_OK;
}

static hb_status pop_id(const hb_tracer *t)
{
    uint64_t last = 0;
    HB_CUPTI_TRY(t->api, t->api->pop_external_correlation_id(EXTERNAL_KIND, &last));
    return HB_OK;
}

/* Records made before this point (creating the participants, an earlier
 * participant's trace) are read and forgotten. */
static hb_status drain(hb_tracer *t, unsigned long long *dropped_before)
{
    HB_CUDA_TRY(cudaDeviceSynchronize());
    HB_TRY(hb_activity_flush(t->api));
    hb_activity_lock();
    hb_record_store_clear(&t->store);
    *dropped_before = t->sink.dropped;
    hb_activity_unlock();
    return HB_OK;
}

/* A 1-byte set on the timed stream, inside [from, to] on CUPTI's clock:
 * its record carries the stream's CUPTI id, and its API call the harness
 * thread's.  The device is idle at `from` (drain synchronized it). */
static hb_status probe(hb_tracer *t, cudaStream_t stream, uint64_t id, uint64_t *from, uint64_t *to)
{
    if (!t->probe_target)
        HB_CUDA_TRY(cudaMalloc(&t->probe_target, PROBE_ALLOCATION));
    HB_TRY(timestamp(t, from));
    HB_TRY(push_id(t, id));
    cudaError_t set = cudaMemsetAsync(t->probe_target, 0, PROBE_BYTES, stream);
    HB_TRY(pop_id(t));
    if (set != cudaSuccess)
        return hb_fail(HB_ERR_CUDA, "the tracer's 1-byte cudaMemsetAsync on the timed stream failed: %s (%s)",
                       cudaGetErrorName(set), cudaGetErrorString(set));
    HB_CUDA_TRY(cudaDeviceSynchronize());
    return timestamp(t, to);
}

static hb_status participant_error(const hb_participant *p, cudaError_t err, const char *when)
{
    return hb_fail(p->is_candidate ? HB_ERR_CANDIDATE_FAULT : HB_ERR_CUDA, "%s %s: %s (%s)", p->name, when,
                   cudaGetErrorName(err), cudaGetErrorString(err));
}

/* One traced call; its window and wall time into `call`. */
static hb_status traced_call(hb_tracer *t, hb_participant *p, const hb_gemm_io *io, cudaStream_t stream, uint64_t id,
                             hb_call_trace *call)
{
    HB_TRY(p->ops->poison(p, io, stream));
    HB_TRY(p->ops->prepare(p, io, stream));
    HB_CUDA_TRY(cudaDeviceSynchronize()); /* the window starts with an idle device */
    HB_TRY(push_id(t, id));
    uint64_t start = 0, launch_end = 0, end = 0;
    CUptiResult started = t->api->get_timestamp(&start);
    double wall_start = hb_now_s();
    hb_status launched = p->ops->launch(p, io, stream);
    CUptiResult returned = t->api->get_timestamp(&launch_end);
    hb_status popped = pop_id(t);
    cudaError_t err = cudaDeviceSynchronize();
    double wall_end = hb_now_s();
    CUptiResult ended = t->api->get_timestamp(&end);
    HB_TRY(launched);
    if (err != cudaSuccess)
        return participant_error(p, err, "failed while running a traced call");
    HB_TRY(popped);
    HB_CUPTI_TRY(t->api, started);
    HB_CUPTI_TRY(t->api, returned);
    HB_CUPTI_TRY(t->api, ended);
    call->wall_us = (wall_end - wall_start) * 1e6;
    call->window_start_ns = start;
    call->launch_end_ns = launch_end;
    call->window_end_ns = end;
    if (p->ops->after_call) /* untimed: the window has closed */
        HB_TRY(p->ops->after_call(p));
    return HB_OK;
}

/* The names and classes of the API calls the calls made. */
static void name_api_calls(const hb_tracer *t, hb_participant_trace *out)
{
    for (int c = 0; c < out->calls; c++)
        for (int i = 0; i < out->call[c].n_api; i++) {
            hb_traced_api *api = &out->call[c].api[i];
            CUpti_CallbackDomain domain =
                api->domain == HB_API_DRIVER ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API;
            hb_cupti_api_name(t->api, domain, api->cbid, api->name, sizeof api->name);
            api->api_class = hb_api_classify(api->name);
        }
}

typedef struct trace_ids {
    uint64_t probe, first_call;  /* external ids */
    uint64_t probe_from, probe_to;
    unsigned long long dropped_before;
} trace_ids;

/* After the calls: every record CUPTI holds, given to its call. */
static hb_status collect(hb_tracer *t, const hb_participant *p, const trace_ids *ids, hb_participant_trace *out)
{
    HB_CUDA_TRY(cudaDeviceSynchronize());
    HB_TRY(hb_activity_flush(t->api));
    hb_activity_lock();
    hb_attribution how = {ids->first_call, 0, 0};
    int probed = hb_find_probe(&t->store, ids->probe, PROBE_BYTES, ids->probe_from, ids->probe_to,
                               &out->timed_stream_id, &how.harness_thread, &how.harness_thread_known);
    int attributed = probed == 0 ? hb_attribute_records(&t->store, &how, out) : 0;
    out->records_dropped = t->sink.dropped - ids->dropped_before + t->store.lost;
    hb_activity_unlock();
    if (probed != 0)
        return hb_fail(HB_ERR_CUDA, "CUPTI handed back no record of the tracer's 1-byte set on the timed stream, so "
                       "the timed stream's id is unknown and %s cannot be traced", p->name);
    if (attributed != 0)
        return hb_fail(HB_ERR_INTERNAL, "out of memory giving the records of %s to its calls", p->name);
    name_api_calls(t, out);
    if (out->records_dropped)
        hb_warn("CUPTI dropped %llu activity records while tracing %s: its findings may be incomplete",
                out->records_dropped, p->name);
    snprintf(out->device_state, sizeof out->device_state, "%s", p->device_state);
    return HB_OK;
}

hb_status hb_trace_participant(hb_tracer *tracer, hb_participant *p, const hb_gemm_io *io, cudaStream_t timed_stream,
                               int calls, hb_participant_trace *out)
{
    if (tracer->kernels_only)
        return hb_fail(HB_ERR_INTERNAL, "hb_trace_participant needs a tracer from hb_tracer_open, not the kernels-only one");
    if (calls < 1 || calls > HB_TRACE_MAX_CALLS)
        return hb_fail(HB_ERR_INTERNAL, "cannot trace %d calls of %s: 1 to %d", calls, p->name, HB_TRACE_MAX_CALLS);
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", p->name);
    out->calls = calls;
    trace_ids ids = {0};
    HB_TRY(drain(tracer, &ids.dropped_before));
    ids.probe = tracer->next_external_id++;
    ids.first_call = tracer->next_external_id;
    tracer->next_external_id += (uint64_t)calls;
    HB_TRY(probe(tracer, timed_stream, ids.probe, &ids.probe_from, &ids.probe_to));
    for (int i = 0; i < calls; i++) {
        out->call[i].index = i;
        HB_TRY(traced_call(tracer, p, io, timed_stream, ids.first_call + (uint64_t)i, &out->call[i]));
    }
    return collect(tracer, p, &ids, out);
}
