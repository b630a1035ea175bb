#include "bench/measure/time_criterion.h"

#include <stdlib.h>

#include "bench/core/diag.h"

typedef struct time_criterion {
    double window_s;
    size_t min_rounds;
    const char *name;
} time_criterion;

static hb_status time_add_round(void *state, const double *event_ms, size_t count)
{
    (void)state, (void)event_ms, (void)count;
    return HB_OK;
}

static hb_status time_poll(void *state, const hb_window_progress *now, hb_stop_decision *decision)
{
    const time_criterion *t = state;
    if (now->elapsed_s < t->window_s || now->rounds < t->min_rounds)
        return HB_OK;
    decision->finished = 1;
    decision->by = t->name;
    decision->at = *now;
    return HB_OK;
}

static void time_destroy(void *state) { free(state); }

static const hb_stop_criterion_ops time_ops = {time_add_round, time_poll, time_destroy};

hb_status hb_time_criterion_create(double window_s, size_t min_rounds, int caps_target, hb_stop_criterion *out)
{
    time_criterion *t = malloc(sizeof *t);
    if (!t)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory for a time criterion");
    *t = (time_criterion){window_s, min_rounds, caps_target ? "time-cap" : "time"};
    *out = (hb_stop_criterion){&time_ops, t};
    return HB_OK;
}
