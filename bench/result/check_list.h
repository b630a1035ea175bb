/* The outcomes of one configuration's checks, in the order they ran: what
 * the headline (bench/result/headline.h) assembles the verdict from.  The
 * first outcome that failed decides the verdict; none after it changes it.
 * Plain data. */
#ifndef HB_CHECK_LIST_H
#define HB_CHECK_LIST_H

#include <stddef.h>

#include "bench/core/diag.h"

/* Room for every check one configuration runs, several times over: the
 * evaluation records a handful (its ending, the timers' cross-check, ...). */
#define HB_CHECK_LIST_MAX 32

typedef struct hb_check_outcome {
    char check[24];   /* its name (bench/result/verdict.h); "" for an error no check names (the harness's) */
    hb_status status; /* HB_OK: passed; else the status its failure ends the configuration with */
    char reason[512]; /* one line: what failed and the figures; "" or a note when it passed */
} hb_check_outcome;

typedef struct hb_check_list {
    size_t count;
    hb_check_outcome outcomes[HB_CHECK_LIST_MAX];
} hb_check_list;

/* Appends an outcome and returns its status, so a check can end with
 * `return hb_check_list_add(...)`.  A full list keeps its first failure: a
 * passed outcome is dropped, and a failure takes the last place only while
 * the list holds none. */
hb_status hb_check_list_add(hb_check_list *list, const char *check, hb_status status, const char *fmt, ...)
    HB_PRINTF(4, 5);

/* The first outcome that failed; NULL when every one passed (or none ran). */
const hb_check_outcome *hb_check_list_failure(const hb_check_list *list);

/* How an evaluation ended, as one outcome: the check it failed and its
 * reason where one is named (`check` not ""); otherwise a candidate fault is
 * the check `execution` and any other status the harness's error, each with
 * `last_error` (bench/core/diag.h, hb_last_error) as its reason.  HB_OK adds
 * nothing. */
void hb_check_list_add_ending(hb_check_list *list, hb_status status, const char *check, const char *reason,
                              const char *last_error);

#endif
