#include "nvml_runtime.h"

#include <dlfcn.h>
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
    int (*driver_version)(char *, unsigned); /* optional */
} nvml_api;

static int load(nvml_api *api, char *why, unsigned why_size)
{
    api->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!api->library) {
        snprintf(why, why_size, "libnvidia-ml.so.1 not found");
        return -1;
    }
    *(void **)&api->init = dlsym(api->library, "nvmlInit_v2");
    *(void **)&api->handle_by_uuid = dlsym(api->library, "nvmlDeviceGetHandleByUUID");
    *(void **)&api->clock_info = dlsym(api->library, "nvmlDeviceGetClockInfo");
    *(void **)&api->max_clock_info = dlsym(api->library, "nvmlDeviceGetMaxClockInfo");
    *(void **)&api->temperature = dlsym(api->library, "nvmlDeviceGetTemperature");
    *(void **)&api->driver_version = dlsym(api->library, "nvmlSystemGetDriverVersion");
    if (!api->init || !api->handle_by_uuid || !api->clock_info || !api->max_clock_info || !api->temperature) {
        snprintf(why, why_size, "libnvidia-ml.so.1 lacks a needed symbol");
        return -1;
    }
    if (api->init() != NVML_SUCCESS) {
        snprintf(why, why_size, "nvmlInit failed");
        return -1;
    }
    return 0;
}

int hb_nvml_read(const char *uuid, hb_nvml_reading *out, char *why, unsigned why_size)
{
    static nvml_api api;
    static int state; /* 0 untried, 1 loaded, -1 failed */
    static char load_why[96];
    out->sm_clock_mhz = out->mem_clock_mhz = out->max_sm_clock_mhz = out->temperature_c = -1;
    out->driver[0] = '\0';
    if (state == 0)
        state = load(&api, load_why, sizeof load_why) == 0 ? 1 : -1;
    if (state < 0) {
        snprintf(why, why_size, "%s", load_why);
        return -1;
    }
    nvml_device device;
    if (api.handle_by_uuid(uuid, &device) != NVML_SUCCESS) {
        snprintf(why, why_size, "NVML does not know device %s", uuid);
        return -1;
    }
    unsigned value;
    if (api.clock_info(device, NVML_CLOCK_SM, &value) == NVML_SUCCESS)
        out->sm_clock_mhz = (int)value;
    if (api.clock_info(device, NVML_CLOCK_MEM, &value) == NVML_SUCCESS)
        out->mem_clock_mhz = (int)value;
    if (api.max_clock_info(device, NVML_CLOCK_SM, &value) == NVML_SUCCESS)
        out->max_sm_clock_mhz = (int)value;
    if (api.temperature(device, NVML_TEMPERATURE_GPU, &value) == NVML_SUCCESS)
        out->temperature_c = (int)value;
    if (api.driver_version && api.driver_version(out->driver, sizeof out->driver) != NVML_SUCCESS)
        out->driver[0] = '\0';
    snprintf(why, why_size, "ok");
    return 0;
}
