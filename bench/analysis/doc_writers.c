#include "bench/analysis/doc_writers.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "bench/core/md_text.h"
#include "bench/report/csv_writer.h"

int hb_report_format_parse(const char *text, hb_report_format *out)
{
    static const struct {
        const char *name;
        hb_report_format output;
    } names[] = {{"md", HB_FORMAT_MD}, {"csv", HB_FORMAT_CSV}, {"json", HB_FORMAT_JSON}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(text, names[i].name)) {
            *out = names[i].output;
            return 1;
        }
    return 0;
}

static hb_status stream_status(FILE *out)
{
    return ferror(out) ? hb_fail(HB_ERR_IO, "writing the report failed (disk full, or a closed pipe?)") : HB_OK;
}

/* A cell as text: its text, or its number in the column's format. */
static const char *cell_text(const hb_doc_table *t, size_t row, size_t column, char *buffer, size_t size)
{
    const hb_doc_cell *cell = hb_doc_cell_at(t, row, column);
    if (cell->text)
        return cell->text;
    hb_doc_format_number(t->format[column], cell->number, buffer, size);
    return buffer;
}

/* --- markdown --------------------------------------------------------------------- */

/* A cell inside a markdown table: its text as plain text (bench/core/md_text.h:
 * no line break, HTML or markup, a | escaped), or its number as the column's
 * format writes it. */
static void markdown_cell(FILE *out, const char *text)
{
    fputc(' ', out);
    hb_md_put_text(out, text);
    fputs(" |", out);
}

static void markdown_number_cell(FILE *out, const char *number)
{
    fprintf(out, " %s |", number);
}

/* Every text of a report (title, notes, captions, cells) is written as
 * plain text, whatever it holds: a folder's name, a GPU's, a reason or a
 * candidate's path sit inside the notes and cells. */
static void markdown_table(FILE *out, const hb_doc_table *t)
{
    fputs("## ", out);
    hb_md_put_text(out, t->title);
    fputs("\n\n", out);
    if (t->caption) {
        hb_md_put_text(out, t->caption);
        fputs("\n\n", out);
    }
    if (t->n_rows == 0) {
        fputs("(none)\n\n", out);
        return;
    }
    fputc('|', out);
    for (size_t c = 0; c < t->n_columns; c++)
        markdown_cell(out, t->column[c]);
    fputs("\n|", out);
    for (size_t c = 0; c < t->n_columns; c++)
        fputs(t->format[c] == HB_DOC_TEXT ? " --- |" : " ---: |", out);
    fputc('\n', out);
    char buffer[64];
    for (size_t r = 0; r < t->n_rows; r++) {
        fputc('|', out);
        for (size_t c = 0; c < t->n_columns; c++) {
            const hb_doc_cell *cell = hb_doc_cell_at(t, r, c);
            if (cell->text)
                markdown_cell(out, cell->text);
            else
                markdown_number_cell(out, cell_text(t, r, c, buffer, sizeof buffer));
        }
        fputc('\n', out);
    }
    fputc('\n', out);
}

hb_status hb_doc_write_markdown(FILE *out, const hb_doc *doc)
{
    fputs("# ", out);
    hb_md_put_text(out, doc->title);
    fputs("\n\n", out);
    for (size_t i = 0; i < doc->n_notes; i++) {
        fputs("- ", out);
        hb_md_put_text(out, doc->notes[i]);
        fputc('\n', out);
    }
    if (doc->n_notes)
        fputc('\n', out);
    int details = 0;
    for (size_t i = 0; i < doc->n_tables; i++) {
        if (doc->tables[i]->detail)
            details++;
        else
            markdown_table(out, doc->tables[i]);
    }
    if (details) {
        fputs("Per-configuration tables, in CSV and JSON only (--format csv|json, or NAME.csv with --out):", out);
        for (size_t i = 0; i < doc->n_tables; i++)
            if (doc->tables[i]->detail) {
                fputc(' ', out);
                hb_md_put_text(out, doc->tables[i]->name);
                fprintf(out, " (%zu rows)%s", doc->tables[i]->n_rows, --details ? "," : ".\n");
            }
    }
    return stream_status(out);
}

/* --- CSV ---------------------------------------------------------------------------- */

/* A text cell guarded against formulas (bench/core/csv_text.h); a number as
 * its column's format writes it ("-0.25" stays a number to a spreadsheet). */
