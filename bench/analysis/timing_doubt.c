#include "bench/analysis/timing_doubt.h"

#include <stdio.h>
#include <string.h>

int hb_timing_doubt(const char *headline_timer, const char *timer_reason, const char *trace_note, char *why,
                    size_t size)
{
    int wall = headline_timer && !strcmp(headline_timer, "wall");
    int untraced = trace_note && *trace_note;
    const char *reason = timer_reason && *timer_reason ? timer_reason : "reason not recorded";
    if (size)
        why[0] = '\0';
    if (wall && untraced)
        snprintf(why, size, "wall headline: %s; not traced: %s", reason, trace_note);
    else if (wall)
        snprintf(why, size, "wall headline: %s", reason);
    else if (untraced)
        snprintf(why, size, "not traced: %s", trace_note);
    return wall || untraced;
}
