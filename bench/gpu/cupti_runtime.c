#define _POSIX_C_SOURCE 200809L /* pthread_once */
#include "bench/gpu/cupti_runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/result/api_class.h"

/* The oldest CUPTI whose records have the layout of these headers' (the
 * first of this CUDA major: CUPTI numbers its API 130001 for 13.0 update 1).
 * A newer CUPTI appends fields to the records, which the tracer does not read. */
#define MIN_VERSION ((uint32_t)(CUPTI_API_VERSION / 10000) * 10000u)

/* Folders of a toolkit that may hold libcupti, relative to $CUDA_HOME. */
static const char *const toolkit_dirs[] = {"extras/CUPTI/lib64", "lib64", "lib"};

/* What a search tried, for the message when nothing loaded. */
typedef struct search_log {
    char tried[1536];
    size_t used;
    char last_error[256];
} search_log;

static void *try_open(const char *name, search_log *log)
{
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (log->used < sizeof log->tried)
        log->used += (size_t)snprintf(log->tried + log->used, sizeof log->tried - log->used, "%s%s",
                                      log->used ? ", " : "", name);
    if (!library) {
        const char *error = dlerror();
        snprintf(log->last_error, sizeof log->last_error, "%s", error ? error : "dlopen failed");
    }
    return library;
}

/* The default search: the loader's path, then the toolkit's folders. */
static void *search_default(char *path, size_t path_size, search_log *log)
{
    char soname[32];
    snprintf(soname, sizeof soname, "libcupti.so.%d", CUDA_VERSION / 1000);
    const char *const names[] = {soname, "libcupti.so"};
    for (size_t n = 0; n < 2; n++) {
        void *library = try_open(names[n], log);
        if (library) {
            snprintf(path, path_size, "%s", names[n]);
            return library;
        }
    }
    const char *home = getenv("CUDA_HOME");
    if (!home || !*home)
        home = "/usr/local/cuda";
    for (size_t d = 0; d < sizeof toolkit_dirs / sizeof toolkit_dirs[0]; d++)
        for (size_t n = 0; n < 2; n++) {
            snprintf(path, path_size, "%s/%s/%s", home, toolkit_dirs[d], names[n]);
            void *library = try_open(path, log);
            if (library)
                return library;
        }
    return NULL;
}

static void *symbol(void *library, const char *name, const char **missing)
{
    void *address = dlsym(library, name);
    if (!address && !*missing)
        *missing = name;
    return address;
}

/* Resolves every call the tracer makes; the first one missing, else NULL. */
static const char *resolve(hb_cupti_api *api)
{
    const char *missing = NULL;
    void *l = api->library;
    *(void **)&api->activity_enable = symbol(l, "cuptiActivityEnable", &missing);
    *(void **)&api->activity_disable = symbol(l, "cuptiActivityDisable", &missing);
    *(void **)&api->activity_register_callbacks = symbol(l, "cuptiActivityRegisterCallbacks", &missing);
    *(void **)&api->activity_flush_all = symbol(l, "cuptiActivityFlushAll", &missing);
    *(void **)&api->activity_get_next_record = symbol(l, "cuptiActivityGetNextRecord", &missing);
    *(void **)&api->activity_get_num_dropped_records = symbol(l, "cuptiActivityGetNumDroppedRecords", &missing);
    *(void **)&api->push_external_correlation_id = symbol(l, "cuptiActivityPushExternalCorrelationId", &missing);
    *(void **)&api->pop_external_correlation_id = symbol(l, "cuptiActivityPopExternalCorrelationId", &missing);
    *(void **)&api->get_callback_name = symbol(l, "cuptiGetCallbackName", &missing);
    *(void **)&api->get_result_string = symbol(l, "cuptiGetResultString", &missing);
    *(void **)&api->get_timestamp = symbol(l, "cuptiGetTimestamp", &missing);
    *(void **)&api->get_version = symbol(l, "cuptiGetVersion", &missing);
    *(void **)&api->subscribe = symbol(l, "cuptiSubscribe", &missing);
    *(void **)&api->unsubscribe = symbol(l, "cuptiUnsubscribe", &missing);
    *(void **)&api->enable_callback = symbol(l, "cuptiEnableCallback", &missing);
    *(void **)&api->enable_domain = symbol(l, "cuptiEnableDomain", &missing);
    /* Since CUDA 12.8: without it the event cross-check has no device timestamps and says so. */
    *(void **)&api->enable_event_device_timestamps = dlsym(l, "cuptiActivityEnableCudaEventDeviceTimestamps");
    return missing;
}

