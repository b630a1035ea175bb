#include "bench/analysis/timing_doubt.h"

#include <stdio.h>
#include <string.h>

int hb_config_traced(const hb_config_entry *entry)
{
    return entry->trace_note && !entry->trace_note[0];
}

unsigned hb_timing_doubt(const hb_config_entry *entry, hb_timer timer)
{
    unsigned doubt = 0;
    if (!entry->trace_note)
        doubt |= HB_DOUBT_NOT_RECORDED;
    else if (entry->trace_note[0])
        doubt |= HB_DOUBT_UNTRACED;
    if (timer == HB_TIMER_EVENT && entry->timer_reason[0])
        doubt |= HB_DOUBT_LEFT_EVENTS;
    return doubt;
}

/* Appends `text` to `out`, "; "-separated. */
static void append(char *out, size_t size, const char *text)
{
    size_t used = strlen(out);
    if (used < size)
        snprintf(out + used, size - used, "%s%s", used ? "; " : "", text);
}

void hb_timing_doubt_words(const hb_config_entry *entry, hb_timer timer, char *out, size_t size)
{
    char line[512];
    unsigned doubt = hb_timing_doubt(entry, timer);
    if (size)
        out[0] = '\0';
    if (doubt & HB_DOUBT_NOT_RECORDED)
        append(out, size, "not known to be traced (summary.csv has no trace_note column): work off the timed "
                          "stream would go unseen");
    if (doubt & HB_DOUBT_UNTRACED) {
        snprintf(line, sizeof line, "not traced (%.300s): work off the timed stream would go unseen",
                 entry->trace_note);
        append(out, size, line);
    }
    if (doubt & HB_DOUBT_LEFT_EVENTS) {
        snprintf(line, sizeof line, "its work left the CUDA events (%s; headline on %s): the event figures miss it",
                 entry->timer_reason, entry->headline_timer[0] ? entry->headline_timer : "?");
        append(out, size, line);
    }
}
