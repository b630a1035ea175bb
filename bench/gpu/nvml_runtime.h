/* NVML, loaded at run time with dlopen: the harness still runs where
 * libnvidia-ml is missing and says so instead of failing to start.  Only the
 * handful of calls the harness uses, declared with NVML's stable C ABI. */
#ifndef HB_NVML_RUNTIME_H
#define HB_NVML_RUNTIME_H

typedef struct hb_nvml_reading {
    int sm_clock_mhz, mem_clock_mhz, max_sm_clock_mhz, temperature_c;
    char driver[32];  /* driver version, e.g. "580.95.05"; "" where NVML lacks it */
} hb_nvml_reading;

/* Reads the device whose UUID is `uuid` ("GPU-..."); returns 0 on success,
 * else -1 with `why` saying what was missing. */
int hb_nvml_read(const char *uuid, hb_nvml_reading *out, char *why, unsigned why_size);

/* An opened device, reusable for repeated reads (a sampler reads it every
 * few tens of milliseconds; looking the UUID up each time would cost more
 * than the read).  NVML stays initialised for the life of the process, so a
 * handle needs no closing.  NVML is thread-safe: any thread may read it. */
typedef struct hb_nvml_device {
    void *handle; /* nvmlDevice_t */
} hb_nvml_device;

/* Loads NVML (once per process, thread-safely) and opens device `uuid`;
 * returns 0, or -1 with `why` saying what was missing. */
int hb_nvml_open(const char *uuid, hb_nvml_device *out, char *why, unsigned why_size);

/* Single reads of an opened device; each returns -1 where NVML fails or the
 * device does not report the value. */
int hb_nvml_sm_clock_mhz(const hb_nvml_device *device);
int hb_nvml_mem_clock_mhz(const hb_nvml_device *device);
int hb_nvml_max_sm_clock_mhz(const hb_nvml_device *device);
int hb_nvml_temperature_c(const hb_nvml_device *device);  /* GPU core sensor */
long hb_nvml_power_mw(const hb_nvml_device *device);      /* board draw, milliwatts */

/* Clock event ("throttle") reasons, NVML's bitmask (nvmlClocksEventReason*):
 * 0 with *reasons set, or -1 where the call fails or the library has neither
 * the current nor the pre-12.2 name of it. */
int hb_nvml_clock_event_reasons(const hb_nvml_device *device, unsigned long long *reasons);

#endif
