/* CUPTI, loaded at run time with dlopen (like NVML, bench/gpu/nvml_runtime.h):
 * the harness starts and runs where libcupti is missing, and the call monitor
 * says what it searched instead.  The toolkit's headers give the types only:
 * nothing links against libcupti (readelf -d build/hgemm-bench names no
 * libcupti), and only the calls the call monitor uses are resolved. */
#ifndef HB_CUPTI_RUNTIME_H
#define HB_CUPTI_RUNTIME_H

#include <cupti.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/core/diag.h"

/* Set to a libcupti file to load that file and no other. */
#define HB_CUPTI_LIBRARY_ENV "HB_CUPTI_LIBRARY"

typedef struct hb_cupti_api {
    void *library;
    char path[512];   /* the name or path that loaded */
    uint32_t version; /* cuptiGetVersion: CUPTI's API version */
    CUptiResult (*activity_enable)(CUpti_ActivityKind kind);
    CUptiResult (*activity_disable)(CUpti_ActivityKind kind);
    CUptiResult (*activity_register_callbacks)(CUpti_BuffersCallbackRequestFunc requested,
                                               CUpti_BuffersCallbackCompleteFunc completed);
    CUptiResult (*activity_flush_all)(uint32_t flag);
    CUptiResult (*activity_get_next_record)(uint8_t *buffer, size_t valid_bytes, CUpti_Activity **record);
    CUptiResult (*activity_get_num_dropped_records)(CUcontext context, uint32_t stream_id, size_t *dropped);
    CUptiResult (*push_external_correlation_id)(CUpti_ExternalCorrelationKind kind, uint64_t id);
    CUptiResult (*pop_external_correlation_id)(CUpti_ExternalCorrelationKind kind, uint64_t *last_id);
    CUptiResult (*get_callback_name)(CUpti_CallbackDomain domain, uint32_t cbid, const char **name);
    CUptiResult (*get_result_string)(CUptiResult result, const char **text);
    CUptiResult (*get_timestamp)(uint64_t *timestamp);
    CUptiResult (*get_version)(uint32_t *version);
    CUptiResult (*subscribe)(CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc callback, void *userdata);
    CUptiResult (*unsubscribe)(CUpti_SubscriberHandle subscriber);
    CUptiResult (*enable_callback)(uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain,
                                   CUpti_CallbackId cbid);
    /* Every callback of a domain (the launch recorder's runtime domain, bench/trace/launch_recorder.h). */
    CUptiResult (*enable_domain)(uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain);
    /* Optional (NULL where this CUPTI lacks it): device timestamps in CUDA_EVENT records. */
    CUptiResult (*enable_event_device_timestamps)(uint8_t enable);
} hb_cupti_api;

/* Searches for CUPTI and resolves its calls, every time it is called (tests
 * use it; the harness uses hb_cupti_load).  The search: $HB_CUPTI_LIBRARY
 * alone when set; else libcupti.so.<CUDA major> and libcupti.so through the
 * loader's path, then each of them in $CUDA_HOME (default /usr/local/cuda)
 * extras/CUPTI/lib64/, lib64/ and lib/.  0 on success; -1 with `why` saying
 * what was searched, what failed and what to set. */
int hb_cupti_find(hb_cupti_api *out, char *why, size_t why_size);

/* The process's CUPTI, found once (thread-safely); NULL with `why` when it
 * is missing or unusable. */
const hb_cupti_api *hb_cupti_load(char *why, size_t why_size);

/* CUPTI's name of a result ("CUPTI_ERROR_NOT_INITIALIZED"). */
const char *hb_cupti_result_name(const hb_cupti_api *api, CUptiResult result);

/* The name of a runtime or driver API call by its callback id, the runtime's
 * version tag removed ("cudaMalloc"); "runtime#<id>" or "driver#<id>" when
 * CUPTI does not know it. */
void hb_cupti_api_name(const hb_cupti_api *api, CUpti_CallbackDomain domain, uint32_t cbid, char *out, size_t size);

/* A checked CUPTI call: returns HB_ERR_CUDA from the enclosing function,
 * naming the call and CUPTI's result. */
#define HB_CUPTI_TRY(api, call)                                                                                 \
    do {                                                                                                       \
        CUptiResult hb_cr_ = (call);                                                                           \
        if (hb_cr_ != CUPTI_SUCCESS)                                                                           \
            return hb_fail(HB_ERR_CUDA, "%s failed: %s", #call, hb_cupti_result_name((api), hb_cr_));          \
    } while (0)

#endif
