#define _POSIX_C_SOURCE 200809L /* strdup */
#include "bench/analysis/report_doc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hb_doc_init(hb_doc *doc, const char *title)
{
    memset(doc, 0, sizeof *doc);
    snprintf(doc->title, sizeof doc->title, "%s", title);
}

static void free_table(hb_doc_table *t)
{
    for (size_t i = 0; i < t->n_rows * t->n_columns; i++)
        free(t->cells[i].text);
    free(t->cells);
    free(t->caption);
    free(t);
}

void hb_doc_free(hb_doc *doc)
{
    for (size_t i = 0; i < doc->n_notes; i++)
        free(doc->notes[i]);
    free(doc->notes);
    for (size_t i = 0; i < doc->n_tables; i++)
        free_table(doc->tables[i]);
    free(doc->tables);
    memset(doc, 0, sizeof *doc);
}

static char *format_text(const char *fmt, va_list args)
{
    va_list again;
    va_copy(again, args);
    int length = vsnprintf(NULL, 0, fmt, args);
    char *text = length >= 0 ? malloc((size_t)length + 1) : NULL;
    if (text)
        vsnprintf(text, (size_t)length + 1, fmt, again);
    va_end(again);
    return text;
}

hb_status hb_doc_note(hb_doc *doc, const char *fmt, ...)
{
    char **grown = realloc(doc->notes, (doc->n_notes + 1) * sizeof *grown);
    if (!grown)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory building the report");
    doc->notes = grown;
    va_list args;
    va_start(args, fmt);
    char *text = format_text(fmt, args);
    va_end(args);
    if (!text)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory building the report");
    doc->notes[doc->n_notes++] = text;
    return HB_OK;
}

hb_doc_table *hb_doc_add_table(hb_doc *doc, const char *name, const char *title, int detail)
{
    hb_doc_table **grown = realloc(doc->tables, (doc->n_tables + 1) * sizeof *grown);
    hb_doc_table *t = calloc(1, sizeof *t);
    if (grown)
        doc->tables = grown;
    if (!grown || !t) {
        free(t);
        hb_fail(HB_ERR_INTERNAL, "out of host memory building the report");
        return NULL;
    }
    snprintf(t->name, sizeof t->name, "%s", name);
    snprintf(t->title, sizeof t->title, "%s", title);
    t->detail = detail;
    doc->tables[doc->n_tables++] = t;
    return t;
}

hb_status hb_doc_caption(hb_doc_table *table, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *text = format_text(fmt, args);
    va_end(args);
    if (!text)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory building the report");
    free(table->caption);
    table->caption = text;
    return HB_OK;
}

void hb_doc_column(hb_doc_table *table, const char *name, hb_doc_format format)
{
    if (table->n_columns == HB_DOC_MAX_COLUMNS || table->n_rows > 0)
        abort(); /* a table laid out wrong in the code: every test would show it */
    snprintf(table->column[table->n_columns], sizeof table->column[0], "%s", name);
    table->format[table->n_columns++] = format;
}

hb_status hb_doc_add_row(hb_doc_table *table)
{
    if (table->n_rows == table->cap_rows) {
        size_t cap = table->cap_rows ? 2 * table->cap_rows : 16;
        hb_doc_cell *grown = realloc(table->cells, cap * table->n_columns * sizeof *grown);
        if (!grown)
            return hb_fail(HB_ERR_INTERNAL, "out of host memory building the report");
        table->cells = grown;
        table->cap_rows = cap;
    }
    hb_doc_cell *row = &table->cells[table->n_rows++ * table->n_columns];
    for (size_t c = 0; c < table->n_columns; c++)
        row[c] = (hb_doc_cell){NAN, NULL};
    return HB_OK;
}

static hb_doc_cell *last_row_cell(hb_doc_table *table, size_t column)
{
    if (table->n_rows == 0 || column >= table->n_columns)
        abort(); /* a cell set before its row, or past the columns: a bug the tests show */
    return &table->cells[(table->n_rows - 1) * table->n_columns + column];
}

void hb_doc_set_number(hb_doc_table *table, size_t column, double value)
{
    last_row_cell(table, column)->number = value;
}

hb_status hb_doc_set_text(hb_doc_table *table, size_t column, const char *text)
{
    hb_doc_cell *cell = last_row_cell(table, column);
    free(cell->text);
    cell->text = strdup(text ? text : "");
    if (!cell->text)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory building the report");
    return HB_OK;
}

const hb_doc_cell *hb_doc_cell_at(const hb_doc_table *table, size_t row, size_t column)
{
    return &table->cells[row * table->n_columns + column];
}

const hb_doc_table *hb_doc_find(const hb_doc *doc, const char *name)
{
    for (size_t i = 0; i < doc->n_tables; i++)
        if (!strcmp(doc->tables[i]->name, name))
            return doc->tables[i];
    return NULL;
}

hb_status hb_doc_check_finite(const hb_doc *doc)
{
    for (size_t i = 0; i < doc->n_tables; i++) {
        const hb_doc_table *t = doc->tables[i];
        for (size_t r = 0; r < t->n_rows; r++)
            for (size_t c = 0; c < t->n_columns; c++)
                if (isinf(hb_doc_cell_at(t, r, c)->number))
                    return hb_fail(HB_ERR_INTERNAL, "%s, row %zu, column %s: a figure that is not finite (a bug: "
                                   "every number read back is range-checked)", t->name, r + 1, t->column[c]);
    }
    return HB_OK;
}

void hb_doc_format_number(hb_doc_format format, double value, char *out, size_t size)
{
    if (isnan(value)) {
        out[0] = '\0';
        return;
    }
    switch (format) {
    case HB_DOC_COUNT: snprintf(out, size, "%.0f", value); break;
    case HB_DOC_RATIO: snprintf(out, size, "%.3f", value); break;
    case HB_DOC_SPEEDUP: snprintf(out, size, "%+.2f", 100.0 * value); break;
    case HB_DOC_PERCENT: snprintf(out, size, "%.1f", 100.0 * value); break;
    case HB_DOC_COEFFICIENT: snprintf(out, size, "%.3f", value); break;
    case HB_DOC_TEXT: snprintf(out, size, "%.9g", value); break;
    }
}
