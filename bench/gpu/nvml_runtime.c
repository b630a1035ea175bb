#define _POSIX_C_SOURCE 200809L /* pthread_once */
#include "bench/gpu/nvml_runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* NVML constants (nvml.h): clock types and the GPU temperature sensor. */
enum { NVML_SUCCESS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };
typedef struct nvml_device_opaque *nvml_device;

typedef struct nvml_api {
    void *library;
    int (*init)(void);
    int (*handle_by_uuid)(const char *, nvml_device *);
    int (*clock_info)(nvml_device, int, unsigned *);
    int (*max_clock_info)(nvml_device, int, unsigned *);
    int (*temperature)(nvml_device, int, unsigned *);
    int (*driver_version)(char *, unsigned);                    /* optional */
    int (*power_usage)(nvml_device, unsigned *);                /* optional; milliwatts */
    int (*clock_event_reasons)(nvml_device, unsigned long long *); /* optional */
} nvml_api;

/* Loaded once per process: the sampler thread and the main thread may both
 * ask, and dlopen + nvmlInit are too slow to repeat per read. */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static nvml_api api;
static int loaded;            /* 1: api usable; set only inside load_once */
static char load_why[96] = "NVML loader did not run";

static void *symbol(const char *name) { return dlsym(api.library, name); }

/* Optional calls stay NULL where the driver predates them; reads of them
 * then report -1 instead of refusing the whole library. */
static void resolve_symbols(void)
{
    *(void **)&api.init = symbol("nvmlInit_v2");
    *(void **)&api.handle_by_uuid = symbol("nvmlDeviceGetHandleByUUID");
    *(void **)&api.clock_info = symbol("nvmlDeviceGetClockInfo");
    *(void **)&api.max_clock_info = symbol("nvmlDeviceGetMaxClockInfo");
    *(void **)&api.temperature = symbol("nvmlDeviceGetTemperature");
    *(void **)&api.driver_version = symbol("nvmlSystemGetDriverVersion");
    *(void **)&api.power_usage = symbol("nvmlDeviceGetPowerUsage");
    /* NVML 12.2 renamed "throttle reasons" to "clock event reasons"; the old
     * name is kept by newer drivers but may go, and older ones lack the new. */
    *(void **)&api.clock_event_reasons = symbol("nvmlDeviceGetCurrentClocksEventReasons");
    if (!api.clock_event_reasons)
        *(void **)&api.clock_event_reasons = symbol("nvmlDeviceGetCurrentClocksThrottleReasons");
}

static void load(void)
{
    api.library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!api.library) {
        snprintf(load_why, sizeof load_why, "libnvidia-ml.so.1 not found");
        return;
    }
    resolve_symbols();
    if (!api.init || !api.handle_by_uuid || !api.clock_info || !api.max_clock_info || !api.temperature) {
        snprintf(load_why, sizeof load_why, "libnvidia-ml.so.1 lacks a needed symbol");
        return;
    }
    if (api.init() != NVML_SUCCESS) {
        snprintf(load_why, sizeof load_why, "nvmlInit failed");
        return;
    }
    snprintf(load_why, sizeof load_why, "ok");
    loaded = 1;
}

int hb_nvml_open(const char *uuid, hb_nvml_device *out, char *why, unsigned why_size)
{
    out->handle = NULL;
    if (pthread_once(&load_once, load) != 0) {
        snprintf(why, why_size, "pthread_once failed loading NVML");
        return -1;
    }
    if (!loaded) {
        snprintf(why, why_size, "%s", load_why);
        return -1;
    }
    nvml_device device;
    if (api.handle_by_uuid(uuid, &device) != NVML_SUCCESS) {
        snprintf(why, why_size, "NVML does not know device %s", uuid);
        return -1;
    }
    out->handle = device;
    snprintf(why, why_size, "ok");
    return 0;
}

/* A device opened by hb_nvml_open, or NULL (never opened, or a failed open). */
static nvml_device opened(const hb_nvml_device *device) { return loaded && device ? device->handle : NULL; }

static int clock_mhz(const hb_nvml_device *device, int clock, int max)
{
    nvml_device d = opened(device);
    unsigned value;
    if (!d)
        return -1;
    int rc = max ? api.max_clock_info(d, clock, &value) : api.clock_info(d, clock, &value);
    return rc == NVML_SUCCESS ? (int)value : -1;
}

int hb_nvml_sm_clock_mhz(const hb_nvml_device *device) { return clock_mhz(device, NVML_CLOCK_SM, 0); }
int hb_nvml_mem_clock_mhz(const hb_nvml_device *device) { return clock_mhz(device, NVML_CLOCK_MEM, 0); }
int hb_nvml_max_sm_clock_mhz(const hb_nvml_device *device) { return clock_mhz(device, NVML_CLOCK_SM, 1); }

int hb_nvml_temperature_c(const hb_nvml_device *device)
{
    nvml_device d = opened(device);
    unsigned value;
    if (!d || api.temperature(d, NVML_TEMPERATURE_GPU, &value) != NVML_SUCCESS)
        return -1;
    return (int)value;
}

long hb_nvml_power_mw(const hb_nvml_device *device)
{
    nvml_device d = opened(device);
    unsigned value;
    if (!d || !api.power_usage || api.power_usage(d, &value) != NVML_SUCCESS)
        return -1;
    return (long)value;
}

int hb_nvml_clock_event_reasons(const hb_nvml_device *device, unsigned long long *reasons)
{
    nvml_device d = opened(device);
    unsigned long long value;
    if (!d || !api.clock_event_reasons || api.clock_event_reasons(d, &value) != NVML_SUCCESS)
        return -1;
    *reasons = value;
    return 0;
}

int hb_nvml_read(const char *uuid, hb_nvml_reading *out, char *why, unsigned why_size)
{
    out->sm_clock_mhz = out->mem_clock_mhz = out->max_sm_clock_mhz = out->temperature_c = -1;
    out->driver[0] = '\0';
    hb_nvml_device device;
    if (hb_nvml_open(uuid, &device, why, why_size) != 0)
        return -1;
    out->sm_clock_mhz = hb_nvml_sm_clock_mhz(&device);
    out->mem_clock_mhz = hb_nvml_mem_clock_mhz(&device);
    out->max_sm_clock_mhz = hb_nvml_max_sm_clock_mhz(&device);
    out->temperature_c = hb_nvml_temperature_c(&device);
    if (api.driver_version && api.driver_version(out->driver, sizeof out->driver) != NVML_SUCCESS)
        out->driver[0] = '\0';
    return 0;
}
