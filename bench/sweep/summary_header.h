/* summary.csv's header line as a sweep folder holds it: this harness's, or
 * an earlier harness's (docs/sweeps.md, "Folders of earlier harnesses").
 * Columns of summary.csv are only ever added (bench/report/summary_columns.h),
 * so every earlier header is this harness's with some columns missing: each
 * of its columns is one of this harness's, once, in the same order.  That
 * is what is taken for an earlier harness's header; it must also have the
 * columns every version had and every reader of a folder needs (the
 * configuration, the participant and its role, the verdict, check and
 * reason).  A header with a column this harness does not write is a newer
 * harness's or another tool's, and is refused.
 *
 * An earlier header gives, for each of this harness's columns, the file's
 * column holding it or none: `merge` writes an earlier folder's rows with
 * this harness's header through it (bench/sweep/guarded_rows.h), the columns
 * the earlier harness did not have left empty. */
#ifndef HB_SUMMARY_HEADER_H
#define HB_SUMMARY_HEADER_H

#include <stddef.h>

#include "bench/core/status.h"

typedef struct hb_summary_header {
    int ours;            /* byte for byte this harness's header line */
    size_t columns;      /* the file's */
    size_t our_columns;  /* this harness's */
    long *source_of;     /* per column of this harness's: the file's column holding it, -1: none (malloc'd) */
} hb_summary_header;

/* Reads the header line `line` (`length` bytes, its '\n' included) of the
 * summary.csv at `path` (for messages).  HB_ERR_BAD_RESULTS naming the file
 * and the column when it is neither this harness's header nor an earlier
 * one's.  Free with hb_summary_header_free, whatever it returns. */
hb_status hb_summary_header_read(const char *path, const char *line, size_t length, hb_summary_header *out);

void hb_summary_header_free(hb_summary_header *header);

/* *ours: whether `line` (`length` bytes) is byte for byte the header line
 * this harness writes.  HB_ERR_INTERNAL only when out of memory. */
hb_status hb_summary_header_is_ours(const char *line, size_t length, int *ours);

#endif
