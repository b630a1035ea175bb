/* verdict.json of a sweep folder ("hgemm-bench-sweep-verdict/1",
 * docs/sweeps.md): the outcome of every item of the folder's shard so far,
 * over all its sessions: counts per verdict, the items that failed (with
 * check and reason), those not run yet, and the exit status.
 *
 * Built from the store's entries, which are what summary.csv says: those
 * read back from the folder (earlier sessions', or the shards' of a merge)
 * were held to their candidate rows when read (bench/sweep/candidate_rows.h),
 * and this session's were filled from the very results whose rows it wrote. */
#ifndef HB_SWEEP_VERDICT_H
#define HB_SWEEP_VERDICT_H

#include "bench/core/status.h"
#include "bench/sweep/plan_file.h"
#include "bench/sweep/sweep_store.h"

#define HB_SWEEP_VERDICT_FORMAT "hgemm-bench-sweep-verdict/1"

/* The most severe status of the finished items (HB_OK when none failed). */
hb_status hb_sweep_worst_status(const hb_sweep_store *store);

/* Writes the document to `path` atomically.  `status` is the sweep's exit
 * status; `signal_number` the signal that interrupted it (0: none). */
hb_status hb_sweep_verdict_write(const char *path, const hb_plan_file *plan, const hb_sweep_store *store,
                                 hb_status status, int signal_number);

#endif
