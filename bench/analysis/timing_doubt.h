/* Whether a configuration's speedups on a timer can be trusted as timed, and
 * why not (docs/reports.md, "Timing in doubt").  A configuration is in doubt
 * when
 *   - no call monitor watched it (summary.csv's trace_note is not empty:
 *     --no-trace, --no-isolate, no CUPTI, or only some of the monitor's
 *     parts): work it moved off the timed stream, or a first call that
 *     warmed a cache, would go unseen; or the file predates the column;
 *   - its work left the CUDA events (timer_reason: other-stream,
 *     event-below-kernel, host-gap), and the figures asked for are the
 *     events': they miss that work.  The wall clock around a device
 *     synchronize and CUPTI's kernel spans see every stream, so this reason
 *     holds for the event timer only.
 * Such a configuration still counts in the means; every table says how many
 * of its configurations are in doubt, and the timing_doubt table lists them. */
#ifndef HB_TIMING_DOUBT_H
#define HB_TIMING_DOUBT_H

#include <stddef.h>

#include "bench/analysis/result_set.h"

#define HB_DOUBT_UNTRACED 1u    /* no call monitor watched it (trace_note says why) */
#define HB_DOUBT_NOT_RECORDED 2u /* the summary.csv has no trace_note column: whether one did is not known */
#define HB_DOUBT_LEFT_EVENTS 4u /* its work left the CUDA events (timer_reason), and the timer is event */

/* The HB_DOUBT_* bits of `entry` for figures on `timer`; 0: not in doubt. */
unsigned hb_timing_doubt(const hb_config_entry *entry, hb_timer timer);

/* 1 if a call monitor watched the configuration whole (its conduct was checked). */
int hb_config_traced(const hb_config_entry *entry);

/* One line: why `entry` is in doubt on `timer` ("" when it is not), e.g.
 * "not traced (--no-trace): work off the timed stream would go unseen". */
void hb_timing_doubt_words(const hb_config_entry *entry, hb_timer timer, char *out, size_t size);

#endif
