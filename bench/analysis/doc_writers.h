/* The report's formats (bench/analysis/report_doc.h): markdown for people,
 * CSV and JSON for programs.  Each writes the same tables; each returns
 * HB_ERR_IO when the stream fails.  Markdown writes every text (title,
 * notes, captions, cells) as plain text (bench/core/md_text.h); CSV guards
 * its text cells against formulas (bench/core/csv_text.h); JSON holds the
 * texts as they are. */
#ifndef HB_DOC_WRITERS_H
#define HB_DOC_WRITERS_H

#include <stdio.h>

#include "bench/analysis/report_doc.h"

typedef enum hb_report_format { HB_FORMAT_MD, HB_FORMAT_CSV, HB_FORMAT_JSON } hb_report_format;

/* "md", "csv", "json": 1 if `text` names one. */
int hb_report_format_parse(const char *text, hb_report_format *out);

/* Title, notes, then every table that is not a detail table, each with its
 * title and caption; the detail tables are named at the end. */
hb_status hb_doc_write_markdown(FILE *out, const hb_doc *doc);
/* One table: its header line and rows, RFC 4180; text cells guarded, numbers as they are. */
hb_status hb_doc_write_table_csv(FILE *out, const hb_doc_table *table);
/* Every table, each after '#' lines with its title and caption, a blank line between. */
hb_status hb_doc_write_csv(FILE *out, const hb_doc *doc);
/* {"format": "hgemm-bench-report/1", "title", "notes", "tables": [{"name", "title", "caption",
 * "columns", "rows"}]}: numbers in full, empty cells null. */
hb_status hb_doc_write_json(FILE *out, const hb_doc *doc);

/* In the format asked. */
hb_status hb_doc_write(FILE *out, const hb_doc *doc, hb_report_format format);

#endif
