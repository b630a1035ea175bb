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

int hb_config_in_doubt(const hb_config_entry *entry, char *why, size_t size)
{
    const hb_config_timers *t = &entry->timers;
    const char *note = t->trace_recorded ? t->trace_note
                                         : "summary.csv has no trace_note column (a harness before the call monitor)";
    return hb_timing_doubt(t->headline_timer, t->timer_reason, note, why, size);
}

int hb_config_traced(const hb_config_entry *entry)
{
    /* An empty trace_note alone is not a trace: a configuration that ended
     * before its candidate's first call (no manifest, no GPU, a build that
     * failed, a child that died) has none either, and nothing was watched. */
    return entry->timers.trace_recorded && !entry->timers.trace_note[0] && entry->timers.candidate_called;
}
