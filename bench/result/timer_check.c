#include "bench/result/timer_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/stats.h"

static const char *const reason_names[] = {"other-stream", "event-below-kernel", "host-gap"};
#define N_REASONS (sizeof reason_names / sizeof reason_names[0])

const char *hb_timer_name(hb_timer timer) { return timer == HB_TIMER_WALL ? "wall" : "event"; }

void hb_timer_reason_names(unsigned mask, char *out, size_t size)
{
    size_t used = 0;
    if (size)
        out[0] = '\0';
    for (size_t i = 0; i < N_REASONS && used < size; i++)
        if (mask & (1u << i))
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? "," : "", reason_names[i]);
}

/* Medians of a series, microseconds (NaN where none). */
typedef struct medians {
    double event_us, wall_us, kernel_us, gap_us;
} medians;

static medians medians_of(const hb_timer_series *s, double *scratch, double *work)
{
    medians m = {NAN, NAN, NAN, NAN};
    if (s->n == 0)
        return m;
    for (size_t i = 0; i < s->n; i++)
        work[i] = s->event_ms[i] * 1e3;
    m.event_us = hb_finite_quantile(work, s->n, 0.5, scratch);
    for (size_t i = 0; i < s->n; i++)
        work[i] = s->wall_ms[i] * 1e3;
    m.wall_us = hb_finite_quantile(work, s->n, 0.5, scratch);
    for (size_t i = 0; i < s->n; i++)
        work[i] = (s->wall_ms[i] - s->event_ms[i]) * 1e3;
    m.gap_us = hb_finite_quantile(work, s->n, 0.5, scratch);
    if (s->kernel_us)
        m.kernel_us = hb_finite_quantile(s->kernel_us, s->n, 0.5, scratch);
    return m;
}

static double device_tolerance_us(double event_us)
{
    return HB_TIMER_DEVICE_TOLERANCE_US + HB_TIMER_DEVICE_TOLERANCE_FRACTION * event_us;
}

static int too_many(int bad, size_t n)
{
    return bad >= HB_TIMER_BAD_CALL_MIN && (double)bad > HB_TIMER_BAD_CALL_FRACTION * (double)n;
}

/* Events against CUPTI's device reading of the same two events (the calls it
 * read them), and against the wall clock around them (every timed call). */
static void agreement_of(const hb_timer_series *s, double event_us, double host_gap_us, double *scratch, double *work,
                         hb_timer_agreement *a)
{
    memset(a, 0, sizeof *a);
    a->host_gap_us = host_gap_us;
    for (size_t i = 0; i < s->n; i++)
        a->above_wall += s->event_ms[i] * 1e3 > s->wall_ms[i] * 1e3 + HB_TIMER_WALL_TOLERANCE_US;
    size_t compared = 0;
    for (size_t i = 0; s->device_diff_us && i < s->n_device; i++) {
        const double diff = s->device_diff_us[i];
        if (!isfinite(diff))
            continue;
        scratch[compared++] = diff;
        a->beyond += fabs(diff) > device_tolerance_us(event_us);
        if (fabs(diff) > a->max_diff_us)
            a->max_diff_us = fabs(diff);
    }
    a->compared = (int)compared;
    a->median_diff_us = compared ? hb_finite_quantile(scratch, compared, 0.5, work) : NAN;
}

/* CUPTI's reading of the events disagrees, by the median of the per-call difference. */
static int device_disagrees(const hb_timer_agreement *a, double event_us)
{
    return a->compared >= HB_TIMER_DEVICE_MIN_CALLS && fabs(a->median_diff_us) > device_tolerance_us(event_us);
}

