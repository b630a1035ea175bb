#define _POSIX_C_SOURCE 200809L /* pthread_condattr_setclock */
#include "bench/gpu/telemetry.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/core/clock.h"
#include "bench/core/diag.h"
#include "bench/core/helper_thread.h"

/* --- reading one sample ------------------------------------------------- */

static void read_nvml(void *context, hb_telemetry_sample *s)
{
    const hb_nvml_device *device = context;
    s->sm_mhz = hb_nvml_sm_clock_mhz(device);
    s->mem_mhz = hb_nvml_mem_clock_mhz(device);
    s->temp_c = hb_nvml_temperature_c(device);
    long mw = hb_nvml_power_mw(device);
    s->power_w = mw >= 0 ? (double)mw / 1000.0 : -1.0;
    s->reasons_known = hb_nvml_clock_event_reasons(device, &s->reasons) == 0;
    if (!s->reasons_known)
        s->reasons = 0;
}

/* Stamped when the read starts: an NVML query takes about a millisecond. */
static hb_telemetry_sample take_sample(const hb_telemetry *t)
{
    hb_telemetry_sample s = {.t_s = hb_now_s() - t->start_s, .sm_mhz = -1, .mem_mhz = -1, .temp_c = -1, .power_w = -1.0};
    t->read(t->read_context, &s);
    return s;
}

/* --- the sample array (callers hold t->lock) ------------------------------ */

/* Doubling keeps appends O(1) amortised; the cap bounds a forgotten sampler's memory. */
static int grow_locked(hb_telemetry *t)
{
    if (t->capacity >= HB_TELEMETRY_MAX_SAMPLES)
        return -1;
    size_t capacity = t->capacity ? 2 * t->capacity : 256;
    if (capacity > HB_TELEMETRY_MAX_SAMPLES)
        capacity = HB_TELEMETRY_MAX_SAMPLES;
    hb_telemetry_sample *samples = realloc(t->samples, capacity * sizeof *samples);
    if (!samples)
        return -1;
    t->samples = samples;
    t->capacity = capacity;
    return 0;
}

static void append_locked(hb_telemetry *t, const hb_telemetry_sample *s)
{
    if (t->full)
        return;
    if (t->count == t->capacity && grow_locked(t) != 0) {
        t->full = 1; /* reported once, by stop: the thread must not print mid-window */
        return;
    }
    t->samples[t->count++] = *s;
}

/* Returns 0 or the pthread error code. */
static int record(hb_telemetry *t)
{
    hb_telemetry_sample s = take_sample(t); /* outside the lock: stop need not wait for NVML */
    int err = pthread_mutex_lock(&t->lock);
    if (err)
        return err;
    append_locked(t, &s);
    return pthread_mutex_unlock(&t->lock);
}

/* --- the sampling thread ---------------------------------------------------- */

/* t->wake waits on CLOCK_MONOTONIC, the clock of hb_now_s, so deadlines are
 * absolute monotonic seconds converted here. */
static struct timespec to_timespec(double seconds)
{
    struct timespec ts;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    if (ts.tv_nsec < 0)
        ts.tv_nsec = 0;
    if (ts.tv_nsec > 999999999L)
        ts.tv_nsec = 999999999L;
    return ts;
}

/* Ticks stay on the start + k * period grid (no drift from the read's own
 * time); ticks missed while a read ran long are skipped, not bunched up. */
static double next_due(double due, double now, double period_s)
{
    due += period_s;
    if (due <= now)
        due += period_s * (floor((now - due) / period_s) + 1.0);
    return due;
}

/* Waits for the next tick with t->lock held; the lock is released while the
 * sample is read.  Returns 0 to go on, 1 when stopping, else a pthread error. */
static int wait_and_sample_locked(hb_telemetry *t, double *due)
{
    struct timespec deadline = to_timespec(*due);
    int err = pthread_cond_timedwait(&t->wake, &t->lock, &deadline);
    if (t->stopping)
        return 1;
    if (err == 0)
        return 0; /* spurious wake-up: the caller waits again for the same tick */
    if (err != ETIMEDOUT)
        return err;
    if ((err = pthread_mutex_unlock(&t->lock)) != 0)
        return err;
    hb_telemetry_sample s = take_sample(t);
    if ((err = pthread_mutex_lock(&t->lock)) != 0)
        return err;
    append_locked(t, &s);
    *due = next_due(*due, hb_now_s(), t->period_s);
    return 0;
}

static void *sampler_main(void *arg)
{
    hb_telemetry *t = arg;
    int err = pthread_mutex_lock(&t->lock);
    if (err) {
        t->thread_error = err; /* read by stop after the join */
        return NULL;
    }
    double due = t->start_s + t->period_s;
    while ((err = wait_and_sample_locked(t, &due)) == 0)
        ;
    if (err != 1)
        t->thread_error = err;
    int unlock_err = pthread_mutex_unlock(&t->lock);
    if (unlock_err && !t->thread_error)
        t->thread_error = unlock_err;
    return NULL;
}

/* --- start and stop --------------------------------------------------------- */

static void reset(hb_telemetry *t, const char *why)
{
    memset(t, 0, sizeof *t);
    t->sm_device_max_mhz = -1;
    snprintf(t->why, sizeof t->why, "%s", why);
}

