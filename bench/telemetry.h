/* GPU telemetry during a timed window: clocks, temperature, power and clock
 * event ("throttle") reasons, sampled through NVML on a background thread, so
 * a result can say whether the GPU ran at speed while it was being timed.
 * The thread only reads NVML (never CUDA), so it cannot disturb the stream
 * being timed beyond one NVML query every period. */
#ifndef HB_TELEMETRY_H
#define HB_TELEMETRY_H

#include <pthread.h>
#include <stddef.h>

#include "hb_status.h"
#include "nvml_runtime.h"

#define HB_TELEMETRY_PERIOD_S 0.05          /* sampling period, seconds */
#define HB_TELEMETRY_MAX_SAMPLES 1000000    /* 48 MB, 14 h at 50 ms: later samples are not kept */

/* NVML clock event reason bits (nvmlClocksEventReason*). */
#define HB_REASON_GPU_IDLE 0x1ULL
#define HB_REASON_APP_CLOCKS 0x2ULL
#define HB_REASON_SW_POWER_CAP 0x4ULL
#define HB_REASON_HW_SLOWDOWN 0x8ULL
#define HB_REASON_SYNC_BOOST 0x10ULL
#define HB_REASON_SW_THERMAL 0x20ULL
#define HB_REASON_HW_THERMAL 0x40ULL
#define HB_REASON_HW_POWER_BRAKE 0x80ULL
#define HB_REASON_DISPLAY_CLOCKS 0x100ULL
/* Reasons that say nothing about the GPU being held below its speed under load. */
#define HB_REASONS_BENIGN (HB_REASON_GPU_IDLE | HB_REASON_APP_CLOCKS | 0x10ULL /*sync boost*/ | 0x100ULL /*display*/)

typedef struct hb_telemetry_sample {
    double t_s;                 /* seconds since hb_telemetry_start */
    int sm_mhz, mem_mhz, temp_c; /* -1: not read */
    double power_w;             /* < 0: not read */
    unsigned long long reasons; /* clock event (throttle) reasons bitmask */
    int reasons_known;          /* 0: the reasons call failed or is missing */
} hb_telemetry_sample;

typedef struct hb_telemetry_summary {   /* plain data: it is copied through a pipe between processes, so no pointers */
    int available;              /* 1: NVML answered; 0: see why */
    char why[96];               /* e.g. "libnvidia-ml.so.1 not found"; "ok" when available */
    size_t samples, idle_samples; /* idle: samples whose reasons include GpuIdle */
    int sm_min_mhz, sm_max_mhz; double sm_mean_mhz;     /* over all samples with a reading */
    int sm_min_busy_mhz;        /* min over samples without GpuIdle (-1 if none) */
    int sm_device_max_mhz;      /* nvmlDeviceGetMaxClockInfo(SM), -1 if unknown */
    int mem_min_mhz; double mem_mean_mhz;
    int temp_max_c; double temp_mean_c;
    double power_mean_w, power_max_w;
    unsigned long long reasons_seen;      /* OR over samples */
    unsigned long long throttle_reasons;  /* reasons_seen & ~HB_REASONS_BENIGN */
    int clock_drop;   /* 1: sm_min_busy_mhz < 0.9 * sm_max_mhz (a drop within the window) */
    int throttled;    /* 1: throttle_reasons != 0 */
} hb_telemetry_summary;

/* Fills every field of *sample but t_s.  The NVML reader in production; a
 * fake one lets tests drive the sampling thread without a GPU. */
typedef void (*hb_telemetry_read_fn)(void *context, hb_telemetry_sample *sample);

/* One sampler.  Fields are private to telemetry.c; the struct must stay at
 * one address from start to stop (the thread holds a pointer to it). */
typedef struct hb_telemetry {
    pthread_t thread;
    pthread_mutex_t lock;   /* guards samples/count/capacity/full and stopping */
    pthread_cond_t wake;    /* signalled by stop so the thread ends at once, not at its next tick */
    int running;            /* 1 between a successful start (with a thread) and stop */
    int stopping;
    double start_s, period_s; /* monotonic seconds (clock.h), seconds */
    hb_telemetry_read_fn read;
    void *read_context;
    hb_nvml_device device;
    int available, sm_device_max_mhz;
    char why[96];
    hb_telemetry_sample *samples;
    size_t count, capacity;
    int full;               /* 1: HB_TELEMETRY_MAX_SAMPLES or memory reached; later samples dropped */
    int thread_error;       /* errno-style code of a pthread call that failed on the thread; read after join */
} hb_telemetry;

/* Starts sampling device `uuid` ("GPU-...") every period_s on a new thread; one sample is taken at once.
   Returns HB_OK even where NVML is missing (the summary then says available = 0 and why); fails only if the thread cannot be created
   (or period_s is not a positive number of seconds, a caller's bug). */
hb_status hb_telemetry_start(hb_telemetry *t, const char *uuid, double period_s);
/* The same sampler over any reader (tests use a fake one); available = 1, sm_device_max_mhz as given. */
hb_status hb_telemetry_start_reader(hb_telemetry *t, hb_telemetry_read_fn read, void *context, int sm_device_max_mhz,
                                    double period_s);
/* Takes one last sample, stops and joins the thread, fills *out, frees the samples. Safe to call once after start
   (also after a start that failed: *out then says available = 0). */
void hb_telemetry_stop(hb_telemetry *t, hb_telemetry_summary *out);
/* Pure: the summary of n samples (n may be 0: all fields -1/0, available stays as given by the caller).
   sm_device_max_mhz is copied through. */
void hb_telemetry_summarize(const hb_telemetry_sample *samples, size_t n, int sm_device_max_mhz, hb_telemetry_summary *out);
/* "sw_power_cap|hw_thermal_slowdown"-style names of the bits set, in bit order; "none" for 0. Names: gpu_idle, applications_clocks, sw_power_cap, hw_slowdown, sync_boost, sw_thermal_slowdown, hw_thermal_slowdown, hw_power_brake, display_clocks, and "unknown_0x..." for other bits. Always NUL-terminates (size > 0); returns out. */
const char *hb_throttle_reason_names(unsigned long long reasons, char *out, size_t size);
/* 1 and a one-line warning in out (what dropped, min/max MHz, which reasons) when clock_drop or throttled; 0 and "" otherwise (also when not available). */
int hb_telemetry_warning(const hb_telemetry_summary *s, char *out, size_t size);

#endif
