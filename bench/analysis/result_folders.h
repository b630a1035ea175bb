/* The result folders `report` and `compare` read: a run's folder
 * (results/<run-id>/: summary.csv, env.json, verdict.json) or a sweep's
 * (summary.csv, env.json, plan.json, ...).  Their configurations are joined
 * into one result set; each folder's GPU comes from its env.json (a folder
 * without one gets a note); a sweep's plan adds the configurations it
 * expects and no folder holds, as not run. */
#ifndef HB_RESULT_FOLDERS_H
#define HB_RESULT_FOLDERS_H

#include <stddef.h>

#include "bench/analysis/result_set.h"

/* Reads `folders` into `set` (initialized by the caller) and sorts it.
 * HB_ERR_BAD_RESULTS, naming the folder or file, for a path that is not a
 * folder, a folder with neither summary.csv nor plan.json, a malformed file,
 * or a configuration in two folders. */
hb_status hb_read_result_folders(const char *const *folders, size_t count, hb_result_set *set);

#endif
