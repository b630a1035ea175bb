#include "bench/result/check_list.h"

#include <stdarg.h>
#include <stdio.h>

#include "bench/result/verdict.h"

/* Where the next outcome goes; NULL when it is dropped (a full list). */
static hb_check_outcome *next_place(hb_check_list *list, hb_status status)
{
    if (list->count < HB_CHECK_LIST_MAX)
        return &list->outcomes[list->count++];
    if (status == HB_OK || hb_check_list_failure(list))
        return NULL;
    return &list->outcomes[HB_CHECK_LIST_MAX - 1];
}

hb_status hb_check_list_add(hb_check_list *list, const char *check, hb_status status, const char *fmt, ...)
{
    hb_check_outcome *o = next_place(list, status);
    if (!o)
        return status;
    snprintf(o->check, sizeof o->check, "%s", check);
    o->status = status;
    va_list args;
    va_start(args, fmt);
    vsnprintf(o->reason, sizeof o->reason, fmt, args);
    va_end(args);
    return status;
}

const hb_check_outcome *hb_check_list_failure(const hb_check_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        if (list->outcomes[i].status != HB_OK)
            return &list->outcomes[i];
    return NULL;
}

void hb_check_list_add_ending(hb_check_list *list, hb_status status, const char *check, const char *reason,
                              const char *last_error)
{
    if (status == HB_OK)
        return;
    if (check[0])
        hb_check_list_add(list, check, status, "%s", reason);
    else
        hb_check_list_add(list, status == HB_ERR_CANDIDATE_FAULT ? HB_CHECK_EXECUTION : "", status, "%s", last_error);
}