/* 0 when the loaded library has every call and a record layout we read. */
static int check_loaded(hb_cupti_api *api, char *why, size_t why_size)
{
    const char *missing = resolve(api);
    if (missing) {
        snprintf(why, why_size, "%s lacks %s: it is not a CUPTI the tracer can use (set %s to the toolkit's libcupti)",
                 api->path, missing, HB_CUPTI_LIBRARY_ENV);
        return -1;
    }
    CUptiResult result = api->get_version(&api->version);
    if (result != CUPTI_SUCCESS) {
        snprintf(why, why_size, "cuptiGetVersion of %s failed: %s", api->path, hb_cupti_result_name(api, result));
        return -1;
    }
    if (api->version < MIN_VERSION) {
        snprintf(why, why_size,
                 "%s has CUPTI API version %u, older than the %u this harness was built for (CUDA %d): its records "
                 "would be misread; set %s to the libcupti of CUDA %d or later",
                 api->path, api->version, MIN_VERSION, CUDA_VERSION / 1000, HB_CUPTI_LIBRARY_ENV,
                 CUDA_VERSION / 1000);
        return -1;
    }
    return 0;
}

int hb_cupti_find(hb_cupti_api *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    search_log log = {0};
    const char *forced = getenv(HB_CUPTI_LIBRARY_ENV);
    if (forced && *forced) {
        snprintf(out->path, sizeof out->path, "%s", forced);
        out->library = try_open(forced, &log);
        if (!out->library) {
            snprintf(why, why_size, "CUPTI not found: %s=%s does not load (%s); unset it to search the loader's path "
                     "and $CUDA_HOME", HB_CUPTI_LIBRARY_ENV, forced, log.last_error);
            return -1;
        }
    } else {
        out->library = search_default(out->path, sizeof out->path, &log);
        if (!out->library) {
            snprintf(why, why_size, "CUPTI not found: tried %s (last: %s); set CUDA_HOME to the toolkit that has it, "
                     "or %s to the file", log.tried, log.last_error, HB_CUPTI_LIBRARY_ENV);
            return -1;
        }
    }
    if (check_loaded(out, why, why_size) != 0) {
        dlclose(out->library);
        out->library = NULL;
        return -1;
    }
    snprintf(why, why_size, "ok");
    return 0;
}

/* Found once per process: dlopen is slow and CUPTI's state is the process's. */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static hb_cupti_api loaded_api;
static int loaded;
static char load_why[2048] = "CUPTI loader did not run";

static void load(void) { loaded = hb_cupti_find(&loaded_api, load_why, sizeof load_why) == 0; }

const hb_cupti_api *hb_cupti_load(char *why, size_t why_size)
{
    if (pthread_once(&load_once, load) != 0) {
        snprintf(why, why_size, "pthread_once failed loading CUPTI");
        return NULL;
    }
    snprintf(why, why_size, "%s", load_why);
    return loaded ? &loaded_api : NULL;
}

const char *hb_cupti_result_name(const hb_cupti_api *api, CUptiResult result)
{
    const char *text = NULL;
    if (api && api->get_result_string && api->get_result_string(result, &text) == CUPTI_SUCCESS && text)
        return text;
    return "an unknown CUPTI result";
}

void hb_cupti_api_name(const hb_cupti_api *api, CUpti_CallbackDomain domain, uint32_t cbid, char *out, size_t size)
{
    const char *name = NULL;
    if (api->get_callback_name(domain, cbid, &name) != CUPTI_SUCCESS || !name) {
        snprintf(out, size, "%s#%u", domain == CUPTI_CB_DOMAIN_DRIVER_API ? "driver" : "runtime", cbid);
        return;
    }
    hb_api_display_name(name, out, size);
}
