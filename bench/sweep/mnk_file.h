/* --mnk-file FILE (docs/sweeps.md): one configuration per line, written
 * `M,N,K` or `M_N_K` (CUDA-L2's file and row names), blanks around the
 * numbers allowed, `#` to the end of a line a comment, empty lines skipped. */
#ifndef HB_MNK_FILE_H
#define HB_MNK_FILE_H

#include "bench/core/status.h"
#include "bench/sweep/sweep_plan.h"

/* Appends the file's configurations to the plan in file order.
 * HB_ERR_USAGE naming the file, line and column of the first bad entry, or
 * when the file cannot be read. */
hb_status hb_mnk_file_read(const char *path, hb_sweep_plan *plan);

/* One line's text (no newline): *found = 0 for a blank or comment line.
 * On a bad entry, *column is the 1-based column of the first bad byte. */
hb_status hb_mnk_line_parse(const char *line, hb_mnk *out, int *found, int *column);

#endif
