/* What the figures' titles call a candidate (docs/reports.md, "Figures").
 * A result folder records its candidate as the --candidate path it was run
 * with (env.json "candidate"), and a path is a poor name: a set imported
 * from CUDA-L2 is "set" in a reproduction, a single manifest is
 * "manifest.json".  So the title names what the path holds, as far as it
 * can still be read here:
 *  - a set that `import cuda-l2` made (a folder with M_N_K/record.json for
 *    the configurations read): "CUDA-L2 h100_F32F16F16F32", the record's
 *    "set";
 *  - a manifest file: its "name";
 *  - otherwise the last part of the path.
 * A path recorded on another machine, or relative to another directory, is
 * looked for also beside the result folder (a reproduction's OUT/set next
 * to OUT/sweep, copied together).  Only regular files are read, each at
 * most HB_CANDIDATE_TITLE_MAX_BYTES, and nothing found is an error: the
 * title falls back to the path.  The name is a folder's text: it reaches a
 * gnuplot script only through hb_gnuplot_string (gnuplot_text.h). */
#ifndef HB_CANDIDATE_TITLE_H
#define HB_CANDIDATE_TITLE_H

#include <stddef.h>

#include "bench/analysis/result_set.h"

/* A manifest or an import record is a few KiB. */
#define HB_CANDIDATE_TITLE_MAX_BYTES ((size_t)1 << 20)

/* The title of `candidate` (a path the set keeps, set->candidates[i]). */
void hb_candidate_title(const hb_result_set *set, const char *candidate, char *out, size_t size);

/* Every candidate of the set, "; "-separated; "" when none is recorded. */
void hb_candidate_titles(const hb_result_set *set, char *out, size_t size);

#endif
