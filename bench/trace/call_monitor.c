#define _GNU_SOURCE /* syscall(SYS_gettid) */
#include "bench/trace/call_monitor.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/gpu/cuda_check.h"
#include "bench/gpu/cupti_runtime.h"
#include "bench/trace/activity_buffers.h"
#include "bench/trace/attribute.h"
#include "bench/trace/call_log.h"

#define DUE_CALLS 4096       /* calls between checkpoints: a few MB of records at most */
#define DUE_SECONDS 0.5      /* or this much time */
#define PROBE_BYTES 1u       /* the set that names the timed stream */
#define PROBE_ALLOCATION 256u
#define MAX_DEPTH 16         /* nested API calls a thread's entries are kept for */
#define N_DOMAINS 2          /* runtime, driver */

typedef struct activity_kind {
    CUpti_ActivityKind kind;
    unsigned feature;
} activity_kind;

static const activity_kind kinds[] = {
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, HB_MONITOR_KERNELS}, /* unlike KIND_KERNEL, leaves kernels free to overlap */
    {CUPTI_ACTIVITY_KIND_MEMCPY, HB_MONITOR_COPIES},
    {CUPTI_ACTIVITY_KIND_MEMSET, HB_MONITOR_COPIES},
    {CUPTI_ACTIVITY_KIND_CUDA_EVENT, HB_MONITOR_EVENTS}, /* the device timestamps of the harness's own events */
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

/* What the callbacks know of an API call by its id, looked up once at open. */
typedef struct api_entry {
    char name[HB_TRACE_API_NAME];
    unsigned char api_class;    /* hb_api_class */
    unsigned char event_record; /* cudaEventRecord and kin: the harness's start and stop events */
} api_entry;

struct hb_call_monitor {
    const hb_cupti_api *api;
    unsigned features;          /* HB_MONITOR_* */
    CUpti_SubscriberHandle subscriber;
    int subscribed;
    unsigned enabled[N_KINDS];  /* the kinds turned on */
    api_entry *entries[N_DOMAINS];
    size_t n_entries[N_DOMAINS];
    hb_call_watcher watcher;
    pthread_t harness;
    /* Shared with the API callbacks of any thread: under `lock`. */
    pthread_mutex_t lock;
    hb_call_log log;
    unsigned generation;        /* checkpoints so far: an API entry opened before one is not closed after it */
    atomic_int in_call;         /* a call is in flight */
    atomic_int in_launch;       /* the harness's thread is inside the participant's own code */
    atomic_int launched;        /* the participant's code returned: the next event record is the stop event */
    /* Device records: under hb_activity_lock (CUPTI's thread writes them). */
    hb_record_store store;
    hb_activity_sink sink;
    /* The harness's thread only. */
    void *probe_target;
    uint32_t timed_stream_id;
    int ordinal[HB_MAX_PARTICIPANTS];
    size_t count;
    hb_watched watched[HB_MAX_PARTICIPANTS];
    size_t calls_since;
    double last_checkpoint_s;
    hb_call_trace *scratch;
    hb_status fold_status;
    int crossing;               /* the open call is cross-checked: CUPTI reads its events until it ends */
    hb_status switch_status;    /* the first failure to switch CUPTI's event reading for one (the next checkpoint's) */
};

static int monitor_is_open; /* one per process: CUPTI's buffers and subscriber are the process's */

/* --- the API callbacks ------------------------------------------------------------ */

static _Thread_local int api_depth;
static _Thread_local long api_open[MAX_DEPTH];
static _Thread_local unsigned api_generation[MAX_DEPTH];

static uint64_t now_ns(const hb_call_monitor *m)
{
    uint64_t ns = 0;
    (void)m->api->get_timestamp(&ns); /* cannot fail once CUPTI is initialized; 0 puts the call outside every window */
    return ns;
}

static const api_entry *entry_of(const hb_call_monitor *m, CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    const int d = domain == CUPTI_CB_DOMAIN_DRIVER_API;
    return cbid < m->n_entries[d] ? &m->entries[d][cbid] : NULL;
}

