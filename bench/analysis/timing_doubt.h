/* Whether a configuration's timing is in doubt, one rule for every table
 * that shows its figures (report's and compare's): its headline timer is
 * the wall clock because the events may have missed some of the candidate's
 * work (headline_timer `wall`, timer_reason other-stream, event-below-kernel
 * or host-gap: docs/results.md, "Which timer decided"), or the call monitor
 * did not run whole, so its conduct was never (fully) traced (trace_note
 * not empty).  The figures stay in the tables, each with the reason in a
 * `doubt` column (empty: not in doubt), and aggregates count them
 * (`in_doubt`). */
#ifndef HB_TIMING_DOUBT_H
#define HB_TIMING_DOUBT_H

#include <stddef.h>

#include "bench/analysis/result_set.h"

/* 1 if in doubt, with why in `why` ("wall headline: other-stream; not
 * traced: --no-trace"); 0 and "" if not.  Any argument may be NULL or "". */
int hb_timing_doubt(const char *headline_timer, const char *timer_reason, const char *trace_note, char *why,
                    size_t size);

/* The rule on a configuration as summary.csv gave it: also in doubt where
 * the file has no trace_note column at all (a harness before the call
 * monitor: it was never traced). */
int hb_config_in_doubt(const hb_config_entry *entry, char *why, size_t size);

/* 1 if a call monitor watched the configuration whole (its conduct was
 * checked): it ran (trace_note empty) and the candidate was called (its
 * first check began); 0 for a configuration that ended before that. */
int hb_config_traced(const hb_config_entry *entry);

#endif
