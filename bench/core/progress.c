#define _POSIX_C_SOURCE 200809L
#include "bench/core/progress.h"

#include <stdio.h>
#include <unistd.h>

#include "bench/core/clock.h"

void hb_progress_init(hb_progress *p, int enabled)
{
    p->enabled = enabled;
    p->is_tty = isatty(STDERR_FILENO);
    p->last_print_s = 0;
    p->label[0] = '\0';
}

void hb_progress_set_label(hb_progress *p, size_t index, size_t count, long m, long n, long k)
{
    snprintf(p->label, sizeof p->label, "[%zu/%zu %ldx%ldx%ld]", index + 1, count, m, n, k);
    p->last_print_s = 0;
}

void hb_progress_update(hb_progress *p, const char *phase, double elapsed_s, double window_s, size_t rounds)
{
    if (!p->enabled)
        return;
    double now = hb_now_s();
    double interval = p->is_tty ? 0.5 : 10.0;
    if (p->last_print_s != 0 && now - p->last_print_s < interval)
        return;
    p->last_print_s = now;
    fprintf(stderr, "%s%s %s %5.1f/%.1f s, %zu rounds%s", p->is_tty ? "\r" : "", p->label, phase, elapsed_s,
            window_s, rounds, p->is_tty ? "\033[K" : "\n");
    fflush(stderr);
}

void hb_progress_done(hb_progress *p)
{
    if (p->enabled && p->is_tty) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}
