#include "bench/measure/stop_criterion.h"

#include <math.h>

#include "bench/core/diag.h"

hb_status hb_stop_criteria_push(hb_stop_criteria *list, hb_stop_criterion c)
{
    if (list->count == HB_MAX_STOP_CRITERIA) {
        c.ops->destroy(c.state);
        return hb_fail(HB_ERR_INTERNAL, "more than %d stopping criteria for one window", HB_MAX_STOP_CRITERIA);
    }
    list->item[list->count++] = c;
    return HB_OK;
}

hb_status hb_stop_criteria_add_round(hb_stop_criteria *list, const double *event_ms, size_t count)
{
    for (size_t i = 0; i < list->count; i++)
        HB_TRY(list->item[i].ops->add_round(list->item[i].state, event_ms, count));
    return HB_OK;
}

hb_status hb_stop_criteria_poll(hb_stop_criteria *list, const hb_window_progress *now, hb_stop_decision *decision)
{
    *decision = (hb_stop_decision){.finished = 0, .by = "", .at = *now, .halfwidth = NAN};
    for (size_t i = 0; i < list->count && !decision->finished; i++)
        HB_TRY(list->item[i].ops->poll(list->item[i].state, now, decision));
    return HB_OK;
}

void hb_stop_criteria_destroy(hb_stop_criteria *list)
{
    for (size_t i = 0; i < list->count; i++)
        list->item[i].ops->destroy(list->item[i].state);
    list->count = 0;
}