static void api_enter(hb_call_monitor *m, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                      const CUpti_CallbackData *cb, int depth)
{
    const api_entry *e = entry_of(m, domain, cbid);
    if (!e)
        return;
    const int harness = pthread_equal(pthread_self(), m->harness);
    pthread_mutex_lock(&m->lock);
    if (!hb_call_log_current(&m->log)) {
        pthread_mutex_unlock(&m->lock);
        return;
    }
    if (harness && !atomic_load(&m->in_launch)) { /* the harness's own call: its events are marked */
        if (e->event_record)
            hb_call_log_mark(&m->log, cb->correlationId, atomic_load(&m->launched));
        pthread_mutex_unlock(&m->lock);
        return;
    }
    hb_traced_api api = {0};
    snprintf(api.name, sizeof api.name, "%s", e->name);
    api.api_class = (hb_api_class)e->api_class;
    api.domain = domain == CUPTI_CB_DOMAIN_DRIVER_API ? HB_API_DRIVER : HB_API_RUNTIME;
    api.cbid = cbid;
    api.thread_id = (uint32_t)syscall(SYS_gettid);
    api.correlation_id = cb->correlationId;
    api.nested = depth > 0;
    api.start_ns = now_ns(m);
    long index = hb_call_log_api(&m->log, &api);
    if (depth < MAX_DEPTH) {
        api_open[depth] = index;
        api_generation[depth] = m->generation;
    }
    pthread_mutex_unlock(&m->lock);
}

static void api_exit(hb_call_monitor *m, const CUpti_CallbackData *cb, int depth)
{
    if (depth >= MAX_DEPTH || api_open[depth] < 0)
        return;
    const uint64_t end = now_ns(m);
    pthread_mutex_lock(&m->lock);
    const long index = api_open[depth];
    if (api_generation[depth] == m->generation && (size_t)index < m->log.n_api) {
        m->log.api[index].end_ns = end;
        if (cb->functionReturnValue)
            m->log.api[index].return_value = (uint32_t)*(const int *)cb->functionReturnValue;
    }
    pthread_mutex_unlock(&m->lock);
    api_open[depth] = -1;
}

static void CUPTIAPI on_api(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
    hb_call_monitor *m = userdata;
    const CUpti_CallbackData *cb = data;
    if (cb->callbackSite == CUPTI_API_ENTER) {
        const int depth = api_depth++;
        if (depth < MAX_DEPTH)
            api_open[depth] = -1;
        if (atomic_load(&m->in_call))
            api_enter(m, domain, cbid, cb, depth);
        return;
    }
    if (api_depth == 0) /* entered before the subscription */
        return;
    api_exit(m, cb, --api_depth);
}

/* --- the watcher ---------------------------------------------------------------------- */

/* A cross-checked call (bench/measure/cross_check_rounds.h): CUPTI's reading
 * of the events on from before the call's wall clock and start event, and
 * off once it ended, after the device synchronize and its wall clock, before
 * the harness reads the event pair or runs anything of the participant's:
 * a detour of the elapsed-time read finds CUPTI off then in every call, as
 * in any timed call.  The reading's records are flushed before it goes off,
 * so that none waits on a kind turned off.  Both are untimed; a failure is
 * the next checkpoint's. */
static void switch_reading(hb_call_monitor *m, int on)
{
    hb_status status = HB_OK;
    if (!on)
        status = m->api->activity_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS
                     ? HB_OK
                     : hb_fail(HB_ERR_CUDA, "cuptiActivityFlushAll after a cross-checked call failed");
    if (status == HB_OK)
        status = hb_monitor_event_timestamps(m, on);
    if (m->switch_status == HB_OK)
        m->switch_status = status;
}