static hb_status init_sync(hb_telemetry *t)
{
    pthread_condattr_t attr;
    int err = pthread_mutex_init(&t->lock, NULL);
    if (err)
        return hb_fail(HB_ERR_INTERNAL, "telemetry: pthread_mutex_init: %s", strerror(err));
    if ((err = pthread_condattr_init(&attr)) != 0) {
        pthread_mutex_destroy(&t->lock);
        return hb_fail(HB_ERR_INTERNAL, "telemetry: pthread_condattr_init: %s", strerror(err));
    }
    /* Monotonic, so a wall-clock step (NTP) cannot stretch or skip a period. */
    err = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (!err)
        err = pthread_cond_init(&t->wake, &attr);
    pthread_condattr_destroy(&attr);
    if (err) {
        pthread_mutex_destroy(&t->lock);
        return hb_fail(HB_ERR_INTERNAL, "telemetry: monotonic condition variable: %s", strerror(err));
    }
    return HB_OK;
}

static void destroy_sync(hb_telemetry *t)
{
    int err = pthread_cond_destroy(&t->wake);
    if (err)
        hb_warn("telemetry: pthread_cond_destroy: %s", strerror(err));
    if ((err = pthread_mutex_destroy(&t->lock)) != 0)
        hb_warn("telemetry: pthread_mutex_destroy: %s", strerror(err));
}

static hb_status launch(hb_telemetry *t, hb_telemetry_read_fn read, void *context, int sm_device_max_mhz,
                        double period_s)
{
    t->read = read;
    t->read_context = context;
    t->sm_device_max_mhz = sm_device_max_mhz;
    t->period_s = period_s;
    HB_TRY(init_sync(t));
    t->start_s = hb_now_s();
    int err = record(t); /* the first sample at once: a window shorter than a period still gets two */
    if (!err)
        err = hb_helper_thread_create(&t->thread, sampler_main, t);
    if (err) {
        destroy_sync(t);
        free(t->samples);
        reset(t, "telemetry thread not started");
        return hb_fail(HB_ERR_INTERNAL, "telemetry: starting the sampling thread: %s", strerror(err));
    }
    t->available = 1;
    t->running = 1;
    snprintf(t->why, sizeof t->why, "ok");
    return HB_OK;
}

static hb_status check_period(double period_s)
{
    if (!(period_s > 0) || !isfinite(period_s))
        return hb_fail(HB_ERR_INTERNAL, "telemetry period %g s is not a positive number of seconds", period_s);
    return HB_OK;
}

hb_status hb_telemetry_start_reader(hb_telemetry *t, hb_telemetry_read_fn read, void *context, int sm_device_max_mhz,
                                    double period_s)
{
    reset(t, "telemetry not started");
    HB_TRY(check_period(period_s));
    return launch(t, read, context, sm_device_max_mhz, period_s);
}

hb_status hb_telemetry_start(hb_telemetry *t, const char *uuid, double period_s)
{
    reset(t, "telemetry not started");
    HB_TRY(check_period(period_s));
    if (hb_nvml_open(uuid, &t->device, t->why, sizeof t->why) != 0)
        return HB_OK; /* no NVML is not an error: the summary says why */
    return launch(t, read_nvml, &t->device, hb_nvml_max_sm_clock_mhz(&t->device), period_s);
}

/* Returns 0 once the thread is joined, else a pthread error code. */
static int halt(hb_telemetry *t)
{
    int err = pthread_mutex_lock(&t->lock);
    if (err)
        return err;
    t->stopping = 1;
    err = pthread_cond_signal(&t->wake);
    int unlock_err = pthread_mutex_unlock(&t->lock);
    if (err || unlock_err)
        return err ? err : unlock_err;
    return pthread_join(t->thread, NULL);
}

static void report_losses(const hb_telemetry *t)
{
    if (t->thread_error)
        hb_warn("telemetry: the sampling thread ended early (%s); the summary covers %zu samples",
                strerror(t->thread_error), t->count);
    if (t->full)
        hb_warn("telemetry: kept only the first %zu samples", t->count);
}

void hb_telemetry_stop(hb_telemetry *t, hb_telemetry_summary *out)
{
    memset(out, 0, sizeof *out);
    if (t->running) {
        int err = halt(t);
        if (err) {
            /* The thread may still be using t and its samples: leave both alone. */
            hb_fail(HB_ERR_INTERNAL, "telemetry: stopping the sampling thread: %s", strerror(err));
            snprintf(out->why, sizeof out->why, "sampling thread could not be stopped");
            hb_telemetry_summarize(NULL, 0, -1, out);
            return;
        }
        err = record(t); /* the last sample: the window's end, however short it was */
        if (err)
            t->thread_error = err;
        report_losses(t);
    }
    out->available = t->available;
    snprintf(out->why, sizeof out->why, "%s", t->why);
    hb_telemetry_summarize(t->samples, t->count, t->sm_device_max_mhz, out);
    if (t->running)
        destroy_sync(t);
    free(t->samples);
    reset(t, "telemetry already stopped"); /* a second stop reads as unavailable, not freed memory */
}
