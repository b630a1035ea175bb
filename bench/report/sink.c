#include "bench/report/sink.h"

#include "bench/core/diag.h"

hb_status hb_sinks_add(hb_sinks *sinks, hb_sink sink)
{
    if (sinks->count == HB_MAX_SINKS)
        return hb_fail(HB_ERR_INTERNAL, "more than %d result sinks", HB_MAX_SINKS);
    sinks->sink[sinks->count++] = sink;
    return HB_OK;
}

typedef enum sink_event { BEGIN, CONFIG, END } sink_event;

/* One event to one sink; `payload` is the configuration's result (CONFIG)
 * or the run's outcome (END). */
static hb_status deliver(hb_sink *s, sink_event event, const hb_run_record *run, const void *payload)
{
    switch (event) {
    case BEGIN: return s->ops->begin ? s->ops->begin(s, run) : HB_OK;
    case CONFIG: return s->ops->config ? s->ops->config(s, run, payload) : HB_OK;
    case END: break;
    }
    return s->ops->end ? s->ops->end(s, run, payload) : HB_OK;
}

/* Every sink gets the event, even after one failed: a full disk for
 * summary.csv must not also silence the table on stdout. */
static hb_status broadcast(hb_sinks *sinks, sink_event event, const hb_run_record *run, const void *payload)
{
    hb_status first = HB_OK;
    for (size_t i = 0; i < sinks->count; i++) {
        hb_status status = deliver(&sinks->sink[i], event, run, payload);
        if (first == HB_OK)
            first = status;
    }
    return first;
}

hb_status hb_sinks_begin(hb_sinks *sinks, const hb_run_record *run)
{
    return broadcast(sinks, BEGIN, run, NULL);
}

hb_status hb_sinks_config(hb_sinks *sinks, const hb_run_record *run, const hb_config_result *result)
{
    return broadcast(sinks, CONFIG, run, result);
}

hb_status hb_sinks_end(hb_sinks *sinks, const hb_run_record *run, const hb_run_outcome *outcome)
{
    return broadcast(sinks, END, run, outcome);
}

void hb_sinks_close(hb_sinks *sinks)
{
    for (size_t i = 0; i < sinks->count; i++)
        if (sinks->sink[i].ops->close)
            sinks->sink[i].ops->close(&sinks->sink[i]);
    sinks->count = 0;
}