static void mismatch_line(const hb_timer_series *s, const medians *m, const hb_timer_agreement *a,
                          hb_timer_decision *out)
{
    out->mismatch = 1;
    if (device_disagrees(a, m->event_us))
        snprintf(out->mismatch_why, sizeof out->mismatch_why,
                 "%s: CUDA events read %.1f us (median) but CUPTI's device timestamps of the same two events "
                 "differ from them by %+.1f us (median over %d calls, more than the %.1f us an honest call "
                 "shows); a timer was rewritten",
                 s->name, m->event_us, a->median_diff_us, a->compared, device_tolerance_us(m->event_us));
    else
        snprintf(out->mismatch_why, sizeof out->mismatch_why,
                 "%s: CUDA events read longer than the wall clock around them in %d of %zu timed calls (event "
                 "median %.1f us, wall median %.1f us); a timer was rewritten",
                 s->name, a->above_wall, s->n, m->event_us, m->wall_us);
}

static void add_reason(hb_timer_decision *out, unsigned reason, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void add_reason(hb_timer_decision *out, unsigned reason, const char *format, ...)
{
    if (out->reasons & reason)
        return; /* the first participant that shows it is named */
    out->reasons |= reason;
    size_t used = strlen(out->why);
    if (used && used + 2 < sizeof out->why)
        used += (size_t)snprintf(out->why + used, sizeof out->why - used, "; ");
    va_list args;
    va_start(args, format);
    if (used < sizeof out->why)
        vsnprintf(out->why + used, sizeof out->why - used, format, args);
    va_end(args);
}

void hb_decide_timer(const hb_timer_series *series, size_t count, hb_timer_decision *out)
{
    memset(out, 0, sizeof *out);
    out->timer = HB_TIMER_EVENT;
    size_t most = 0;
    for (size_t i = 0; i < count; i++) {
        most = series[i].n > most ? series[i].n : most;
        most = series[i].n_device > most ? series[i].n_device : most;
    }
    double *scratch = malloc((most + 1) * sizeof *scratch), *work = malloc((most + 1) * sizeof *work);
    if (!scratch || !work || count > HB_MAX_PARTICIPANTS) {
        free(scratch);
        free(work);
        out->timer = HB_TIMER_WALL; /* cannot judge: the timer that counts every stream */
        snprintf(out->why, sizeof out->why, "out of memory judging the timers");
        return;
    }
    medians m[HB_MAX_PARTICIPANTS];
    double baseline_gap_us = -INFINITY;
    for (size_t i = 0; i < count; i++) {
        const hb_timer_series *s = &series[i];
        m[i] = medians_of(s, scratch, work);
        agreement_of(s, m[i].event_us, m[i].gap_us, scratch, work, &out->agreement[i]);
        if (!s->is_candidate && m[i].gap_us > baseline_gap_us)
            baseline_gap_us = m[i].gap_us;
        const hb_timer_agreement *a = &out->agreement[i];
        if (!out->mismatch && (device_disagrees(a, m[i].event_us) || too_many(a->above_wall, s->n)))
            mismatch_line(s, &m[i], a, out);
        if (s->other_stream_calls > 0)
            add_reason(out, HB_TIMER_REASON_OTHER_STREAM, "%s put work on another stream in %d calls",
                       s->name, s->other_stream_calls);
        if (m[i].kernel_us > m[i].event_us * (1 + HB_TIMER_KERNEL_TOLERANCE_FRACTION) + HB_TIMER_KERNEL_TOLERANCE_US)
            add_reason(out, HB_TIMER_REASON_EVENT_BELOW_KERNEL,
                       "%s's event median %.1f us is below its kernel median %.1f us", s->name, m[i].event_us,
                       m[i].kernel_us);
    }
    for (size_t i = 0; i < count; i++) {
        if (!series[i].is_candidate || !isfinite(baseline_gap_us))
            continue;
        const double allowed = fmax(HB_TIMER_HOST_GAP_US, HB_TIMER_HOST_GAP_FRACTION * m[i].wall_us);
        if (m[i].gap_us - baseline_gap_us > allowed)
            add_reason(out, HB_TIMER_REASON_HOST_GAP,
                       "%s's wall - event median %.1f us exceeds the baselines' %.1f us by more than %.1f us",
                       series[i].name, m[i].gap_us, baseline_gap_us, allowed);
    }
    if (out->reasons)
        out->timer = HB_TIMER_WALL;
    free(scratch);
    free(work);
}