static void watch_call_begin(void *context, const hb_participant *p, hb_call_kind kind, long sample)
{
    hb_call_monitor *m = context;
    if (p->index >= m->count)
        return; /* not attached: unwatched */
    m->crossing = kind == HB_CALL_CROSS_CHECKED;
    if (m->crossing)
        switch_reading(m, 1);
    hb_logged_call call = {
        .participant = p->index,
        .ordinal = m->ordinal[p->index]++,
        .kind = kind,
        .sample = sample,
        .window_start_ns = now_ns(m),
    };
    pthread_mutex_lock(&m->lock);
    hb_call_log_open(&m->log, &call); /* out of memory: counted in the log, the call goes unwatched */
    atomic_store(&m->launched, 0);
    atomic_store(&m->in_call, 1);
    pthread_mutex_unlock(&m->lock);
    m->calls_since++;
}

/* The launch points touch only the open call's own fields: no lock on the timed path. */
static void watch_launch_begin(void *context)
{
    hb_call_monitor *m = context;
    hb_logged_call *c = hb_call_log_current(&m->log);
    if (c)
        c->launch_start_ns = now_ns(m);
    atomic_store(&m->in_launch, 1);
}

static void watch_launch_end(void *context)
{
    hb_call_monitor *m = context;
    atomic_store(&m->in_launch, 0);
    atomic_store(&m->launched, 1);
    hb_logged_call *c = hb_call_log_current(&m->log);
    if (c)
        c->launch_end_ns = now_ns(m);
}

static void watch_call_timed(void *context, double event_ms, double wall_ms)
{
    (void)wall_ms;
    hb_call_monitor *m = context;
    hb_call_log_timed(&m->log, event_ms * 1e3); /* the call just closed; its own thread's field */
}

static void watch_call_end(void *context)
{
    hb_call_monitor *m = context;
    const uint64_t end = now_ns(m);
    pthread_mutex_lock(&m->lock);
    hb_call_log_close(&m->log, end);
    atomic_store(&m->in_call, 0);
    pthread_mutex_unlock(&m->lock);
    if (m->crossing)
        switch_reading(m, 0);
    m->crossing = 0;
}

/* --- opening ---------------------------------------------------------------------------- */

/* The conduct classes, and event timing (the harness's events are found by it). */
static int watched_class(hb_api_class c)
{
    return c == HB_API_ALLOC || c == HB_API_SYNC || c == HB_API_CREATE || c == HB_API_GRAPH_LAUNCH ||
           c == HB_API_EVENT_TIMING;
}

static hb_status enable_domain(hb_call_monitor *m, CUpti_CallbackDomain domain, size_t size)
{
    const int d = domain == CUPTI_CB_DOMAIN_DRIVER_API;
    m->entries[d] = calloc(size, sizeof *m->entries[d]);
    if (!m->entries[d])
        return hb_fail(HB_ERR_INTERNAL, "out of memory for CUPTI's API table");
    m->n_entries[d] = size;
    for (size_t cbid = 1; cbid < size; cbid++) {
        const char *raw = NULL;
        if (m->api->get_callback_name(domain, (uint32_t)cbid, &raw) != CUPTI_SUCCESS || !raw)
            continue;
        api_entry *e = &m->entries[d][cbid];
        hb_api_display_name(raw, e->name, sizeof e->name);
        e->api_class = (unsigned char)hb_api_classify(e->name);
        e->event_record = !strncmp(e->name, "cudaEventRecord", 15) || !strncmp(e->name, "cuEventRecord", 13);
        if (!watched_class((hb_api_class)e->api_class))
            continue;
        CUptiResult r = m->api->enable_callback(1, m->subscriber, domain, (CUpti_CallbackId)cbid);
        if (r != CUPTI_SUCCESS)
            return hb_fail(HB_ERR_UNSUPPORTED, "cuptiEnableCallback(%s) failed: %s", e->name,
                           hb_cupti_result_name(m->api, r));
    }
    return HB_OK;
}

