/* `hgemm-bench merge OUT DIR...` (docs/sweeps.md, "Clusters"): the shard
 * folders of one sweep joined into one sweep folder, as if one machine had
 * run the whole plan.
 *
 * The folders must hold one sweep: the same sweep_id, which covers the
 * plan, the settings and the harness commit (exit 11 naming the folder that
 * differs).  Each item's rows are copied from the shard that finished it:
 * the journal says where they lie in its summary.csv (between the previous
 * line's csv_end and its own).  An item finished in two folders is kept
 * once (the first folder given) and reported; items no folder finished are
 * listed.  The GPU model and driver of every folder are reported, and a mix
 * is said out loud: the rows record each one's GPU too.
 *
 * OUT is written as OUT.partial and renamed when complete: a failure leaves
 * no folder that looks like a finished merge. */
#ifndef HB_MERGE_H
#define HB_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "bench/core/status.h"

hb_status hb_sweep_merge(const char *out, const char *const *folders, size_t count, FILE *report);

#endif
