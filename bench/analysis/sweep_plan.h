/* What a sweep folder's plan.json expects (format hgemm-bench-sweep-plan,
 * version 1): its items, (M, N, K, mode) each, and the shard this folder
 * runs (item i belongs to shard I of N when i mod N = I).  The report lists
 * the expected configurations no folder holds as "not run". */
#ifndef HB_SWEEP_PLAN_H
#define HB_SWEEP_PLAN_H

#include "bench/analysis/result_set.h"

/* Adds to `set`'s missing list every item of the plan at `path` that
 * belongs to its shard and that `set` does not hold.  Call it once every
 * folder's summary.csv is in `set`.  HB_ERR_BAD_RESULTS, naming the file and
 * where, for a file that is not such a plan. */
hb_status hb_plan_list_missing(const char *path, hb_result_set *set);

#endif
