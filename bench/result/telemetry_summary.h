/* What NVML telemetry saw through a timed window (bench/gpu/telemetry.h
 * samples it): clocks, temperature, power and clock event ("throttle")
 * reasons, summarised so a result can say whether the GPU ran at speed while
 * it was being timed.  Plain data and pure functions: the writers and the
 * tests use them without a GPU. */
#ifndef HB_TELEMETRY_SUMMARY_H
#define HB_TELEMETRY_SUMMARY_H

#include <stddef.h>

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

/* One reading of the GPU. */
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

/* Pure: the summary of n samples (n may be 0: all fields -1/0, available stays as given by the caller).
   sm_device_max_mhz is copied through. */
void hb_telemetry_summarize(const hb_telemetry_sample *samples, size_t n, int sm_device_max_mhz, hb_telemetry_summary *out);
/* "sw_power_cap|hw_thermal_slowdown"-style names of the bits set, in bit order; "none" for 0. Names: gpu_idle, applications_clocks, sw_power_cap, hw_slowdown, sync_boost, sw_thermal_slowdown, hw_thermal_slowdown, hw_power_brake, display_clocks, and "unknown_0x..." for other bits. Always NUL-terminates (size > 0); returns out. */
const char *hb_throttle_reason_names(unsigned long long reasons, char *out, size_t size);
/* 1 and a one-line warning in out (what dropped, min/max MHz, which reasons) when clock_drop or throttled; 0 and "" otherwise (also when not available). */
int hb_telemetry_warning(const hb_telemetry_summary *s, char *out, size_t size);

#endif
