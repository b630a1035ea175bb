/* Where results go: every output of a run (env.json, summary.csv, the table
 * on stdout, verdict.json) is a sink behind this one interface, as nvbench's
 * printers are.  The run loop hands each event to every sink; a sink knows
 * its format and nothing of how the figures were measured.  A new output (a
 * markdown table, the paper's tables) is one new file implementing these
 * hooks.
 *
 * Events, in order: begin once (the run's folder exists), config once per
 * configuration as it finishes (so a later failure loses nothing already
 * written), end once (the run's outcome), close always (also after a
 * failure, to release what begin took). */
#ifndef HB_SINK_H
#define HB_SINK_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/config_result.h"
#include "bench/result/run_record.h"

typedef struct hb_sink hb_sink;

/* Any hook may be NULL: that sink ignores the event. */
typedef struct hb_sink_ops {
    const char *name;  /* for messages */
    hb_status (*begin)(hb_sink *self, const hb_run_record *run);
    hb_status (*config)(hb_sink *self, const hb_run_record *run, const hb_config_result *result);
    hb_status (*end)(hb_sink *self, const hb_run_record *run, const hb_run_outcome *outcome);
    void (*close)(hb_sink *self);
} hb_sink_ops;

struct hb_sink {
    const hb_sink_ops *ops;
    void *state;  /* the sink's own; set by its constructor or its begin */
};

#define HB_MAX_SINKS 8

/* Several sinks fed the same events, in the order they were added. */
typedef struct hb_sinks {
    hb_sink sink[HB_MAX_SINKS];
    size_t count;
} hb_sinks;

/* HB_ERR_INTERNAL when the list is full (a harness bug). */
hb_status hb_sinks_add(hb_sinks *sinks, hb_sink sink);

/* Each event goes to every sink, even after one failed; the return value is
 * the first failure (HB_OK when every sink took it). */
hb_status hb_sinks_begin(hb_sinks *sinks, const hb_run_record *run);
hb_status hb_sinks_config(hb_sinks *sinks, const hb_run_record *run, const hb_config_result *result);
hb_status hb_sinks_end(hb_sinks *sinks, const hb_run_record *run, const hb_run_outcome *outcome);
void hb_sinks_close(hb_sinks *sinks);

#endif