static hb_status enable_kinds(hb_call_monitor *m)
{
    for (size_t i = 0; i < N_KINDS; i++) {
        if (!(m->features & kinds[i].feature))
            continue;
        CUptiResult r = m->api->activity_enable(kinds[i].kind);
        if (r != CUPTI_SUCCESS)
            return hb_fail(HB_ERR_UNSUPPORTED,
                           "CUPTI cannot trace here: cuptiActivityEnable(kind %d) failed: %s (no NVIDIA driver, or "
                           "another profiler attached: nsys, ncu or compute-sanitizer? CUPTI serves one at a time)",
                           (int)kinds[i].kind, hb_cupti_result_name(m->api, r));
        m->enabled[i] = 1;
    }
    if (!(m->features & HB_MONITOR_EVENTS))
        return HB_OK;
    if (m->api->enable_event_device_timestamps) {
        CUptiResult r = m->api->enable_event_device_timestamps(1);
        if (r != CUPTI_SUCCESS)
            hb_warn("cuptiActivityEnableCudaEventDeviceTimestamps failed (%s): the events are not cross-checked "
                    "against CUPTI's device timestamps", hb_cupti_result_name(m->api, r));
    } else {
        hb_warn("this CUPTI (%s) has no cuptiActivityEnableCudaEventDeviceTimestamps (CUDA 12.8 or later has it): the "
                "events are not cross-checked against CUPTI's device timestamps", m->api->path);
    }
    return HB_OK;
}

static hb_status subscribe(hb_call_monitor *m)
{
    CUptiResult r = m->api->subscribe(&m->subscriber, on_api, m);
    if (r != CUPTI_SUCCESS)
        return hb_fail(HB_ERR_UNSUPPORTED, "cuptiSubscribe failed: %s (another CUPTI client in this process?)",
                       hb_cupti_result_name(m->api, r));
    m->subscribed = 1;
    HB_TRY(enable_domain(m, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE));
    return enable_domain(m, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE);
}

static hb_status start(hb_call_monitor *m)
{
    HB_TRY(hb_activity_attach(m->api, &m->sink));
    HB_TRY(enable_kinds(m));
    return m->features & HB_MONITOR_CALLBACKS ? subscribe(m) : HB_OK;
}

hb_status hb_monitor_open(int detail_calls, unsigned features, hb_call_monitor **out)
{
    *out = NULL;
    char why[2048];
    const hb_cupti_api *api = hb_cupti_load(why, sizeof why);
    if (!api)
        return hb_fail(HB_ERR_UNSUPPORTED, "the call monitor needs CUPTI: %s", why);
    if (monitor_is_open)
        return hb_fail(HB_ERR_INTERNAL, "a call monitor is already open: CUPTI serves one per process");
    hb_call_monitor *m = calloc(1, sizeof *m);
    hb_call_trace *scratch = malloc(sizeof *scratch);
    if (!m || !scratch) {
        free(m);
        free(scratch);
        return hb_fail(HB_ERR_INTERNAL, "out of memory for the call monitor");
    }
    m->api = api;
    m->features = features;
    m->scratch = scratch;
    m->harness = pthread_self();
    pthread_mutex_init(&m->lock, NULL);
    m->sink.store = &m->store;
    m->watcher = (hb_call_watcher){watch_call_begin, watch_launch_begin, watch_launch_end, watch_call_end,
                                   watch_call_timed, m};
    for (size_t i = 0; i < HB_MAX_PARTICIPANTS; i++)
        m->watched[i].detail_calls = detail_calls; /* attach initialises the rest */
    m->last_checkpoint_s = hb_now_s();
    monitor_is_open = 1;
    hb_status status = start(m);
    if (status != HB_OK) {
        hb_monitor_close(m);
        return status;
    }
    *out = m;
    return HB_OK;
}

