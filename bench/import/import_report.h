/* The import's build report: SET/import.csv, one row per selected file
 * (built, cached, failed with its first error line, skipped and why, the
 * forms it has), and the summary lines on stdout. */
#ifndef HB_IMPORT_REPORT_H
#define HB_IMPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "bench/core/status.h"
#include "bench/import/import_item.h"

#define HB_IMPORT_REPORT_FILE "import.csv"

/* Writes OUT/NAME (import.csv unless --report names another; atomically: the whole file renamed into place);
 * HB_ERR_IO naming it on failure.  The import writes it after each file
 * ends, so a kill leaves the rows of what finished ("pending" for the rest). */
hb_status hb_import_report_write(const char *out_dir, const char *name, const hb_import_item *items, size_t n);

/* "import: 50 files: 48 built (12 from the cache), 30 with a cubin form; 1 failed; 1 skipped", then a line per
 * failed or skipped file. */
void hb_import_report_print(FILE *stream, const hb_import_item *items, size_t n);

/* How many items are in `state`. */
size_t hb_import_count(const hb_import_item *items, size_t n, hb_item_state state);

#endif
