#define _POSIX_C_SOURCE 200809L
#include "bench/sweep/sweep_progress.h"

#include <stdio.h>
#include <unistd.h>

#include "bench/core/clock.h"

void hb_sweep_progress_init(hb_sweep_progress *p, int enabled, size_t total, size_t done_before, size_t failed_before,
                            size_t workers)
{
    *p = (hb_sweep_progress){.enabled = enabled, .is_tty = isatty(STDERR_FILENO), .started_s = hb_now_s(),
                             .total = total, .done_before = done_before, .failed = failed_before, .workers = workers};
}

/* "1h02m", "4m05s", "12s". */
static void format_duration(double seconds, char *out, size_t size)
{
    long s = seconds < 0 ? 0 : (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(out, size, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else if (s >= 60)
        snprintf(out, size, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(out, size, "%lds", s);
}

void hb_sweep_progress_format(const hb_sweep_progress *p, double now_s, char *out, size_t size)
{
    double elapsed = now_s - p->started_s;
    size_t finished = p->done_before + p->done, left = p->total > finished ? p->total - finished : 0;
    char eta[32] = "?";
    /* the rate of this session only: earlier sessions' items took no time here */
    double per_minute = elapsed > 0 && p->done ? 60.0 * (double)p->done / elapsed : 0;
    if (per_minute > 0)
        format_duration(60.0 * (double)left / per_minute, eta, sizeof eta);
    snprintf(out, size, "sweep: %zu/%zu done, %zu failed, %.1f/min on %zu GPU%s, ETA %s", finished, p->total,
             p->failed, per_minute, p->workers, p->workers == 1 ? "" : "s", left ? eta : "0s");
}

static void print_line(hb_sweep_progress *p, double now)
{
    char line[256];
    hb_sweep_progress_format(p, now, line, sizeof line);
    fprintf(stderr, "%s%s%s", p->is_tty ? "\r" : "", line, p->is_tty ? "\033[K" : "\n");
    fflush(stderr);
    p->last_print_s = now;
}

void hb_sweep_progress_item(hb_sweep_progress *p, int failed)
{
    p->done++;
    p->failed += failed != 0;
    double now = hb_now_s();
    if (p->enabled && (p->last_print_s == 0 || now - p->last_print_s >= (p->is_tty ? 0.5 : 30.0)))
        print_line(p, now);
}

void hb_sweep_progress_end(hb_sweep_progress *p)
{
    if (!p->enabled)
        return;
    print_line(p, hb_now_s());
    if (p->is_tty)
        fputc('\n', stderr);
}
