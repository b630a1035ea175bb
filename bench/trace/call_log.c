#include "bench/trace/call_log.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/core/array_room.h"

int hb_call_log_open(hb_call_log *log, const hb_logged_call *call)
{
    if (!hb_array_room((void **)&log->calls, &log->cap_calls, log->n_calls, sizeof *log->calls)) {
        log->lost++;
        return -1;
    }
    hb_logged_call *c = &log->calls[log->n_calls++];
    *c = *call;
    c->first_api = log->n_api;
    c->n_api = 0;
    c->window_end_ns = 0;
    c->open = 1;
    c->event_us = NAN;
    return 0;
}

hb_logged_call *hb_call_log_current(hb_call_log *log)
{
    if (log->n_calls == 0 || !log->calls[log->n_calls - 1].open)
        return NULL;
    return &log->calls[log->n_calls - 1];
}

void hb_call_log_close(hb_call_log *log, uint64_t end_ns)
{
    hb_logged_call *c = hb_call_log_current(log);
    if (!c)
        return;
    c->window_end_ns = end_ns;
    c->open = 0;
}

long hb_call_log_api(hb_call_log *log, const hb_traced_api *api)
{
    hb_logged_call *c = hb_call_log_current(log);
    if (!c)
        return -1;
    if (!hb_array_room((void **)&log->api, &log->cap_api, log->n_api, sizeof *log->api)) {
        log->lost++;
        return -1;
    }
    log->api[log->n_api] = *api;
    c->n_api++;
    return (long)log->n_api++;
}

void hb_call_log_timed(hb_call_log *log, double event_us)
{
    if (log->n_calls > 0 && !log->calls[log->n_calls - 1].open)
        log->calls[log->n_calls - 1].event_us = event_us;
}

void hb_call_log_mark(hb_call_log *log, uint32_t correlation_id, int stop)
{
    if (!hb_call_log_current(log))
        return;
    if (!hb_array_room((void **)&log->marks, &log->cap_marks, log->n_marks, sizeof *log->marks)) {
        log->lost++;
        return;
    }
    log->marks[log->n_marks++] = (hb_event_mark){correlation_id, log->n_calls - 1, stop};
}

void hb_call_log_clear(hb_call_log *log)
{
    log->n_calls = log->n_api = log->n_marks = 0;
    log->lost = 0;
}

void hb_call_log_free(hb_call_log *log)
{
    free(log->calls);
    free(log->api);
    free(log->marks);
    memset(log, 0, sizeof *log);
}
