/* Nsight Compute's CSV, as `ncu --csv --page raw --metrics ...` prints it on
 * stdout, read into the profile record (bench/result/kernel_profile.h).  What it expects of the text:
 *   - ncu's own lines ("==PROF== ...", "==WARNING== ...") and the profiled
 *     program's output come first or between; only lines that start with a
 *     quote, from the header on, are the table;
 *   - the header starts with "ID" and names "Kernel Name", "Grid Size",
 *     "Block Size", the NVTX column (its name holds "Push/Pop_Range") and
 *     one column per metric;
 *   - the row after the header gives the units (its ID is empty);
 *   - then a row per profiled kernel; numbers may carry thousands
 *     separators ("214,292").
 * Pure: text in, record out, so it is tested on a fixture. */
#ifndef HB_NCU_CSV_H
#define HB_NCU_CSV_H

#include <stddef.h>

#include "bench/core/status.h"
#include "bench/result/kernel_profile.h"

/* The NVTX range the profiled process pushes around a participant's call:
 * this prefix and the participant's name ("hb-profile-candidate"). */
#define HB_PROFILE_RANGE_PREFIX "hb-profile-"

/* Appends `participant`'s kernels of `text` (`length` bytes, read from
 * `path`, named in messages) to `out`: those in its NVTX range, and those in
 * no range of the pass; a kernel in another participant's range is skipped.  A metric with no column, or whose unit is not the table's,
 * is named in out->missing and stays NaN.  HB_ERR_BAD_RESULTS, naming the
 * file, when the text holds no table or a malformed one. */
hb_status hb_ncu_csv_parse(const char *path, const char *text, size_t length, const char *participant,
                           hb_profile_record *out);

/* The participant an NVTX cell names ("582  \"<default domain>:hb-profile-torch:none:...\"" gives "torch"), into
 * `out`; 0 when the cell names no range of the pass. */
int hb_ncu_range_participant(const char *cell, char *out, size_t size);

#endif