int hb_monitor_parts(const char *list, unsigned *features, char *bad, size_t bad_size)
{
    static const struct {
        const char *name;
        unsigned bit;
    } parts[] = {{"kernels", HB_MONITOR_KERNELS},
                 {"copies", HB_MONITOR_COPIES},
                 {"events", HB_MONITOR_EVENTS},
                 {"callbacks", HB_MONITOR_CALLBACKS}};
    *features = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        int known = 0;
        for (size_t i = 0; i < sizeof parts / sizeof parts[0] && !known; i++)
            if (len == strlen(parts[i].name) && !strncmp(p, parts[i].name, len)) {
                *features |= parts[i].bit;
                known = 1;
            }
        if (!known && len > 0) {
            snprintf(bad, bad_size, "%.*s", (int)len, p);
            return 0;
        }
        p += len + (p[len] == ',');
    }
    return 1;
}

/* --- checkpoints ------------------------------------------------------------------------ */

static void fold(void *context, const hb_logged_call *logged, const hb_call_trace *call)
{
    hb_call_monitor *m = context;
    if (logged->participant == HB_NO_PARTICIPANT) { /* the probe: its one set is on the timed stream */
        if (call->n_copies > 0)
            m->timed_stream_id = call->copies[0].stream_id;
        return;
    }
    if (logged->participant >= m->count || m->fold_status != HB_OK)
        return;
    m->fold_status = hb_watched_add(&m->watched[logged->participant], call);
}

