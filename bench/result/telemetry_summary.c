#include "bench/result/telemetry_summary.h"

#include <stdio.h>
#include <string.h>

/* Min, max and mean of the readings of one quantity; negative values mean "not read". */
typedef struct range {
    double min, max, sum;
    size_t n;
} range;

static void range_add(range *r, double value)
{
    if (value < 0)
        return;
    if (r->n == 0 || value < r->min)
        r->min = value;
    if (r->n == 0 || value > r->max)
        r->max = value;
    r->sum += value;
    r->n++;
}

static int range_min_int(const range *r) { return r->n ? (int)r->min : -1; }
static int range_max_int(const range *r) { return r->n ? (int)r->max : -1; }
static double range_max(const range *r) { return r->n ? r->max : -1.0; }
static double range_mean(const range *r) { return r->n ? r->sum / (double)r->n : -1.0; }

static int is_idle(const hb_telemetry_sample *s) { return s->reasons_known && (s->reasons & HB_REASON_GPU_IDLE); }

void hb_telemetry_summarize(const hb_telemetry_sample *samples, size_t n, int sm_device_max_mhz, hb_telemetry_summary *out)
{
    range sm = {0}, sm_busy = {0}, mem = {0}, temp = {0}, power = {0};
    unsigned long long seen = 0;
    size_t idle = 0;
    for (size_t i = 0; i < n; i++) {
        const hb_telemetry_sample *s = &samples[i];
        range_add(&sm, s->sm_mhz);
        /* An idle GPU clocks down by design; that is no drop under load.  A
         * sample whose reasons are unknown counts as busy: nothing says idle. */
        if (!is_idle(s))
            range_add(&sm_busy, s->sm_mhz);
        range_add(&mem, s->mem_mhz);
        range_add(&temp, s->temp_c);
        range_add(&power, s->power_w);
        if (s->reasons_known)
            seen |= s->reasons;
        idle += is_idle(s) ? 1 : 0;
    }
    out->samples = n;
    out->idle_samples = idle;
    out->sm_min_mhz = range_min_int(&sm);
    out->sm_max_mhz = range_max_int(&sm);
    out->sm_mean_mhz = range_mean(&sm);
    out->sm_min_busy_mhz = range_min_int(&sm_busy);
    out->sm_device_max_mhz = sm_device_max_mhz;
    out->mem_min_mhz = range_min_int(&mem);
    out->mem_mean_mhz = range_mean(&mem);
    out->temp_max_c = range_max_int(&temp);
    out->temp_mean_c = range_mean(&temp);
    out->power_mean_w = range_mean(&power);
    out->power_max_w = range_max(&power);
    out->reasons_seen = seen;
    out->throttle_reasons = seen & ~HB_REASONS_BENIGN;
    /* Relative to the window's own peak, not the device max: boost headroom
     * varies by board, a fall of more than 10 % under load does not. */
    out->clock_drop = out->sm_min_busy_mhz >= 0 && out->sm_max_mhz > 0 &&
                      (double)out->sm_min_busy_mhz < 0.9 * (double)out->sm_max_mhz;
    out->throttled = out->throttle_reasons != 0;
}

/* --- names and the warning ------------------------------------------------- */

static const char *const reason_names[] = {"gpu_idle",           "applications_clocks", "sw_power_cap",
                                           "hw_slowdown",        "sync_boost",          "sw_thermal_slowdown",
                                           "hw_thermal_slowdown", "hw_power_brake",     "display_clocks"};

/* Appends sep + name at out[used]; returns the new length, truncated to size - 1. */
static size_t append_name(char *out, size_t size, size_t used, const char *sep, const char *name)
{
    if (used + 1 >= size)
        return used;
    int written = snprintf(out + used, size - used, "%s%s", sep, name);
    if (written < 0)
        return used;
    size_t end = used + (size_t)written;
    return end < size ? end : size - 1;
}

const char *hb_throttle_reason_names(unsigned long long reasons, char *out, size_t size)
{
    if (size == 0)
        return out;
    out[0] = '\0';
    if (reasons == 0) {
        append_name(out, size, 0, "", "none");
        return out;
    }
    size_t used = 0;
    for (unsigned bit = 0; bit < 64; bit++) {
        unsigned long long mask = 1ULL << bit;
        if (!(reasons & mask))
            continue;
        char unknown[32]; /* "unknown_0x" + 16 hex digits */
        const char *name = unknown;
        if (bit < sizeof reason_names / sizeof reason_names[0])
            name = reason_names[bit];
        else
            snprintf(unknown, sizeof unknown, "unknown_0x%llx", mask);
        used = append_name(out, size, used, used ? "|" : "", name);
    }
    return out;
}

int hb_telemetry_warning(const hb_telemetry_summary *s, char *out, size_t size)
{
    if (size)
        out[0] = '\0';
    if (!s->available || (!s->clock_drop && !s->throttled))
        return 0;
    char reasons[160];
    hb_throttle_reason_names(s->throttle_reasons, reasons, sizeof reasons);
    const char *what = s->clock_drop && s->throttled ? "SM clock dropped and the GPU was throttled"
                       : s->clock_drop               ? "SM clock dropped"
                                                     : "GPU was throttled";
    if (size)
        snprintf(out, size,
                 "%s during the timed window: SM %d-%d MHz, %d MHz lowest while busy (device max %d MHz); "
                 "throttle reasons: %s",
                 what, s->sm_min_mhz, s->sm_max_mhz, s->sm_min_busy_mhz, s->sm_device_max_mhz, reasons);
    return 1;
}
