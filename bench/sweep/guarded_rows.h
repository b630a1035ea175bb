/* Rows of summary.csv copied from a folder the harness did not write
 * itself (a shard handed over for `merge`), with every text cell written
 * as this harness writes one (bench/core/csv_text.h): guarded against
 * spreadsheet formulas, quoted as RFC 4180 asks.  A shard of an older
 * harness, or one edited to hold "=HYPERLINK(...)" in a reason, then gives
 * a merged summary.csv as safe to open as one a sweep wrote.  A cell that
 * reads as a number is copied as it is, so the rows of a shard this
 * harness wrote come out byte for byte. */
#ifndef HB_GUARDED_ROWS_H
#define HB_GUARDED_ROWS_H

#include <stddef.h>
#include <stdio.h>

#include "bench/core/status.h"
#include "bench/sweep/summary_header.h"

/* Parses `length` bytes of whole rows (each ending in a line break) and
 * writes them to `out`: in their own columns when `header` is NULL or this
 * harness's, else (an earlier harness's, bench/sweep/summary_header.h) in
 * this harness's columns, each taken from the file's column holding it and
 * empty where the file has none.  HB_ERR_BAD_RESULTS naming `label` when
 * they do not parse as CSV or a row's width is not its header's; HB_ERR_IO
 * when `out` fails. */
hb_status hb_copy_rows_guarded(const char *rows, size_t length, const hb_summary_header *header, FILE *out,
                               const char *label);

#endif