hb_status hb_monitor_checkpoint(hb_call_monitor *m)
{
    if (atomic_load(&m->in_call))
        return hb_fail(HB_ERR_INTERNAL, "call monitor checkpoint with a call in flight");
    HB_CUDA_TRY(cudaDeviceSynchronize()); /* every record of the calls so far is made */
    HB_CUPTI_TRY(m->api, m->api->activity_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    hb_activity_lock();
    pthread_mutex_lock(&m->lock);
    m->fold_status = HB_OK;
    hb_attribute_calls(&m->store, &m->log, m->timed_stream_id, m->scratch, fold, m);
    const unsigned long long lost = m->store.lost + m->log.lost;
    for (size_t i = 0; i < m->count; i++)
        m->watched[i].tally.records_dropped = m->sink.dropped + lost;
    hb_record_store_clear(&m->store);
    hb_call_log_clear(&m->log);
    m->generation++;
    pthread_mutex_unlock(&m->lock);
    hb_activity_unlock();
    m->calls_since = 0;
    m->last_checkpoint_s = hb_now_s();
    const hb_status switched = m->switch_status;
    m->switch_status = HB_OK;
    return m->fold_status != HB_OK ? m->fold_status : switched;
}

int hb_monitor_due(const hb_call_monitor *m)
{
    return m->calls_since >= DUE_CALLS || (m->calls_since > 0 && hb_now_s() - m->last_checkpoint_s >= DUE_SECONDS);
}

/* A 1-byte set on the timed stream, logged as a call of no participant: its
 * record names the stream CUPTI's way (the legacy default stream too). */
static hb_status probe(hb_call_monitor *m, cudaStream_t stream)
{
    if (!m->probe_target)
        HB_CUDA_TRY(cudaMalloc(&m->probe_target, PROBE_ALLOCATION));
    HB_CUDA_TRY(cudaDeviceSynchronize());
    hb_logged_call call = {.participant = HB_NO_PARTICIPANT, .sample = -1, .window_start_ns = now_ns(m)};
    pthread_mutex_lock(&m->lock);
    int opened = hb_call_log_open(&m->log, &call);
    pthread_mutex_unlock(&m->lock);
    if (opened != 0)
        return hb_fail(HB_ERR_INTERNAL, "out of memory probing the timed stream");
    cudaError_t set = cudaMemsetAsync(m->probe_target, 0, PROBE_BYTES, stream);
    cudaError_t done = cudaDeviceSynchronize();
    watch_call_end(m);
    if (set != cudaSuccess || done != cudaSuccess)
        return hb_fail(HB_ERR_CUDA, "the call monitor's 1-byte cudaMemsetAsync on the timed stream failed: %s",
                       cudaGetErrorString(set != cudaSuccess ? set : done));
    HB_TRY(hb_monitor_checkpoint(m));
    if (!(m->features & HB_MONITOR_COPIES))
        return HB_OK; /* a cost measurement without copies: no stream to learn */
    if (!m->timed_stream_id)
        return hb_fail(HB_ERR_CUDA, "CUPTI handed back no record of the call monitor's 1-byte set on the timed "
                       "stream: the timed stream's id is unknown, so no call can be judged");
    return HB_OK;
}

hb_status hb_monitor_attach(hb_call_monitor *m, hb_participant *const *parts, size_t count, cudaStream_t timed_stream)
{
    if (count > HB_MAX_PARTICIPANTS)
        return hb_fail(HB_ERR_INTERNAL, "%zu participants to watch (at most %d)", count, HB_MAX_PARTICIPANTS);
    for (size_t i = 0; i < count; i++) {
        HB_TRY(hb_watched_init(&m->watched[i], parts[i]->name, parts[i]->is_candidate, m->watched[i].detail_calls));
        parts[i]->index = i;
        parts[i]->watcher = &m->watcher;
        m->count = i + 1;
    }
    return probe(m, timed_stream);
}

hb_status hb_monitor_event_timestamps(hb_call_monitor *m, int on)
{
    /* The kind alone turned off leaves CUPTI taking the timestamps on an H100
     * (2026-11-26: the timed calls still had them): the switch goes too. */
    if ((m->features & HB_MONITOR_EVENTS) && m->api->enable_event_device_timestamps) {
        CUptiResult r = m->api->enable_event_device_timestamps(on ? 1 : 0);
        if (r != CUPTI_SUCCESS)
            return hb_fail(HB_ERR_CUDA, "cuptiActivityEnableCudaEventDeviceTimestamps(%d) failed: %s", on ? 1 : 0,
                           hb_cupti_result_name(m->api, r));
    }
    for (size_t i = 0; i < N_KINDS; i++) {
        if (kinds[i].kind != CUPTI_ACTIVITY_KIND_CUDA_EVENT || !(m->features & kinds[i].feature) ||
            (int)m->enabled[i] == (on != 0))
            continue;
        CUptiResult r = on ? m->api->activity_enable(kinds[i].kind) : m->api->activity_disable(kinds[i].kind);
        if (r != CUPTI_SUCCESS)
            return hb_fail(HB_ERR_CUDA, "cuptiActivity%s(CUDA_EVENT) failed: %s", on ? "Enable" : "Disable",
                           hb_cupti_result_name(m->api, r));
        m->enabled[i] = on != 0;
    }
    return HB_OK;
}

hb_watched *hb_monitor_watched(hb_call_monitor *m, size_t index)
{
    return index < m->count ? &m->watched[index] : NULL;
}

unsigned long long hb_monitor_lost(const hb_call_monitor *m)
{
    return m->sink.dropped + m->store.lost + m->log.lost;
}

void hb_monitor_close(hb_call_monitor *m)
{
    if (!m)
        return;
    if (m->subscribed) {
        CUptiResult r = m->api->unsubscribe(m->subscriber);
        if (r != CUPTI_SUCCESS)
            hb_warn("cuptiUnsubscribe failed: %s", hb_cupti_result_name(m->api, r));
    }
    for (size_t i = 0; i < N_KINDS; i++)
        if (m->enabled[i])
            (void)m->api->activity_disable(kinds[i].kind); /* the process ends soon after: a failure changes nothing */
    (void)hb_activity_flush(m->api);
    hb_activity_detach();
    if (m->probe_target)
        (void)cudaFree(m->probe_target);
    for (size_t i = 0; i < HB_MAX_PARTICIPANTS; i++)
        hb_watched_free(&m->watched[i]);
    for (int d = 0; d < N_DOMAINS; d++)
        free(m->entries[d]);
    hb_record_store_free(&m->store);
    hb_call_log_free(&m->log);
    pthread_mutex_destroy(&m->lock);
    free(m->scratch);
    free(m);
    monitor_is_open = 0;
}