hb_status hb_doc_write_table_csv(FILE *out, const hb_doc_table *t)
{
    for (size_t c = 0; c < t->n_columns; c++) {
        if (c)
            fputc(',', out);
        hb_csv_write_field(out, t->column[c]);
    }
    fputc('\n', out);
    char buffer[64];
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; c < t->n_columns; c++) {
            if (c)
                fputc(',', out);
            const hb_doc_cell *cell = hb_doc_cell_at(t, r, c);
            if (cell->text)
                hb_csv_write_field(out, cell->text);
            else
                fputs(cell_text(t, r, c, buffer, sizeof buffer), out);
        }
        fputc('\n', out);
    }
    return stream_status(out);
}

/* A '#' comment line: line breaks inside become spaces. */
static void comment_line(FILE *out, const char *text)
{
    fputs("# ", out);
    for (const char *c = text; *c; c++)
        fputc(*c == '\n' || *c == '\r' ? ' ' : *c, out);
    fputc('\n', out);
}

hb_status hb_doc_write_csv(FILE *out, const hb_doc *doc)
{
    for (size_t i = 0; i < doc->n_tables; i++) {
        const hb_doc_table *t = doc->tables[i];
        if (i)
            fputc('\n', out);
        comment_line(out, t->title);
        if (t->caption)
            comment_line(out, t->caption);
        HB_TRY(hb_doc_write_table_csv(out, t));
    }
    return stream_status(out);
}

/* --- JSON ----------------------------------------------------------------------------- */

/* A cell as JSON: as its column's name says.  A `_pct` column (a speedup
 * or a share) holds percent, as in markdown and CSV but in full precision;
 * a count is an integer. */
static json_t *json_cell(const hb_doc_cell *cell, hb_doc_format format)
{
    if (cell->text)
        return json_string(cell->text);
    if (isnan(cell->number) || isinf(cell->number))
        return json_null();
    if (format == HB_DOC_COUNT)
        return json_integer((json_int_t)llround(cell->number));
    if (format == HB_DOC_SPEEDUP || format == HB_DOC_PERCENT)
        return json_real(cell->number * 100.0);
    return json_real(cell->number);
}

static json_t *json_table(const hb_doc_table *t)
{
    json_t *columns = json_array(), *rows = json_array();
    for (size_t c = 0; c < t->n_columns; c++)
        json_array_append_new(columns, json_string(t->column[c]));
    for (size_t r = 0; r < t->n_rows; r++) {
        json_t *row = json_array();
        for (size_t c = 0; c < t->n_columns; c++)
            json_array_append_new(row, json_cell(hb_doc_cell_at(t, r, c), t->format[c]));
        json_array_append_new(rows, row);
    }
    return json_pack("{s:s, s:s, s:s?, s:b, s:o, s:o}", "name", t->name, "title", t->title, "caption", t->caption,
                     "detail", t->detail, "columns", columns, "rows", rows);
}

static json_t *json_doc(const hb_doc *doc)
{
    json_t *notes = json_array(), *tables = json_array();
    for (size_t i = 0; i < doc->n_notes; i++)
        json_array_append_new(notes, json_string(doc->notes[i]));
    for (size_t i = 0; i < doc->n_tables; i++)
        json_array_append_new(tables, json_table(doc->tables[i]));
    return json_pack("{s:s, s:s, s:o, s:o}", "format", "hgemm-bench-report/2", "title", doc->title, "notes", notes,
                     "tables", tables);
}

hb_status hb_doc_write_json(FILE *out, const hb_doc *doc)
{
    json_t *root = json_doc(doc);
    if (!root)
        return hb_fail(HB_ERR_INTERNAL, "out of host memory building the report's JSON");
    int failed = json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(root);
    fputc('\n', out);
    if (failed)
        return hb_fail(HB_ERR_IO, "writing the report's JSON failed");
    return stream_status(out);
}

hb_status hb_doc_write(FILE *out, const hb_doc *doc, hb_report_format format)
{
    HB_TRY(hb_doc_check_finite(doc));
    switch (format) {
    case HB_FORMAT_CSV: return hb_doc_write_csv(out, doc);
    case HB_FORMAT_JSON: return hb_doc_write_json(out, doc);
    case HB_FORMAT_MD: break;
    }
    return hb_doc_write_markdown(out, doc);
}
