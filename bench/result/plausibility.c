#include "bench/result/plausibility.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/result/peak_throughput.h"

const char *hb_peak_source_name(hb_peak_source source)
{
    switch (source) {
    case HB_PEAK_NOT_JUDGED: return "";
    case HB_PEAK_TABLE: return "table";
    case HB_PEAK_FLAG: return "flag";
    case HB_PEAK_UNKNOWN_ARCH: return "unknown-arch";
    case HB_PEAK_UNKNOWN_CLOCK: return "unknown-clock";
    }
    return "";
}

/* The highest of the device's maximum SM clocks that were read, MHz; 0 if
 * none was.  The highest, so that the peak stays an upper bound. */
static int device_max_clock(const hb_device_info *d, const hb_telemetry_summary *t)
{
    int mhz = d->max_sm_clock_mhz > 0 ? d->max_sm_clock_mhz : 0;
    if (d->nvml_max_sm_clock_mhz > mhz)
        mhz = d->nvml_max_sm_clock_mhz;
    if (t->sm_device_max_mhz > mhz)
        mhz = t->sm_device_max_mhz;
    return mhz;
}

/* The SM clock the table's peak is taken at: the highest NVML saw during the
 * timed window (the clock the candidate actually ran at, or above), else the
 * device's maximum. */
static void pick_clock(const hb_device_info *d, const hb_telemetry_summary *t, hb_plausibility *out)
{
    if (t->available && t->sm_max_mhz > 0) {
        out->clock_mhz = t->sm_max_mhz;
        snprintf(out->clock_source, sizeof out->clock_source, "%s", HB_CLOCK_WINDOW_MAX);
        return;
    }
    out->clock_mhz = device_max_clock(d, t);
    snprintf(out->clock_source, sizeof out->clock_source, "%s", out->clock_mhz > 0 ? HB_CLOCK_DEVICE_MAX : "");
}

void hb_peak_for(const hb_device_info *d, const hb_telemetry_summary *t, double flag_tflops, hb_plausibility *out)
{
    memset(out, 0, sizeof *out);
    out->sm = d->sm;
    out->sm_count = d->sm_count;
    if (flag_tflops > 0) {
        out->source = HB_PEAK_FLAG;
        out->peak_tflops = flag_tflops;
        return;
    }
    const hb_peak_entry *entry = hb_peak_entry_for(d->sm);
    if (!entry) {
        out->source = HB_PEAK_UNKNOWN_ARCH;
        return;
    }
    pick_clock(d, t, out);
    if (out->clock_mhz <= 0 || d->sm_count <= 0) {
        out->source = HB_PEAK_UNKNOWN_CLOCK;
        return;
    }
    out->source = HB_PEAK_TABLE;
    out->flop_per_clock_per_sm = entry->flop_per_clock_per_sm;
    /* SMs x FLOP/clk/SM x clock (MHz -> Hz), in TFLOP/s */
    out->peak_tflops = (double)d->sm_count * entry->flop_per_clock_per_sm * (out->clock_mhz * 1e6) * 1e-12;
}

/* TFLOP/s of the candidate at its median on the headline timer (events, or
 * the wall clock where events may miss work), as tflops_event_median or
 * tflops_wall_median reports it: 2*M*N*K of the unpadded problem over the
 * median time.  A median of zero implies an infinite rate. */
static double achieved_tflops(const hb_config_result *r)
{
    for (size_t i = 0; i < r->count; i++) {
        const hb_participant_result *p = &r->participants[i];
        if (!p->is_candidate)
            continue;
        const double seconds = hb_headline_times(r, p)->median * 1e-3;
        const double flops = hb_gemm_flops(r->mnk.m, r->mnk.n, r->mnk.k);
        return seconds > 0 ? flops / seconds * 1e-12 : INFINITY;
    }
    return 0; /* no candidate row: nothing to judge */
}

/* "(132 SMs x 4096 FLOP/clk x 1830 MHz, the highest SM clock in the timed
 * window)" or "(given by --peak-tflops)". */
static void peak_terms(const hb_plausibility *p, char *out, size_t size)
{
    if (p->source == HB_PEAK_FLAG) {
        snprintf(out, size, "given by --peak-tflops");
        return;
    }
    snprintf(out, size, "%d SMs x %d FLOP/clk x %d MHz, %s", p->sm_count, p->flop_per_clock_per_sm, p->clock_mhz,
             strcmp(p->clock_source, HB_CLOCK_WINDOW_MAX) ? "the device's maximum SM clock"
                                                          : "the highest SM clock in the timed window");
}

/* TFLOP/s with a decimal ("1070.5"), or two significant digits below 1 ("0.0001"). */
static void tflops_text(double tflops, char *out, size_t size)
{
    snprintf(out, size, tflops >= 1 || tflops == 0 || !isfinite(tflops) ? "%.1f" : "%.2g", tflops);
}

static void mark_implausible(hb_config_result *r)
{
    const hb_plausibility *p = &r->plausibility;
    char terms[160], achieved[32], peak[32];
    peak_terms(p, terms, sizeof terms);
    tflops_text(p->achieved_tflops, achieved, sizeof achieved);
    tflops_text(p->peak_tflops, peak, sizeof peak);
    r->status = HB_ERR_IMPLAUSIBLE;
    r->verdict = HB_VERDICT_IMPLAUSIBLE;
    snprintf(r->check, sizeof r->check, "%s", HB_CHECK_PEAK_THROUGHPUT);
    snprintf(r->reason, sizeof r->reason,
             "%s TFLOP/s at the %s median exceeds this GPU's peak of %s TFLOP/s (%s): no kernel computes the "
             "product that fast, so work was skipped or the timing missed it",
             achieved, hb_timer_name(r->headline_timer), peak, terms);
}

void hb_plausibility_apply(hb_config_result *r, const hb_device_info *device, double flag_tflops)
{
    if (r->status != HB_OK || !r->measured)
        return;
    hb_peak_for(device, &r->telemetry, flag_tflops, &r->plausibility);
    r->plausibility.achieved_tflops = achieved_tflops(r);
    const int judged = r->plausibility.source == HB_PEAK_TABLE || r->plausibility.source == HB_PEAK_FLAG;
    if (judged && r->plausibility.achieved_tflops > r->plausibility.peak_tflops)
        mark_implausible(r);
}

int hb_result_has_speedups(const hb_config_result *r)
{
    return r->measured && r->status != HB_ERR_IMPLAUSIBLE;
}
