/* A report as data: a title, notes, and tables of cells, before any format.
 * The tables are built once (bench/analysis/paper_tables.c, comparison.c)
 * and written in each format by its own writer (doc_markdown.c, doc_csv.c,
 * doc_json.c), so markdown, CSV and JSON always hold the same numbers.
 *
 * A column's format says how a number is shown in text (markdown and CSV);
 * JSON gets the number itself.  A "detail" table (one row per
 * configuration) is left out of markdown, where a thousand rows would bury
 * the summaries, and written as CSV and JSON. */
#ifndef HB_REPORT_DOC_H
#define HB_REPORT_DOC_H

#include <stddef.h>

#include "bench/core/diag.h"
#include "bench/core/status.h"

typedef enum hb_doc_format {
    HB_DOC_TEXT,
    HB_DOC_COUNT,      /* a whole number */
    HB_DOC_RATIO,      /* t_b / t_c: 3 decimals, as the published files */
    HB_DOC_SPEEDUP,    /* a speedup (ratio - 1) shown in percent, signed: "+12.34" */
    HB_DOC_PERCENT,    /* a share (a fraction) shown in percent: "45.0" */
    HB_DOC_COEFFICIENT /* a correlation: 3 decimals */
} hb_doc_format;

#define HB_DOC_MAX_COLUMNS 40

typedef struct hb_doc_cell {
    double number;     /* NaN with text NULL: empty */
    char *text;        /* owned; non-NULL: a text cell */
} hb_doc_cell;

typedef struct hb_doc_table {
    char name[64];     /* file stem and JSON key: "table1" */
    char title[200];
    char *caption;     /* owned: what feeds the numbers */
    int detail;        /* 1: left out of markdown */
    size_t n_columns;
    char column[HB_DOC_MAX_COLUMNS][48];
    hb_doc_format format[HB_DOC_MAX_COLUMNS];
    size_t n_rows, cap_rows;
    hb_doc_cell *cells; /* n_rows x n_columns */
} hb_doc_table;

typedef struct hb_doc {
    char title[200];
    char **notes;      /* owned sentences shown under the title */
    size_t n_notes;
    hb_doc_table **tables;
    size_t n_tables;
} hb_doc;

void hb_doc_init(hb_doc *doc, const char *title);
void hb_doc_free(hb_doc *doc);
hb_status hb_doc_note(hb_doc *doc, const char *fmt, ...) HB_PRINTF(2, 3);

/* A new table at the end of the doc; NULL when out of memory (reported). */
hb_doc_table *hb_doc_add_table(hb_doc *doc, const char *name, const char *title, int detail);
hb_status hb_doc_caption(hb_doc_table *table, const char *fmt, ...) HB_PRINTF(2, 3);
void hb_doc_column(hb_doc_table *table, const char *name, hb_doc_format format);
/* Appends an empty row; its cells are then set by column index. */
hb_status hb_doc_add_row(hb_doc_table *table);
void hb_doc_set_number(hb_doc_table *table, size_t column, double value);
hb_status hb_doc_set_text(hb_doc_table *table, size_t column, const char *text);

const hb_doc_cell *hb_doc_cell_at(const hb_doc_table *table, size_t row, size_t column);
/* The table named `name`, or NULL. */
const hb_doc_table *hb_doc_find(const hb_doc *doc, const char *name);

/* Every number cell finite or empty: HB_ERR_INTERNAL naming the table and
 * column of one that is infinite (a bug: every number read back is
 * range-checked, so no mean, ratio or sum of them overflows).  The writers
 * check before they write. */
hb_status hb_doc_check_finite(const hb_doc *doc);

/* A number as the column's format shows it in text ("" for NaN). */
void hb_doc_format_number(hb_doc_format format, double value, char *out, size_t size);

#endif
