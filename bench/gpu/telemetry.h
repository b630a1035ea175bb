/* GPU telemetry during a timed window: clocks, temperature, power and clock
 * event ("throttle") reasons, sampled through NVML on a background thread, so
 * a result can say whether the GPU ran at speed while it was being timed.
 * The thread only reads NVML (never CUDA), so it cannot disturb the stream
 * being timed beyond one NVML query every period. */
#ifndef HB_TELEMETRY_H
#define HB_TELEMETRY_H

#include <pthread.h>
#include <stddef.h>

#include "bench/core/status.h"
#include "bench/gpu/nvml_runtime.h"
#include "bench/result/telemetry_summary.h"

#define HB_TELEMETRY_PERIOD_S 0.05          /* sampling period, seconds */
#define HB_TELEMETRY_MAX_SAMPLES 1000000    /* 48 MB, 14 h at 50 ms: later samples are not kept */

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

#endif
