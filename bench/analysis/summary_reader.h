/* summary.csv read back (docs/results.md): its rows joined into the result
 * set, configuration by configuration.  Columns are found by name in the
 * header, so a file with columns appended later reads the same; the few the
 * tables need must be there (another tool's CSV lacks them: bad results). */
#ifndef HB_SUMMARY_READER_H
#define HB_SUMMARY_READER_H

#include "bench/analysis/result_set.h"

/* Adds the configurations of the summary.csv at `path` to `set`.
 * HB_ERR_BAD_RESULTS, naming file, line and column, for a file that is not
 * one, or is cut short, or holds a configuration twice or one that `set`
 * already has from another file. */
hb_status hb_read_summary(const char *path, hb_result_set *set);

/* The same over `length` bytes of it already read (a sweep's summary.csv up
 * to what its journal vouches for: bench/sweep/sweep_files.h). */
hb_status hb_read_summary_text(const char *path, const char *text, size_t length, hb_result_set *set);

/* For tests: the columns read, and how many there are. */
const char *const *hb_summary_reader_columns(size_t *count);

#endif
