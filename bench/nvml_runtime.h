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

#endif
