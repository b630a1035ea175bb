/* What a sweep folder's plan expects and no folder holds: the items of its
 * shard (bench/sweep/plan_file.h reads plan.json) with no row in the result
 * set.  The report lists them as "not run". */
#ifndef HB_PLAN_MISSING_H
#define HB_PLAN_MISSING_H

#include "bench/analysis/result_set.h"

/* Adds to `set`'s missing list every item of the plan in `folder` that
 * belongs to its shard and that `set` does not hold.  Call it once every
 * folder's summary.csv is in `set`.  HB_ERR_BAD_RESULTS, naming the file and
 * where, for a plan.json that is not a sweep's plan. */
hb_status hb_plan_list_missing(const char *folder, hb_result_set *set);

#endif
