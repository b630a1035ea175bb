/* summary.csv: one row per configuration and participant (docs/results.md),
 * a column per entry of bench/report/summary_columns.h.
 * RFC 4180 quoting; text cells guarded against formulas (bench/core/csv_text.h);
 * empty fields where a figure does not apply. */
#ifndef HB_CSV_WRITER_H
#define HB_CSV_WRITER_H

#include <stdio.h>

#include "bench/report/sink.h"
#include "bench/result/config_result.h"

void hb_csv_write_header(FILE *out);
/* Writes the rows of one configuration; returns HB_ERR_IO if the stream failed. */
hb_status hb_csv_write_config(FILE *out, const char *run_id, const char *acc_class, const hb_config_result *result);
/* Writes `text` as one CSV text field: after a single quote when it starts
 * like a formula (bench/core/csv_text.h), quoted when it holds a comma,
 * quote or newline.  Not for numbers: they are written as they are. */
void hb_csv_write_field(FILE *out, const char *text);

/* A sink that writes <run folder>/summary.csv: the header when the run
 * begins, each configuration's rows (flushed) as it finishes. */
hb_sink hb_summary_csv_sink(void);

#endif
